// Package engine runs a compiled benchmark (the IR, never YAML) against an AI-system through
// an adapter, and keeps the paper's three statuses apart (Appendix A.5–A.15): valid,
// invalid_output and execution_error.
//
// A run reads the JSONL dataset twice, streaming: first to validate every row (so a bad row
// aborts the run before any paid AI call), then to evaluate. Results are written as they
// complete, in index order, and summarised at the end; memory does not grow with the
// dataset.
package engine
