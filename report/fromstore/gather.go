package fromstore

import (
	"encoding/json"
	"fmt"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/ir"
	"github.com/benchy-eval/benchy/leaderboard"
	"github.com/benchy-eval/benchy/report"
	"github.com/benchy-eval/benchy/store"
)

// Gather reads runs ids (full ids, in the order given, each once) from st into a report
// listing at most examples failing examples a run (none for 0).
// Runs of one benchmark hash share a section; a section of several runs has the
// leaderboard of each dataset they took. It keeps of each run now what the report's head
// and sections name (its id, benchmark, identities and system) and reads the rest (its
// record whole, charts, program and failing examples) when report.Write reaches it
// (Report.Load), so that writing holds one run at a time and what it holds before is
// some hundred bytes a run named (benchy report takes any number), and each example the
// store cut again whole when it is written (Report.Whole).
func Gather(st *store.Store, ids []string, examples int) (report.Report, error) {
	examples = max(examples, 0)
	rep := report.Report{Examples: examples, Load: func(r *report.Run, n int) error { return load(st, r, n) },
		Whole: func(run string, res api.Result) (api.Result, error) { return whole(st, run, res) }}
	at := map[string]int{} // benchmark hash -> its section
	seen := map[string]bool{}
	for _, id := range ids {
		if seen[id] {
			continue
		}
		seen[id] = true
		r, err := st.GetRun(id)
		if err != nil {
			return rep, err
		}
		full, err := wire(r)
		if err != nil {
			return rep, err
		}
		run := report.Run{Run: api.Run{ID: full.ID, Benchmark: full.Benchmark, BenchmarkHash: full.BenchmarkHash,
			DatasetDigest: full.DatasetDigest, System: full.System, Status: full.Status}}
		key := r.BenchmarkHash
		if key == "" { // stored before identities: its own section
			key = "run:" + r.ID
		}
		i, ok := at[key]
		if !ok {
			i = len(rep.Sections)
			at[key] = i
			rep.Sections = append(rep.Sections, report.Section{Benchmark: r.Benchmark, BenchmarkHash: r.BenchmarkHash})
		}
		rep.Sections[i].Runs = append(rep.Sections[i].Runs, run)
	}
	for i := range rep.Sections {
		if err := boards(st, &rep.Sections[i]); err != nil {
			return rep, err
		}
	}
	return rep, nil
}

// wire is r as the API answers it, without its IR (store.Run's JSON is the API's run:
// runs show prints it).
func wire(r store.Run) (api.Run, error) {
	var out api.Run
	raw, err := json.Marshal(r)
	if err == nil {
		err = json.Unmarshal(raw, &out)
	}
	if err != nil {
		return out, fmt.Errorf("run %s: %w", r.ID, err)
	}
	out.IR = nil
	return out, nil
}

// load fills run out (its id named by Gather) as the report shows it: its record, with
// its first examples failing examples.
func load(st *store.Store, out *report.Run, examples int) error {
	r, err := st.GetRun(out.Run.ID) // with its IR: the program and enums
	if err != nil {
		return err
	}
	if out.Run, err = wire(r); err != nil {
		return err
	}
	var b ir.Benchmark
	if json.Unmarshal(r.IR, &b) == nil {
		out.Program = b.Program
	}
	if out.Charts, err = st.Charts(r.ID, store.EnumsOf(&b)); err != nil {
		return err
	}
	top, err := st.TopError(r.ID)
	if err != nil {
		return err
	}
	s := out.Charts.Summary
	out.Health = api.Health{Examples: s.Examples, Failed: api.FailedInfra(s.Examples, s.ExecutionErrors),
		Code: top.Code, Message: top.Message, Count: top.Count}
	page := store.Page{}
	if examples > 0 {
		page, err = st.Page(r.ID, store.PageQuery{Filter: store.ResultFilter{Imperfect: true}, After: store.First, Limit: examples, MaxBytes: 8 << 20})
		if err != nil {
			return err
		}
	}
	out.Failing = nil
	for _, sh := range page.Results {
		out.Failing = append(out.Failing, sh.Wire())
	}
	out.FailingTotal = len(out.Failing)
	if page.Total != nil {
		out.FailingTotal = *page.Total
	} else if len(out.Charts.Histogram) == 11 {
		out.FailingTotal = s.Examples - out.Charts.Histogram[10]
	}
	return nil
}

// whole is failing example res of run read again as the API's example endpoint reads it
// (store.Detail): each value whole up to api.MaxDetail bytes, where a page cuts each at
// store.MaxShown; res itself if the run no longer has it.
func whole(st *store.Store, run string, res api.Result) (api.Result, error) {
	d, found, err := st.Detail(run, res.Index, store.ResultFilter{})
	if err != nil || !found {
		return res, err
	}
	return d.Shown.Wire(), nil
}

// boards adds to a section of several runs the leaderboard of each dataset they took.
func boards(st *store.Store, s *report.Section) error {
	if len(s.Runs) < 2 || s.BenchmarkHash == "" {
		return nil
	}
	done := map[string]bool{}
	for _, r := range s.Runs {
		d := r.Run.DatasetDigest
		if d == "" || done[d] {
			continue
		}
		done[d] = true
		b, err := leaderboard.Build(st, s.BenchmarkHash, d)
		if err != nil {
			return err
		}
		s.Boards = append(s.Boards, b)
	}
	return nil
}
