// Package adapter binds an AI-system to the engine at run time (Appendix A.10, A.11). A
// runtime file, never the benchmark, says how to reach each external system: a command
// started once per worker and spoken to in JSON lines, or an HTTP endpoint that takes the
// input object and answers with the output. Package adapter/runtimefile reads that file
// into plain data with diagnostics; this package binds it (Runtime) and runs the adapters.
//
// The adapters keep the paper's failure kinds apart. A system that says it failed, crashes,
// breaks the line protocol or cannot be reached is an execution_error (adapter_error or
// provider_error); one that does not answer in time is a timeout; one that answers with
// something that is not JSON is an invalid_output. Whether a JSON answer fits the schema is
// the engine's question, not the adapter's.
package adapter
