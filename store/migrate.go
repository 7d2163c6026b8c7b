package store

import (
	"database/sql"
	"fmt"
	"time"
)

// migrations are the schema's history: migrations[i] takes a database from version i to
// i+1. Append only; never edit an entry that has shipped. Each runs inside the transaction
// that records it, so a migration applies entirely or not at all.
var migrations = []string{
	// 1: runs and their results.
	`CREATE TABLE runs (
		id          TEXT PRIMARY KEY,
		benchmark   TEXT NOT NULL,
		ir          TEXT NOT NULL,
		ir_hash     TEXT NOT NULL,
		ai_system   TEXT NOT NULL,
		binding     TEXT NOT NULL,
		options     TEXT NOT NULL,
		status      TEXT NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'aborted', 'cancelled', 'interrupted')),
		created_at  TEXT NOT NULL,
		started_at  TEXT,
		finished_at TEXT,
		total       INTEGER NOT NULL DEFAULT 0,
		done        INTEGER NOT NULL DEFAULT 0,
		summary     TEXT,
		report      TEXT,
		error       TEXT
	);
	CREATE INDEX runs_by_benchmark ON runs (benchmark, id);
	CREATE INDEX runs_by_ir_hash ON runs (ir_hash, id);
	CREATE INDEX runs_by_status ON runs (status);
	CREATE TABLE results (
		run_id       TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
		idx          INTEGER NOT NULL,
		status       TEXT NOT NULL,
		score        REAL,
		contribution REAL NOT NULL,
		result       TEXT NOT NULL,
		PRIMARY KEY (run_id, idx)
	);
	CREATE INDEX results_by_status ON results (run_id, status, idx);`,
	// 2: the owner of a queued or running run, and its heartbeat (see owner.go).
	`ALTER TABLE runs ADD COLUMN owner_pid INTEGER;
	ALTER TABLE runs ADD COLUMN owner_host TEXT;
	ALTER TABLE runs ADD COLUMN owner_token TEXT;
	ALTER TABLE runs ADD COLUMN heartbeat_at TEXT;`,
	// 3: identities (benchmark, dataset, AI-system as run: see identity.go), and each
	// example's latency, for leaderboards across systems. Runs stored before have their
	// benchmark hash from their IR (backfills) and no dataset digest ("dataset not
	// recorded").
	`ALTER TABLE runs ADD COLUMN benchmark_hash TEXT NOT NULL DEFAULT '';
	ALTER TABLE runs ADD COLUMN dataset_digest TEXT NOT NULL DEFAULT '';
	ALTER TABLE runs ADD COLUMN system TEXT;
	ALTER TABLE runs ADD COLUMN system_hash TEXT NOT NULL DEFAULT '';
	ALTER TABLE runs ADD COLUMN system_label TEXT NOT NULL DEFAULT '';
	ALTER TABLE results ADD COLUMN latency_ms REAL;
	CREATE INDEX runs_by_benchmark_hash ON runs (benchmark_hash, dataset_digest, status, id);
	CREATE INDEX runs_by_system ON runs (system_hash, id);`,
	// 4: a completed run's outcomes in one row (sealed.go), for leaderboards.
	`CREATE TABLE sealed_outcomes (
		run_id TEXT PRIMARY KEY REFERENCES runs (id) ON DELETE CASCADE,
		n      INTEGER NOT NULL,
		data   BLOB NOT NULL
	);`,
	// 5: the results explorer (issue 15, filter.go): each result's error code and dataset
	// row (NULL for runs stored before), the dimensions each valid example got wrong, and
	// the indexes its filters seek. Rows stored before get their codes and wrong
	// dimensions from their result's JSON here; their dataset rows are not recorded.
	`ALTER TABLE results ADD COLUMN error_code TEXT;
	ALTER TABLE results ADD COLUMN example TEXT;
	CREATE TABLE result_wrong (
		run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
		dim    INTEGER NOT NULL,
		idx    INTEGER NOT NULL,
		PRIMARY KEY (run_id, dim, idx)
	) WITHOUT ROWID;
	UPDATE results SET error_code = result ->> '$.error.code' WHERE json_type(result, '$.error') = 'object';
	INSERT OR IGNORE INTO result_wrong (run_id, dim, idx)
		SELECT r.run_id, f.key, r.idx FROM results r, json_each(r.result, '$.field_scores') f
		WHERE r.status = 'valid' AND f.value ->> '$.score' = 0;
	CREATE INDEX results_imperfect ON results (run_id, idx) WHERE contribution < 1;
	CREATE INDEX results_by_code ON results (run_id, error_code, idx) WHERE error_code IS NOT NULL;
	CREATE INDEX results_by_contribution ON results (run_id, contribution, idx);`,
	// 6: the charts counted as results are stored (counts.go), and the request each
	// example sent (NULL for none). result_counts holds, per run, how many results have
	// each status, valid score bin, wrong dimension, error code (with the first index of
	// each) and confusion cell, so that Charts reads some dozens of rows, not a million.
	// Rows stored before are counted here from their columns; their confusion cells are
	// not (the enum dimensions are the IR's): such a run has no 'labelled' row for a
	// dimension, and Charts reads its results' JSON for that matrix as before.
	`ALTER TABLE results ADD COLUMN request TEXT;
	CREATE TABLE result_counts (
		run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
		kind   TEXT NOT NULL,
		a      TEXT NOT NULL,
		b      TEXT NOT NULL DEFAULT '',
		c      TEXT NOT NULL DEFAULT '',
		n      INTEGER NOT NULL,
		first  INTEGER NOT NULL,
		PRIMARY KEY (run_id, kind, a, b, c)
	) WITHOUT ROWID;
	INSERT INTO result_counts (run_id, kind, a, n, first)
		SELECT run_id, 'status', status, count(*), min(idx) FROM results GROUP BY run_id, status;
	INSERT INTO result_counts (run_id, kind, a, n, first)
		SELECT run_id, 'bin', CASE WHEN contribution >= 1 THEN 10 WHEN contribution <= 0 THEN 0
			ELSE min(9, CAST(contribution * 10 AS INTEGER)) END, count(*), min(idx)
		FROM results WHERE status = 'valid' GROUP BY 1, 3;
	INSERT INTO result_counts (run_id, kind, a, n, first)
		SELECT run_id, 'wrong', dim, count(*), min(idx) FROM result_wrong GROUP BY run_id, dim;
	INSERT INTO result_counts (run_id, kind, a, n, first)
		SELECT run_id, 'code', error_code, count(*), min(idx) FROM results
		WHERE error_code IS NOT NULL GROUP BY run_id, error_code;`,
	// 7: the response cache (cache.go): a model provider's successful reply by the sha256
	// of what was asked (provider kind, base URL, model, request body), shared by every run
	// of the workspace. It belongs to no run: deleting runs keeps it.
	`CREATE TABLE reply_cache (
		key        TEXT PRIMARY KEY,
		reply      BLOB NOT NULL,
		created_at TEXT NOT NULL
	);`,
	// 8: why a run ended as it did when its status alone does not say it (a cancelled run's
	// "budget": it resumes with a larger one); and the provider batches a run with batch:
	// true waits on, with each request's reply or failure once its batch ended, so that a
	// restarted server or benchy run of the same run polls them rather than sending the
	// requests again (batch.go).
	`ALTER TABLE runs ADD COLUMN reason TEXT NOT NULL DEFAULT '';
	CREATE TABLE batches (
		run_id     TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
		id         TEXT NOT NULL,
		provider   TEXT NOT NULL,
		kind       TEXT NOT NULL,
		state      TEXT NOT NULL,
		requests   INTEGER NOT NULL,
		detail     TEXT NOT NULL DEFAULT '{}',
		created_at TEXT NOT NULL,
		polled_at  TEXT,
		PRIMARY KEY (run_id, id)
	);
	CREATE TABLE batch_replies (
		run_id   TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
		idx      INTEGER NOT NULL,
		batch_id TEXT NOT NULL,
		reply    BLOB,
		error    TEXT,
		PRIMARY KEY (run_id, idx)
	) WITHOUT ROWID;`,
}

