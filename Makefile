# The two commands of the README: `make demo` and `make test`. Both install what a fresh
# Debian machine lacks (as root; otherwise they say what to install) before building.

SWIFT ?= swift
APT_PACKAGES := libsqlite3-dev libarchive-dev sqlite3 zstd
CONFIG ?= release

.PHONY: setup build build-debug test demo bench clean

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
	$(SWIFT) build --build-tests
	$(SWIFT) test

demo: build
	@bash samples/demo.sh "$$($(SWIFT) build -c $(CONFIG) --show-bin-path)"

bench: build
	@for script in Benchmarks/*.sh; do bash "$$script" "$$($(SWIFT) build -c $(CONFIG) --show-bin-path)"; done

clean:
	rm -rf .build
