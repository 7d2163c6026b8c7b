package editor

import "time"

// history is the editor's undo and redo: snapshots of the whole text, one per step. The
// form rewrites the text from its document and a template or a file replaces it, so the
// browser's own undo of the textarea cannot follow; a snapshot can, whatever made the change.
//
// Edits of one kind that follow each other within coalesce of the last one are one step:
// typing a line in the YAML, or "12" into one weight of the form. Any other change (a click,
// another control, a file opened, a suggestion applied) starts a new step. An edit after an
// undo drops what could have been redone. The oldest steps go when there are more than
// maxSteps or their texts together pass maxBytes, so that a huge file cannot eat the
// browser's memory; the current step always stays.
//
// Each step also knows the file its text belongs to. Opening a file, New and a template
// are steps too, so that edits discarded by mistake come back; undoing one brings back the
// file with the text, so that Save writes them where they came from, not over the file
// opened since.
type history struct {
	steps []step // steps[cur] is the text shown
	cur   int
	bytes int  // the total length of the steps' texts (a file's saved text, one per open, is not counted)
	open  bool // the current step may take the next edit of its kind: not after undo or redo
	fresh bool // the next step starts a new file (startFile)
}

// step is one state of the text that undo or redo can go back to.
type step struct {
	text string
	kind string    // what made it: "yaml" for typing, "form:<control>", "" for one-offs
	at   time.Time // its last edit
	// file is shared by the steps from one open (or New) to the next: a save, or a save
	// under another name, changes it for all of them (record, refresh).
	file *file
}

// file is the workspace file a text belongs to, as the editor knows it: its path ("" for
// a draft of none), its text as last opened or saved, and the version a save names.
type file struct {
	path, saved, etag, etagPath string
}

const (
	coalesce = time.Second
	maxSteps = 200
	maxBytes = 16 << 20
)

// record makes text the current state after an edit of kind ("" never joins a step), the
// text of f. The same text as the current one is no step, unless it is another file's.
func (h *history) record(text, kind string, f file, now time.Time) {
	if len(h.steps) > 0 && !h.fresh {
		h.refresh(f)
		if h.steps[h.cur].text == text {
			return
		}
	}
	h.drop(h.cur + 1) // the redo branch: an edit after undos starts a new line of history
	if n := len(h.steps); n > 1 && h.open && kind != "" && !h.fresh {
		if last := &h.steps[n-1]; last.kind == kind && now.Sub(last.at) <= coalesce {
			h.bytes += len(text) - len(last.text)
			last.text, last.at = text, now
			return
		}
	}
	shared := &f
	if len(h.steps) > 0 && !h.fresh {
		shared = h.steps[len(h.steps)-1].file
	}
	h.fresh = false
	h.steps = append(h.steps, step{text: text, kind: kind, at: now, file: shared})
	h.cur, h.bytes, h.open = len(h.steps)-1, h.bytes+len(text), true
	for len(h.steps) > 1 && (len(h.steps) > maxSteps || h.bytes > maxBytes) {
		h.bytes -= len(h.steps[0].text)
		h.steps[0] = step{} // let the collector have the text
		h.steps = h.steps[1:]
		h.cur--
	}
}

// drop forgets the steps from i on.
func (h *history) drop(i int) {
	for j := i; j < len(h.steps); j++ {
		h.bytes -= len(h.steps[j].text)
		h.steps[j] = step{}
	}
	if i < len(h.steps) {
		h.steps = h.steps[:i]
	}
}

// startFile says that the next step is of another file: opened, or new.
func (h *history) startFile() { h.fresh = true }

// refresh records what the editor knows now of the current step's file: a save since, or
// a save under another name.
func (h *history) refresh(f file) {
	if len(h.steps) > 0 {
		*h.steps[h.cur].file = f
	}
}

// fileOf is the file of the current step.
func (h *history) fileOf() file {
	if len(h.steps) == 0 {
		return file{}
	}
	return *h.steps[h.cur].file
}

// current is the text of the current step, "" before the first.
func (h *history) current() string {
	if len(h.steps) == 0 {
		return ""
	}
	return h.steps[h.cur].text
}

func (h *history) canUndo() bool { return h.cur > 0 }
func (h *history) canRedo() bool { return h.cur < len(h.steps)-1 }

// undo steps back and returns the text to show; ok is false when there is nothing before.
func (h *history) undo() (text string, ok bool) {
	if !h.canUndo() {
		return "", false
	}
	h.cur--
	h.open = false
	return h.steps[h.cur].text, true
}

// redo steps forward again after an undo.
func (h *history) redo() (text string, ok bool) {
	if !h.canRedo() {
		return "", false
	}
	h.cur++
	h.open = false
	return h.steps[h.cur].text, true
}
