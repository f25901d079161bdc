# make test runs everything CI runs: formatting, vet, cross-builds,
# staticcheck, and every test under the race detector (unit, CLI scripts,
# fuzz seed corpora, end-to-end with real MCP peers).

GO      ?= go
NPM_DIR := tools/npm
# The MCP conformance suite's reference server (internal/conformance), with
# its own lockfile as upstream ships it.
CONFORMANCE_SERVER := internal/conformance/server

.PHONY: test tools npm fmt-check vet cross lint unit build bench

test: tools npm fmt-check vet cross lint unit

# The git binary builds the test repositories served by the tests' HTTPS git
# server (chronicle itself uses go-git only). Debian's chromium runs the web
# console's browser tests (about 90 s to install on a clean machine).
tools:
	@command -v git >/dev/null || { apt-get update -qq && apt-get install -y -qq git; }
	@command -v node >/dev/null || { apt-get update -qq && apt-get install -y -qq nodejs npm; }
	@command -v chromium >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; }
	@# systemd-analyze verify checks the units chronicle autostart writes.
	@command -v systemd-analyze >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq systemd; }

# MCP peers from npm (the MCP Inspector CLI, the conformance suite, Node 22
# for its 0.2 line, …), pinned by the committed lockfiles.
npm: $(NPM_DIR)/node_modules/.installed $(CONFORMANCE_SERVER)/node_modules/.installed

$(NPM_DIR)/node_modules/.installed: $(NPM_DIR)/package.json $(NPM_DIR)/package-lock.json
	npm ci --prefix $(NPM_DIR) --no-audit --no-fund --loglevel=error
	touch $@

$(CONFORMANCE_SERVER)/node_modules/.installed: $(CONFORMANCE_SERVER)/package.json $(CONFORMANCE_SERVER)/package-lock.json
	npm ci --prefix $(CONFORMANCE_SERVER) --no-audit --no-fund --loglevel=error
	touch $@

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './tools/*')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...
	@# The engine never imports a concrete provider (SPEC §2).
	@if $(GO) list -deps ./engine/... | grep -q 'chronicle/providers'; then echo "engine imports a provider"; exit 1; fi

# chronicle ships for Linux, macOS and Windows: every package must build for
# each. They are built, not vetted: vetting macOS and Windows too (test files
# included) would add about a minute to a clean CI run, and the tests'
# process-group helpers are Unix-only (docs/decisions/0023).
cross:
	GOOS=linux $(GO) build ./...
	GOOS=darwin $(GO) build ./...
	GOOS=windows $(GO) build ./...

lint:
	$(GO) tool staticcheck ./...

# Every Go test runs under the race detector (docs/decisions/0023). The CLI
# scripts (TestScripts: each command a new process) run without it: under
# the detector they took 300 s of CI's 10 minutes for 47 s of work, and the
# code they drive is raced by its own packages' tests. The test of a
# concurrent writer racing apply measures real timing, which the detector
# slows tenfold: it also runs without it. The engine's race run also
# measures each package's coverage: an engine/ package whose own tests
# cover less than 80 % of its statements fails the run
# (tools/coverfloor.sh). Only the engine's: the floor is the engine's.
# A test binary built with coverage that runs itself as a child (the hub's
# fault-injecting upstreams) gives it a GOCOVERDIR, so go test -cover
# passes everywhere.
unit:
	@$(GO) test -race -count=1 -cover ./engine/... > .unit.log 2>&1; status=$$?; \
	bash tools/coverfloor.sh .unit.log || status=1; rm -f .unit.log; exit $$status
	$(GO) test -race -count=1 -skip '^TestScripts$$' $$($(GO) list ./... | grep -v '/engine/')
	$(GO) test -count=1 -run '^TestScripts$$' ./cmd/chronicle
	$(GO) test -count=1 -run 'TestConcurrentWriter' ./engine/apply

build:
	$(GO) build -o bin/chronicle ./cmd/chronicle

# Benchmarks, outside make test (a few minutes; bench/README.md): the Go
# benchmarks of the hot paths, then whole processes side by side with the
# baseline (plan and apply) or the upstream called directly (the hub).
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./engine/... ./providers/...
	bash bench/plan-apply.sh
	bash bench/hub.sh 5 -floor
	bash bench/serve-start.sh
