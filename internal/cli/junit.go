package cli

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/engine"
	"github.com/benchy-eval/benchy/ir"
	"github.com/benchy-eval/benchy/report"
)

// --junit FILE writes a run as a JUnit XML file, which CI systems show as a test report:
// one testcase per example, classname the benchmark (and the system's label when several
// systems ran, so that their cases do not merge), name "example N (hint)" with a hint a
// reader recognises the example by, time its latency; an execution error is an <error>
// (the setup failed), an invalid output or a score below 1 a <failure> (the system did),
// whose message lines up the expected output and the prediction field by field (✓/✗), with
// its error. Only failures are kept in memory while the run goes.

// junitSuite is one run's testsuite.
type junitSuite struct {
	benchmark string // the classname of its cases
	system    string
	input     ir.Field // for the hints
	output    ir.Field
	cases     []junitCase
}

// junitCase is one example; kind is "" for a perfect one, else "error" or "failure".
type junitCase struct {
	index            int
	hint             string   // "" for none
	seconds          *float64 // its latency, when recorded
	kind             string
	status           string
	message, details string
}

// add records the outcome of one example.
func (s *junitSuite) add(res engine.ExampleResult) {
	c := junitCase{index: res.Index, hint: exampleHint(s.input, res.Row)}
	if res.Usage != nil && res.Usage.LatencyMS > 0 {
		sec := res.Usage.LatencyMS / 1000
		c.seconds = &sec
	}
	if res.Status != engine.StatusValid || res.Score == nil || *res.Score < 1 {
		c.kind, c.status = "failure", string(res.Status)
		if res.Status == engine.StatusExecutionError {
			c.kind = "error"
		}
		c.message, c.details = failureText(s.output, res)
	}
	s.cases = append(s.cases, c)
}

// maxHint is how many characters of a text input a testcase's name shows.
const maxHint = 40

// exampleHint is what a testcase's name shows of an example's input: the first 40
// characters of its first text field (on one line), else the file name of its first
// artifact; "" when it has neither.
func exampleHint(input ir.Field, row json.RawMessage) string {
	in, _ := report.SplitRow(row)
	var v map[string]any
	if json.Unmarshal(in, &v) != nil {
		return ""
	}
	leaves := input.Leaves()
	for _, want := range []func(string) bool{func(t string) bool { return t == ir.TypeString }, ir.IsArtifact} {
		for _, l := range leaves {
			text, ok := lookup(v, l.Path).(string)
			if !ok || text == "" || !want(l.Field.Type) {
				continue
			}
			if ir.IsArtifact(l.Field.Type) {
				return path.Base(filepath.ToSlash(text))
			}
			text = strings.Join(strings.Fields(text), " ")
			if r := []rune(text); len(r) > maxHint {
				text = string(r[:maxHint]) + "…"
			}
			return text
		}
	}
	return ""
}

// maxJUnitValue bounds each value a failure's text shows (the message attribute takes
// fewer): a CI page shows a few lines, the result files have the rest.
const (
	maxJUnitValue   = 4096
	maxJUnitMessage = 200
)

// failureText is a failed example's message (one line) and details (a line a field).
func failureText(output ir.Field, res engine.ExampleResult) (string, string) {
	_, expected := report.SplitRow(res.Row)
	pred, _ := json.Marshal(res.Prediction)
	var scores []api.FieldScore
	for _, f := range res.FieldScores {
		scores = append(scores, api.FieldScore{Path: f.Path, Score: f.Score, Weight: f.Weight})
	}
	head := fmt.Sprintf("example %d: %s", res.Index, res.Status)
	if res.Score != nil {
		head += fmt.Sprintf(", score %.4f", *res.Score)
	}
	short, long := []string{head}, []string{head}
	for _, f := range report.Align(output, expected, pred, scores) {
		line := func(n int) string {
			return fmt.Sprintf("%s %s: expected %s, predicted %s", f.Mark(), strings.Join(f.Path, "."), shown(f.Expected, n), shown(f.Predicted, n))
		}
		short, long = append(short, line(maxJUnitMessage/4)), append(long, line(maxJUnitValue))
	}
	if e := res.Error; e != nil {
		where := ""
		if len(e.Path) > 0 {
			where = " at " + strings.Join(e.Path, ".")
		}
		short = append(short, fmt.Sprintf("%s%s: %s", e.Code, where, clipText(e.Message, maxJUnitMessage)))
		long = append(long, fmt.Sprintf("%s%s: %s", e.Code, where, clipText(e.Message, maxJUnitValue)))
	}
	return strings.Join(short, "; "), strings.Join(long, "\n")
}

