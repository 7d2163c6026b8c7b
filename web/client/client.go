package client

import (
	"context"
	"encoding/json"
	"net/url"
	"strconv"

	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/ontology"
)

// Client calls the API of the server the page came from. Its methods are the endpoints
// the app uses, each with the api type of its answer.
type Client struct{}

// Default is the client the pages use.
var Default = &Client{}

// call sends a request to the server's API and decodes a JSON answer into out (unless nil).
func call(ctx context.Context, method, path string, in, out any) error {
	var body []byte
	header := map[string]string{"Accept": "application/json"}
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return err
		}
		body = b
		header["Content-Type"] = "application/json"
	}
	res, err := fetch(ctx, method, path, header, body)
	if err != nil {
		return err
	}
	data, err := res.body(ctx)
	if err != nil || out == nil {
		return err
	}
	return json.Unmarshal(data, out)
}

// get reads path into a new T.
func get[T any](ctx context.Context, path string) (T, error) {
	var v T
	err := call(ctx, "GET", path, nil, &v)
	return v, err
}

// Ping asks for the head of the server's ontology (HEAD: no body to send, the shell probes
// every few seconds): nil when the server answers, an *Error when it refuses (401: the tab
// needs a token), another error when the server cannot be reached.
func (c *Client) Ping(ctx context.Context) error {
	return call(ctx, "HEAD", api.OntologyPath, nil, nil)
}

// Ontology is the registry the server's compiler checks against.
func (c *Client) Ontology(ctx context.Context) (ontology.Registry, error) {
	return get[ontology.Registry](ctx, api.OntologyPath)
}

// Benchmarks lists the workspace's benchmarks.
func (c *Client) Benchmarks(ctx context.Context) ([]api.Benchmark, error) {
	return get[[]api.Benchmark](ctx, api.BenchmarksPath)
}

// Benchmark reads the workspace benchmark at path p, compiled.
func (c *Client) Benchmark(ctx context.Context, p string) (api.BenchmarkFile, error) {
	return get[api.BenchmarkFile](ctx, api.BenchmarkPath(p))
}

// Bindings names the bindings and providers of the runtime file benchmark (a workspace
// path) binds through.
func (c *Client) Bindings(ctx context.Context, benchmark string) (api.Bindings, error) {
	return get[api.Bindings](ctx, api.BindingsFor(benchmark))
}

// RunsQuery filters a listing of runs; a zero field does not filter.
type RunsQuery struct {
	Benchmark string // the workspace path of the runs' benchmark
	IRHash    string // the IR hash of the runs
	// BenchmarkHash asks for the runs of one benchmark whatever their system; a server
	// that does not filter by it lists every run, so a caller checks each run's hash too.
	BenchmarkHash string
	Limit         int // at most this many, the newest first
}

func (q RunsQuery) values() url.Values {
	v := url.Values{}
	if q.Benchmark != "" {
		v.Set("benchmark", q.Benchmark)
	}
	if q.IRHash != "" {
		v.Set("ir_hash", q.IRHash)
	}
	if q.BenchmarkHash != "" {
		v.Set("benchmark_hash", q.BenchmarkHash)
	}
	if q.Limit > 0 {
		v.Set("limit", strconv.Itoa(q.Limit))
	}
	return v
}

// Runs lists the runs q selects, newest first.
func (c *Client) Runs(ctx context.Context, q RunsQuery) (api.Runs, error) {
	return get[api.Runs](ctx, api.RunsQueryPath(q.values()))
}

// Run reads run id.
func (c *Client) Run(ctx context.Context, id string) (api.Run, error) {
	return get[api.Run](ctx, api.RunPath(id))
}

// StartRun queues a run of the benchmark's own AI-system, or with req.Systems one run per
// system (their ids in Started.IDs, in the order of req.Systems).
func (c *Client) StartRun(ctx context.Context, req api.StartRun) (api.Started, error) {
	var out api.Started
	err := call(ctx, "POST", api.RunsPath, req, &out)
	return out, err
}

// Cancel cancels run id.
func (c *Client) Cancel(ctx context.Context, id string) error {
	return call(ctx, "POST", api.CancelPath(id), struct{}{}, nil)
}

// Resume queues run id again, for the examples it has no result for, within its budget.
func (c *Client) Resume(ctx context.Context, id string) (api.Started, error) {
	return c.ResumeWith(ctx, id, api.Resume{})
}

// ResumeWith is Resume with a larger budget (a run its budget stopped): req's zero fields
// keep the run's.
func (c *Client) ResumeWith(ctx context.Context, id string, req api.Resume) (api.Started, error) {
	var out api.Started
	err := call(ctx, "POST", api.ResumePath(id), req, &out)
	return out, err
}

