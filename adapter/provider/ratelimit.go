package provider

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// Rate limits (issue 16 item 4). A provider's limits are its account's, not a run's: every
// worker of every run in the process that sends to the same provider draws on one
// limiter. A limiter holds
//   - the runtime file's requests_per_minute, as requests spaced evenly (never more than
//     the limit in any minute, nor a burst a provider enforcing it per second refuses);
//   - its tokens_per_minute, paced evenly (a request's tokens spaced at the limit's rate,
//     a second's worth ahead at most: no burst of a minute's tokens that a provider
//     enforcing the limit per second refuses), within a sliding window of the tokens each request reserved when
//     it was admitted (never more than the limit within any minute), the reservation
//     replaced by the input and output tokens the reply reports, counted from when the
//     request reached the provider at the latest: its reply, or arrivalSlack after it was
//     admitted if that is sooner. The provider counts a request when it arrives, and a
//     request delayed on its way must not meet, inside the provider's minute, one
//     admitted just as it left ours;
//   - the provider's own word, read from every reply's headers: a limit whose remaining
//     count is 0 holds every request until its reset, and a 429's Retry-After holds every
//     request not already waiting it out;
//   - the requests in flight: max_concurrency, halved on repeated 429s (at least 1) and
//     raised again by one per window of successes (AIMD).
//
// A limiter is known by the endpoint its requests go to (the base URL joined with the
// protocol's path, any credentials in it masked), the protocol, and a hash of the key:
// what a provider's limits belong to. Two runtime-file entries naming the same account
// differently share one; two keys on one gateway do not. Its settings are those of the
// provider entry that last used it (a runtime file edited between two runs of a server
// takes effect at the next).

// arrivalSlack is how long after its admission a request is taken to have reached the
// provider at the latest, when its reply comes later (a model's answer takes seconds):
// counting its tokens from the reply would cost a minute's budget the reply's latency.
const arrivalSlack = 500 * time.Millisecond

// maxWait bounds any wait a reply asks for, as retryAfter does: a reset hours away (a daily
// limit) is asked about again after it.
const maxWait = 5 * time.Minute

// ratioMemory is how many recent replies calibrate the token estimate: the largest ratio of
// reported to estimated tokens among them scales the next estimates.
const ratioMemory = 64

// The reasons a request waits for the rate limit, as the progress line shows them.
const (
	whyRequests   = "requests per minute"
	whyTokens     = "tokens per minute"
	whyRetryAfter = "the provider's Retry-After"
	whyTooMany    = "the provider's 429 Too Many Requests"
)

// limiters is the process's registry of limiters, by identity (limiterKey).
var limiters = struct {
	sync.Mutex
	m map[string]*limiter
}{m: map[string]*limiter{}}

// limiterKey is the identity of the limiter for requests of kind to endpoint (its
// credentials masked) with key.
func limiterKey(kind Kind, endpoint, key string) string {
	sum := sha256.Sum256([]byte(key))
	return string(kind) + " " + endpoint + " " + hex.EncodeToString(sum[:8])
}

// sharedLimiter is the process's limiter for that identity, made on first use, set to cfg.
func sharedLimiter(id string, cfg Config) *limiter {
	limiters.Lock()
	defer limiters.Unlock()
	l := limiters.m[id]
	if l == nil {
		l = newLimiter(time.Now)
		limiters.m[id] = l
	}
	l.configure(cfg.MaxConcurrency, cfg.RequestsPerMinute, cfg.TokensPerMinute)
	return l
}

// Waiting says whether requests of this process wait for a provider's rate limit: since
// when the longest-waiting provider's requests have and why ("tokens per minute"). benchy
// run, which runs one benchmark at a time, shows it on its progress line.
func Waiting() (since time.Time, why string, ok bool) {
	limiters.Lock()
	all := make([]*limiter, 0, len(limiters.m))
	for _, l := range limiters.m {
		all = append(all, l)
	}
	limiters.Unlock()
	for _, l := range all {
		if s, w, waiting := l.Waiting(); waiting && (!ok || s.Before(since)) {
			since, why, ok = s, w, true
		}
	}
	return since, why, ok
}

// Waiter is what waits for a rate limit: the adapters of a model AI-system.
type Waiter interface {
	// Waiting says whether requests wait for the rate limit, since when, and why.
	Waiting() (since time.Time, why string, ok bool)
}

