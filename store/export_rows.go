package store

import (
	"bufio"
	"bytes"
	"database/sql"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"

	"github.com/benchy-eval/benchy/engine"
)

// ExportQuery is what ExportRows writes of a run: the results Filter selects (in its
// order), each with its dataset row's input and expected output beside the prediction.
// Input and Output are the program's leaf fields in declaration order (the IR's), the
// CSV's columns input.x, expected.y and prediction.y; without them a CSV has the input and
// the expected output as JSON columns. Query is the filter as its caller was given it,
// the results query's keys and values (api.Filter.Values): a filtered JSON export names
// it in its "filter" member, so that the file says it is not the whole run.
type ExportQuery struct {
	Filter        ResultFilter
	Input, Output [][]string
	Query         url.Values
}

// filtered tells whether q selects other than every result in index order.
func (q ExportQuery) filtered() bool { return !q.Filter.IsZero() || len(q.Query) > 0 }

// NoRowsNote is ExportRows' note for a run with results stored without their dataset
// row (before migration 5): their input and expected output are empty (null in JSON).
const NoRowsNote = "some results were stored before benchy recorded dataset rows: their input and expected output are empty"

// ExportRows writes the results of run id that q selects as format, as Export does, with
// "input" and "expected" members (JSON, JSONL: after the result's own, compacted: the
// dataset's bytes as written may hold spaces, and each line is uniformly compact) or
// columns (CSV). It streams one row at a time from one snapshot, memory flat however
// large the run. A JSON export of the whole run checks the count against the report; a
// filtered one is the report's fields (the whole run's summary, score and counts) with
// the results the filter selects, beside them "filter" (q.Query's keys and values, the
// results query's: {"wrong": "total"}) and, after "results", "selected" (how many it
// holds). note is NoRowsNote when a result written had no row, else "".
func (s *Store) ExportRows(id string, format Format, q ExportQuery, w io.Writer) (note string, err error) {
	var rep sql.NullString
	var status string
	switch err := s.r.QueryRow(`SELECT report, status FROM runs WHERE id = ?`, id).Scan(&rep, &status); {
	case errors.Is(err, sql.ErrNoRows):
		return "", fmt.Errorf("run %s: %w", id, ErrNotFound)
	case err != nil:
		return "", err
	}
	var head struct {
		Summary struct {
			Examples int `json:"examples"`
		} `json:"summary"`
	}
	switch format {
	case JSON:
		if !rep.Valid {
			return "", fmt.Errorf("run %s is %s: %w", id, status, ErrNoReport)
		}
		if err := json.Unmarshal([]byte(rep.String), &head); err != nil {
			return "", err
		}
	case JSONL, CSV:
	default:
		return "", fmt.Errorf("unknown export format %q: want json, jsonl or csv", format)
	}
	p, err := s.planOf(id, q.Filter)
	if err != nil {
		return "", err
	}
	sqlText, args := p.selectAll(id, "r.result, r.example")
	rows, err := s.r.Query(sqlText, args...)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	bw := bufio.NewWriterSize(w, 256<<10)
	var cw *csv.Writer
	switch format {
	case JSON:
		bw.WriteString(rep.String[:len(rep.String)-1]) // the report without its closing brace
		if q.filtered() {
			bw.WriteString(`,"filter":`)
			bw.Write(filterJSON(q.Query))
		}
		bw.WriteString(`,"results":[`)
	case CSV:
		cw = csv.NewWriter(bw)
		cw.Write(csvRowsHeader(q))
	}
	var body, example sql.RawBytes
	var compact bytes.Buffer // the row's input and expected output, compacted
	var rec csvRecord
	var cells []string
	n, missing := 0, false
	for rows.Next() {
		if err := rows.Scan(&body, &example); err != nil {
			return "", err
		}
		var in, exp json.RawMessage
		if example == nil {
			missing = true
		} else {
			var row struct{ Input, Expected json.RawMessage }
			if err := json.Unmarshal(example, &row); err != nil {
				return "", fmt.Errorf("result %d of run %s: its row: %w", n, id, err)
			}
			in, exp = row.Input, row.Expected
		}
		switch format {
		case JSON, JSONL:
			if format == JSON && n > 0 {
				bw.WriteByte(',')
			}
			bw.Write(body[:len(body)-1])
			bw.WriteString(`,"input":`)
			bw.Write(compacted(&compact, in))
			bw.WriteString(`,"expected":`)
			bw.Write(compacted(&compact, exp))
			bw.WriteByte('}')
			if format == JSONL {
				bw.WriteByte('\n')
			}
		case CSV:
			if cells, err = rec.rowCells(body, in, exp, q, cells[:0]); err != nil {
				return "", fmt.Errorf("result %d of run %s: %w", n, id, err)
			}
			if err := writeCells(cw, cells); err != nil {
				return "", err
			}
		}
		n++
	}
	if err := rows.Err(); err != nil {
		return "", err
	}
	switch format {
	case JSON:
		if q.Filter.IsZero() && n != head.Summary.Examples {
			// Stop before the closing brackets: a reader sees a broken document, not a short one.
			return "", fmt.Errorf("run %s: %d stored results, the report counts %d", id, n, head.Summary.Examples)
		}
		bw.WriteString("]")
		if q.filtered() {
			bw.WriteString(`,"selected":` + strconv.Itoa(n))
		}
		bw.WriteString("}\n")
	case CSV:
		cw.Flush()
		if err := cw.Error(); err != nil {
			return "", err
		}
	}
	if missing {
		note = NoRowsNote
	}
	return note, bw.Flush()
}

