package store

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/ir"
)

// A run's identities (migration 3): benchmark_hash names B = (P, S, D)'s program and
// scoring (ir.BenchmarkHash), dataset_digest the exam it took (engine.DigestVersion), and
// system (engine.System, as JSON) the AI-system as run, with system_hash and system_label
// copied out of it for the leaderboard's queries.

// ErrDatasetChanged is wrapped by SetDataset's error for a run whose dataset is not the
// one it began with: its stored results would mix two exams.
var ErrDatasetChanged = errors.New("the dataset changed since the run began")

// SetDataset records the digest of the dataset run id takes, found by its validation
// pass. A run that recorded another digest before (a resume over a changed dataset) is
// refused with ErrDatasetChanged and keeps its record.
func (s *Store) SetDataset(id, digest string) error {
	res, err := s.w.Exec(`UPDATE runs SET dataset_digest = ? WHERE id = ? AND dataset_digest IN ('', ?)`, digest, id, digest)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 1 {
		return err
	}
	var was string
	switch err := s.r.QueryRow(`SELECT dataset_digest FROM runs WHERE id = ?`, id).Scan(&was); {
	case errors.Is(err, sql.ErrNoRows):
		return fmt.Errorf("run %s: %w", id, ErrNotFound)
	case err != nil:
		return err
	}
	return fmt.Errorf("run %s: %w: it began on dataset %s, the file is now %s", id, ErrDatasetChanged, was, digest)
}

// backfillIdentities gives runs stored before migration 3 their benchmark hash, from
// their stored IR, and their system's label and a system of the definition alone (no
// prompt digest or fingerprint was recorded: such runs are one system per definition).
// A run whose IR cannot be read keeps an empty hash: it is in no leaderboard.
func backfillIdentities(tx *sql.Tx) error {
	rows, err := tx.Query(`SELECT id, ir, ai_system, binding FROM runs`)
	if err != nil {
		return err
	}
	type fill struct{ id, hash, system, systemHash, label string }
	var fills []fill
	for rows.Next() {
		var id, irText, sysText, binding string
		if err := rows.Scan(&id, &irText, &sysText, &binding); err != nil {
			rows.Close()
			return err
		}
		f := fill{id: id}
		f.hash, _ = ir.BenchmarkHash([]byte(irText))
		var def ir.AISystem
		if json.Unmarshal([]byte(sysText), &def) == nil && def.Type != "" {
			sys := engine.NewSystem(def, "", binding, "")
			body, _ := json.Marshal(sys)
			f.system, f.systemHash, f.label = string(body), sys.Hash, sys.Label
		}
		fills = append(fills, f)
	}
	if err := rows.Close(); err != nil {
		return err
	}
	if err := rows.Err(); err != nil {
		return err
	}
	for _, f := range fills {
		var sys any
		if f.system != "" {
			sys = f.system
		}
		if _, err := tx.Exec(`UPDATE runs SET benchmark_hash = ?, system = ?, system_hash = ?, system_label = ? WHERE id = ?`,
			f.hash, sys, f.systemHash, f.label, f.id); err != nil {
			return err
		}
	}
	return nil
}
