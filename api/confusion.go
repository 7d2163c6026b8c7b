package api

import "slices"

// Confusion is an enum dimension's confusion matrix over valid examples, sparse and
// folded (FoldCells): its rows and columns are Labels, then, when the enum has more
// members than Labels, one "other" row and column for the rest; Cells lists only the
// cells that count an example, sorted by expected then predicted. An enum of 8,000
// members answered as a dense matrix was 128 MB; folded it is at most 21×21 cells.
type Confusion struct {
	Path []string `json:"path"`
	// Labels are the members drawn, in declaration order: every member of an enum of at
	// most MaxConfusionLabels, else the MaxConfusionLabels that occur most (as expected or
	// predicted; a tie goes to the member declared first). Each is at most MaxLabelBytes.
	Labels []string `json:"labels"`
	// Clipped are the indexes of the Labels cut at MaxLabelBytes, in order: such a label
	// names no member whole, so a page filters nothing by its cells.
	Clipped []int `json:"clipped,omitempty"`
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

// MaxLabelBytes bounds each label a Confusion carries. A member is bounded only by its
// benchmark file (1 MiB), and a page names a cell's two members: 20 members of 49,000
// "&" made a run's charts 1 MB and one matrix 235 MB of the results page's HTML. A
// longer member is cut at a character boundary and ends with "…" (Clipped lists it).
const MaxLabelBytes = 200

// Other tells whether m has an "other" row and column: members not among its Labels.
func (m Confusion) Other() bool { return m.Members > len(m.Labels) }

// Cut tells whether Labels[i] was cut at MaxLabelBytes (false for other).
func (m Confusion) Cut(i int) bool {
	_, found := slices.BinarySearch(m.Clipped, i)
	return found
}

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

// FoldCells is the matrix of the enum at path whose members are values (in declaration
// order), from the cells that occur as each reads them: it calls cell with the indexes
// in values of a cell's expected and predicted members and its count (a pair with an
// index out of values is left out). FoldCells calls each twice: first to count how
// often each member occurs (as expected or predicted), then, with the MaxConfusionLabels
// that occur most shown apart and the others folded into "other", to add each cell to
// its place. So it holds a count a member and (K+1)² cells, never the cells read: the
// store's map of every cell took a run of 100,000 examples over 10 enums of 4,000
// members to 319 MB. It costs time linear in the members and the cells.
func FoldCells(path, values []string, each func(cell func(exp, pred, n int)) error) (Confusion, error) {
	m := Confusion{Path: path, Labels: []string{}, Members: len(values), Cells: []ConfusionCell{}}
	member := func(i int) bool { return i >= 0 && i < len(values) }
	occurs := make([]int, len(values)) // as expected or predicted
	if err := each(func(e, p, n int) {
		if member(e) && member(p) && n > 0 {
			occurs[e] += n
			occurs[p] += n
		}
	}); err != nil {
		return m, err
	}
	order := make([]int, 0, len(values)) // the members shown, by index
	for i, n := range occurs {
		if n > 0 || len(values) <= MaxConfusionLabels {
			order = append(order, i)
		}
	}
	if len(values) > MaxConfusionLabels {
		slices.SortStableFunc(order, func(a, b int) int { return occurs[b] - occurs[a] }) // counts: no overflow
		order = order[:min(len(order), MaxConfusionLabels)]
		slices.Sort(order) // declaration order
	}
	k := len(order)
	row := make([]int, len(values)) // a member's row: its label's, else other's (k)
	for i := range row {
		row[i] = k
	}
	for j, i := range order {
		row[i] = j
		label, cut := clipLabel(values[i])
		m.Labels = append(m.Labels, label)
		if cut {
			m.Clipped = append(m.Clipped, j)
		}
	}
	sum := make([]int, (k+1)*(k+1))
	if err := each(func(e, p, n int) {
		if member(e) && member(p) && n > 0 {
			sum[row[e]*(k+1)+row[p]] += n
		}
	}); err != nil {
		return m, err
	}
	for c, n := range sum { // by expected then predicted
		if n > 0 {
			m.Cells = append(m.Cells, ConfusionCell{Expected: c / (k + 1), Predicted: c % (k + 1), Count: n})
		}
	}
	return m, nil
}

// FoldConfusion is FoldCells over counts by [expected, predicted] member (only the pairs
// that occur; a pair with a value that is no member is left out).
func FoldConfusion(path, values []string, counts map[[2]string]int) Confusion {
	at := make(map[string]int, len(values))
	for i, v := range values {
		if _, dup := at[v]; !dup {
			at[v] = i
		}
	}
	index := func(v string) int {
		if i, ok := at[v]; ok {
			return i
		}
		return -1
	}
	m, _ := FoldCells(path, values, func(cell func(exp, pred, n int)) error {
		for k, n := range counts {
			cell(index(k[0]), index(k[1]), n)
		}
		return nil
	})
	return m
}

// clipLabel is s cut to at most MaxLabelBytes at a character boundary, ending in "…",
// and whether it was cut.
func clipLabel(s string) (string, bool) {
	if len(s) <= MaxLabelBytes {
		return s, false
	}
	cut := MaxLabelBytes - len("…")
	for cut > 0 && s[cut]&0xC0 == 0x80 { // inside a character
		cut--
	}
	return s[:cut] + "…", true
}

// cellOrder sorts cells by expected, then predicted (indexes: no overflow).
func cellOrder(a, b ConfusionCell) int {
	if a.Expected != b.Expected {
		return a.Expected - b.Expected
	}
	return a.Predicted - b.Predicted
}
