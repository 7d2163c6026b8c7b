package api

// Code names one kind of error answer of the API. Every code the server sends is a
// constant here, registered in Codes with its meaning; a server test fails when a handler
// answers with a code that is not. Diagnostic codes (diag.Codes) are used as they are
// where an answer is about a benchmark or the runtime file.
type Code string

// The API's error codes.
const (
	BadFormat            Code = "bad_format"
	BadPath              Code = "bad_path"
	BadRequest           Code = "bad_request"
	Busy                 Code = "busy"
	BindingUnusable      Code = "binding_unusable"
	CrossOrigin          Code = "cross_origin"
	DifferentBenchmarks  Code = "different_benchmarks"
	DifferentDatasets    Code = "different_datasets"
	DifferentLengths     Code = "different_lengths"
	EditConflict         Code = "edit_conflict"
	Executable           Code = "executable"
	ForbiddenHost        Code = "forbidden_host"
	Internal             Code = "internal"
	InvalidBenchmark     Code = "invalid_benchmark"
	InvalidYAML          Code = "invalid_yaml"
	JSONRequired         Code = "json_required"
	NotBenchmarkData     Code = "not_benchmark_data"
	NotCompleted         Code = "not_completed"
	NotFinished          Code = "not_finished"
	NotFound             Code = "not_found"
	NotRegular           Code = "not_regular"
	NotResumable         Code = "not_resumable"
	NotRunning           Code = "not_running"
	OtherProcess         Code = "other_process"
	OutOfStep            Code = "out_of_step"
	PreconditionRequired Code = "precondition_required"
	PrivateFile          Code = "private_file"
	QueueFull            Code = "queue_full"
	RunsProgram          Code = "runs_program"
	ShuttingDown         Code = "shutting_down"
	StoreError           Code = "store_error"
	SubmitFailed         Code = "submit_failed"
	TooLarge             Code = "too_large"
	Unauthorized         Code = "unauthorized"
	Unchecked            Code = "unchecked"
	UnknownExecutor      Code = "unknown_executor"
	Unreadable           Code = "unreadable"
	Unwritable           Code = "unwritable"
)

// Codes maps every error code of the API to its meaning: the one registry.
var Codes = map[Code]string{
	BadFormat:            "an export format other than json, jsonl or csv",
	BadPath:              "a workspace path that is not relative, has .. or a hidden folder, or is the wrong kind of file",
	BadRequest:           "a request body or query that is not what the endpoint takes",
	Busy:                 "more raw uploads at once than the server streams (half its connections), or more HTML reports than it builds at once (2); retry after Retry-After",
	BindingUnusable:      "the runtime file defines the AI-system, but it cannot be used here (a key's variable unset, say)",
	CrossOrigin:          "a browser request whose Origin is not one of this server's own origins",
	DifferentBenchmarks:  "two runs of different benchmarks (benchmark hashes: program, scoring, classification) cannot be compared",
	DifferentDatasets:    "two runs of one benchmark that took different datasets (dataset digests differ, or one was not recorded) cannot be compared",
	DifferentLengths:     "two runs of different numbers of examples cannot be compared",
	EditConflict:         "a save whose precondition fails: the file changed since the version If-Match names (or is gone), or If-None-Match: * creates a file that exists; the answer carries the file as it is (EditConflictError)",
	Executable:           "the upload or save would replace an executable file",
	ForbiddenHost:        "the Host header does not name this server (DNS rebinding, or a name not given with --allowed-host)",
	Internal:             "the server failed; its log says why, under the answer's request_id",
	InvalidBenchmark:     "a run of a benchmark that does not compile",
	InvalidYAML:          "a read of a workspace benchmark that is not valid UTF-8 (the compiler's invalid_yaml): JSON cannot carry its bytes, and the text is never handed out repaired",
	JSONRequired:         "a state-changing request whose body is not application/json (or octet-stream, for an upload)",
	NotBenchmarkData:     "an upload or save of a file the API does not write: code, configuration, or an unknown type",
	NotCompleted:         "a comparison of a run that is not completed",
	NotFinished:          "a JSON export of a run without a report",
	NotFound:             "no such endpoint, benchmark or run",
	NotRegular:           "a workspace path that is not a regular file (a FIFO, a device, a folder)",
	NotResumable:         "a resume of a run that is neither interrupted nor cancelled",
	NotRunning:           "a cancel of a run that is neither queued nor running",
	OtherProcess:         "a cancel of a run another live process (a benchy run) executes: stop it there",
	OutOfStep:            "two runs whose examples do not line up",
	PreconditionRequired: "a save over an existing benchmark without If-Match (the etag of the version it replaces) or If-None-Match: * (create only)",
	PrivateFile:          "a read of a benchmark that is a runtime file (by a link, a hard link or its text: bindings, providers or executors at its top), a link to a hidden file, or a file with more than one name: never shown",
	QueueFull:            "a run beyond the queue's bound (MaxQueued waiting beside --max-runs running); retry after Retry-After",
	RunsProgram:          "the upload or save would replace a file a binding's command names",
	ShuttingDown:         "the server is stopping and takes no more runs",
	StoreError:           "the run store failed; the server's log says why, under the answer's request_id",
	SubmitFailed:         "a run on a cluster executor that the cluster refused (sbatch's answer says why); the run is recorded interrupted",
	TooLarge:             "a request body or workspace file over the server's limit",
	Unauthorized:         "the server has a token and the request does not carry it",
	Unchecked:            "an upload or save the server cannot check against what the bindings run (too many files to walk, a runtime file too large)",
	UnknownExecutor:      "a run on an executor the benchmark's runtime file does not define",
	Unreadable:           "a workspace file that cannot be read",
	Unwritable:           "a workspace file that cannot be written",
}

// EditConflictError is the answer 412 edit_conflict of PUT /api/benchmarks/{path}: the
// file as it is on disk, so that the editor can show it beside the draft and let the user
// choose, and its etag, to overwrite it with If-Match. YAML and ETag are empty when the
// file does not exist.
type EditConflictError struct {
	Error
	YAML string `json:"yaml"`
	ETag string `json:"etag"`
}

// Registered reports whether c is one of the API's error codes.
func Registered(c Code) bool {
	_, ok := Codes[c]
	return ok
}

// Error is the body of every error answer: {"error": {"code", "message"}}, and a
// "request_id" in the answer of a failure of the server itself (a 5xx).
type Error struct {
	Error ErrorDetail `json:"error"`
}

// ErrorDetail is what an error answer says: a registered code (or a diagnostic's) and a
// sentence for people. A failure of the server itself says only "internal error", and
// RequestID names the line of the server's log that says why (also the X-Request-Id
// header).
type ErrorDetail struct {
	Code      Code   `json:"code"`
	Message   string `json:"message"`
	RequestID string `json:"request_id,omitempty"`
}
