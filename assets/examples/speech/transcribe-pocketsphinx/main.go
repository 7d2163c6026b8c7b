// Command transcribe-pocketsphinx is the speech example's AI-system (binding pocketsphinx-en):
// it transcribes each example's audio clip (16 kHz mono 16-bit WAV) with CMU PocketSphinx and
// its US English model, Debian's pocketsphinx and pocketsphinx-en-us.
//
// Each example runs pocketsphinx_continuous once on the clip; it prints the hypothesis of each
// utterance it hears on a line of its own. The answer is those words, lowercase, separated by
// single spaces. Its log (standard error) is kept only to explain a failure: its ERROR and
// FATAL lines ("Failed to open file ...", "... format mismatch") become the example's error.
package main

import (
	"errors"
	"strings"
	"time"

	"github.com/benchy-eval/benchy/assets/examples/internal/kit"
)

// timeout is below the binding's 60s, so a stuck recogniser is reported as this example's
// error rather than killed by benchy as a timeout.
const timeout = 50 * time.Second

func main() {
	kit.Serve(transcribe)
}

func transcribe(input map[string]any) (map[string]any, error) {
	audio, err := kit.String(input, "audio") // an absolute path: benchy resolves artifacts
	if err != nil {
		return nil, err
	}
	out, err := kit.Run(timeout, nil, "pocketsphinx_continuous", "-infile", audio)
	if err != nil {
		return nil, reason(err)
	}
	return map[string]any{"transcription": normalise(string(out))}, nil
}

// normalise joins the utterances' hypotheses: lowercase, one space between words, none at
// either end.
func normalise(s string) string {
	return strings.Join(strings.Fields(strings.ToLower(s)), " ")
}

// reason shortens a failure to the log's ERROR and FATAL lines, when it has any: the rest of
// the log is the model's configuration.
func reason(err error) error {
	var lines []string
	for _, line := range strings.Split(err.Error(), "\n") {
		if strings.HasPrefix(line, "ERROR: ") || strings.HasPrefix(line, "FATAL: ") {
			lines = append(lines, line)
		}
	}
	if len(lines) == 0 {
		return err
	}
	return errors.New("pocketsphinx_continuous: " + strings.Join(lines, "; "))
}
