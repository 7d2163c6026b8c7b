package report

import (
	"encoding/json"
	"strings"

	"github.com/benchy-eval/benchy/ir"
)

// A value the store cut (store.Clip) is one JSON string: the start of the value's text
// and a marker. Report.Whole reads an example again with its values whole up to
// api.MaxDetail; past that (a prediction may be 64 MiB) the report shows, field by field,
// what the start holds, so that no field of a value that exists is an empty cell.

// clipMarker starts the marker the store ends a cut value with.
const clipMarker = "… [clipped: "

// storeCut is the text a value the store cut starts with, and whether raw is one: a
// JSON string of an object's start and the store's marker.
func storeCut(raw json.RawMessage) (string, bool) {
	var s string
	if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	i := strings.LastIndex(s, clipMarker)
	if i < 0 || !strings.HasPrefix(strings.TrimLeft(s, " \t\r\n"), "{") {
		return "", false
	}
	return s[:i], true
}

// cutMark ends the start of a value the store cut; pastCut stands for a value after it.
const (
	cutMark = "… (cut by the store)"
	pastCut = "(cut by the store before this field)"
)

// fillCut sets, when raw is a value the store cut, each of fields' side (as side picks
// it) to what raw's start holds at its path: a value it holds whole as Align shows one
// (cut at MaxValue), the value the cut falls in as its start (at most MaxValue bytes)
// and cutMark, and pastCut for a field after the cut. A field whose object the start
// holds whole without it has no value, as in a whole example.
func fillCut(fields []Field, field ir.Field, raw json.RawMessage, side func(*Field) *string) {
	start, ok := storeCut(raw)
	if !ok {
		return
	}
	values, closed := cutLeaves(field, start)
	for i := range fields {
		f := &fields[i]
		v, ok := values[pathKey(f.Path)]
		switch {
		case ok:
			*side(f) = v
		case holdsWhole(closed, f.Path):
			*side(f) = ""
		default:
			*side(f) = pastCut
		}
	}
}

// holdsWhole tells whether an object that holds path (not the whole value's, which was
// cut) was read to its end.
func holdsWhole(closed map[string]bool, path []string) bool {
	for k := 1; k < len(path); k++ {
		if closed[pathKey(path[:k])] {
			return true
		}
	}
	return false
}

// cutLeaves reads start, the start of an object's JSON text that field describes: the
// text of each leaf it holds (by key), cut at MaxValue, the one the cut falls in as its
// start and cutMark, and the keys of the objects it holds whole.
func cutLeaves(field ir.Field, start string) (map[string]string, map[string]bool) {
	values, closed := map[string]string{}, map[string]bool{}
	d := json.NewDecoder(strings.NewReader(start))
	d.UseNumber()
	var object func(f ir.Field, path []string) bool // false: start ends inside it
	object = func(f ir.Field, path []string) bool {
		if tok, err := d.Token(); err != nil || tok != json.Delim('{') {
			return false
		}
		for d.More() {
			tok, err := d.Token()
			name, isKey := tok.(string)
			if err != nil || !isKey {
				return false
			}
			p := append(path[:len(path):len(path)], name)
			child, known := childNamed(f, name)
			if known && child.Type == ir.TypeObject {
				if !object(child, p) {
					return false
				}
				continue
			}
			from := d.InputOffset()
			var v any
			err = d.Decode(&v)
			// A number that ends where start does may go on past the cut.
			if end := int(d.InputOffset()); err != nil || end >= len(start) && strings.ContainsRune("0123456789.eE+-", rune(start[len(start)-1])) {
				if known {
					values[pathKey(p)] = cutStart(strings.TrimLeft(start[from:], " \t\r\n:")) + cutMark
				}
				return false
			}
			if known {
				values[pathKey(p)] = clip(at(v, nil))
			}
		}
		if _, err := d.Token(); err != nil {
			return false
		}
		closed[pathKey(path)] = true
		return true
	}
	object(field, nil)
	return values, closed
}

// childNamed is f's field name.
func childNamed(f ir.Field, name string) (ir.Field, bool) {
	for _, c := range f.Fields {
		if c.Name == name {
			return c, true
		}
	}
	return ir.Field{}, false
}

// pathKey is a path as a map's key.
func pathKey(path []string) string { return strings.Join(path, "\x00") }
