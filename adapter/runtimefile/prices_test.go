package runtimefile

import (
	"reflect"
	"testing"

	"github.com/benchy-eval/benchy/adapter/provider"
)

const pricesHead = "providers:\n  a:\n    kind: openai\n    prices:\n"

// TestParsePrices: prices map each model to its US dollars per million tokens; a whole
// number is a price, 0 is free, the cached price is optional (nil: the input price), and a
// provider without prices has none.
func TestParsePrices(t *testing.T) {
	quarter := 0.25
	for _, c := range []struct {
		name, src string
		want      map[string]provider.Price
	}{
		{"none", "", nil},
		{"empty", "{}", map[string]provider.Price{}},
		{"one model", "\n      gpt-4o: {input_per_mtok: 2.5, output_per_mtok: 10}", map[string]provider.Price{"gpt-4o": {InputPerMTok: 2.5, OutputPerMTok: 10}}},
		{"cached and free", "\n      m1:\n        input_per_mtok: 1\n        output_per_mtok: 0\n        cached_input_per_mtok: 0.25\n      \"m 2\": {output_per_mtok: 3e-1, input_per_mtok: 0}",
			map[string]provider.Price{"m1": {InputPerMTok: 1, CachedInputPerMTok: &quarter}, "m 2": {OutputPerMTok: 0.3}}},
	} {
		src := "providers:\n  a:\n    kind: openai\n"
		if c.src != "" {
			src += "    prices: " + c.src + "\n"
		}
		f := parseOK(t, src)
		if got := f.Providers[0].Prices; !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: prices %+v, want %+v", c.name, got, c.want)
		}
	}
}

// TestParsePricesErrors: an unknown key (with the nearest), a missing price, a negative,
// infinite or non-numeric one, a price that is not a mapping: each refused where it is.
func TestParsePricesErrors(t *testing.T) {
	checkRefusals(t, []refusal{
		{"unknown key", pricesHead + "      m: {input_per_mtok: 1, output_per_mtok: 2, cache_input_per_mtok: 1}\n",
			[]string{`provider "a": the price of "m": unknown key "cache_input_per_mtok"; a price has the keys input_per_mtok, output_per_mtok, cached_input_per_mtok`}, 5, "cached_input_per_mtok"},
		{"a misspelt key is not also a missing one", pricesHead + "      m:\n        input_per_mtok: 1\n        ouput_per_mtok: 2\n",
			[]string{`unknown key "ouput_per_mtok"`}, 7, "output_per_mtok"},
		{"no output price", pricesHead + "      m: {input_per_mtok: 1}\n", []string{`provider "a": the price of "m" has no output_per_mtok; write both`}, 5, ""},
		{"an empty price", pricesHead + "      m:\n", []string{`has no input_per_mtok`, `has no output_per_mtok`}, 5, ""},
		{"negative", pricesHead + "      m:\n        input_per_mtok: -0.5\n        output_per_mtok: 2\n",
			[]string{`provider "a": the price of "m": input_per_mtok must be 0 or more; found -0.5`}, 6, ""},
		{"a quoted number", pricesHead + "      m: {input_per_mtok: '2.5', output_per_mtok: 2}\n", []string{`input_per_mtok must be a number: US dollars per million tokens`}, 5, ""},
		{"a dollar sign", pricesHead + "      m: {input_per_mtok: $2.5, output_per_mtok: 2}\n", []string{`input_per_mtok must be a number`}, 5, ""},
		{"a boolean", pricesHead + "      m: {input_per_mtok: 1, output_per_mtok: true}\n", []string{`output_per_mtok must be a number`}, 5, ""},
		{"infinite", pricesHead + "      m: {input_per_mtok: .inf, output_per_mtok: 2}\n", []string{`input_per_mtok must be a finite number`}, 5, ""},
		{"negative cached", pricesHead + "      m: {input_per_mtok: 1, output_per_mtok: 2, cached_input_per_mtok: -1}\n", []string{`cached_input_per_mtok must be 0 or more`}, 5, ""},
		{"a price that is a number", pricesHead + "      m: 2.5\n", []string{`provider "a": the price of "m" must be a mapping with input_per_mtok and output_per_mtok`}, 5, ""},
		{"prices as a list", pricesHead + "      - m\n", []string{`provider "a": prices must map model names`}, 5, ""},
		{"prices misspelt", "providers:\n  a:\n    kind: openai\n    price: {}\n", []string{`unknown key "price"`}, 4, "prices"},
		{"every problem is reported", pricesHead + "      m: {input_per_mtok: -1, output_per_mtok: x}\n      n: {input_per_mtok: 1}\n",
			[]string{`input_per_mtok must be 0 or more`, `output_per_mtok must be a number`, `"n" has no output_per_mtok`}, 5, ""},
	}, "")
	// The column is the value's, so that file:line:column points at the wrong price.
	_, ds := Parse([]byte(pricesHead + "      m: {input_per_mtok: 1, output_per_mtok: -2}\n"))
	if len(ds) != 1 || ds[0].Line != 5 || ds[0].Column != 47 {
		t.Errorf("diagnostics %v, want one at 5:47", ds)
	}
}
