#!/usr/bin/env bash
# The native tests built with AddressSanitizer + UndefinedBehaviorSanitizer (-DATTNLAB_SANITIZE=ON) and run through
# ctest: core unit tests, walkthrough and UI logic tests, the CLI end to end and against numpy. Any ASan/UBSan/LSan
# report aborts the test that hit it, so the script exits non-zero.
# Not run here: the wasm tests (label "wasm"), the browser tests (not ctest tests) and the desktop app under xvfb.
#
# Usage: bash tests/sanitize.sh           (build dir build/asan; env: JOBS=2, ASAN_BUILD_DIR, CC/CXX, ASAN_BUILD_TYPE)
# Exit code: 0 clean; 1 a test failed or a sanitizer reported; 2 the build failed.
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${ASAN_BUILD_DIR:-$ROOT/build/asan}
JOBS=${JOBS:-2}
BUILD_TYPE=${ASAN_BUILD_TYPE:-Debug}
START=$(date +%s)

say() { echo "sanitize: $*"; }

# -O1 keeps the instrumented tests fast enough; -g for readable stacks. Both flavours of the build type get it.
say "configuring $BUILD ($BUILD_TYPE, -O1, ASan+UBSan)"
if ! cmake -S "$ROOT" -B "$BUILD" -DATTNLAB_SANITIZE=ON -DCMAKE_BUILD_TYPE="$BUILD_TYPE" \
     -DCMAKE_CXX_FLAGS_DEBUG="-g -O1" -DCMAKE_C_FLAGS_DEBUG="-g -O1" \
     -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-g -O1" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-g -O1" \
     -DATTNLAB_FUZZ=OFF >"$BUILD.configure.log" 2>&1; then
  cat "$BUILD.configure.log"
  say "FAILED: cmake configure"
  exit 2
fi

# Sanitizer settings for everything below, including gtest_discover_tests running the binaries at build time.
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export LSAN_OPTIONS=${LSAN_OPTIONS:-}

# The test programs only (not the desktop app, benchmarks or the page): every *_tests target, plus the CLI that
# the CLI/reference tests run.
TARGETS=(attnlab)
while read -r target; do TARGETS+=("$target"); done < <(
  cmake --build "$BUILD" --target help 2>/dev/null | sed -n 's/^\.\.\. \([A-Za-z0-9_]*_tests\)\b.*/\1/p' | sort -u)
say "building ${TARGETS[*]} (-j$JOBS)"
if ! cmake --build "$BUILD" -j "$JOBS" --target "${TARGETS[@]}" >"$BUILD.build.log" 2>&1; then
  tail -n 60 "$BUILD.build.log"
  say "FAILED: build (full log: $BUILD.build.log)"
  exit 2
fi

# Tests whose program was not built here (gtest's *_NOT_BUILT placeholders), the desktop app, wasm and browser.
EXCLUDE='_NOT_BUILT|desktop'
say "running ctest (excluding labels wasm|browser and tests matching '$EXCLUDE')"
ctest --test-dir "$BUILD" -j "$JOBS" --output-on-failure --timeout 600 -LE 'wasm|browser' -E "$EXCLUDE" \
  >"$BUILD.ctest.log" 2>&1
CTEST_RC=$?
# Keep the output short when clean; show everything relevant otherwise.
if [ $CTEST_RC -ne 0 ]; then cat "$BUILD.ctest.log"; else tail -n 5 "$BUILD.ctest.log"; fi

# A sanitizer report inside a test that still passed (e.g. a child process whose exit code was ignored).
if grep -qE 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:' "$BUILD.ctest.log"; then
  grep -nE -A20 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:' "$BUILD.ctest.log" | head -n 80
  say "FAILED: sanitizer report in the test output ($BUILD.ctest.log)"
  CTEST_RC=1
fi

SUMMARY=$(grep -E 'tests passed|tests failed' "$BUILD.ctest.log" | tail -n 1)
say "${SUMMARY:-no ctest summary} in $(( $(date +%s) - START )) s (log: $BUILD.ctest.log)"
if [ $CTEST_RC -ne 0 ]; then say "FAILED"; exit 1; fi
say "clean"
