package yamlnode

// Building a tree from data rather than text: the writer's callers that start from values
// (an IR written back as YAML, the web form) build the tree it writes with these. Positions
// are left zero; nothing reads them in a tree that is only written.

// Str is a string scalar.
func Str(s string) *Node { return &Node{Kind: String, Text: s} }

// Plain is a plain scalar typed as a YAML reader types it (Resolve): "5" is an Int, "0.5" a
// Float, "true" a Bool, "" and "~" Null, anything else a String.
func Plain(text string) *Node {
	k, num := Resolve(text)
	return &Node{Kind: k, Text: text, Num: num}
}

// Mapping is a mapping of pairs, in their order.
func Mapping(pairs ...Pair) *Node { return &Node{Kind: Map, Pairs: pairs} }

// Entry is a mapping entry with a string key.
func Entry(key string, value *Node) Pair { return Pair{Key: key, KeyKind: String, Value: value} }

// List is a sequence of items in flow style.
func List(items ...*Node) *Node { return &Node{Kind: Seq, Flow: true, Items: items} }
