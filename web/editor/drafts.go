package editor

import (
	"crypto/rand"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Each tab of the editor keeps its own draft in the browser, so that two tabs never write
// over each other's and a reload of one brings back its own. A tab is named by an id in its
// sessionStorage, which survives its reloads and which a new tab does not have. While a tab
// is open it says so every few seconds (its heartbeat); the draft of a tab that stopped
// saying so, closed or crashed, is an orphan, which the next tab opening its file (or the
// editor without a file) adopts, so that no edit is dropped without a word. Drafts with
// nothing unsaved go once their tab has gone, and at most maxDrafts stay.

const (
	tabKey      = "benchy-tab"    // sessionStorage: the tab's id, kept across its reloads
	draftPrefix = "benchy-draft/" // localStorage: + a tab's id, that tab's draft
	beatPrefix  = "benchy-tab/"   // localStorage: + a tab's id, when that tab was last seen open
	oldDraftKey = "benchy-draft"  // the one draft all tabs shared before each had its own

	beatEvery = 3 * time.Second
	// orphanAfter is how long a tab may stay silent before its draft counts as left; a tab
	// that said it went (the page hidden for good: closed, reloaded, navigated away) after
	// releasedAfter, long enough for a reload to claim its draft again.
	orphanAfter   = 15 * time.Second
	releasedAfter = 5 * time.Second
	maxDrafts     = 20
)

// beat is a tab's heartbeat: when it was last seen open, and by which load of its page.
type beat struct {
	At int64 `json:"at"` // Unix milliseconds
	// Instance names the page load beating, so that a duplicated tab (Chromium copies the
	// sessionStorage, the id with it) sees the id is taken; "" once that page went.
	Instance string `json:"instance,omitempty"`
}

// live reports whether the tab beating is still open at now.
func (b beat) live(now time.Time) bool {
	age := now.Sub(time.UnixMilli(b.At))
	if b.Instance == "" {
		return age < releasedAfter
	}
	return age < orphanAfter
}

// unsaved reports whether the draft holds edits its file (or its start) does not.
func (d draft) unsaved() bool { return d.YAML != d.Saved }

// kept is a draft found in the browser, with whether its tab is open.
type kept struct {
	tab   string
	draft draft
	live  bool
}

// found is what a tab opening the editor starts from (choose).
type found int

const (
	fresh     found = iota // nothing kept for it: the file named, or the paper's example
	own                    // the tab's own draft: a reload, or back from another page
	orphan                 // a left tab's unsaved edits of the file named (of any, without one): adopted
	elsewhere              // unsaved edits of the file named in another open tab: not taken
)

// choose decides what tab starts from when the editor opens at path p ("" for none), given
// the drafts kept in the browser: its own first; else the newest orphan with unsaved edits
// of p (of any file without p); else, for p, whether another open tab has unsaved edits
// of it, to say so.
func choose(tab, p string, drafts []kept) (found, kept) {
	for _, k := range drafts {
		if k.tab == tab {
			return own, k
		}
	}
	how, best := fresh, kept{}
	for _, k := range drafts {
		switch {
		case !k.draft.unsaved() || (p != "" && k.draft.Path != p):
		case k.live:
			if p != "" && how == fresh {
				how, best = elsewhere, k
			}
		case how != orphan || k.draft.At > best.draft.At:
			how, best = orphan, k
		}
	}
	return how, best
}

// prune names the tabs whose drafts go: those of left tabs with nothing unsaved, then the
// oldest of left tabs while more than max are kept. The drafts of open tabs and of tab
// always stay.
func prune(tab string, drafts []kept, max int) []string {
	var gone, left []kept
	n := 0
	for _, k := range drafts {
		switch {
		case k.tab == tab || k.live:
			n++
		case !k.draft.unsaved():
			gone = append(gone, k)
		default:
			left = append(left, k)
			n++
		}
	}
	for n > max && len(left) > 0 {
		oldest := 0
		for i, k := range left {
			if k.draft.At < left[oldest].draft.At {
				oldest = i
			}
		}
		gone = append(gone, left[oldest])
		left = append(left[:oldest], left[oldest+1:]...)
		n--
	}
	tabs := make([]string, len(gone))
	for i, k := range gone {
		tabs[i] = k.tab
	}
	return tabs
}

// session is this load of the page as a tab: its id and its heartbeat, which last as long
// as the page does (the draft is the tab's, not only the editor's: it stays while another
// page of the app shows).
var session struct {
	id, instance string
}

// claimTab returns the tab's id: the one its sessionStorage holds, unless another open
// page beats with it (a duplicated tab), else a new one; the first call of a page load
// starts the heartbeat.
func claimTab(ctx app.Context) string {
	if session.id != "" {
		return session.id
	}
	store := ctx.LocalStorage()
	instance := rand.Text()
	var id string
	ctx.SessionStorage().Get(tabKey, &id)
	var b beat
	if id != "" {
		store.Get(beatPrefix+id, &b)
	}
	if id == "" || (b.Instance != "" && b.live(time.Now())) {
		id = rand.Text()[:12]
		ctx.SessionStorage().Set(tabKey, id)
	}
	session.id, session.instance = id, instance
	beatNow := func(instance string) { store.Set(beatPrefix+id, beat{At: time.Now().UnixMilli(), Instance: instance}) }
	beatNow(instance)
	go func() {
		for range time.Tick(beatEvery) {
			beatNow(instance)
		}
	}()
	// The page going for good says so, so that a closed tab's draft is found at once (a
	// reload claims it again first); a page restored from the back-forward cache beats on.
	app.Window().Call("addEventListener", "pagehide", app.FuncOf(func(app.Value, []app.Value) any {
		beatNow("")
		return nil
	}))
	return id
}

// keptDrafts reads the drafts the browser keeps, after moving the one draft of before tabs
// had their own to a left tab's place; it forgets the heartbeats of left tabs without one.
func keptDrafts(store app.BrowserStorage, now time.Time) []kept {
	var old draft
	if store.Contains(oldDraftKey) {
		if store.Get(oldDraftKey, &old) == nil && old.YAML != "" {
			store.Set(draftPrefix+"before-tabs", old)
		}
		store.Del(oldDraftKey)
	}
	var keys []string
	store.ForEach(func(k string) { keys = append(keys, k) })
	beats := map[string]beat{}
	var drafts []kept
	for _, k := range keys {
		if tab, ok := strings.CutPrefix(k, beatPrefix); ok {
			var b beat
			store.Get(k, &b)
			beats[tab] = b
		}
	}
	for _, k := range keys {
		if tab, ok := strings.CutPrefix(k, draftPrefix); ok {
			var d draft
			if store.Get(k, &d) == nil {
				drafts = append(drafts, kept{tab: tab, draft: d, live: beats[tab].live(now)})
			}
			delete(beats, tab)
		}
	}
	for tab, b := range beats {
		if !b.live(now) {
			store.Del(beatPrefix + tab)
		}
	}
	return drafts
}

// forget removes a tab's draft and heartbeat.
func forget(store app.BrowserStorage, tab string) {
	store.Del(draftPrefix + tab)
	store.Del(beatPrefix + tab)
}
