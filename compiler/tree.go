package compiler

// Map is a YAML mapping as plain values, its keys in source order.
type Map struct {
	Keys   []string
	Values []any
}

// Get returns the value of key, and whether the mapping has it.
func (m *Map) Get(key string) (any, bool) {
	if m == nil {
		return nil, false
	}
	for i, k := range m.Keys {
		if k == key {
			return m.Values[i], true
		}
	}
	return nil, false
}

// Number is a YAML number as its source text (1, 5, 0.25, 1e3), so that a form showing it
// shows what the author wrote.
type Number string

// Tree parses src as Compile does and returns the document as plain values: *Map, []any,
// string, Number, bool or nil. It does not validate: any YAML that parses has a tree, even one
// that is far from a benchmark. ok is false when the text does not parse.
func Tree(src []byte) (v any, ok bool) {
	root, ds := parse(src)
	if root == nil || len(ds) > 0 {
		return nil, false
	}
	return plain(root), true
}

func plain(n *node) any {
	if n == nil {
		return nil
	}
	switch n.kind {
	case kindMap:
		m := &Map{Keys: make([]string, len(n.pairs)), Values: make([]any, len(n.pairs))}
		for i, p := range n.pairs {
			m.Keys[i], m.Values[i] = p.key, plain(p.value)
		}
		return m
	case kindSeq:
		items := make([]any, len(n.items))
		for i, it := range n.items {
			items[i] = plain(it)
		}
		return items
	case kindBool:
		return n.text == "true" || n.text == "True" || n.text == "TRUE"
	case kindInt, kindFloat:
		return Number(n.text)
	case kindString:
		return n.text
	}
	return nil
}
