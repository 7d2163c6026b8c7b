package engine

import (
	"context"
	"errors"
	"fmt"

	"github.com/benchy-eval/benchy/diag"
)

// Adapter is the one runtime contract of the paper (A.10): a named-field input object in, a
// named-field output object out. Input values are JSON-shaped (map[string]any, string,
// json.Number, bool; artifacts as absolute path strings). The output must be JSON-shaped too;
// numbers may be json.Number, float64 or any Go integer.
//
// Invoke reports a failure to produce an output as an error: a *Failure says which kind, any
// other error is an adapter_error. An adapter is used by one worker at a time.
type Adapter interface {
	Invoke(ctx context.Context, index int, input map[string]any) (any, error)
	Close() error
}

// Factory makes one adapter per worker.
type Factory func() (Adapter, error)

// Failure is an adapter's account of why there is no valid output. Status is
// StatusExecutionError (Code adapter_error, timeout or provider_error) or StatusInvalidOutput
// (the system answered, but not with a value: Code invalid_value, Prediction the raw answer).
type Failure struct {
	Status     Status
	Code       diag.Code
	Message    string
	Prediction any    // for invalid_output: what the system did answer
	Usage      *Usage // what the failed call cost, when the provider said
	Request    string // the request sent, as rendered (see Answer.Request), when there was one
}

// Answer is an output with what producing it cost. An adapter may return an *Answer
// instead of the bare output; model providers do.
type Answer struct {
	Output any
	Usage  *Usage
	// Request is the request sent to the model, as rendered, for the results explorer:
	// bounded (MaxRequest), with no secret and no artifact's bytes.
	Request string
}

// MaxRequest bounds Answer.Request and Failure.Request; the engine cuts a longer one.
const MaxRequest = 64 << 10

func (f *Failure) Error() string { return fmt.Sprintf("%s: %s", f.Code, f.Message) }

// ExecutionError is a shorthand for an execution_error failure.
func ExecutionError(code diag.Code, format string, args ...any) *Failure {
	return &Failure{Status: StatusExecutionError, Code: code, Message: fmt.Sprintf(format, args...)}
}

// InvalidOutput is a shorthand for an answer that is not a value (text that is not JSON).
func InvalidOutput(prediction any, format string, args ...any) *Failure {
	return &Failure{Status: StatusInvalidOutput, Code: diag.InvalidValue, Message: fmt.Sprintf(format, args...), Prediction: prediction}
}

// ErrMissingBinding is what a *MissingBinding is (errors.Is): no adapter binds the
// AI-system (A.11).
var ErrMissingBinding = errors.New("no adapter binding for this AI-system")

// MissingBinding is a binder's error for an AI-system it has no adapter for: Reason says
// what is missing, for the missing_binding diagnostic, without the sentinel's words.
type MissingBinding struct{ Reason string }

// NoBinding is a *MissingBinding for the reason format gives.
func NoBinding(format string, args ...any) *MissingBinding {
	return &MissingBinding{Reason: fmt.Sprintf(format, args...)}
}

func (e *MissingBinding) Error() string        { return ErrMissingBinding.Error() + ": " + e.Reason }
func (e *MissingBinding) Is(target error) bool { return target == ErrMissingBinding }

// Status is an example's outcome (A.12).
type Status string

const (
	StatusValid          Status = "valid"
	StatusInvalidOutput  Status = "invalid_output"
	StatusExecutionError Status = "execution_error"
)

// failureOf classifies an adapter error.
func failureOf(err error) *Failure {
	var f *Failure
	switch {
	case errors.As(err, &f):
		return f
	case errors.Is(err, context.DeadlineExceeded):
		return ExecutionError(diag.Timeout, "the AI-system did not answer in time")
	}
	return ExecutionError(diag.AdapterError, "%v", err)
}
