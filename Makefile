# Benchy: `make run` builds everything and serves the app on the examples workspace;
# `make test` runs every check CI runs.

GO      ?= go
BIN     := bin/benchy
WASMEXEC := $(shell $(GO) env GOROOT)/lib/wasm
PURE    := ./compiler/... ./ontology/... ./ir/... ./diag/... ./internal/suggest/... ./web/form/...
EXAMPLE := assets/examples/invoices/benchmark.yaml

.PHONY: all build wasm run examples examples-deps test test-native test-wasm lint bench bench-hardening bench-wasm bench-memory fuzz clean

all: build

# The browser app first (WebAssembly, with gzip and brotli copies), then the one binary that
# embeds and serves it.
WASM := assets/web/app.wasm

build: wasm
	$(GO) build -o $(BIN) ./cmd/benchy

wasm:
	GOOS=js GOARCH=wasm $(GO) build -trimpath -ldflags="-s -w" -o $(WASM) ./wasm
	$(GO) run ./internal/pack $(WASM)

# The app on the examples workspace, on loopback: open http://127.0.0.1:8080/
ADDR ?= 127.0.0.1:8080

run: build examples
	$(BIN) validate $(EXAMPLE)
	@echo "IR hash of the invoices example: $$($(BIN) compile --hash $(EXAMPLE))"
	$(BIN) serve --workspace assets/examples --addr $(ADDR)

# The examples' AI-system adapters (assets/examples/*/*/main.go), into bin/examples/.
examples:
	$(GO) build -o bin/examples/ ./assets/examples/...

# The Debian packages of the examples' real AI-systems (root, or sudo).
EXAMPLE_DEPS := tesseract-ocr tesseract-ocr-eng apertium apertium-eng-spa espeak-ng sox \
	pocketsphinx pocketsphinx-en-us python3 python3-langdetect
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

examples-deps:
	$(SUDO) apt-get install -y --no-install-recommends $(EXAMPLE_DEPS)

test: lint wasm test-native test-wasm

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

# BENCHY_BROWSER=1: the browser tests (web/) fail rather than skip when Chromium is missing;
# BENCHY_EXAMPLES=1: the examples' end-to-end runs fail rather than skip when their real
# AI-systems are missing (make examples-deps installs them).
test-native:
	BENCHY_BROWSER=1 BENCHY_EXAMPLES=1 $(GO) test ./...

# The pure packages again, compiled to WebAssembly and run under Node: the same golden files
# must come out byte for byte.
test-wasm:
	PATH="$(WASMEXEC):$$PATH" GOOS=js GOARCH=wasm $(GO) test $(PURE)

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./compiler/ ./engine/ ./adapter/

# Issue 11's bounds: each 1 MB pathological YAML shape compiles in at most 200 ms and 100 MB.
bench-hardening:
	$(GO) test -run '^$$' -bench 'HardeningShapes' -benchmem -benchtime 10x ./compiler/

# The 1,000,000-row memory check of the engine (about a minute).
bench-memory:
	BENCHY_BIG=1 $(GO) test -run TestMemoryFlat -v ./engine/

bench-wasm:
	PATH="$(WASMEXEC):$$PATH" GOOS=js GOARCH=wasm $(GO) test -run '^$$' -bench 'Fields/1000$$' -benchmem ./compiler/

fuzz:
	$(GO) test -run '^$$' -fuzz FuzzCompile -fuzztime 60s ./compiler/

clean:
	rm -rf bin