// Waiting says whether the requests of a's provider (of every run sending to it) wait for
// its rate limit. Before a's first request it knows of none.
func (a *modelAdapter) Waiting() (since time.Time, why string, ok bool) {
	if l := a.c.lim.Load(); l != nil {
		return l.l.Waiting()
	}
	return time.Time{}, "", false
}

// boundLimiter is a client's limiter with the endpoint it was looked up for.
type boundLimiter struct {
	url string
	l   *limiter
}

// limiter returns the shared limiter for requests to url: looked up once per client and
// endpoint.
func (c *client) limiter(url string) *limiter {
	if b := c.lim.Load(); b != nil && b.url == url {
		return b.l
	}
	b := &boundLimiter{url: url, l: sharedLimiter(limiterKey(c.cfg.Kind, c.secrets.String(url), c.key), c.cfg)}
	c.lim.Store(b)
	return b.l
}

// requestTokens is a request's token estimate before calibration: estimateTokens' expected
// input. Its output is not known before the reply; the calibration (limiter.estimate)
// learns it from the replies.
func requestTokens(body *requestBody) int {
	if body.tokens == 0 { // once a request: a retry sends the same body (an image's header is read again otherwise)
		body.tokens = max(estimateTokens(body, nil).Expected, 1)
	}
	return body.tokens
}

// replyTokens is what a reply reports it used, input and output: OpenAI's prompt and
// completion tokens, Anthropic's input tokens (cache writes included; cache reads do not
// count toward its limits) and output tokens.
func replyTokens(body []byte) (int, bool) {
	var r struct {
		Usage *struct {
			PromptTokens             int `json:"prompt_tokens"`
			CompletionTokens         int `json:"completion_tokens"`
			InputTokens              int `json:"input_tokens"`
			CacheCreationInputTokens int `json:"cache_creation_input_tokens"`
			OutputTokens             int `json:"output_tokens"`
		} `json:"usage"`
	}
	if json.Unmarshal(body, &r) != nil || r.Usage == nil {
		return 0, false
	}
	u := r.Usage
	n := u.PromptTokens + u.CompletionTokens + u.InputTokens + u.CacheCreationInputTokens + u.OutputTokens
	return n, n > 0
}

// ticket is one admitted request.
type ticket struct {
	at    time.Time     // when it was admitted
	raw   int           // the estimate before calibration
	cost  time.Duration // the tokens' share of the pace
	spent *spent        // its reservation in the tokens window while it is in flight; nil: none
}

// spent is tokens in the tokens window since a time: a request's reservation while it is in
// flight (live), what its reply reported from the reply on.
type spent struct {
	at     time.Time
	tokens int
	live   *ticket
}

// hold is a wait the provider asked for: until a time, for a reason.
type hold struct {
	until time.Time
	why   string
}

// limiter is one provider's shared limits (see the top of this file). Its core, admit and
// settle, takes the time as an argument, so that a test can run it on a clock of its own.
type limiter struct {
	mu     sync.Mutex
	now    func() time.Time
	window time.Duration // of the tokens limit: a minute; tests shorten it
	queue  []*turn       // the requests waiting, in the order they first asked (queue.go)
	seq    uint64        // the last place given

	ceiling, rpm, tpm int // the runtime file's limits; 0: none

	nextRequest time.Time // the earliest the next request may go under rpm

	paced   time.Time // when the tokens admitted so far are spent at the limit's pace
	spent   []*spent  // the tokens window, oldest first, from head
	head    int
	sum     int // of spent[head:]
	replied bool
	ratios  [ratioMemory]float64
	nratio  int

	holds map[string]hold // the provider's: a limit at 0 until its reset, by reason
	pause time.Time       // a 429's Retry-After, for requests not already waiting it out

	inflight  int
	allowed   float64 // AIMD's cap on the requests in flight; 0: none
	peak      int     // the requests in flight when AIMD first cut them, without a ceiling
	strikes   int     // 429s since the last success or cut
	decreased time.Time

	waiters    int // requests waiting for the rate limit (not only for a slot)
	waitSince  time.Time
	waitReason string
}

func newLimiter(now func() time.Time) *limiter {
	return &limiter{now: now, window: time.Minute, holds: map[string]hold{}}
}

