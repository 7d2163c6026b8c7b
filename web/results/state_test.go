package results

import (
	"encoding/json"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/ir"
)

// TestURLState: every filter, the page cursor and the example go into the page's URL and
// come back from it, so that a reload or a shared link shows the same page.
func TestURLState(t *testing.T) {
	for _, s := range []state{
		{id: "01A", after: -1, example: -1},
		{id: "01A", filter: api.Filter{Status: api.InvalidOutput, Imperfect: true, Wrong: "total", Code: "wrong_type", Text: "a b&c", Sort: api.SortScore}, after: 49, example: 7},
		{id: "01A", filter: api.Filter{Field: "label", Expected: "spam", Predicted: "ham"}, after: -1, example: 0},
	} {
		u, err := url.Parse(pageURL(s.id, s.filter, s.after, s.example))
		if err != nil {
			t.Fatal(err)
		}
		if got := parseState(u.Query()); !reflect.DeepEqual(got, s) {
			t.Errorf("%s read back as %+v, want %+v", u, got, s)
		}
	}
	// What the page cannot ask for is dropped: an unknown status or sort, a cell without its field.
	got := parseState(url.Values{"run": {"x"}, "status": {"bogus"}, "sort": {"random"}, "expected": {"a"}, "after": {"-3"}, "example": {"z"}})
	if want := (state{id: "x", after: -1, example: -1}); !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

// TestLeavesInDeclarationOrder: the example view lists the schema's leaves as declared,
// nested objects by path, then what a value has beyond the schema.
func TestLeavesInDeclarationOrder(t *testing.T) {
	out := ir.Field{Type: ir.TypeObject, Fields: []ir.Field{
		{Name: "total", Type: ir.TypeFloat},
		{Name: "supplier", Type: ir.TypeObject, Fields: []ir.Field{{Name: "name", Type: ir.TypeString}, {Name: "vat", Type: ir.TypeString}}},
		{Name: "date", Type: ir.TypeDate},
	}}
	pred := decode(json.RawMessage(`{"date":"2026-01-01","zz":1,"debug":{"a":true},"total":1.50}`))
	var got []string
	for _, l := range schemaLeaves(&out, pred) {
		got = append(got, api.DimensionKey(l.path)+":"+l.typ)
	}
	want := "total:float supplier.name:string supplier.vat:string date:date debug.a: zz:"
	if strings.Join(got, " ") != want {
		t.Errorf("leaves %q, want %q", strings.Join(got, " "), want)
	}
	if v, ok := at(pred, []string{"total"}); !ok || text(v) != "1.50" {
		t.Errorf("total %v %v: numbers must show as written", v, ok)
	}
	if _, ok := at(pred, []string{"supplier", "name"}); ok {
		t.Error("a missing field is found")
	}
}

// TestCodeHelp: every registered code has a meaning shown beside it.
func TestCodeHelp(t *testing.T) {
	for c := range diag.Codes {
		if h := codeHelp(string(c), api.ExecutionError); strings.HasPrefix(h, "a code this page") {
			t.Errorf("%s: %s", c, h)
		}
	}
	if h := codeHelp("provider_error", api.ExecutionError); !strings.Contains(h, "provider") || !strings.Contains(h, "scores 0") {
		t.Errorf("provider_error: %s", h)
	}
}

// TestOrderedCells: the table's cells show an object's keys in declaration order (nested
// objects too), then keys the schema does not have, numbers and text as written.
func TestOrderedCells(t *testing.T) {
	schema := &ir.Field{Type: ir.TypeObject, Fields: []ir.Field{
		{Name: "invoice_number", Type: "string"},
		{Name: "date", Type: "date"},
		{Name: "party", Type: ir.TypeObject, Fields: []ir.Field{{Name: "name", Type: "string"}, {Name: "city", Type: "string"}}},
		{Name: "total", Type: "float"},
	}}
	for _, c := range []struct{ in, want string }{
		{`{"total": 121.0, "date": "2025-01-02", "invoice_number": "A<1>"}`, `{"invoice_number":"A<1>","date":"2025-01-02","total":121.0}`},
		{`{"zz": 1, "party": {"city": "Oslo", "name": "N"}, "aa": [1, 2]}`, `{"party":{"name":"N","city":"Oslo"},"aa":[1,2],"zz":1}`},
		{`"plain"`, `"plain"`},
		{`{"clipped`, `{"clipped`},
	} {
		if got := string(ordered(json.RawMessage(c.in), schema)); got != c.want {
			t.Errorf("ordered(%s) = %s, want %s", c.in, got, c.want)
		}
	}
}
