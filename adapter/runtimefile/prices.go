package runtimefile

import (
	"fmt"
	"math"
	"strings"

	"github.com/benchy-eval/benchy/adapter/provider"
	"github.com/benchy-eval/benchy/internal/suggest"
	"github.com/benchy-eval/benchy/internal/yamlnode"
)

// A provider's prices: what its models' tokens cost, so that a run can say what it cost.

// priceKeys are a model price's keys, in the order the documentation gives them.
var priceKeys = []string{"input_per_mtok", "output_per_mtok", "cached_input_per_mtok"}

// prices checks prices: {MODEL: {input_per_mtok, output_per_mtok, cached_input_per_mtok}},
// reporting every problem. Both input and output prices are required: a model priced for
// one would show a cost that leaves out the other.
func (p *parser) prices(owner string, n *yamlnode.Node, path []string) map[string]provider.Price {
	pairs, ok := p.mapping(n, path, fmt.Sprintf("%s: prices must map model names to {input_per_mtok, output_per_mtok}, US dollars per million tokens", owner))
	if !ok {
		return nil
	}
	out := make(map[string]provider.Price, len(pairs))
	for _, e := range pairs {
		if e.Key == "" {
			p.report(e.Pos(), path, fmt.Sprintf("%s: a price's model must be a non-empty name, as ai-system.model gives it", owner))
			continue
		}
		if price, ok := p.price(fmt.Sprintf("%s: the price of %q", owner, e.Key), e, append(path[:len(path):len(path)], e.Key)); ok {
			out[e.Key] = price
		}
	}
	return out
}

// price checks one model's price.
func (p *parser) price(owner string, e yamlnode.Pair, path []string) (provider.Price, bool) {
	pairs, ok := p.mapping(e.Value, path, fmt.Sprintf("%s must be a mapping with input_per_mtok and output_per_mtok (US dollars per million tokens), and optionally cached_input_per_mtok", owner))
	if !ok {
		return provider.Price{}, false
	}
	before := p.count()
	var out provider.Price
	hasIn, hasOut := false, false
	misspelt := map[string]bool{} // a missing key is not reported again when a misspelling of it was
	for _, e := range pairs {
		at := append(path[:len(path):len(path)], e.Key)
		switch e.Key {
		case "input_per_mtok":
			hasIn, out.InputPerMTok = true, p.dollars(owner, e.Key, e.Value, at)
		case "output_per_mtok":
			hasOut, out.OutputPerMTok = true, p.dollars(owner, e.Key, e.Value, at)
		case "cached_input_per_mtok":
			c := p.dollars(owner, e.Key, e.Value, at)
			out.CachedInputPerMTok = &c
		default:
			misspelt[suggest.Closest(e.Key, priceKeys)] = true
			p.unknown(e, path, priceKeys, fmt.Sprintf("%s: unknown key %q; a price has the keys %s", owner, e.Key, strings.Join(priceKeys, ", ")))
		}
	}
	for _, m := range []struct {
		has bool
		key string
	}{{hasIn, "input_per_mtok"}, {hasOut, "output_per_mtok"}} {
		if !m.has && !misspelt[m.key] && !e.Value.Partial {
			p.report(e.Pos(), path, fmt.Sprintf("%s has no %s; write both input_per_mtok and output_per_mtok (0 for free)", owner, m.key))
		}
	}
	return out, p.count() == before
}

// dollars checks a price per million tokens: a number, 0 or more, finite.
func (p *parser) dollars(owner, key string, n *yamlnode.Node, path []string) float64 {
	switch {
	case n.Kind == yamlnode.Bad:
	case n.Kind != yamlnode.Int && n.Kind != yamlnode.Float:
		p.report(n.Pos(), path, fmt.Sprintf("%s: %s must be a number: US dollars per million tokens, such as 2.5", owner, key))
	case math.IsNaN(n.Num) || math.IsInf(n.Num, 0):
		p.report(n.Pos(), path, fmt.Sprintf("%s: %s must be a finite number of US dollars per million tokens", owner, key))
	case n.Num < 0:
		p.report(n.Pos(), path, fmt.Sprintf("%s: %s must be 0 or more; found %s", owner, key, n.Text))
	default:
		return n.Num
	}
	return 0
}
