#!/usr/bin/env bash
# Every test of AttnLab, in one command (the README's `make test` runs this after building build/native and
# build/web, which writes the page to build/site). Suites:
#   1. native   ctest in build/native: core unit tests, walkthrough logic + headless render, CLI end to end,
#               numpy reference, WebAssembly CLI vs native, desktop app smoke test
#   2. browser  the page and the standalone file in headless Chromium (playwright-core), DPR 1 and 2
#   3. fuzz     libFuzzer targets, bounded time each (FUZZ_SECONDS, default 30)
#   4. sanitize the unit tests built with AddressSanitizer + UndefinedBehaviorSanitizer
# Exit code: non-zero if any suite fails. The last line counts individual tests: "N passed, M failed".
set -uo pipefail
cd "$(dirname "$0")/.."
export NODE_PATH=/usr/share/nodejs
mkdir -p build/logs

passed=0
failed=0
failedSuites=()

# run NAME COMMAND...: runs a suite, tees its log, adds its test counts.
run() {
  local name=$1
  shift
  echo
  echo "=== $name: $* ==="
  local log=build/logs/$name.log start=$SECONDS
  "$@" 2>&1 | tee "$log"
  local rc=${PIPESTATUS[0]}
  local p=0 f=0
  # ctest: "100% tests passed, 0 tests failed out of 87"; our runners: "N passed, M failed".
  if line=$(grep -E '[0-9]+ tests failed out of [0-9]+' "$log" | tail -n1); [ -n "$line" ]; then
    f=$(echo "$line" | sed -E 's/.* ([0-9]+) tests failed out of ([0-9]+).*/\1/')
    p=$(( $(echo "$line" | sed -E 's/.* out of ([0-9]+).*/\1/') - f ))
  elif line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n1); [ -n "$line" ]; then
    p=$(echo "$line" | sed -E 's/^([0-9]+) passed.*/\1/')
    f=$(echo "$line" | sed -E 's/^[0-9]+ passed, ([0-9]+) failed.*/\1/')
  fi
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
  passed=$((passed + p))
  failed=$((failed + f))
  [ "$rc" -eq 0 ] || failedSuites+=("$name")
  echo "--- $name: exit $rc, $p passed, $f failed, $((SECONDS - start)) s"
}

run native ctest --test-dir build/native --output-on-failure -j2
run browser node tests/browser/run.mjs
run fuzz bash tests/fuzz/run.sh
run sanitize bash tests/sanitize.sh

echo
if [ "${#failedSuites[@]}" -gt 0 ]; then
  echo "FAILED suites: ${failedSuites[*]} (logs in build/logs/)"
fi
echo "$passed passed, $failed failed"
[ "${#failedSuites[@]}" -eq 0 ]
