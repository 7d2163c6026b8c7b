package store

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"fmt"
	"unicode/utf8"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/diag"
	"github.com/benchy-eval/benchy/engine"
)

// MaxShown is the most bytes of one value a page shows: a prediction, an error's path or
// message, a dataset row's input or expected output. An AI-system's answer line may be
// 64 MiB and is stored whole, a dataset row 1 MiB; a page of 1,000 results that carried
// them whole was a 224 MB body and 1.1 GB of memory. Beyond the bound a value is its start
// and a marker (Clip); exports (ExportRows) stay whole.
const MaxShown = 16 << 10

// Clip is the JSON value whose text, or with size above MaxShown its start, is raw (size:
// the bytes of its whole text; -1 when only its start was read): raw itself when it is
// whole and fits, else a JSON string of at most MaxShown bytes of its start followed by a
// marker, and true. A clipped value is a string whatever it was, so a reader tells it by
// the result's clipped flag, and a person by the marker.
func Clip(raw []byte, size int) (json.RawMessage, bool) { return clipAt(raw, size, MaxShown) }

// clipAt is Clip with the bound n.
func clipAt(raw []byte, size, n int) (json.RawMessage, bool) {
	if size >= 0 && size <= n && len(raw) <= n {
		return raw, false
	}
	text, _ := json.Marshal(clipped(raw, size, n, "bytes of JSON"))
	return text, true
}

// ClipText is text (the start of a string of size bytes) itself when it fits in MaxShown,
// else its start and a marker, and true.
func ClipText(text string, size int) (string, bool) { return clipTextAt(text, size, MaxShown) }

// clipTextAt is ClipText with the bound n.
func clipTextAt(text string, size, n int) (string, bool) {
	if size >= 0 && size <= n && len(text) <= n {
		return text, false
	}
	return clipped([]byte(text), size, n, "bytes"), true
}

// clipped is the start of raw, at most MaxShown bytes and never inside a character, and
// the marker: how long the value is (of what) and how much of it is shown.
func clipped(raw []byte, size, n int, of string) string {
	start := cutUTF8(raw, n)
	if size < 0 {
		return fmt.Sprintf("%s… [clipped: over %d %s; the first %d shown]", start, len(raw), of, len(start))
	}
	return fmt.Sprintf("%s… [clipped: %d %s in all; the first %d shown]", start, size, of, len(start))
}

// cutUTF8 is the first n bytes of b at most, not ending inside a character (b may be the
// start of a file's line, cut anywhere).
func cutUTF8(b []byte, n int) []byte {
	b = b[:min(len(b), n)]
	i := len(b) - 1 // back to where the last character starts
	for i > 0 && len(b)-i < utf8.UTFMax && b[i]&0xC0 == 0x80 {
		i--
	}
	if i >= 0 && !utf8.FullRune(b[i:]) {
		return b[:i]
	}
	return b
}

// clipPath is an error's path whose JSON (an array of strings) is start, size bytes in
// all: the path itself when it is whole, else the elements start holds whole and the
// start of the one it cuts, which ends in the marker. A hostile key (an extra_field error
// names it) may be megabytes; the path stays a list of strings.
func clipPath(start []byte, size, n int) ([]string, bool) {
	var path []string
	if size <= n && len(start) == size && json.Unmarshal(start, &path) == nil {
		return path, false
	}
	marker := fmt.Sprintf("… [clipped: the path is %d bytes of JSON; the first %d shown]", size, len(start))
	dec := json.NewDecoder(bytes.NewReader(start))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
		return []string{marker}, true
	}
	for {
		off := dec.InputOffset()
		var s string
		if err := dec.Decode(&s); err != nil { // the cut: the start of the next element
			return append(path, partialString(bytes.TrimLeft(start[off:], " \t\r\n,"))+marker), true
		}
		path = append(path, s)
	}
}

// partialString is the text of the JSON string that raw (its opening quote, then some of
// its characters) starts, without an escape the cut left unfinished.
func partialString(raw []byte) string {
	if len(raw) == 0 || raw[0] != '"' {
		return ""
	}
	for k := 0; k < 12 && len(raw) > 1; k++ { // an escape is at most 6 bytes, a pair of them 12
		var s string
		if json.Unmarshal(append(raw[:len(raw):len(raw)], '"'), &s) == nil {
			return s
		}
		raw = raw[:len(raw)-1]
	}
	return ""
}

// Shown is a stored result as a page of results, the example grid and a comparison show
// it: its columns, and each value an AI-system's answer can make long (the prediction,
// the error's path and message) clipped (Clip), SQLite cutting each before the driver
// hands it over, so that no result is ever held whole.
type Shown struct {
	Index        int
	Status       engine.Status
	Score        *float64
	Contribution float64
	FieldScores  json.RawMessage     // as stored ("[]" for none)
	Usage        json.RawMessage     // as stored, nil for none
	Prediction   json.RawMessage     // its JSON, or Clip's string of its start
	Error        *engine.ResultError // nil for none
	// Input and Expected are the dataset row's (clipped like the prediction), nil for a
	// run stored before rows were recorded (migration 5).
	Input    json.RawMessage
	Expected json.RawMessage
	Clipped  bool // whether any of its values is clipped
}