// shown is a value of a field for a failure's text: "(none)" when missing, clipped to n.
func shown(v string, n int) string {
	if v == "" {
		return "(none)"
	}
	return clipText(v, n)
}

// writeJUnit writes the suites to path through a temporary file renamed over it, so a
// reader never sees half a file.
func writeJUnit(path string, suites []*junitSuite) error {
	return writeFresh(path, func(w io.Writer) error { return encodeJUnit(w, suites) })
}

type xmlSuites struct {
	XMLName  xml.Name   `xml:"testsuites"`
	Tests    int        `xml:"tests,attr"`
	Failures int        `xml:"failures,attr"`
	Errors   int        `xml:"errors,attr"`
	Suites   []xmlSuite `xml:"testsuite"`
}

type xmlSuite struct {
	Name     string    `xml:"name,attr"`
	Tests    int       `xml:"tests,attr"`
	Failures int       `xml:"failures,attr"`
	Errors   int       `xml:"errors,attr"`
	Cases    []xmlCase `xml:"testcase"`
}

type xmlCase struct {
	Classname string      `xml:"classname,attr"`
	Name      string      `xml:"name,attr"`
	Time      string      `xml:"time,attr,omitempty"`
	Failure   *xmlFailure `xml:"failure,omitempty"`
	Error     *xmlFailure `xml:"error,omitempty"`
}

type xmlFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// encodeJUnit writes the suites' XML, cases in index order.
func encodeJUnit(w io.Writer, suites []*junitSuite) error {
	doc := xmlSuites{}
	for _, s := range suites {
		slices.SortFunc(s.cases, func(a, b junitCase) int { return a.index - b.index })
		name := s.benchmark
		if s.system != "" {
			name += " · " + s.system
		}
		class := s.benchmark
		if len(suites) > 1 {
			class = name // one class per system: CI UIs group cases by class
		}
		xs := xmlSuite{Name: xmlSafe(name), Tests: len(s.cases)}
		for _, c := range s.cases {
			xc := xmlCase{Classname: xmlSafe(class), Name: fmt.Sprintf("example %d", c.index)}
			if c.hint != "" {
				xc.Name += " (" + xmlSafe(c.hint) + ")"
			}
			if c.seconds != nil {
				xc.Time = strconv.FormatFloat(*c.seconds, 'f', 3, 64)
			}
			outcome := &xmlFailure{Message: xmlSafe(c.message), Type: c.status, Text: xmlSafe(c.details)}
			switch c.kind {
			case "error":
				xs.Errors++
				xc.Error = outcome
			case "failure":
				xs.Failures++
				xc.Failure = outcome
			}
			xs.Cases = append(xs.Cases, xc)
		}
		doc.Tests += xs.Tests
		doc.Failures += xs.Failures
		doc.Errors += xs.Errors
		doc.Suites = append(doc.Suites, xs)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	e := xml.NewEncoder(w)
	e.Indent("", "  ")
	if err := e.Encode(doc); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// xmlSafe drops what XML 1.0 forbids in a document (control characters but tab, line feed
// and carriage return; U+FFFE, U+FFFF; invalid UTF-8), which no escape can carry: an
// adapter's message with an ANSI escape would make the whole file unreadable.
func xmlSafe(s string) string {
	s = strings.ToValidUTF8(s, "")
	return strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' || r >= 0x20 && r <= 0xD7FF || r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 {
			return r
		}
		return -1
	}, s)
}

// writeFresh writes path through a temporary file beside it, synced and renamed over it.
func writeFresh(path string, write func(io.Writer) error) error {
	f, err := tempBeside(path)
	if err != nil {
		return err
	}
	defer os.Remove(f.Name()) // a no-op once renamed
	err = write(f)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err == nil {
		err = syncDir(filepath.Dir(path))
	}
	return err
}

// writeClash says why a file named by flag (--junit, report's -o) may not be written at p,
// or "": no file name, a folder that is not there (folderClash), a folder, something that
// is not a regular file (a device, a FIFO, a socket, which the rename would replace), or
// what forbidden refuses given files. What a run reads besides is readsClash's to refuse.
func writeClash(flag, p, ws string, files []guarded) string {
	if p == "" || p == "-" {
		return flag + " needs a file name"
	}
	info, err := os.Stat(p)
	switch {
	case err == nil && info.IsDir():
		return fmt.Sprintf("%s %s is a folder", flag, p)
	case err == nil && !info.Mode().IsRegular():
		return fmt.Sprintf("%s %s is not a regular file (a device, a FIFO or a socket), which writing it would replace with one; name a file", flag, p)
	}
	if why := forbidden(p, ws, files); why != "" {
		return flag + " " + p + " " + why
	}
	return folderClash(flag, p)
}