func (l *limiter) configure(ceiling, rpm, tpm int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.ceiling, l.rpm, l.tpm = ceiling, rpm, tpm
	l.wake()
}

// wake lets the first waiter look again, with l.mu held: only it may go.
func (l *limiter) wake() {
	if len(l.queue) > 0 {
		select {
		case l.queue[0].ready <- struct{}{}:
		default: // already told
		}
	}
}

// Waiting says whether requests wait for the rate limit, since when, and why.
func (l *limiter) Waiting() (since time.Time, why string, ok bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.waitSince, l.waitReason, l.waiters > 0
}

// startWait and endWait count the requests waiting for the rate limit, with l.mu held.
func (l *limiter) startWait(now time.Time) {
	if l.waiters == 0 {
		l.waitSince = now
	}
	l.waiters++
}

func (l *limiter) endWait() {
	if l.waiters--; l.waiters == 0 {
		l.waitSince, l.waitReason = time.Time{}, ""
	}
}

// pausing counts a request sleeping before its retry as waiting for the rate limit, until
// the returned function is called.
func (l *limiter) pausing(why string) func() {
	l.mu.Lock()
	l.startWait(l.now())
	l.waitReason = why
	l.mu.Unlock()
	return func() {
		l.mu.Lock()
		l.endWait()
		l.mu.Unlock()
	}
}

// admit lets a request of raw estimated tokens go at now, with its ticket; or says until
// when it cannot (zero: until something changes) and, when a rate limit holds it rather
// than the cap on requests in flight, why.
func (l *limiter) admit(now time.Time, raw int, retrying bool) (*ticket, time.Time, string) {
	if c := l.capacity(); c > 0 && l.inflight >= c {
		return nil, time.Time{}, ""
	}
	if l.tpm > 0 && !l.replied && l.inflight > 0 {
		return nil, time.Time{}, "" // the first reply calibrates the estimates: one request until then
	}
	var held hold
	for _, h := range l.holds {
		if h.until.After(now) && h.until.After(held.until) {
			held = h
		}
	}
	if !retrying && l.pause.After(now) && l.pause.After(held.until) {
		held = hold{l.pause, whyRetryAfter}
	}
	if !held.until.IsZero() {
		return nil, held.until, held.why
	}
	if l.rpm > 0 && l.nextRequest.After(now) {
		return nil, l.nextRequest, whyRequests
	}
	t := &ticket{at: now, raw: raw}
	if l.tpm > 0 {
		l.expire(now)
		n := min(l.estimate(raw), l.tpm) // a request larger than a minute's goes alone
		if ahead := l.window / 60; l.paced.Sub(now) > ahead {
			return nil, l.paced.Add(-ahead), whyTokens
		}
		if l.sum+n > l.tpm {
			return nil, l.freed(l.sum + n - l.tpm), whyTokens
		}
		t.cost = l.pace(n)
		l.paced = later(l.paced, now).Add(t.cost)
		t.spent = &spent{at: now, tokens: n, live: t}
		l.spent = append(l.spent, t.spent)
		l.sum += n
	}
	if l.rpm > 0 {
		l.nextRequest = now.Add(time.Minute / time.Duration(l.rpm))
	}
	l.inflight++
	return t, time.Time{}, ""
}

