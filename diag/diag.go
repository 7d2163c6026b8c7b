package diag

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Phases of the compilation pipeline that produce diagnostics.
const (
	PhaseParse    = "parse"
	PhaseValidate = "validate"
)

// Diagnostic is one problem, located in the source. Line and Column are 1-based; Column counts
// Unicode code points. Path holds the keys from the document root to the problem ([] for the
// root itself).
type Diagnostic struct {
	Phase      string   `json:"phase"`
	Code       Code     `json:"code"`
	Path       []string `json:"path"`
	Message    string   `json:"message"`
	Line       int      `json:"line"`
	Column     int      `json:"column"`
	Suggestion string   `json:"suggestion,omitempty"`
}

// String renders d as "LINE:COL: CODE: message (did you mean X?)".
func (d Diagnostic) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d:%d: %s: %s", d.Line, d.Column, d.Code, d.Message)
	if d.Suggestion != "" {
		fmt.Fprintf(&b, " (did you mean %s?)", d.Suggestion)
	}
	return b.String()
}

// List is a set of diagnostics. The zero value is an empty list.
type List []Diagnostic

// Sort orders the list by position, then code, then path, and drops exact duplicates, so the
// same input always reports the same list in the same order.
func (l List) Sort() List {
	slices.SortStableFunc(l, compare)
	return slices.CompactFunc(l, func(a, b Diagnostic) bool { return compare(a, b) == 0 && a.Message == b.Message })
}

func compare(a, b Diagnostic) int {
	return cmp.Or(
		cmp.Compare(a.Line, b.Line),
		cmp.Compare(a.Column, b.Column),
		cmp.Compare(a.Code, b.Code),
		slices.Compare(a.Path, b.Path),
		cmp.Compare(a.Message, b.Message),
	)
}

// Has reports whether the list holds a diagnostic with code c.
func (l List) Has(c Code) bool {
	return slices.ContainsFunc(l, func(d Diagnostic) bool { return d.Code == c })
}

// Format renders the list as one line per diagnostic, each prefixed with name and a colon
// when name is not empty.
func (l List) Format(name string) string {
	var b strings.Builder
	for _, d := range l {
		if name != "" {
			b.WriteString(name)
			b.WriteByte(':')
		}
		b.WriteString(d.String())
		b.WriteByte('\n')
	}
	return b.String()
}

// Error makes a non-empty list usable as an error: its diagnostics, one per line.
func (l List) Error() string {
	return strings.TrimSuffix(l.Format(""), "\n")
}

// JSON renders the list as an indented JSON array ([] when empty) with a final newline,
// without HTML escaping, so messages read as written ("weights must be >= 0").
func (l List) JSON() []byte {
	if l == nil {
		l = List{}
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	enc.Encode(l) // a List of plain strings and ints always encodes
	return []byte(b.String())
}
