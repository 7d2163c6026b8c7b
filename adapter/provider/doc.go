// Package provider implements the model AI-systems of the paper (§6, A.11): a benchmark's
// `ai-system: {type: model, provider, model, prompt, parameters}` evaluated through a
// provider's API, OpenAI's Chat Completions or Anthropic's Messages. Everything about the
// wire — endpoints, keys, retries, rate limits — is runtime configuration, never benchmark
// YAML.
//
// For each example the adapter renders the prompt file (template.go: a system part, and
// after a `---user---` line a user part with {{field}} placeholders, artifacts placed where
// they are named; a plain file is the system message and the input object, as name: value
// lines, the user message), asks for the program's output schema as structured output,
// and parses the reply leniently but never repairs it.
package provider
