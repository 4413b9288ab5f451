# Thin wrapper over CMake, so the README's two commands are `make serve` and `make test`.
# Every target first runs .ci/install-deps.sh (idempotent; installs what a fresh Debian 12 machine lacks).
SHELL := /bin/bash
JOBS ?= $(shell nproc)
PORT ?= 8080
export NODE_PATH := /usr/share/nodejs

.PHONY: deps native web build serve test bench clean

deps:
	@bash .ci/install-deps.sh

native: deps
	@cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release >/dev/null
	@cmake --build build/native -j $(JOBS)

web: deps
	@emcmake cmake -S . -B build/web -DCMAKE_BUILD_TYPE=Release >/dev/null
	@cmake --build build/web -j $(JOBS)

build: native web

serve: build
	@node web/dev-server.mjs --root build/site --port $(PORT)

test: build
	@bash tests/run-all.sh

bench: build
	@bash tests/bench/run.sh

clean:
	rm -rf build
