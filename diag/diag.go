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
// root itself). File names the file Line and Column point into, when the one who found the
// problem knows it (the engine knows the dataset's name, the compiler only bytes); List.In
// names it afterwards.
type Diagnostic struct {
	File       string   `json:"file,omitempty"`
	Phase      string   `json:"phase"`
	Code       Code     `json:"code"`
	Path       []string `json:"path"`
	Message    string   `json:"message"`
	Line       int      `json:"line"`
	Column     int      `json:"column"`
	Suggestion string   `json:"suggestion,omitempty"`
}

// String renders d as "FILE:LINE:COL: CODE: message (did you mean X?)", always on one line
// (line breaks inside the message or suggestion are written as \n); without a File it starts
// at LINE.
func (d Diagnostic) String() string {
	var b strings.Builder
	if d.File != "" {
		b.WriteString(oneLine.Replace(d.File))
		b.WriteByte(':')
	}
	fmt.Fprintf(&b, "%d:%d: %s: %s", d.Line, d.Column, d.Code, oneLine.Replace(d.Message))
	if d.Suggestion != "" {
		fmt.Fprintf(&b, " (did you mean %s?)", oneLine.Replace(d.Suggestion))
	}
	return b.String()
}

var oneLine = strings.NewReplacer("\r\n", `\n`, "\n", `\n`, "\r", `\r`)

// List is a set of diagnostics. The zero value is an empty list.
type List []Diagnostic

// Sort orders the list by file and position, keeping the order in which problems at the same place
// were found (the document order: missing weights come in declaration order), and drops
// exact duplicates. The same input always gives the same list in the same order.
func (l List) Sort() List {
	slices.SortStableFunc(l, func(a, b Diagnostic) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column))
	})
	out := l[:0]
	place := 0               // where in out the diagnostics of d's place start
	var seen map[string]bool // their keys, once there are many (30,000 missing weights share one place)
	for _, d := range l {
		if place < len(out) && (out[place].File != d.File || out[place].Line != d.Line || out[place].Column != d.Column) {
			place, seen = len(out), nil
		}
		var dup bool
		if here := out[place:]; len(here) < 16 {
			dup = slices.ContainsFunc(here, func(e Diagnostic) bool { return same(e, d) })
		} else {
			if seen == nil {
				seen = make(map[string]bool, len(here))
				for _, e := range here {
					seen[e.key()] = true
				}
			}
			dup = seen[d.key()]
		}
		if !dup {
			out = append(out, d)
			if seen != nil {
				seen[d.key()] = true
			}
		}
	}
	return out
}

// key identifies a diagnostic at its place, as same compares them.
func (d Diagnostic) key() string {
	return fmt.Sprintf("%q %q %q %q %q %q", d.File, d.Phase, d.Code, d.Path, d.Message, d.Suggestion)
}

func same(a, b Diagnostic) bool {
	return a.File == b.File && a.Phase == b.Phase && a.Code == b.Code && slices.Equal(a.Path, b.Path) &&
		a.Message == b.Message && a.Suggestion == b.Suggestion
}

// Has reports whether the list holds a diagnostic with code c.
func (l List) Has(c Code) bool {
	return slices.ContainsFunc(l, func(d Diagnostic) bool { return d.Code == c })
}

// In returns a copy of the list in which every diagnostic without a File has file.
func (l List) In(file string) List {
	if l == nil {
		return nil
	}
	out := slices.Clone(l)
	for i := range out {
		if out[i].File == "" {
			out[i].File = file
		}
	}
	return out
}

// Format renders the list as one line per diagnostic, each prefixed with its File, or with
// name when it has none and name is not empty.
func (l List) Format(name string) string {
	var b strings.Builder
	for _, d := range l {
		if d.File == "" {
			d.File = name
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

// Err returns the list as an error, or nil when it is empty (never a non-nil error holding
// an empty list). errors.As(err, &list) gets it back.
func (l List) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
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
