package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"

	"github.com/andybalholm/brotli"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: pack FILE")
		os.Exit(2)
	}
	if err := pack(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "pack:", err)
		os.Exit(1)
	}
}

func pack(name string) error {
	src, err := os.ReadFile(name)
	if err != nil {
		return err
	}
	gz, err := compress(src, func(w io.Writer) (io.WriteCloser, error) { return gzip.NewWriterLevel(w, gzip.BestCompression) })
	if err != nil {
		return err
	}
	br, err := compress(src, func(w io.Writer) (io.WriteCloser, error) {
		return brotli.NewWriterLevel(w, 9), nil
	})
	if err != nil {
		return err
	}
	if err := os.WriteFile(name+".gz", gz, 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(name+".br", br, 0o644); err != nil {
		return err
	}
	fmt.Printf("%s: %.1f MB, gzip %.2f MB, brotli %.2f MB\n", name, mb(src), mb(gz), mb(br))
	return nil
}

func compress(src []byte, open func(io.Writer) (io.WriteCloser, error)) ([]byte, error) {
	var buf bytes.Buffer
	w, err := open(&buf)
	if err != nil {
		return nil, err
	}
	if _, err := w.Write(src); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func mb(b []byte) float64 { return float64(len(b)) / (1 << 20) }
