package engine

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// WriteDocument writes the result document of A.14: the report's fields and "results", the
// JSONL stream of example results in order, copied line by line so that memory does not
// grow with the run.
func WriteDocument(w io.Writer, rep *Report, results io.Reader) error {
	head, err := json.Marshal(rep)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 256<<10)
	bw.Write(head[:len(head)-1]) // without the closing brace
	bw.WriteString(`,"results":[`)
	r := bufio.NewReaderSize(results, 256<<10)
	n := 0
	for {
		line, err := r.ReadBytes('\n')
		line = bytes.TrimSpace(line)
		if len(line) > 0 {
			if n > 0 {
				bw.WriteByte(',')
			}
			bw.Write(line)
			n++
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
	}
	if n != rep.Summary.Examples {
		return fmt.Errorf("the results stream holds %d examples, the report %d", n, rep.Summary.Examples)
	}
	bw.WriteString("]}\n")
	return bw.Flush()
}
