package api

import (
	"net/url"
	"strconv"
	"strings"
)

// The results explorer: a run's results filtered and sorted, one example in full, its
// artifacts, charts and health. The filter is the query of GET /api/runs/{id}/results; its
// export (?format=) takes the same filter and has every value whole.

// Results query keys.
const (
	QStatus    = "status"    // valid, invalid_output or execution_error
	QImperfect = "imperfect" // "1": contribution below 1 (a score below 1, or no score)
	QWrong     = "wrong"     // a dimension's path joined by ".": valid examples whose field scored 0
	QCode      = "code"      // an error code: examples whose error has it
	QText      = "q"         // a case-insensitive substring of the input, expected output, prediction or error message
	QField     = "field"     // with QExpected and QPredicted: one cell of a confusion matrix (an enum dimension's path joined by ".")
	QExpected  = "expected"  // the expected enum value of the cell
	QPredicted = "predicted" // the predicted enum value of the cell
	QScoreMin  = "score_min" // with or without QScoreMax: valid results whose score s has score_min ≤ s (0 when left out)
	QScoreMax  = "score_max" // s < score_max, or s ≤ 1 for 1 (1 when left out); score_min=1&score_max=1 is exactly 1
	QSort      = "sort"      // "index" (the default) or "score" (contribution ascending, then index)
	QAfter     = "after"     // the index after which a page starts (the previous page's next)
	QLimit     = "limit"     // how many results a page has at most
	QExample   = "example"   // the web app's selected example (not an API key: the results page's URL)
)

// Sort orders.
const (
	SortIndex = "index"
	SortScore = "score"
)

// Filter selects a run's results. The zero Filter selects all of them, in index order.
type Filter struct {
	Status    string
	Imperfect bool
	Wrong     string // a dimension's path joined by "."
	Code      string
	Text      string
	Field     string // a confusion cell: the enum dimension, with Expected and Predicted
	Expected  string
	Predicted string
	ScoreMin  string // a score range (QScoreMin, QScoreMax): the text of a number in [0, 1]
	ScoreMax  string
	Sort      string
}

// Values is f as query values, the keys above; an empty field is left out.
func (f Filter) Values() url.Values {
	q := url.Values{}
	set := func(k, v string) {
		if v != "" {
			q.Set(k, v)
		}
	}
	set(QStatus, f.Status)
	if f.Imperfect {
		q.Set(QImperfect, "1")
	}
	set(QWrong, f.Wrong)
	set(QCode, f.Code)
	set(QText, f.Text)
	if f.Field != "" {
		q.Set(QField, f.Field)
		q.Set(QExpected, f.Expected)
		q.Set(QPredicted, f.Predicted)
	}
	set(QScoreMin, f.ScoreMin)
	set(QScoreMax, f.ScoreMax)
	if f.Sort != "" && f.Sort != SortIndex {
		q.Set(QSort, f.Sort)
	}
	return q
}

// FilterOf reads a Filter from query values (no checks: the server checks each value).
func FilterOf(q url.Values) Filter {
	return Filter{Status: q.Get(QStatus), Imperfect: q.Get(QImperfect) == "1", Wrong: q.Get(QWrong),
		Code: q.Get(QCode), Text: q.Get(QText), Field: q.Get(QField), Expected: q.Get(QExpected),
		Predicted: q.Get(QPredicted), ScoreMin: q.Get(QScoreMin), ScoreMax: q.Get(QScoreMax), Sort: q.Get(QSort)}
}

// IsZero reports whether f selects every result in index order.
func (f Filter) IsZero() bool { return f == Filter{} || f == Filter{Sort: SortIndex} }

// DimensionKey is a dimension's path as the filter names it.
func DimensionKey(path []string) string { return strings.Join(path, ".") }

// ExamplePath is one example of run id in full: GET answers an ExampleDetail.
func ExamplePath(id string, index int) string {
	return RunPath(id) + "/results/" + strconv.Itoa(index)
}

// ArtifactPath is an artifact the example index of run id references: p is the value of
// its field as the dataset row (input, expected) or the prediction (output) has it. p is
// one escaped segment (its slashes %2F): a browser resolves the dot segments of a URL
// before it asks, and the invoices' "../images/invoice-001.png" would lose its "..".
func ArtifactPath(id string, index int, p string) string {
	return RunPath(id) + "/artifacts/" + strconv.Itoa(index) + "/" + url.PathEscape(strings.TrimPrefix(p, "./"))
}

// ChartsPath is the charts of run id: GET answers Charts.
func ChartsPath(id string) string { return RunPath(id) + "/charts" }

// ExampleDetail is GET /api/runs/{id}/results/{index}: one example's result with its
// input and expected output, each value up to MaxDetail bytes (Clipped past it).
type ExampleDetail struct {
	Result
	// Artifacts maps each artifact value of the input, expected output and prediction
	// (the path as written) to the URL that serves it, when the server serves it; a value
	// it will not serve is missing, with why in ArtifactNotes.
	Artifacts     map[string]string `json:"artifacts,omitempty"`
	ArtifactNotes map[string]string `json:"artifact_notes,omitempty"`
	// Request is the request sent to a model, as rendered, when the run recorded it.
	Request string `json:"request,omitempty"`
	// Prev and Next are the neighbouring examples' indexes under the filter of the query
	// (-1 at an end), for j/k.
	Prev int `json:"prev"`
	Next int `json:"next"`
}

// MaxDetail bounds each value of an ExampleDetail.
const MaxDetail = 1 << 20

// Charts is GET /api/runs/{id}/charts: what the results page draws.
type Charts struct {
	Summary Summary `json:"summary"`
	// Histogram counts valid examples' scores in ten bins: [0, 0.1), ..., [0.9, 1), and
	// Histogram[10] the perfect ones (exactly 1).
	Histogram  []int       `json:"histogram"`
	Dimensions []Dimension `json:"dimensions"`
	// Codes counts the errors by code, most frequent first, each with one message of it.
	Codes []CodeCount `json:"codes"`
	// Confusion has one matrix per enum dimension, in declaration order (classify's label).
	Confusion []Confusion `json:"confusion"`
}

// CodeCount is how many examples had an error code, with the message of the first.
type CodeCount struct {
	Code    string `json:"code"`
	Status  string `json:"status"` // invalid_output or execution_error
	Count   int    `json:"count"`
	Message string `json:"message"`
}

// Health says whether a run is a score or failed infrastructure: Failed when most
// examples (more than half) are execution errors; Code, Message and Count are the most
// frequent execution error's, of Examples.
type Health struct {
	Failed   bool   `json:"failed"`
	Code     string `json:"code,omitempty"`
	Message  string `json:"message,omitempty"`
	Count    int    `json:"count,omitempty"`
	Examples int    `json:"examples"`
}

// FailedInfra is the one rule of run health: a run of examples results, executionErrors
// of them execution errors, failed as infrastructure when more than half are (its score
// then measures the setup, not the AI-system).
func FailedInfra(examples, executionErrors int) bool {
	return examples > 0 && 2*executionErrors > examples
}

// Sentence is the health as one line: "40 of 40 examples: provider_error: cannot reach ...".
func (h Health) Sentence() string {
	if h.Code == "" {
		return ""
	}
	return strconv.Itoa(h.Count) + " of " + strconv.Itoa(h.Examples) + " examples: " + h.Code + ": " + h.Message
}