// Wire is s as the API sends it (api.Result): the one conversion, for the server's pages
// and the HTML report alike.
func (s Shown) Wire() api.Result {
	r := api.Result{Index: s.Index, Status: string(s.Status), Prediction: s.Prediction, Score: s.Score,
		Contribution: s.Contribution, Error: WireError(s.Error), Input: s.Input, Expected: s.Expected, Clipped: s.Clipped}
	if json.Unmarshal(s.FieldScores, &r.FieldScores) != nil {
		r.FieldScores = []api.FieldScore{}
	}
	if s.Usage != nil {
		var u api.ExampleUsage
		if json.Unmarshal(s.Usage, &u) == nil {
			r.Usage = &u
		}
	}
	return r
}

// WireError is a result's error as the API sends it.
func WireError(e *engine.ResultError) *api.ResultError {
	if e == nil {
		return nil
	}
	return &api.ResultError{Code: string(e.Code), Path: e.Path, Message: e.Message}
}

// Bytes is about how many bytes of JSON s takes in a page.
func (s Shown) Bytes() int {
	n := 128 + len(s.FieldScores) + len(s.Usage) + len(s.Prediction) + len(s.Input) + len(s.Expected)
	if s.Error != nil {
		n += len(s.Error.Code) + len(s.Error.Message)
		for _, p := range s.Error.Path {
			n += len(p) + 3
		}
	}
	return n
}

// shownColumns read a result as Shown (scanShown): SQLite cuts the prediction, the
// error's path (its JSON) and message to MaxShown characters and gives the bytes of each
// whole.
var shownColumns = shownColumnsAt(MaxShown)

// shownColumnsAt is shownColumns with each value cut at n bytes.
func shownColumnsAt(n int) string {
	return fmt.Sprintf(`idx, status, score, contribution, result -> '$.field_scores', result -> '$.usage',
	length(CAST(result -> '$.prediction' AS BLOB)), substr(result -> '$.prediction', 1, %[1]d),
	json_type(result, '$.error') IS 'object', substr(result ->> '$.error.code', 1, 256),
	length(CAST(result -> '$.error.path' AS BLOB)), substr(result -> '$.error.path', 1, %[1]d),
	length(CAST(result ->> '$.error.message' AS BLOB)), substr(result ->> '$.error.message', 1, %[1]d),
	length(CAST(example -> '$.input' AS BLOB)), substr(example -> '$.input', 1, %[1]d),
	length(CAST(example -> '$.expected' AS BLOB)), substr(example -> '$.expected', 1, %[1]d)`, n)
}

// scanShown reads a row of shownColumns.
func scanShown(rows *sql.Rows) (Shown, error) { return scanShownAt(rows, MaxShown) }

// scanShownAt reads a row of shownColumnsAt(n).
func scanShownAt(rows interface{ Scan(...any) error }, n int) (Shown, error) {
	var sh Shown
	var score sql.NullFloat64
	var fields, usage, pred, code, path, msg sql.NullString
	var in, exp sql.NullString
	var predSize, pathSize, msgSize, inSize, expSize sql.NullInt64
	var hasError bool
	if err := rows.Scan(&sh.Index, &sh.Status, &score, &sh.Contribution, &fields, &usage, &predSize, &pred,
		&hasError, &code, &pathSize, &path, &msgSize, &msg, &inSize, &in, &expSize, &exp); err != nil {
		return sh, err
	}
	var clippedIn, clippedExp bool
	if in.Valid {
		sh.Input, clippedIn = clipAt([]byte(in.String), int(inSize.Int64), n)
	}
	if exp.Valid {
		sh.Expected, clippedExp = clipAt([]byte(exp.String), int(expSize.Int64), n)
	}
	if score.Valid {
		sh.Score = &score.Float64
	}
	sh.FieldScores = rawOr(fields, "[]")
	if usage.Valid && usage.String != "null" {
		sh.Usage = json.RawMessage(usage.String)
	}
	if pred.Valid {
		sh.Prediction, sh.Clipped = clipAt([]byte(pred.String), int(predSize.Int64), n)
	} else {
		sh.Prediction = json.RawMessage("null")
	}
	sh.Clipped = sh.Clipped || clippedIn || clippedExp
	if !hasError {
		return sh, nil
	}
	e := &engine.ResultError{Code: diag.Code(code.String)} // a code of the registry: a few bytes (cut at 256)
	var clippedPath, clippedMessage bool
	if path.Valid && path.String != "null" {
		e.Path, clippedPath = clipPath([]byte(path.String), int(pathSize.Int64), n)
	}
	e.Message, clippedMessage = clipTextAt(msg.String, int(msgSize.Int64), n)
	sh.Error = e
	sh.Clipped = sh.Clipped || clippedPath || clippedMessage
	return sh, nil
}