// selectAll is the query of every result p selects, in its order, with columns cols
// (residual conditions in its WHERE: no budget, for an export).
func (p plan) selectAll(id, cols string) (string, []any) {
	q := "SELECT " + cols + " FROM " + p.from + " WHERE " + strings.SplitN(p.order, ".", 2)[0] + ".run_id = ?"
	args := []any{id}
	if p.where != "" {
		q += " AND " + p.where
		args = append(args, p.args...)
	}
	for _, r := range p.residual {
		q += " AND (" + r + ")"
	}
	args = append(args, p.rargs...)
	return q + " ORDER BY " + p.order, args
}

// compacted is raw without insignificant spaces, in buf (reused from value to value),
// or null for no value.
func compacted(buf *bytes.Buffer, raw json.RawMessage) []byte {
	if len(raw) == 0 {
		return []byte("null")
	}
	buf.Reset()
	if json.Compact(buf, raw) != nil { // cannot be: stored as JSON; then as written
		return raw
	}
	return buf.Bytes()
}

// filterJSON is a filter's query values as a JSON object of strings, its keys sorted
// (encoding/json sorts a map's): {"imperfect": "1", "sort": "score"}.
func filterJSON(q url.Values) []byte {
	m := make(map[string]string, len(q))
	for k, v := range q {
		if len(v) > 0 {
			m[k] = v[0]
		}
	}
	b, _ := json.Marshal(m)
	return b
}

// csvRowsHeader is csvHeader, then input.x, expected.y and prediction.y of q's leaves
// (or input and expected as JSON without them).
func csvRowsHeader(q ExportQuery) []string {
	h := append([]string{}, csvHeader...)
	if q.Input == nil && q.Output == nil {
		return append(h, "input", "expected")
	}
	for _, side := range []struct {
		name  string
		paths [][]string
	}{{"input", q.Input}, {"expected", q.Output}, {"prediction", q.Output}} {
		for _, p := range side.paths {
			h = append(h, side.name+"."+strings.Join(p, "."))
		}
	}
	return h
}

// rowCells is the CSV row of a result and its row's input and expected output. With the
// program's leaves, the prediction column is the whole answer as JSON only for a result
// that is not valid: an invalid output's raw answer need not have the program's fields (a
// sentence, a misnamed key) and would be lost in the prediction.y columns; a valid answer
// is wholly in them, and repeating it as JSON made every row say it twice. Without the
// leaves (no IR) it is the whole answer on every row.
func (r *csvRecord) rowCells(body []byte, in, exp json.RawMessage, q ExportQuery, cells []string) ([]string, error) {
	r.Error = nil
	if err := json.Unmarshal(body, r); err != nil {
		return nil, err
	}
	whole := string(r.Prediction)
	if q.Output != nil && r.Status == string(engine.StatusValid) {
		whole = ""
	}
	cells = append(cells, strconv.Itoa(r.Index), r.Status, orEmpty(r.Score), orEmpty(r.Contribution), "", "", whole)
	if e := r.Error; e != nil {
		cells[4], cells[5] = e.Code, orEmpty(e.Path)
	}
	if q.Input == nil && q.Output == nil {
		return append(cells, orEmpty(in), orEmpty(exp)), nil
	}
	for _, side := range []struct {
		value json.RawMessage
		paths [][]string
	}{{in, q.Input}, {exp, q.Output}, {r.Prediction, q.Output}} {
		var v any
		if len(side.value) > 0 {
			dec := json.NewDecoder(bytes.NewReader(side.value))
			dec.UseNumber()
			dec.Decode(&v) // a value that is not JSON (cannot be: stored as JSON) leaves the columns empty
		}
		for _, p := range side.paths {
			cells = append(cells, cellText(at(v, p)))
		}
	}
	return cells, nil
}

// at is the value at path in v, nil when it has none.
func at(v any, path []string) any {
	for _, k := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

// cellText is a leaf as a CSV cell: a string as itself, nothing for null, other values
// (numbers, booleans, lists) as JSON.
func cellText(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case json.Number:
		return x.String()
	}
	b, _ := json.Marshal(v)
	return string(b)
}
