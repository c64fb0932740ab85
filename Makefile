# The two commands of the README: `make demo` and `make test`. Both install what a fresh
# Debian machine lacks (as root; otherwise they say what to install) before building.
# `make bench` runs the benchmarks (not tests): each prints its figures beside its reference.

SWIFT ?= swift
# zlib1g-dev: gzip bodies for OTLP/HTTP; libpq-dev, postgresql(-contrib for pg_trgm) and rsyslog:
# `diag fleet` and forwarding, whose tests start a real PostgreSQL 15 and a real rsyslogd.
# chromium: ReportTriageTests checks report.html's DOM after its script ran (headless --dump-dom).
# lz4: the reference the tests check DiagAppleLog's own LZ4 decoder against (the product has no LZ4 library).
# python3-venv: ReferenceReaderTests installs an independent tracev3 reader (PyPI) into a private venv.
APT_PACKAGES := libsqlite3-dev libarchive-dev sqlite3 zstd zlib1g-dev libpq-dev postgresql postgresql-contrib rsyslog chromium lz4 python3-venv
BENCH_PACKAGES := hyperfine ripgrep time
FUZZ_SECONDS ?= 30
CONFIG ?= release

.PHONY: setup bench-setup build build-debug test fuzz demo bench clean

setup:
	@missing=""; for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "Installing Debian packages:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null || exit 1; \
	  else \
	    echo "Missing Debian packages:$$missing"; echo "Install them with: sudo apt-get install$$missing"; exit 1; \
	  fi; \
	fi

build: setup
	$(SWIFT) build -c $(CONFIG)

build-debug: setup
	$(SWIFT) build

test: setup
	$(MAKE) --no-print-directory fuzz
	$(SWIFT) build --build-tests
	$(SWIFT) test

# Short libFuzzer runs of the predicate parser, the importers and the Apple unified-log reader;
# a crash or hang fails the build. The long run is `Fuzz/run.sh 28800` (and `Fuzz/Import/run.sh
# 28800`, `Fuzz/AppleLog/run.sh 28800`).
# libFuzzer's progress lines go to a log; its closing statistics (or, on a crash, the end of
# the log with the crashing input's path) are printed.
fuzz:
	@mkdir -p .build
	@for fuzzer in Fuzz/run.sh Fuzz/Import/run.sh Fuzz/AppleLog/run.sh; do \
	  log=".build/$$(echo $$fuzzer | tr / -).log"; echo "fuzzing: $$fuzzer $(FUZZ_SECONDS) (log: $$log)"; \
	  if bash $$fuzzer $(FUZZ_SECONDS) >"$$log" 2>&1; then grep -E '^(Done|stat::number_of_executed_units|stat::new_units_added)' "$$log"; \
	  else tail -n 60 "$$log"; echo "fuzzing failed: $$fuzzer (see $$log)"; exit 1; fi; \
	done

demo: build
	@bash samples/demo.sh "$$($(SWIFT) build -c $(CONFIG) --show-bin-path)"

bench-setup:
	@$(MAKE) --no-print-directory setup APT_PACKAGES="$(APT_PACKAGES) $(BENCH_PACKAGES)"

bench: bench-setup
	bash Benchmarks/foundation.sh
	bash Benchmarks/store.sh
	bash Benchmarks/import.sh
	bash Benchmarks/predicates.sh
	bash Benchmarks/ingest.sh
	bash Benchmarks/collect.sh
	bash Benchmarks/forward.sh
	bash Benchmarks/fleet.sh
	bash Benchmarks/applelog.sh

clean:
	rm -rf .build
