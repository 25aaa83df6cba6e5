# Every target but eval (python3, for ../shared/eval's scorer) and mcp-smoke
# (node and npm) is a go command, plus the shell to glue them; nothing needs
# the network beyond the Go module proxy, once (the modules in go.sum, and
# staticcheck; mcp-smoke: npm's registry). `make check` is what CI runs
# (.ci/run).

FUZZTIME ?= 30s
# The packages whose tests define -update (golden files, testscript scripts);
# go test fails on a package that does not define it, so add a package here
# when its tests gain the flag.
GOLDEN_PKGS = ./parse ./report ./cmd/edapply

.PHONY: build test race vet fmt tidy staticcheck check golden fuzz demo eval bench bench-compare mcp-smoke

# Static, without cgo: only net's DNS resolver (imported by pflag and
# go-gitdiff, never called) would use it, and a dynamically linked binary
# starts 0.4 ms slower, on every call an agent makes.
# edapply-mcp is the MCP server `edapply mcp` runs, a program of its own so
# that edapply does not link the MCP SDK (see CONTRIBUTING.md).
build:
	CGO_ENABLED=0 go build -trimpath -o bin/ ./cmd/edapply ./cmd/edapply-mcp

# A busy 2-core machine runs the race build of the CLI's scripts for
# longer than go test's default of 10 minutes per package.
test:
	go test -timeout 30m ./...

race:
	go test -race -timeout 45m ./...

# Vet for Windows and macOS too, so that every package and its tests
# build there (Unix-only tests carry build constraints).
vet:
	go vet ./...
	GOOS=windows go vet ./...
	GOOS=darwin go vet ./...

fmt:
	@out=$$(gofmt -s -l .); if [ -n "$$out" ]; then echo "gofmt -s would change:"; echo "$$out"; exit 1; fi

tidy:
	go mod tidy -diff

# staticcheck at a pinned version, which go run fetches through the module
# proxy into the module cache: nothing to install, and go.mod gains no
# dependency.
STATICCHECK = honnef.co/go/tools/cmd/staticcheck@v0.8.2

staticcheck:
	go run $(STATICCHECK) ./...

check: vet fmt tidy staticcheck test race

# Rewrite golden files and the CLI's scripts (cmd/edapply/testdata/scripts)
# from actual output; review the diff.
golden:
	go test $(GOLDEN_PKGS) -update

# Fuzz every Fuzz target for FUZZTIME each; go test -fuzz takes one target
# in one package at a time.
fuzz:
	@set -e; for pkg in $$(go list ./...); do \
		for t in $$(go test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
			echo "== $$pkg $$t"; \
			go test -run='^$$' -fuzz="^$$t\$$" -fuzztime=$(FUZZTIME) $$pkg; \
		done; \
	done

BENCHTIME ?= 500ms
BENCHCOUNT ?= 5

# Benchmarks on generated data against GNU patch and git apply (skipped when
# not installed); bench-compare runs interleaved rounds and prints ratios.
bench:
	go test ./bench -run='^$$' -bench=. -benchtime=$(BENCHTIME) -count=1

bench-compare:
	scripts/bench-compare.sh -count $(BENCHCOUNT) -benchtime $(BENCHTIME)

# Show what edapply would do with the bundled example, on a temporary copy:
# the checkout is never modified.
demo: build
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
		cp -R examples/hello/tree/. "$$tmp" && \
		bin/edapply -C "$$tmp" --dry-run examples/hello/response.md

# Score this build on the public evaluation corpora (generated and real), when they are checked out
# beside the repository (../shared/eval); a meter, not a gate.
eval: build
	@if [ -d ../shared/eval ]; then \
		python3 ../shared/eval/score.py --cmd "$(CURDIR)/bin/edapply --json" --corpus ../shared/eval/corpus; \
		if [ -d ../shared/eval/real ]; then \
			python3 ../shared/eval/score.py --cmd "$(CURDIR)/bin/edapply --json" --corpus ../shared/eval/real; \
		fi; \
	else \
		echo "eval: ../shared/eval not found; skipping"; \
	fi

# Drive `edapply mcp` (which runs bin/edapply-mcp) over stdio with two
# clients from outside the project: the official TypeScript SDK's
# (@modelcontextprotocol/sdk) and the MCP inspector in CLI mode
# (@modelcontextprotocol/inspector). Both need node and npm and are
# installed under $$TMPDIR, not here. Optional: not part of check.
mcp-smoke: build
	scripts/mcp-smoke.sh bin/edapply
