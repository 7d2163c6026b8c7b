package api

import "slices"

// Confusion is an enum dimension's confusion matrix over valid examples, sparse and
// folded (FoldConfusion): its rows and columns are Labels, then, when the enum has more
// members than Labels, one "other" row and column for the rest; Cells lists only the
// cells that count an example, sorted by expected then predicted. An enum of 8,000
// members answered as a dense matrix was 128 MB; folded it is at most 21×21 cells.
type Confusion struct {
	Path []string `json:"path"`
	// Labels are the members drawn, in declaration order: every member of an enum of at
	// most MaxConfusionLabels, else the MaxConfusionLabels that occur most (as expected or
	// predicted; a tie goes to the member declared first).
	Labels []string `json:"labels"`
	// Members is how many members the enum has: Members-len(Labels) are counted as other.
	Members int             `json:"members"`
	Cells   []ConfusionCell `json:"cells"`
}

// ConfusionCell counts the valid examples expected Labels[Expected] and predicted
// Labels[Predicted]; an index of len(Labels) is "other", a member not among Labels (an
// index, not a name: any string may be a member, "other" too).
type ConfusionCell struct {
	Expected  int `json:"expected"`
	Predicted int `json:"predicted"`
	Count     int `json:"count"`
}

// MaxConfusionLabels is how many members a confusion matrix shows apart (K): a matrix of
// 21×21 cells is what a page can draw and a reader take in; past it, a class is one of
// the "other" members. ImageNet's 1,000 labels show their 20 most frequent.
const MaxConfusionLabels = 20

// Other tells whether m has an "other" row and column: members not among its Labels.
func (m Confusion) Other() bool { return m.Members > len(m.Labels) }

// Count is how many valid examples m counts expected exp and predicted pred, each a
// label's index or len(Labels) for other.
func (m Confusion) Count(exp, pred int) int {
	i, found := slices.BinarySearchFunc(m.Cells, ConfusionCell{Expected: exp, Predicted: pred}, cellOrder)
	if !found {
		return 0
	}
	return m.Cells[i].Count
}

// Total is how many valid examples m counts.
func (m Confusion) Total() int {
	n := 0
	for _, c := range m.Cells {
		n += c.Count
	}
	return n
}

// FoldConfusion is the matrix of the enum at path whose members are values (in declaration
// order), from counts by [expected, predicted] member (only the pairs that occur; a pair
// with a value that is no member is left out): the MaxConfusionLabels members that occur
// most shown apart, the others folded into "other". It costs time linear in the members
// and the pairs (and a sort of the cells), never in members squared.
func FoldConfusion(path, values []string, counts map[[2]string]int) Confusion {
	m := Confusion{Path: path, Labels: []string{}, Members: len(values), Cells: []ConfusionCell{}}
	at := make(map[string]int, len(values))
	for i, v := range values {
		at[v] = i
	}
	occurs := make([]int, len(values)) // as expected or predicted
	for k, n := range counts {
		e, ok1 := at[k[0]]
		p, ok2 := at[k[1]]
		if ok1 && ok2 && n > 0 {
			occurs[e] += n
			occurs[p] += n
		}
	}
	shown := values
	if len(values) > MaxConfusionLabels {
		order := make([]int, 0, len(values))
		for i, n := range occurs {
			if n > 0 {
				order = append(order, i)
			}
		}
		slices.SortStableFunc(order, func(a, b int) int { return occurs[b] - occurs[a] }) // counts: no overflow
		order = order[:min(len(order), MaxConfusionLabels)]
		slices.Sort(order) // declaration order
		shown = make([]string, len(order))
		for j, i := range order {
			shown[j] = values[i]
		}
	}
	m.Labels = append(m.Labels, shown...)
	index := make(map[string]int, len(shown)) // a member's row: its label's, else other's
	for j, v := range shown {
		index[v] = j
	}
	row := func(v string) int {
		if j, ok := index[v]; ok {
			return j
		}
		return len(shown)
	}
	sum := map[[2]int]int{}
	for k, n := range counts {
		_, ok1 := at[k[0]]
		_, ok2 := at[k[1]]
		if ok1 && ok2 && n > 0 {
			sum[[2]int{row(k[0]), row(k[1])}] += n
		}
	}
	for k, n := range sum {
		m.Cells = append(m.Cells, ConfusionCell{Expected: k[0], Predicted: k[1], Count: n})
	}
	slices.SortFunc(m.Cells, cellOrder)
	return m
}

// cellOrder sorts cells by expected, then predicted (indexes: no overflow).
func cellOrder(a, b ConfusionCell) int {
	if a.Expected != b.Expected {
		return a.Expected - b.Expected
	}
	return a.Predicted - b.Predicted
}
