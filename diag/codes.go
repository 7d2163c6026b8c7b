package diag

// Code names one kind of problem. Every code Benchy emits is registered in Codes; a test
// fails when a diagnostic carries a code that is not.
type Code string

// The codes of the paper's Appendix A.16, plus the few Benchy adds where the paper leaves a
// case open. Compile-time codes come first, then run-time ones.
const (
	InvalidYAML                Code = "invalid_yaml"
	DuplicateKey               Code = "duplicate_key"
	UnknownKey                 Code = "unknown_key"
	MissingKey                 Code = "missing_key"
	UnsupportedVersion         Code = "unsupported_version"
	UnsupportedOntologyVersion Code = "unsupported_ontology_version"
	UnknownTask                Code = "unknown_task"
	UnsupportedTask            Code = "unsupported_task"
	UnknownDomain              Code = "unknown_domain"
	UnknownLanguage            Code = "unknown_language"
	TaskProgramMismatch        Code = "task_program_mismatch"
	InvalidSchema              Code = "invalid_schema"
	MissingWeight              Code = "missing_weight"
	ExtraWeight                Code = "extra_weight"
	InvalidWeight              Code = "invalid_weight"
	InvalidValue               Code = "invalid_value"
	TooLarge                   Code = "too_large"
	TooDeep                    Code = "too_deep"
	TooManyDiagnostics         Code = "too_many_diagnostics"
	UnplacedComment            Code = "unplaced_comment" // benchy fmt's own: the file compiles as it is

	DataNotFound         Code = "data_not_found"
	InvalidDatasetRecord Code = "invalid_dataset_record"
	DatasetChanged       Code = "dataset_changed"
	RequestTooLarge      Code = "request_too_large"
	ArtifactNotFound     Code = "artifact_not_found"
	MissingField         Code = "missing_field"
	ExtraField           Code = "extra_field"
	WrongType            Code = "wrong_type"
	InvalidEnum          Code = "invalid_enum"
	AdapterError         Code = "adapter_error"
	Timeout              Code = "timeout"
	ProviderError        Code = "provider_error"
	CacheMiss            Code = "cache_miss"
	BudgetUnusable       Code = "budget_unusable"
	MissingBinding       Code = "missing_binding"
	InvalidRuntime       Code = "invalid_runtime"

	// A merge of a sharded run's shards (shard.Set.Report) refuses shards that are not
	// the run's, each code naming what differs.
	ShardIRMismatch      Code = "shard_ir_mismatch"
	ShardSystemMismatch  Code = "shard_system_mismatch"
	ShardBindingMismatch Code = "shard_binding_mismatch"
	ShardDatasetMismatch Code = "shard_dataset_mismatch"
	ShardResultMismatch  Code = "shard_result_mismatch"
)

// Codes maps every registered code to its one-line meaning.
var Codes = map[Code]string{
	InvalidYAML:                "the text is not YAML Benchy accepts: a syntax error, invalid UTF-8, a character YAML excludes, several documents, an anchor, alias, merge key, tag or directive",
	DuplicateKey:               "a mapping names the same key twice",
	UnknownKey:                 "a key the language does not define at that place",
	MissingKey:                 "a required key is absent",
	UnsupportedVersion:         `version is not the string "1.0"`,
	UnsupportedOntologyVersion: `ontology_version is not the string "1.0"`,
	UnknownTask:                "benchmark.task is not a task of the ontology registry",
	UnsupportedTask:            "the registry knows the task but this Benchy has no program validator for it",
	UnknownDomain:              "benchmark.domain is not a domain of the ontology registry",
	UnknownLanguage:            "a language is not an ISO 639-1 code of the ontology registry",
	TaskProgramMismatch:        "the program, or the language form, does not fit the task's structural rule",
	InvalidSchema:              "the program breaks the schema grammar: empty mappings, unknown types, lists, null, bad enums or field names",
	MissingWeight:              "a leaf output field has no weight",
	ExtraWeight:                "a weight names something that is not an output field",
	InvalidWeight:              "a weight is not a finite number >= 0, sits on an intermediate object, or all weights are zero",
	InvalidValue:               "a value outside the allowed set or form (aggregator, ai-system, data, parameters)",
	TooLarge:                   "the file is beyond what Benchy reads: more than 1 MiB, more than 100,000 YAML tokens, or mappings too large for the YAML reader it needs; or a value past its bound (an AI-system's id, provider or model over 256 bytes, more than 64 parameters, a parameter name over 128 bytes or value over 4096, a path over 4096, an enum of more than 4096 members)",
	TooDeep:                    "collections nest more than 64 deep",
	TooManyDiagnostics:         "the last diagnostic of a list cut at 100: how many more problems there are",
	UnplacedComment:            "benchy fmt only: a comment sits where the canonical layout has no place for it (beside ---, inside a flow collection, between list items, in a multi-line value), so the file is not rewritten",

	DataNotFound:         "the dataset file does not exist, cannot be read, or may not be read: outside the workspace, hidden, or the runtime file",
	InvalidDatasetRecord: "a dataset row is not valid JSON, lacks input/expected, or does not fit the program schema",
	DatasetChanged:       "the dataset is not the one the run began on: a resume found another digest, or the JSONL file changed while the run read it",
	RequestTooLarge:      "a dataset row's request to a model, as its prompt renders it, would carry more than 8 MiB of text (artifacts apart); the run stops before any AI-system call",
	ArtifactNotFound:     "an artifact path does not name a regular readable file inside the workspace that is neither hidden nor the runtime file",
	MissingField:         "an object lacks a required field",
	ExtraField:           "an object has a field the schema does not declare",
	WrongType:            "a value has the wrong JSON type for its semantic type",
	InvalidEnum:          "a value is not a member of its enum",
	AdapterError:         "the adapter failed before producing an output object",
	Timeout:              "the AI-system did not answer in time",
	ProviderError:        "the model provider failed (HTTP error, connection failure, exhausted retries)",
	CacheMiss:            "--cache only (or cache: only) replays from the workspace's response cache without the network, and the cache holds no reply to this example's request (another prompt, model, parameters or input than the run that filled it)",
	BudgetUnusable:       "a budget (--max-cost, --max-tokens; max_cost, max_tokens) the AI-system cannot keep: its requests cannot be estimated, a cost budget for a model without prices, replies with no output bound, or a PDF whose pages cannot be counted; nothing is sent",
	MissingBinding:       "the runtime has no adapter for the benchmark's AI-system; the run cannot start",
	InvalidRuntime:       "the runtime file (bindings and providers) is not valid",

	ShardIRMismatch:      "a shard ran another benchmark (its IR or benchmark hash) than the run it is merged into, or the benchmark as it now is in the workspace",
	ShardSystemMismatch:  "a shard ran another AI-system (its label, definition, prompt or hash) than the run it is merged into, or the benchmark as it now is in the workspace",
	ShardBindingMismatch: "a shard reached its AI-system through another binding than the run it is merged into, or the runtime file as it now is",
	ShardDatasetMismatch: "a shard ran another dataset (its digest, or its limit and examples) than the run it is merged into, or the dataset as it now is in the workspace",
	ShardResultMismatch:  "a line of a shard's journal is not the result the benchmark gives its prediction, scored again against the dataset's expected output: edited, forged, or out of place",
}

// Registered reports whether c is in the registry.
func Registered(c Code) bool {
	_, ok := Codes[c]
	return ok
}
