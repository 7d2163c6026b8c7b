// Command langid-langdetect is the language-id example's adapter for langdetect, the Python
// port of Google's language-detection library (Debian: python3-langdetect).
//
// It keeps one Python process alive for all the examples its worker evaluates: each text is
// sent as one JSON string on one line, and the script answers with one JSON object on one
// line, {"language": code} or {"error": message}. DetectorFactory.seed = 0 makes langdetect
// deterministic: the same text gets the same answer, in any order and at any concurrency.
//
// Its answer is passed through unchanged. langdetect knows 55 languages, so it may answer
// one the benchmark's enum does not list (ca, ro, af, so, ...): Benchy then records an
// invalid_output (invalid_enum) with that code as the prediction: the system answered
// something the benchmark does not allow. Mapping it to the "closest" allowed language would
// credit the system with an answer it did not give. A text langdetect cannot read at all
// ("No features in text": digits or punctuation only) is an error for that example, an
// execution_error, since it gave no answer.
//
// Debian's Python modules import only under Debian's interpreter, /usr/bin/python3, not
// under another python3 earlier in PATH (pyenv's, say); -I keeps the user's site-packages
// and PYTHON* variables out of it.
//
// Built as bin/examples/langid-langdetect; bound as langdetect in
// assets/examples/benchy.runtime.yaml.
package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sync"

	"github.com/benchy-eval/benchy/assets/examples/internal/kit"
)

const python = "/usr/bin/python3"

// script reads one JSON string per line and writes one JSON object per line. Bytes in and
// ASCII JSON out, so the locale's encoding plays no part.
const script = `
import json, sys
from langdetect import DetectorFactory, detect
from langdetect.lang_detect_exception import LangDetectException

DetectorFactory.seed = 0

for line in iter(sys.stdin.buffer.readline, b""):
    try:
        reply = {"language": detect(json.loads(line))}
    except LangDetectException as e:
        reply = {"error": "langdetect: " + str(e)}
    except Exception as e:
        reply = {"error": "%s: %s" % (type(e).__name__, e)}
    sys.stdout.write(json.dumps(reply) + "\n")
    sys.stdout.flush()
`

func main() {
	var (
		pipe     *kit.Pipe
		startErr error
		once     sync.Once
	)
	kit.Serve(func(input map[string]any) (map[string]any, error) {
		text, err := kit.String(input, "text")
		if err != nil {
			return nil, err
		}
		once.Do(func() { pipe, startErr = kit.StartPipe('\n', python, "-I", "-c", script) })
		if startErr != nil {
			return nil, startErr
		}
		request, err := json.Marshal(text) // one line: json.Marshal escapes newlines
		if err != nil {
			return nil, err
		}
		line, err := pipe.Ask(string(request))
		if errors.Is(err, kit.ErrPipeClosed) {
			// Python ended (its error, e.g. a missing langdetect, is in the run log): every
			// later example fails the same way rather than restarting it.
			startErr = fmt.Errorf("%s ended; see the run log (is python3-langdetect installed?)", python)
			return nil, startErr
		}
		if err != nil {
			return nil, err
		}
		var reply struct {
			Language *string `json:"language"`
			Error    string  `json:"error"`
		}
		if err := json.Unmarshal([]byte(line), &reply); err != nil {
			return nil, fmt.Errorf("unreadable answer from langdetect: %q", line)
		}
		if reply.Language == nil {
			if reply.Error == "" {
				reply.Error = fmt.Sprintf("langdetect answered without a language: %q", line)
			}
			return nil, errors.New(reply.Error)
		}
		return map[string]any{"language": *reply.Language}, nil
	})
	if pipe != nil {
		if err := pipe.Close(); err != nil {
			fmt.Fprintln(os.Stderr, "langid-langdetect:", err)
		}
	}
}
