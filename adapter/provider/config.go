package provider

import (
	"fmt"
	"time"

	"github.com/benchy-eval/benchy/ir"
)

// Kind is a wire protocol.
type Kind string

const (
	KindOpenAI    Kind = "openai"    // Chat Completions, and every server that speaks it
	KindAnthropic Kind = "anthropic" // Messages
)

// Structured output modes: the output schema as a strict JSON Schema (default), or plain
// JSON mode for servers without schema support.
const (
	ModeJSONSchema = "json_schema"
	ModeJSONMode   = "json_mode"
)

// Config is one entry of the runtime file's providers mapping.
type Config struct {
	Name              string // the name benchmarks use in ai-system.provider
	Kind              Kind   // the wire protocol
	BaseURL           string // e.g. https://api.openai.com/v1
	APIKeyEnv         string // the environment variable holding the key; "" for none
	MaxConcurrency    int    // requests in flight at once, across workers; 0: no cap
	RequestsPerMinute int    // 0: no limit
	// TokensPerMinute bounds the input and output tokens of the provider's requests over any
	// minute, estimated before a request is sent and corrected by the usage its reply
	// reports (ratelimit.go); 0: no limit.
	TokensPerMinute  int
	MaxRetries       int           // retries after the first attempt: 0 for none (the runtime file's parser writes DefaultMaxRetries when it gives none)
	Timeout          time.Duration // per request
	StructuredOutput string        // ModeJSONSchema or ModeJSONMode
	CacheMode        string        // one of CacheModes; "" is CacheOff
	Batch            BatchConfig   // batch: true: the run goes through the provider's batch API (batch.go)
	// Prices are the runtime file's prices: per model name, what a million tokens cost
	// (cost.go). A model with none has no cost_usd.
	Prices map[string]Price
	// Cache is the response cache CacheMode uses: the run service sets it (the workspace
	// store's), never the runtime file. nil: none, and a mode other than off is refused.
	Cache Cache
}

// String shows the provider's name and kind, never its base URL, which may hold a token:
// a Config is part of a parsed runtime file, and is logged and printed as one.
func (c Config) String() string { return fmt.Sprintf("provider %q (%s)", c.Name, c.Kind) }

// GoString is String, so that %#v shows no secret either.
func (c Config) GoString() string { return c.String() }

// Defaults fill what a provider entry leaves out.
const (
	DefaultMaxRetries = 5
	DefaultTimeout    = 60 * time.Second
)

// DefaultBaseURL is the base URL of a kind's public API.
func DefaultBaseURL(k Kind) string {
	if k == KindAnthropic {
		return "https://api.anthropic.com"
	}
	return "https://api.openai.com/v1"
}

// withDefaults returns c with defaults filled in where a zero value means nothing (no base
// URL, no timeout, no mode). MaxRetries is not among them: zero retries is a setting.
func (c Config) withDefaults() Config {
	if c.BaseURL == "" {
		c.BaseURL = DefaultBaseURL(c.Kind)
	}
	c.MaxRetries = max(c.MaxRetries, 0)
	if c.Timeout <= 0 {
		c.Timeout = DefaultTimeout
	}
	if c.StructuredOutput == "" {
		c.StructuredOutput = ModeJSONSchema
	}
	return c
}

// Task is what an adapter needs from the benchmark: the AI-system, the program, and the
// prompt file's text ("" when the benchmark names none) and name, as its diagnostics show it.
type Task struct {
	System     ir.AISystem
	Input      ir.Field
	Output     ir.Field
	Prompt     string
	PromptFile string
}