// ResultsQuery selects a page of a run's results.
type ResultsQuery struct {
	Status string     // only examples of this status (api.Valid, ...); "" for all
	Filter api.Filter // the explorer's filter and sort; its Status, when set, wins over Status
	After  int        // the page after this index: a page's Next; FirstPage for the first
	Limit  int        // at most this many results; 0 for the server's default
}

// FirstPage is the After of the first page of results.
const FirstPage = -1

// Results reads a page of run id's results.
func (c *Client) Results(ctx context.Context, id string, q ResultsQuery) (api.ResultPage, error) {
	v := q.Filter.Values()
	if q.Limit > 0 {
		v.Set(api.QLimit, strconv.Itoa(q.Limit))
	}
	if q.After != FirstPage {
		v.Set(api.QAfter, strconv.Itoa(q.After))
	}
	if q.Status != "" && q.Filter.Status == "" {
		v.Set(api.QStatus, q.Status)
	}
	return get[api.ResultPage](ctx, api.ResultsPath(id, v))
}

// Example reads example index of run id in full, with its neighbours under filter f.
func (c *Client) Example(ctx context.Context, id string, index int, f api.Filter) (api.ExampleDetail, error) {
	path := api.ExamplePath(id, index)
	if v := f.Values(); len(v) > 0 {
		path += "?" + v.Encode()
	}
	return get[api.ExampleDetail](ctx, path)
}

// Charts reads what the results page of run id draws.
func (c *Client) Charts(ctx context.Context, id string) (api.Charts, error) {
	return get[api.Charts](ctx, api.ChartsPath(id))
}

// ExportPath is the server's export of run id in format (json, jsonl or csv), for a link.
func ExportPath(id, format string) string { return FilteredExportPath(id, format, api.Filter{}) }

// FilteredExportPath is the export of the results of run id that f selects.
func FilteredExportPath(id, format string, f api.Filter) string {
	v := f.Values()
	v.Set("format", format)
	return api.ResultsPath(id, v)
}

// Export reads the export of run id in format, with the tab's token, and its media type.
func (c *Client) Export(ctx context.Context, id, format string) ([]byte, string, error) {
	return c.FilteredExport(ctx, id, format, api.Filter{})
}

// FilteredExport reads the export of the results of run id that f selects.
func (c *Client) FilteredExport(ctx context.Context, id, format string, f api.Filter) ([]byte, string, error) {
	res, err := fetch(ctx, "GET", FilteredExportPath(id, format, f), nil, nil)
	if err != nil {
		return nil, "", err
	}
	data, err := res.body(ctx)
	if err != nil {
		return nil, "", err
	}
	return data, res.value.Get("headers").Call("get", "Content-Type").String(), nil
}

// Compare compares run b with run a.
func (c *Client) Compare(ctx context.Context, a, b string) (api.Comparison, error) {
	return get[api.Comparison](ctx, api.ComparePath(a, b))
}

// BoardQuery names a leaderboard: a workspace benchmark file (its newest dataset unless
// DatasetDigest says which), or a benchmark hash and dataset digest.
type BoardQuery struct {
	Benchmark     string // the workspace path of a benchmark file
	BenchmarkHash string // instead of Benchmark
	DatasetDigest string // "" for the newest dataset the benchmark's runs took
}

func (q BoardQuery) values() url.Values {
	v := url.Values{}
	for _, kv := range [][2]string{{"benchmark", q.Benchmark}, {"benchmark_hash", q.BenchmarkHash}, {"dataset_digest", q.DatasetDigest}} {
		if kv[1] != "" {
			v.Set(kv[0], kv[1])
		}
	}
	return v
}

// Leaderboard reads the leaderboard q names.
func (c *Client) Leaderboard(ctx context.Context, q BoardQuery) (api.Leaderboard, error) {
	return get[api.Leaderboard](ctx, api.LeaderboardFor(q.values()))
}

// GridQuery selects a page of a leaderboard's examples.
type GridQuery struct {
	Board  BoardQuery
	Filter string // api.FilterDisagree, api.FilterAllWrong, or "" for every example
	Status string // only examples some system answered with this status; "" for all
	After  int    // a page's Next; FirstPage for the first
	Limit  int    // at most this many examples; 0 for the server's default
}

// Grid reads a page of a leaderboard's examples, each system's prediction side by side.
func (c *Client) Grid(ctx context.Context, q GridQuery) (api.Grid, error) {
	v := q.Board.values()
	if q.Filter != "" {
		v.Set("filter", q.Filter)
	}
	if q.Status != "" {
		v.Set("status", q.Status)
	}
	if q.After != FirstPage {
		v.Set("after", strconv.Itoa(q.After))
	}
	if q.Limit > 0 {
		v.Set("limit", strconv.Itoa(q.Limit))
	}
	return get[api.Grid](ctx, api.GridFor(v))
}