// backfills complete a migration with what SQL cannot compute: backfills[v] runs, in the
// same transaction, right after migration v.
var backfills = map[int]func(*sql.Tx) error{3: backfillIdentities}

// migrate brings db up to len(migs), in order, in one immediate transaction: two processes
// opening the same new database cannot both apply a migration. It refuses a database newer
// than the code.
func migrate(db *sql.DB, migs []string, fills map[int]func(*sql.Tx) error) error {
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.Exec(`CREATE TABLE IF NOT EXISTS schema_version (
		version    INTEGER PRIMARY KEY,
		applied_at TEXT NOT NULL
	)`); err != nil {
		return err
	}
	var v int
	if err := tx.QueryRow(`SELECT coalesce(max(version), 0) FROM schema_version`).Scan(&v); err != nil {
		return err
	}
	if v > len(migs) {
		return fmt.Errorf("the database has schema version %d, newer than this benchy knows (%d): use a newer benchy", v, len(migs))
	}
	if v == len(migs) {
		return nil // nothing to do; the rollback ends the read
	}
	now := time.Now().UTC().Format(timeFormat)
	for i := v; i < len(migs); i++ {
		if _, err := tx.Exec(migs[i]); err != nil {
			return fmt.Errorf("schema migration %d: %w", i+1, err)
		}
		if fill := fills[i+1]; fill != nil {
			if err := fill(tx); err != nil {
				return fmt.Errorf("schema migration %d: %w", i+1, err)
			}
		}
		if _, err := tx.Exec(`INSERT INTO schema_version (version, applied_at) VALUES (?, ?)`, i+1, now); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// version reports the schema version of db.
func version(db *sql.DB) (int, error) {
	var v int
	err := db.QueryRow(`SELECT coalesce(max(version), 0) FROM schema_version`).Scan(&v)
	return v, err
}
