package store

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/ir"
)

// Status is where a run stands.
type Status string

const (
	Queued      Status = "queued"      // created, waiting for a free slot
	Running     Status = "running"     // the engine is evaluating it
	Completed   Status = "completed"   // finished with a report
	Aborted     Status = "aborted"     // stopped by the dataset or the setup; see Run.Error
	Cancelled   Status = "cancelled"   // stopped by a user
	Interrupted Status = "interrupted" // its process ended while it was queued or running
)

// from lists the statuses a run may move to `to` from. A run can resume (to queued or
// running) after it was interrupted or cancelled; completed and aborted are final.
func from(to Status) []Status {
	switch to {
	case Queued:
		return []Status{Interrupted, Cancelled}
	case Running:
		return []Status{Queued, Interrupted, Cancelled}
	case Completed:
		return []Status{Running}
	case Aborted, Cancelled, Interrupted:
		return []Status{Queued, Running}
	}
	return nil
}

// ErrTransition is wrapped by the error for a status change the run's status does not allow.
var ErrTransition = errors.New("status change not allowed")

// Options are the run options the user chose.
type Options struct {
	Limit       int `json:"limit,omitempty"`
	Concurrency int `json:"concurrency,omitempty"`
	// RecordRequests is engine.Options.RecordRequests (0: the default), kept so that a
	// resumed run records as it began.
	RecordRequests int `json:"record_requests,omitempty"`
	// MaxCost (US dollars) and MaxTokens are the run's budget (engine.Budget, 0: none), and
	// Cache the response cache's mode over the runtime file's ("": its own), kept so that a
	// resume goes on within the budget and with the cache it began with (Resumed).
	MaxCost   float64 `json:"max_cost,omitempty"`
	MaxTokens int     `json:"max_tokens,omitempty"`
	Cache     string  `json:"cache,omitempty"`
}

// RunSpec is what a new run evaluates.
type RunSpec struct {
	Benchmark string          // the benchmark file, relative to the workspace
	IR        json.RawMessage // the canonical IR JSON, stored as is
	IRHash    string
	AISystem  any // stored as JSON: the IR's ai_system, or its JSON bytes
	Binding   string
	Options   Options
	// BenchmarkHash is ir.BenchmarkHash of IR; System the AI-system as bound (nil: the
	// definition alone, as runs stored before migration 3 have it).
	BenchmarkHash string
	System        *engine.System
}

// Run is a stored run. JSON-shaped fields hold the stored bytes.
type Run struct {
	ID        string          `json:"id"`
	Benchmark string          `json:"benchmark"`
	IR        json.RawMessage `json:"ir,omitempty"` // left out by ListRuns
	IRHash    string          `json:"ir_hash"`
	// BenchmarkHash, DatasetDigest and System are the run's identities (identity.go):
	// DatasetDigest is "" until its validation pass, and for runs stored before they were
	// recorded ("dataset not recorded").
	BenchmarkHash string           `json:"benchmark_hash"`
	DatasetDigest string           `json:"dataset_digest"`
	System        *engine.System   `json:"system"`
	AISystem      json.RawMessage  `json:"ai_system"`
	Binding       string           `json:"binding"`
	Options       Options          `json:"options"`
	Status        Status           `json:"status"`
	CreatedAt     time.Time        `json:"created_at"`
	StartedAt     *time.Time       `json:"started_at"`
	FinishedAt    *time.Time       `json:"finished_at"`
	Total         int              `json:"total"`
	Done          int              `json:"done"`
	Summary       *engine.Summary  `json:"summary"`
	Report        json.RawMessage  `json:"report,omitempty"` // the final engine.Report
	Error         *diag.Diagnostic `json:"error"`            // why it was aborted: the engine's diagnostic (File empty for a setup failure)
	// Reason says why the run ended as it did when its status alone does not: "budget" for
	// a run its budget stopped (cancelled, resumable with a larger one); "" otherwise.
	Reason string `json:"reason,omitempty"`
}

