package live

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/web/client"
)

// NotRun is an AI-system a launch left out because the server refused it, and why.
type NotRun struct {
	System string // its label
	Why    string // the server's sentence, without the request's "systems[i]"
}

// Text is the note a page shows: "langdetect was not run: its binding needs …".
func (n NotRun) Text() string { return n.System + " was not run: " + n.Why }

// Starter starts runs: client.Default.StartRun.
type Starter func(context.Context, api.StartRun) (api.Started, error)

// Start starts req's runs, one per system. The server refuses a request whole when one of
// its systems cannot run (a binding whose program is not installed, say), naming it
// ("systems[1] (langdetect): …"): Start then drops that system and asks again for the
// rest, at most once per system, so that one missing program does not keep the others
// (the baseline, which needs nothing installed) from running. labels name req.Systems, in
// order, for refusals that do not name the system themselves. A refusal of the request
// itself is err; every system refused is no ids and no err.
func Start(ctx context.Context, start Starter, req api.StartRun, labels []string) (ids []string, notRun []NotRun, err error) {
	index := make([]int, len(req.Systems)) // of each system left, in req.Systems
	for i := range index {
		index[i] = i
	}
	systems := req.Systems
	for range len(req.Systems) + 1 {
		if len(req.Systems) > 0 && len(systems) == 0 {
			return nil, notRun, nil
		}
		r := req
		r.Systems = systems
		out, err := start(ctx, r)
		if err == nil {
			if len(out.IDs) > 0 {
				return out.IDs, notRun, nil
			}
			return []string{out.ID}, notRun, nil
		}
		i, label, why, ok := refusedSystem(err)
		if !ok || i >= len(systems) {
			return nil, notRun, err
		}
		if label == "" && index[i] < len(labels) {
			label = labels[index[i]]
		}
		if label == "" {
			label = "systems[" + strconv.Itoa(index[i]) + "]"
		}
		notRun = append(notRun, NotRun{System: label, Why: why})
		systems = append(systems[:i:i], systems[i+1:]...)
		index = append(index[:i:i], index[i+1:]...)
	}
	return nil, notRun, errors.New("the server refused every request") // not reached: each turn drops one
}

// refusedSystem reads a refusal that names one system of the request:
// "systems[i] (label): why" or "systems[i]: why", why worded by itsBinding.
func refusedSystem(err error) (i int, label, why string, ok bool) {
	var e *client.Error
	if !errors.As(err, &e) {
		return 0, "", "", false
	}
	rest, found := strings.CutPrefix(e.Message, "systems[")
	if !found {
		return 0, "", "", false
	}
	num, rest, found := strings.Cut(rest, "]")
	if !found {
		return 0, "", "", false
	}
	i, err = strconv.Atoi(num)
	if err != nil || i < 0 {
		return 0, "", "", false
	}
	if after, found := strings.CutPrefix(rest, " ("); found {
		if label, rest, found = strings.Cut(after, "): "); !found {
			return 0, "", "", false
		}
	} else if rest, found = strings.CutPrefix(rest, ": "); !found {
		return 0, "", "", false
	}
	return i, label, itsBinding(rest, label), true
}

// itsBinding words a refusal of system label's binding for a note that names the system
// first: `benchy.runtime.yaml: binding "ghost" runs …` is "its binding in
// benchy.runtime.yaml runs …", `binding "ghost" needs …` is "its binding needs …".
func itsBinding(why, label string) string {
	if label == "" {
		return why
	}
	named := "binding " + strconv.Quote(label) + " "
	if file, rest, ok := strings.Cut(why, ": "+named); ok && !strings.ContainsAny(file, " :") {
		return "its binding in " + file + " " + rest
	}
	return strings.Replace(why, named, "its binding ", 1)
}
