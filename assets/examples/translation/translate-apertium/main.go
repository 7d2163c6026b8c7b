// Command translate-apertium is the translation example's AI-system (binding apertium-spa-eng):
// Apertium's rule-based Spanish to English translation, mode spa-eng (Debian's apertium and
// apertium-en-es), unknown words left unmarked: what `apertium -u spa-eng` prints.
//
// One translation pipeline is kept alive across examples, in null-flush mode: a request ends
// with a NUL byte, every stage translates what it has and passes the NUL on, and the answer
// is read up to the next NUL (how Apertium's own server, APy, runs it). `apertium -z` itself
// cannot do this in Apertium 3.8: its script wraps the pipeline in gawk filters that hold
// each NUL-ended record until more input arrives, so no answer comes back until the next
// request, and its plain-text deformatter drops NUL bytes. So this program runs the pipeline
// the script runs (apertium-wblank-mode -z on the pair's mode file, with the generator's -n
// that -u selects), and runs the script's plain-text deformatter and reformatter,
// apertium-destxt and apertium-retxt, itself, a process each per example: small programs,
// but they cannot stay alive (they too drop NULs and wait for the end of their input).
// The answers are byte for byte those of `apertium -u spa-eng`, in about a tenth of the time
// (40 ms an example here against 0.6 s, nearly all of it starting processes; the pipeline
// answers in about a millisecond). With -once, this program runs `apertium -u spa-eng`
// instead, one per example. Both normalise the answer's whitespace, and nothing else.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/benchy-eval/benchy/assets/examples/internal/kit"
)

// timeout is below the binding's 30s, so a stuck run is reported as this example's error.
const timeout = 25 * time.Second

const pair = "spa-eng"

func main() {
	once := flag.Bool("once", false, "run apertium once per example instead of keeping one alive")
	flag.Parse()
	if *once {
		kit.Serve(translateOnce)
		return
	}
	t := &translator{}
	defer t.close()
	kit.Serve(t.translate)
}

func translateOnce(input map[string]any) (map[string]any, error) {
	text, err := kit.String(input, "text")
	if err != nil {
		return nil, err
	}
	out, err := kit.Run(timeout, []byte(text), "apertium", "-u", pair)
	if err != nil {
		return nil, err
	}
	return map[string]any{"translation": normalise(string(out))}, nil
}

// translator keeps one pipeline, started at the first example and again after it ends.
type translator struct {
	pipe *kit.Pipe
}

func (t *translator) translate(input map[string]any) (map[string]any, error) {
	text, err := kit.String(input, "text")
	if err != nil {
		return nil, err
	}
	if strings.IndexByte(text, 0) >= 0 {
		return nil, errors.New("the text holds a NUL byte, which would end the request early")
	}
	stream, err := kit.Run(timeout, []byte(text), "apertium-destxt")
	if err != nil {
		return nil, err
	}
	if t.pipe == nil {
		if t.pipe, err = start(); err != nil {
			return nil, err
		}
	}
	answer, err := t.pipe.Ask(string(stream))
	if err != nil {
		// The pipeline ended (its reason is in the run log): the next example starts another.
		t.close()
		return nil, fmt.Errorf("apertium %s: %w", pair, err)
	}
	out, err := kit.Run(timeout, []byte(answer), "apertium-retxt")
	if err != nil {
		return nil, err
	}
	return map[string]any{"translation": normalise(string(out))}, nil
}

// start starts the pair's pipeline in null-flush mode, as the apertium script would: the
// mode file's commands, each given -z by apertium-wblank-mode, run by bash with $1 the
// generator's option (-n: unknown words unmarked) and $2 the tagger's (none).
func start() (*kit.Pipe, error) {
	dir := os.Getenv("APERTIUM_DATADIR") // the apertium script's variable, and its default
	if dir == "" {
		dir = "/usr/share/apertium"
	}
	mode := filepath.Join(dir, "modes", pair+".mode")
	if _, err := os.Stat(mode); err != nil {
		// apertium-wblank-mode would print a broken script rather than fail.
		return nil, fmt.Errorf("no Apertium mode %s (apt-get install apertium-eng-spa): %w", pair, err)
	}
	script, err := kit.Run(timeout, nil, "apertium-wblank-mode", "-z", mode)
	if err != nil {
		return nil, err
	}
	return kit.StartPipe(0, "bash", "-c", string(script), "apertium-"+pair, "-n", "")
}

func (t *translator) close() {
	if t.pipe != nil {
		if err := t.pipe.Close(); err != nil {
			fmt.Fprintln(os.Stderr, "translate-apertium: apertium:", err)
		}
		t.pipe = nil
	}
}

// normalise collapses runs of whitespace to one space and trims both ends.
func normalise(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