// CreateRun records a new run, queued.
func (s *Store) CreateRun(spec RunSpec) (Run, error) {
	sys, err := json.Marshal(spec.AISystem)
	if err != nil {
		return Run{}, fmt.Errorf("ai_system: %w", err)
	}
	if !json.Valid(spec.IR) {
		return Run{}, errors.New("the IR is not JSON")
	}
	opts, _ := json.Marshal(spec.Options)
	bh := spec.BenchmarkHash
	if bh == "" {
		bh, _ = ir.BenchmarkHash(spec.IR) // an IR without ai_system (a test's) is in no leaderboard
	}
	system := spec.System
	if system == nil {
		var def ir.AISystem
		json.Unmarshal(sys, &def) // a definition that is not one has an empty label
		ns := engine.NewSystem(def, "", spec.Binding, "")
		system = &ns
	}
	sysBody, err := json.Marshal(system)
	if err != nil {
		return Run{}, fmt.Errorf("system: %w", err)
	}
	now := s.now()
	r := Run{
		ID: newID(now), Benchmark: spec.Benchmark, IR: spec.IR, IRHash: spec.IRHash, BenchmarkHash: bh, System: system,
		AISystem: sys, Binding: spec.Binding, Options: spec.Options, Status: Queued, CreatedAt: now.UTC().Round(0),
	}
	s.own()
	_, err = s.w.Exec(`INSERT INTO runs (id, benchmark, ir, ir_hash, ai_system, binding, options, status, created_at,
		benchmark_hash, system, system_hash, system_label,
		owner_pid, owner_host, owner_token, heartbeat_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		append([]any{r.ID, r.Benchmark, string(r.IR), r.IRHash, string(sys), r.Binding, string(opts), string(Queued),
			now.UTC().Format(timeFormat), bh, string(sysBody), system.Hash, system.Label}, s.claimArgs()...)...)
	if err != nil {
		return Run{}, err
	}
	return r, nil
}

// SetStatus moves a run to status, if its current status allows it (see the Status values).
// A final status stamps finished_at; queued clears it, for a resumed run.
func (s *Store) SetStatus(id string, status Status) error {
	switch status {
	case Queued:
		return s.transition(id, status, "finished_at = NULL")
	case Completed, Aborted, Cancelled:
		return s.transition(id, status, "finished_at = ?", s.timestamp())
	}
	return s.transition(id, status, "")
}

// MarkRunning starts a run (or resumes it) with total examples to evaluate. On a run already
// running it only updates total, for a caller that learns it late.
func (s *Store) MarkRunning(id string, total int) error {
	return s.transition(id, Running, "total = ?, started_at = coalesce(started_at, ?), finished_at = NULL, reason = ''", total, s.timestamp())
}

// Finish completes a run with the engine's report.
func (s *Store) Finish(id string, rep *engine.Report) error {
	body, err := json.Marshal(rep)
	if err != nil {
		return err
	}
	sum, _ := json.Marshal(rep.Summary)
	if rep.DatasetDigest != "" {
		err = s.transition(id, Completed, "finished_at = ?, summary = ?, report = ?, dataset_digest = ?", s.timestamp(), string(sum), string(body), rep.DatasetDigest)
	} else {
		err = s.transition(id, Completed, "finished_at = ?, summary = ?, report = ?", s.timestamp(), string(sum), string(body))
	}
	if err != nil {
		return err
	}
	s.seal(id) // a leaderboard's fast path; without it, Outcomes reads the rows
	return nil
}

// Abort records that the dataset or the setup stopped a run.
func (s *Store) Abort(id string, a *engine.Abort) error {
	// The diagnostic's JSON is what runs stored before held (a file member beside the
	// diagnostic's own), so their errors read as they were written.
	body, err := json.Marshal(a.Diagnostic)
	if err != nil {
		return err
	}
	return s.transition(id, Aborted, "finished_at = ?, error = ?", s.timestamp(), string(body))
}

// transition sets a run's status, and the assignments in set, when its status allows and
// no other live process owns it. Queued and running take the run for this Store (a run
// whose owner is stale may be taken over: a resume); any other status gives it up.
func (s *Store) transition(id string, to Status, set string, args ...any) error {
	allowed := from(to)
	if to == Running {
		allowed = append(allowed, Running)
	}
	q := "UPDATE runs SET status = ?"
	if set != "" {
		q += ", " + set
	}
	all := append([]any{string(to)}, args...)
	var owned string
	switch to {
	case Queued, Running:
		s.own()
		q += ", " + claim
		all = append(all, s.claimArgs()...)
		owned = claimable
		all = append(all, id, s.me.token, s.cutoff())
	default:
		q += ", " + disown
		owned = mine
		all = append(all, id, s.me.token)
	}
	q += " WHERE id = ? AND " + owned + " AND status IN (" + strings.TrimSuffix(strings.Repeat("?, ", len(allowed)), ", ") + ")"
	for _, st := range allowed {
		all = append(all, string(st))
	}
	res, err := s.w.Exec(q, all...)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 1 {
		return err
	}
	return s.refusal(id, to, allowed)
}

// GetRun returns one run, with its IR.
func (s *Store) GetRun(id string) (Run, error) {
	row := s.r.QueryRow(`SELECT `+runColumns+`, ir FROM runs WHERE id = ?`, id)
	var r Run
	var ir string
	err := scanRun(row, &r, &ir)
	if errors.Is(err, sql.ErrNoRows) {
		return Run{}, fmt.Errorf("run %s: %w", id, ErrNotFound)
	}
	r.IR = json.RawMessage(ir)
	return r, err
}

// Peek returns one run without its IR: what a poll of its status and progress reads.
func (s *Store) Peek(id string) (Run, error) {
	var r Run
	err := scanRun(s.r.QueryRow(`SELECT `+runColumns+` FROM runs WHERE id = ?`, id), &r)
	if errors.Is(err, sql.ErrNoRows) {
		return Run{}, fmt.Errorf("run %s: %w", id, ErrNotFound)
	}
	return r, err
}

// Filter selects runs; empty fields match everything.
type Filter struct {
	Benchmark     string
	IRHash        string
	BenchmarkHash string
	DatasetDigest string
	Status        Status
}

// ListRuns returns up to limit runs matching f, newest first, without their IR.
func (s *Store) ListRuns(f Filter, limit int) ([]Run, error) {
	if limit <= 0 {
		limit = 100
	}
	q := `SELECT ` + runColumns + ` FROM runs WHERE 1`
	var args []any
	if f.Benchmark != "" {
		q += ` AND benchmark = ?`
		args = append(args, f.Benchmark)
	}
	for _, c := range []struct{ column, value string }{
		{"ir_hash", f.IRHash}, {"benchmark_hash", f.BenchmarkHash}, {"dataset_digest", f.DatasetDigest}, {"status", string(f.Status)},
	} {
		if c.value != "" {
			q += ` AND ` + c.column + ` = ?`
			args = append(args, c.value)
		}
	}
	q += ` ORDER BY id DESC LIMIT ?`
	rows, err := s.r.Query(q, append(args, limit)...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Run
	for rows.Next() {
		var r Run
		if err := scanRun(rows, &r); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

const runColumns = `id, benchmark, ir_hash, ai_system, binding, options, status, created_at, started_at,
	finished_at, total, done, summary, report, error, benchmark_hash, dataset_digest, system, reason`

// scanRun reads runColumns, then extra columns, into r.
func scanRun(row interface{ Scan(...any) error }, r *Run, extra ...any) error {
	var sys, opts, status, created string
	var started, finished, sum, rep, rerr, system sql.NullString
	dest := []any{&r.ID, &r.Benchmark, &r.IRHash, &sys, &r.Binding, &opts, &status, &created, &started,
		&finished, &r.Total, &r.Done, &sum, &rep, &rerr, &r.BenchmarkHash, &r.DatasetDigest, &system, &r.Reason}
	if err := row.Scan(append(dest, extra...)...); err != nil {
		return err
	}
	r.AISystem, r.Status = json.RawMessage(sys), Status(status)
	var err error
	if r.CreatedAt, err = time.Parse(time.RFC3339Nano, created); err != nil {
		return err
	}
	r.StartedAt, r.FinishedAt = parseTime(started), parseTime(finished)
	if rep.Valid {
		r.Report = json.RawMessage(rep.String)
	}
	return errors.Join(
		json.Unmarshal([]byte(opts), &r.Options),
		unmarshalNull(sum, &r.Summary),
		unmarshalNull(rerr, &r.Error),
		unmarshalNull(system, &r.System),
	)
}

func parseTime(s sql.NullString) *time.Time {
	if !s.Valid {
		return nil
	}
	t, err := time.Parse(time.RFC3339Nano, s.String)
	if err != nil {
		return nil
	}
	return &t
}

// unmarshalNull decodes a nullable JSON column into *p, leaving it nil for NULL.
func unmarshalNull[T any](s sql.NullString, p **T) error {
	if !s.Valid {
		return nil
	}
	*p = new(T)
	return json.Unmarshal([]byte(s.String), *p)
}
