// Command throughput is the parts of issue 16's whole-run throughput benchmark
// (bench/throughput/run.sh): a stub OpenAI-compatible server, the benchmark folder and
// dataset it answers, and the bare Go client benchy run is measured against. The target is
// that benchy run, in a workspace with its store, reaches at least 0.85 of the bare client's
// examples per second against the same stub, so that what benchy adds to each call (render,
// encode, decode, score, store) costs little beside the call itself.
//
//	throughput gen DIR N          write DIR/benchmark.yaml, DIR/prompt.md, DIR/data.jsonl (N examples)
//	throughput stub ADDR          serve POST /v1/chat/completions on ADDR; GET /stats, GET /first, POST /reset
//	throughput bare URL DIR C     send DIR's requests to URL with C workers, decode the replies
//
// The stub answers every request the same way: the sentiment named in the ticket's text as
// "[positive]", "[neutral]" or "[negative]", found without parsing the request, so that it
// costs each client the same little and the benchmark scores. /stats counts the requests and
// their bytes, which shows that both clients sent the same requests.
package main
