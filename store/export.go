package store

import (
	"bufio"
	"database/sql"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/benchy-eval/benchy/engine"
)

// Format is an export format.
type Format string

const (
	JSON  Format = "json"  // the result document of A.14: the report's fields and "results"
	JSONL Format = "jsonl" // one result per line, as the engine's results stream
	CSV   Format = "csv"   // one row per result, for spreadsheets
)

// ErrNoReport is wrapped by the error for a JSON export of a run that has not completed.
var ErrNoReport = errors.New("the run has no report")

// csvHeader names the columns of a CSV export. Scores are the JSON numbers (empty for no
// score); error_path and prediction are JSON text. A cell a spreadsheet would take for a
// formula is written with a ' in front (safeCell).
var csvHeader = []string{"index", "status", "score", "contribution", "error_code", "error_path", "prediction"}

// Export writes the results of run id, in index order, as format. It reads one row at a
// time from one snapshot, so memory stays flat however large the run; a JSON export needs
// the report, so only a completed run has one.
func (s *Store) Export(id string, format Format, w io.Writer) error {
	var rep sql.NullString
	var status string
	switch err := s.r.QueryRow(`SELECT report, status FROM runs WHERE id = ?`, id).Scan(&rep, &status); {
	case errors.Is(err, sql.ErrNoRows):
		return fmt.Errorf("run %s: %w", id, ErrNotFound)
	case err != nil:
		return err
	}
	var head struct {
		Summary engine.Summary `json:"summary"`
	}
	switch format {
	case JSON:
		if !rep.Valid {
			return fmt.Errorf("run %s is %s: %w", id, status, ErrNoReport)
		}
		if err := json.Unmarshal([]byte(rep.String), &head); err != nil {
			return err
		}
	case JSONL, CSV:
	default:
		return fmt.Errorf("unknown export format %q: want json, jsonl or csv", format)
	}

	rows, err := s.r.Query(`SELECT result FROM results WHERE run_id = ? ORDER BY idx`, id)
	if err != nil {
		return err
	}
	defer rows.Close()
	bw := bufio.NewWriterSize(w, 256<<10)
	var cw *csv.Writer
	switch format {
	case JSON:
		body := rep.String
		bw.WriteString(body[:len(body)-1]) // the report without its closing brace
		bw.WriteString(`,"results":[`)
	case CSV:
		cw = csv.NewWriter(bw)
		cw.Write(csvHeader)
	}
	var body sql.RawBytes
	var rec csvRecord
	n := 0
	for rows.Next() {
		if err := rows.Scan(&body); err != nil {
			return err
		}
		switch format {
		case JSON:
			if n > 0 {
				bw.WriteByte(',')
			}
			bw.Write(body)
		case JSONL:
			bw.Write(body)
			bw.WriteByte('\n')
		case CSV:
			if err := rec.write(cw, body); err != nil {
				return fmt.Errorf("result %d of run %s: %w", n, id, err)
			}
		}
		n++
	}
	if err := rows.Err(); err != nil {
		return err
	}
	switch format {
	case JSON:
		if n != head.Summary.Examples {
			// Stop before the closing brackets: a reader sees a broken document, not a short one.
			return fmt.Errorf("run %s: %d stored results, the report counts %d", id, n, head.Summary.Examples)
		}
		bw.WriteString("]}\n")
	case CSV:
		cw.Flush()
		if err := cw.Error(); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// csvRecord is what a CSV row needs of a stored result, reused from row to row.
type csvRecord struct {
	Index        int             `json:"index"`
	Status       string          `json:"status"`
	Prediction   json.RawMessage `json:"prediction"`
	Score        json.RawMessage `json:"score"`
	Contribution json.RawMessage `json:"contribution"`
	Error        *struct {
		Code string          `json:"code"`
		Path json.RawMessage `json:"path"`
	} `json:"error"`
	cells [7]string
}

func (r *csvRecord) write(cw *csv.Writer, body []byte) error {
	r.Error = nil
	if err := json.Unmarshal(body, r); err != nil {
		return err
	}
	r.cells = [7]string{strconv.Itoa(r.Index), r.Status, orEmpty(r.Score), orEmpty(r.Contribution), "", "", string(r.Prediction)}
	if e := r.Error; e != nil {
		r.cells[4], r.cells[5] = e.Code, orEmpty(e.Path)
	}
	return writeCells(cw, r.cells[:])
}

// writeCells writes one CSV row with each cell made safe for a spreadsheet (safeCell).
func writeCells(cw *csv.Writer, cells []string) error {
	for i, c := range cells {
		cells[i] = safeCell(c)
	}
	return cw.Write(cells)
}

// safeCell is a cell that a spreadsheet shows as the text it is: one starting with = + - @
// a tab or a carriage return, which Excel, LibreOffice and Google Sheets may take for a
// formula (a model's output "=HYPERLINK(...)" or "@SUM(1+1)" run on opening the export),
// gets a ' in front, unless it is a plain number (-2.5 stays a number). This is OWASP's
// advice against CSV injection.
func safeCell(s string) string {
	if s == "" {
		return s
	}
	switch s[0] {
	case '=', '+', '-', '@', '\t', '\r':
		if !plainNumber(s) {
			return "'" + s
		}
	}
	return s
}

// plainNumber tells whether s is a decimal number and nothing else: -2.5, +1e3.
func plainNumber(s string) bool {
	if strings.Trim(s, "0123456789+-.eE") != "" {
		return false
	}
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}

// orEmpty is JSON text, or nothing for null.
func orEmpty(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	return string(raw)
}