// pace is the time n tokens take at the limit's rate.
func (l *limiter) pace(n int) time.Duration {
	return time.Duration(float64(n) * float64(l.window) / float64(l.tpm))
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// capacity is the cap on requests in flight: max_concurrency, or AIMD's below it; 0: none.
func (l *limiter) capacity() int {
	c := l.ceiling
	if l.allowed > 0 && (c == 0 || int(l.allowed) < c) {
		c = int(l.allowed)
	}
	return c
}

// expire drops the tokens that left the window. A request in flight for longer than the
// window stays in it, as if sent now.
func (l *limiter) expire(now time.Time) {
	cut := now.Add(-l.window)
	for l.head < len(l.spent) && !l.spent[l.head].at.After(cut) {
		s := l.spent[l.head]
		if s.live != nil {
			moved := &spent{at: now, tokens: s.tokens, live: s.live}
			s.live.spent = moved
			l.spent = append(l.spent, moved)
		} else {
			l.sum -= s.tokens
		}
		l.spent[l.head] = nil
		l.head++
	}
	if l.head > 64 && l.head*2 > len(l.spent) {
		l.spent = append(l.spent[:0], l.spent[l.head:]...)
		l.head = 0
	}
}

// freed is when the window will have let go of need tokens; zero when that takes replies
// to requests in flight, which wake the waiters.
func (l *limiter) freed(need int) time.Time {
	for _, s := range l.spent[l.head:] {
		if s.live != nil {
			continue
		}
		if need -= s.tokens; need <= 0 {
			return s.at.Add(l.window)
		}
	}
	return time.Time{}
}

// estimate is raw scaled by the largest ratio of reported to estimated tokens among the
// recent replies (1 before any), so that a request reserves what it will likely use.
func (l *limiter) estimate(raw int) int {
	r := 1.0
	if n := min(l.nratio, ratioMemory); n > 0 {
		r = 0
		for _, x := range l.ratios[:n] {
			r = max(r, x)
		}
	}
	return max(int(math.Ceil(float64(raw)*r)), 1)
}

// tokensPerMinute is the tokens limit; 0: none, and a request's tokens need no estimate.
func (l *limiter) tokensPerMinute() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.tpm
}

