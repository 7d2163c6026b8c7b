package store

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
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
