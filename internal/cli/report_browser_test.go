package cli_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// TestBrowserReportOffline: the HTML report of the invoice run, opened from disk (file://)
// in Chromium with the network off (every host unresolvable, a proxy that is not there),
// shows the score and counts `benchy runs show` has for the run, asks for nothing but
// the file itself, and runs no script.
func TestBrowserReportOffline(t *testing.T) {
	const chromium = "/usr/bin/chromium"
	if testing.Short() {
		t.Skip("browser test: starts Chromium")
	}
	if _, err := os.Stat(chromium); err != nil {
		if os.Getenv("BENCHY_BROWSER") == "1" {
			t.Fatal("install chromium (apt-get install -y chromium)")
		}
		t.Skip("no Chromium")
	}
	dir := invoiceRun(t)
	code, _, stderr := runBenchy(t, "run", "-o", filepath.Join(dir, "results.json"), filepath.Join(dir, "benchmark.yaml"))
	m := storedLine.FindStringSubmatch(stderr)
	if code != 0 || m == nil {
		t.Fatalf("run: exit %d\n%s", code, stderr)
	}
	id := m[1]
	code, out, stderr := benchyIn(t, dir, "runs", "show", id)
	if code != 0 {
		t.Fatalf("runs show: exit %d\n%s", code, stderr)
	}
	var shown struct {
		Summary struct {
			Examples        int `json:"examples"`
			Valid           int `json:"valid"`
			InvalidOutputs  int `json:"invalid_outputs"`
			ExecutionErrors int `json:"execution_errors"`
		} `json:"summary"`
		Report struct {
			Score float64 `json:"benchmark_score"`
		} `json:"report"`
	}
	if err := json.Unmarshal([]byte(out), &shown); err != nil {
		t.Fatal(err)
	}
	html := filepath.Join(dir, "report.html")
	if code, _, stderr := benchyIn(t, dir, "report", id, "-o", html); code != 0 {
		t.Fatalf("report: exit %d\n%s", code, stderr)
	}

	var mu sync.Mutex
	var requests, problems []string
	deadline, cancelDeadline := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancelDeadline()
	alloc, cancelAlloc := chromedp.NewExecAllocator(deadline,
		chromedp.ExecPath(chromium),
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND"), // the network off: no name resolves,
		chromedp.Flag("proxy-server", "127.0.0.1:9"),            // and every request goes nowhere
		chromedp.Flag("blink-settings", "scriptEnabled=false"),  // the page must read without script
		chromedp.UserDataDir(t.TempDir()),
	)
	defer cancelAlloc()
	ctx, cancel := chromedp.NewContext(alloc)
	defer cancel()
	if err := chromedp.Listen(ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch ev := ev.(type) {
		case *network.EventRequestWillBeSent:
			requests = append(requests, ev.Request.URL)
		case *runtime.EventExceptionThrown:
			problems = append(problems, ev.ExceptionDetails.Text)
		}
	}); err != nil {
		t.Fatalf("starting Chromium: %v", err)
	}
	url := "file://" + html
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		t.Fatalf("opening %s: %v", url, err)
	}
	text := func(selector string) string {
		v, err := chromedp.Run(ctx, chromedp.Evaluate[string](fmt.Sprintf(`(document.querySelector(%q) || {textContent: "missing"}).textContent`, selector)))
		if err != nil {
			t.Fatalf("reading %s: %v", selector, err)
		}
		return strings.TrimSpace(v)
	}
	if got, want := text("[data-score]"), fmt.Sprintf("%.4f", shown.Report.Score); got != want {
		t.Errorf("score shown %q, runs show %s", got, want)
	}
	for _, c := range []struct {
		name string
		n    int
	}{{"examples", shown.Summary.Examples}, {"valid", shown.Summary.Valid}, {"invalid_output", shown.Summary.InvalidOutputs}, {"execution_error", shown.Summary.ExecutionErrors}} {
		got := strings.Fields(text(`[data-count="` + c.name + `"]`))
		if len(got) == 0 || got[0] != fmt.Sprint(c.n) {
			t.Errorf("%s shown %q, runs show %d", c.name, got, c.n)
		}
	}
	if got := text("[data-run] h3"); !strings.Contains(got, id) {
		t.Errorf("the run's heading %q lacks its id", got)
	}
	if n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll(".example").length`)); err != nil || n == 0 {
		t.Errorf("no failing example shown (%d, %v)", n, err)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, r := range requests {
		if r != url {
			t.Errorf("the report asked for %s", r)
		}
	}
	if len(problems) > 0 {
		t.Errorf("exceptions: %q", problems)
	}
}