// leave ends an admitted request: status 0 when no reply came. The limit is read under
// the lock: another run's configure may be setting it.
func (l *limiter) leave(t *ticket, status int, header http.Header, body []byte) {
	used, ok := 0, false
	if status >= 200 && status < 300 && l.tokensPerMinute() > 0 {
		used, ok = replyTokens(body)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.settle(l.now(), t, status, header, used, ok)
}

// settle takes a request's reply into account at now: the tokens it reports (when ok),
// its status and its rate-limit headers.
func (l *limiter) settle(now time.Time, t *ticket, status int, header http.Header, used int, ok bool) {
	l.inflight--
	l.replied = true
	if s := t.spent; s != nil {
		n := s.tokens // what a reply that reports nothing may have used
		if ok {
			n = used
		}
		l.sum += n - s.tokens
		l.paced = l.paced.Add(l.pace(n) - t.cost)
		s.tokens, s.live, t.spent = 0, nil, nil
		at := now
		if arrived := t.at.Add(arrivalSlack); arrived.Before(at) {
			at = arrived
		}
		if last := l.spent[len(l.spent)-1]; at.Before(last.at) {
			at = last.at // kept in order: counted a little longer
		}
		l.spent = append(l.spent, &spent{at: at, tokens: n})
	}
	if ok {
		l.ratios[l.nratio%ratioMemory] = min(max(float64(used)/float64(max(t.raw, 1)), 1.0/64), 64)
		l.nratio++
	}
	for _, h := range readLimits(header, now) {
		if cur := l.holds[h.why]; h.until.After(cur.until) {
			l.holds[h.why] = h
		}
	}
	switch {
	case status == http.StatusTooManyRequests:
		if d := retryAfterHeaders(header); d > 0 && now.Add(d).After(l.pause) {
			l.pause = now.Add(d)
		}
		l.backOff(now, t)
	case status >= 200 && status < 300:
		l.strikes = 0
		l.recover()
	}
	l.wake()
}

// backOff halves the requests in flight on the second 429 in a row, at least 1. A 429 to a
// request admitted before the last cut says nothing of the cut: it was sent under the old
// cap.
func (l *limiter) backOff(now time.Time, t *ticket) {
	if !t.at.After(l.decreased) && !l.decreased.IsZero() {
		return
	}
	if l.strikes++; l.strikes < 2 {
		return
	}
	c := l.capacity()
	if c == 0 {
		c = l.inflight + 1 // this request's, which left
		l.peak = max(l.peak, c)
	}
	l.allowed = max(float64(c)/2, 1)
	l.strikes, l.decreased = 0, now
}

// recover raises AIMD's cap by one per cap's worth of successes, and lifts it once it is
// back at max_concurrency (or at the requests in flight it first cut, without one).
func (l *limiter) recover() {
	if l.allowed == 0 {
		return
	}
	l.allowed += 1 / l.allowed
	if top := l.ceiling; (top > 0 && l.allowed >= float64(top)) || (top == 0 && l.allowed >= float64(l.peak)) {
		l.allowed, l.peak = 0, 0
	}
}

// The providers' rate-limit headers, as documented:
//   - OpenAI (platform.openai.com/docs/guides/rate-limits, "Rate limits in headers"):
//     x-ratelimit-remaining-requests and -tokens, counts; x-ratelimit-reset-requests and
//     -tokens, "the time until the rate limit resets to its initial state" as a duration
//     ("1s", "6m0s", "20ms"); Azure OpenAI sends seconds, and -1 for unknown counts;
//   - Anthropic (docs.anthropic.com/en/api/rate-limits, "Response headers"):
//     anthropic-ratelimit-{requests,tokens,input-tokens,output-tokens}-remaining (tokens
//     rounded to the nearest thousand) and -reset, "when the limit will be fully
//     replenished, in RFC 3339 format"; retry-after, seconds;
//   - retry-after-ms, milliseconds, which OpenAI's SDKs read before retry-after.
//
// A count that is not a whole number of at least 0, and a reset that is not a duration, a
// number of seconds or an RFC 3339 time, are ignored; a reset is at most maxWait away.
var limitHeaders = []struct{ remaining, reset, what string }{
	{"X-Ratelimit-Remaining-Requests", "X-Ratelimit-Reset-Requests", "requests"},
	{"X-Ratelimit-Remaining-Tokens", "X-Ratelimit-Reset-Tokens", "tokens"},
	{"Anthropic-Ratelimit-Requests-Remaining", "Anthropic-Ratelimit-Requests-Reset", "requests"},
	{"Anthropic-Ratelimit-Tokens-Remaining", "Anthropic-Ratelimit-Tokens-Reset", "tokens"},
	{"Anthropic-Ratelimit-Input-Tokens-Remaining", "Anthropic-Ratelimit-Input-Tokens-Reset", "input tokens"},
	{"Anthropic-Ratelimit-Output-Tokens-Remaining", "Anthropic-Ratelimit-Output-Tokens-Reset", "output tokens"},
}

// readLimits is the holds a reply's headers ask for at now: each limit at 0 until its reset.
func readLimits(h http.Header, now time.Time) []hold {
	var out []hold
	for _, lh := range limitHeaders {
		v := h[lh.remaining]
		if len(v) == 0 {
			continue
		}
		if n, ok := remaining(v[0]); !ok || n > 0 {
			continue
		}
		if r := h[lh.reset]; len(r) > 0 {
			if d, ok := resetIn(r[0], now); ok && d > 0 {
				out = append(out, hold{now.Add(d), "the provider's " + lh.what + " limit"})
			}
		}
	}
	return out
}

// remaining reads a remaining count: a whole number of at least 0.
func remaining(v string) (int64, bool) {
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		if f, ferr := strconv.ParseFloat(v, 64); ferr == nil && f >= 0 && f == math.Trunc(f) {
			return int64(min(f, math.MaxInt64/2)), true // beyond int64: many left
		}
		return 0, false
	}
	return n, n >= 0
}

// resetIn reads a reset: a duration ("6m0s", "20ms"), seconds ("12", "0.5") or an RFC 3339
// time, as the time from now, at most maxWait.
func resetIn(v string, now time.Time) (time.Duration, bool) {
	if d, err := time.ParseDuration(v); err == nil {
		return min(max(d, 0), maxWait), d >= 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 && !math.IsInf(s, 0) {
		return min(time.Duration(min(s, maxWait.Seconds())*float64(time.Second)), maxWait), true
	}
	if t, err := time.Parse(time.RFC3339Nano, v); err == nil {
		return min(max(t.Sub(now), 0), maxWait), true
	}
	return 0, false
}

// retryAfterHeaders is the wait a reply asks for before a retry: retry-after-ms, else
// retry-after (retryAfter); 0 for none. At most maxWait.
func retryAfterHeaders(h http.Header) time.Duration {
	if v := h["Retry-After-Ms"]; len(v) > 0 {
		if ms, err := strconv.ParseFloat(v[0], 64); err == nil && ms >= 0 && !math.IsInf(ms, 0) {
			return min(time.Duration(min(ms, maxWait.Seconds()*1000)*float64(time.Millisecond)), maxWait)
		}
	}
	return retryAfter(h.Get("Retry-After"))
}
