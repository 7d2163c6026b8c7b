package report

import (
	"fmt"
	"slices"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/ir"
)

// exampleView is one failing example as the page shows it: at most MaxFields fields of
// its input and of its output, each value at most MaxValue bytes.
type exampleView struct {
	Index    int
	Status   string
	Score    string
	Inputs   []Field
	MoreIn   int // input fields not shown
	Fields   []Field
	MoreOut  string // "and N more output fields, M of them wrong", past MaxFields
	Error    *api.ResultError
	Clipped  bool
	NoInput  bool
	Usage    *api.ExampleUsage
	Artifact map[string]bool // input values that are artifact paths (text only)
}

func exampleOf(p ir.Program, res api.Result) exampleView {
	ev := exampleView{Index: res.Index, Status: res.Status, Score: "-", Error: res.Error, Clipped: res.Clipped, Usage: res.Usage,
		NoInput: len(res.Input) == 0, Artifact: map[string]bool{}}
	if res.Score != nil {
		ev.Score = fmt.Sprintf("%.4f", *res.Score)
	}
	inputs := Inputs(p.Input, res.Input)
	ev.MoreIn = max(len(inputs)-MaxFields, 0)
	ev.Inputs = clipFields(inputs[:min(len(inputs), MaxFields)])
	if res.Clipped { // a value still cut (Report.Whole): what its start holds, field by field
		fillCut(ev.Inputs, p.Input, res.Input, func(f *Field) *string { return &f.Expected })
	}
	for _, leaf := range p.Input.Leaves() {
		switch leaf.Field.Type {
		case ir.TypeImage, ir.TypeAudio, ir.TypeDocument:
			ev.Artifact[api.DimensionKey(leaf.Path)] = true
		}
	}
	ev.Fields, ev.MoreOut = shownFields(Align(p.Output, res.Expected, res.Prediction, res.FieldScores))
	ev.Fields = clipFields(ev.Fields)
	if res.Clipped {
		fillCut(ev.Fields, p.Output, res.Expected, func(f *Field) *string { return &f.Expected })
		fillCut(ev.Fields, p.Output, res.Prediction, func(f *Field) *string { return &f.Predicted })
	}
	if ev.Error != nil {
		e := *ev.Error
		e.Message = clip(e.Message)
		ev.Error = &e
	}
	return ev
}

// shownFields are the output fields an example shows: all of them, or past MaxFields
// those not right (✗, or not scored) first, then right ones, MaxFields in all, in
// declaration order; with the line that counts the rest.
func shownFields(fs []Field) ([]Field, string) {
	if len(fs) <= MaxFields {
		return fs, ""
	}
	keep := make([]int, 0, MaxFields)
	for pass := range 2 { // the fields not right, then the right ones
		for i, f := range fs {
			if len(keep) < MaxFields && (f.Mark() == "✓") == (pass == 1) {
				keep = append(keep, i)
			}
		}
	}
	slices.Sort(keep)
	wrong := 0
	for _, f := range fs {
		if f.Mark() != "✓" {
			wrong++
		}
	}
	for _, i := range keep {
		if fs[i].Mark() != "✓" {
			wrong--
		}
	}
	out := make([]Field, len(keep))
	for j, i := range keep {
		out[j] = fs[i]
	}
	more := fmt.Sprintf("and %d more output fields, all right", len(fs)-len(keep))
	if wrong > 0 {
		more = fmt.Sprintf("and %d more output fields, %d of them not right", len(fs)-len(keep), wrong)
	}
	return out, more
}

func clipFields(fs []Field) []Field {
	for i := range fs {
		fs[i].Expected, fs[i].Predicted = clip(fs[i].Expected), clip(fs[i].Predicted)
	}
	return fs
}

// clip shortens s to MaxValue bytes at a character boundary, marking the cut.
func clip(s string) string {
	if len(s) <= MaxValue {
		return s
	}
	start := cutStart(s)
	return start + "… (" + fmt.Sprint(len(s)-len(start)) + " more bytes)"
}

// cutStart is s cut at MaxValue bytes at a character boundary, unmarked.
func cutStart(s string) string {
	if len(s) <= MaxValue {
		return s
	}
	cut := MaxValue
	for cut > 0 && !utf8Start(s[cut]) {
		cut--
	}
	return s[:cut]
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }
