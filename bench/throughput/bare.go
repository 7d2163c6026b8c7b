package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// bare is what a Go programmer would write to run the benchmark's requests and nothing
// else: read the dataset, build each request as benchy does (the same JSON, byte for byte:
// run.sh compares the first request of each), send them with concurrency workers over one
// keep-alive client, and decode each reply and the JSON object it holds. It scores nothing
// and writes nothing but its count.
func bare(url, dir string, concurrency int) error {
	start := time.Now()
	prompt, err := os.ReadFile(filepath.Join(dir, "prompt.md"))
	if err != nil {
		return err
	}
	f, err := os.Open(filepath.Join(dir, "data.jsonl"))
	if err != nil {
		return err
	}
	defer f.Close()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: concurrency}}
	texts := make(chan string, concurrency)
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		first    error
		done     int
		tokensIn int
	)
	for range concurrency {
		wg.Go(func() {
			for text := range texts {
				n, err := call(client, url, string(prompt), text)
				mu.Lock()
				if err != nil && first == nil {
					first = err
				}
				done++
				tokensIn += n
				mu.Unlock()
			}
		})
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		var ex struct {
			Input struct {
				Text string `json:"text"`
			} `json:"input"`
		}
		if err := json.Unmarshal(sc.Bytes(), &ex); err != nil {
			close(texts)
			return err
		}
		texts <- ex.Input.Text
	}
	close(texts)
	wg.Wait()
	if err := sc.Err(); err != nil {
		return err
	}
	if first != nil {
		return first
	}
	elapsed := time.Since(start)
	fmt.Printf("bare: %d examples in %.2fs: %.0f examples/s (%d input tokens)\n", done, elapsed.Seconds(), float64(done)/elapsed.Seconds(), tokensIn)
	return nil
}

// schema is the output schema as benchy sends it under response_format.
var schema = map[string]any{
	"type":                 "object",
	"additionalProperties": false,
	"properties":           map[string]any{"sentiment": map[string]any{"type": "string", "enum": []string{"positive", "neutral", "negative"}}},
	"required":             []string{"sentiment"},
}

type message struct {
	Role    string `json:"role"`
	Content any    `json:"content"`
}

type part struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// call sends one request and decodes its reply; it returns the reply's prompt tokens.
func call(client *http.Client, url, prompt, text string) (int, error) {
	body, err := json.Marshal(map[string]any{
		"model": "stub-model",
		"messages": []message{
			{Role: "system", Content: prompt},
			{Role: "user", Content: []part{{Type: "text", Text: "text: " + text}}},
		},
		"response_format": map[string]any{"type": "json_schema", "json_schema": map[string]any{"name": "benchy_output", "strict": true, "schema": schema}},
		"temperature":     0,
	})
	if err != nil {
		return 0, err
	}
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	data, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return 0, err
	}
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("HTTP %d: %s", resp.StatusCode, data)
	}
	var reply struct {
		Choices []struct {
			Message struct {
				Content string `json:"content"`
			} `json:"message"`
		} `json:"choices"`
		Usage struct {
			PromptTokens int `json:"prompt_tokens"`
		} `json:"usage"`
	}
	if err := json.Unmarshal(data, &reply); err != nil {
		return 0, err
	}
	if len(reply.Choices) == 0 {
		return 0, fmt.Errorf("no choices: %s", data)
	}
	var out map[string]any
	if err := json.Unmarshal([]byte(reply.Choices[0].Message.Content), &out); err != nil {
		return 0, fmt.Errorf("the reply's content is not JSON: %v", err)
	}
	return reply.Usage.PromptTokens, nil
}
