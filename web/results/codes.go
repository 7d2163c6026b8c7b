package results

import (
	"github.com/benchy-eval/benchy/api"
	"github.com/benchy-eval/benchy/diag"
)

// codeHelp says what an error code of a result means, for a reader who has not met it:
// the registry's meaning (diag.Codes, the one list of codes), then what the example's
// status does to the score.
func codeHelp(code, status string) string {
	meaning := diag.Codes[diag.Code(code)]
	if meaning == "" {
		meaning = "a code this page does not know"
	}
	switch status {
	case api.InvalidOutput:
		return meaning + ". The AI-system answered, but its output does not fit the program's output schema: the example scores 0."
	case api.ExecutionError:
		return meaning + ". The AI-system gave no output: the example scores 0 and says nothing about the system's quality, only that it did not run."
	}
	return meaning + "."
}
