package store

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/benchy-eval/benchy/engine"
)

// A completed run's results never change, and a leaderboard reads every one of them: ten
// runs of 100,000 examples are a million rows, over a second of the SQLite driver's time.
// So Finish seals a run: its outcomes (status, contribution, latency of each example, in
// index order) go into one row of sealed_outcomes, 17 bytes an example, and Outcomes reads
// that row instead of the results. A run without one (stored before, too large, or whose
// seal failed) is read row by row, as before: the seal is a cache, never the record.

// maxSealed bounds the examples of a sealed run (68 MB of outcomes).
const maxSealed = 4 << 20

const sealedSize = 17 // status byte, contribution float64, latency float64 (NaN: none)

// seal writes the outcomes of completed run id into sealed_outcomes, when its stored
// indices are 0..n-1 (a run in step). A failure leaves the run unsealed.
func (s *Store) seal(id string) {
	var n int
	if err := s.r.QueryRow(`SELECT count(*) FROM results WHERE run_id = ?`, id).Scan(&n); err != nil || n == 0 || n > maxSealed {
		return
	}
	data := make([]byte, 0, n*sealedSize)
	next := 0
	err := s.rows(id, func(o Outcome) error {
		if o.Index != next {
			return fmt.Errorf("store: run %s is not in step at %d", id, o.Index)
		}
		next++
		lat := math.NaN()
		if o.HasLatency {
			lat = o.LatencyMS
		}
		data = append(data, statusCode(o.Status))
		data = binary.LittleEndian.AppendUint64(data, math.Float64bits(o.Contribution))
		data = binary.LittleEndian.AppendUint64(data, math.Float64bits(lat))
		return nil
	})
	if err != nil || next != n {
		return
	}
	s.w.Exec(`INSERT OR REPLACE INTO sealed_outcomes (run_id, n, data) SELECT ?, ?, ? WHERE EXISTS
		(SELECT 1 FROM runs WHERE id = ? AND status = 'completed')`, id, n, data, id)
}

// sealed calls fn with each outcome of run id's seal, and reports whether it has one.
func (s *Store) sealed(id string, fn func(Outcome) error) (bool, error) {
	var n int
	var data []byte
	if err := s.r.QueryRow(`SELECT n, data FROM sealed_outcomes WHERE run_id = ?`, id).Scan(&n, &data); err != nil {
		return false, nil // none (or unreadable): the rows are the record
	}
	if len(data) != n*sealedSize {
		return false, nil
	}
	for i := range n {
		b := data[i*sealedSize:]
		o := Outcome{Index: i, Status: statusCodes[b[0]&3], Contribution: math.Float64frombits(binary.LittleEndian.Uint64(b[1:]))}
		if lat := math.Float64frombits(binary.LittleEndian.Uint64(b[9:])); !math.IsNaN(lat) {
			o.LatencyMS, o.HasLatency = lat, true
		}
		if err := fn(o); err != nil {
			return true, err
		}
	}
	return true, nil
}

// statusCode is the code of outcomesQuery for s.
func statusCode(s engine.Status) byte {
	for i, c := range statusCodes[:3] {
		if c == s {
			return byte(i)
		}
	}
	return 3
}
