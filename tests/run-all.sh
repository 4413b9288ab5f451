#!/usr/bin/env bash
# Every test of AttnLab, in one command (the README's `make test` runs this after building build/native and
# build/web, which writes the page to build/site). Suites:
#   1. native   ctest in build/native: core unit tests, walkthrough logic + headless render, CLI end to end,
#               numpy reference, WebAssembly CLI vs native, desktop app smoke test
#   2. browser  the page and the standalone file in headless Chromium (playwright-core), DPR 1 and 2
#   3. fuzz     libFuzzer targets, FUZZ_SECONDS of fuzzing in all (default 60; tests/fuzz/run.sh)
#   4. sanitize the core's and the training engine's unit tests and the CLI's tests built with AddressSanitizer +
#               UndefinedBehaviorSanitizer (tests/sanitize.sh says which and why)
#
#   bash tests/run-all.sh [SUITE...]    (default: all four, in that order)
#
# A skipped ctest (SKIP_RETURN_CODE, e.g. the wasm tests without the WebAssembly CLI) counts as skipped, not passed,
# and is named. The summary at the end has one line per suite (passed, failed, skipped, seconds) and the total.
# Exit code: non-zero if any suite fails. The last line counts individual tests: "N passed, M failed, K skipped".
set -uo pipefail
cd "$(dirname "$0")/.."
export NODE_PATH=/usr/share/nodejs
source tests/ctest_counts.sh
mkdir -p build/logs

passed=0
failed=0
skipped=0
failedSuites=()
summary=()
startAll=$SECONDS

# run NAME COMMAND...: runs a suite, tees its log, adds its test counts and time.
run() {
  local name=$1
  shift
  echo
  echo "=== $name: $* ==="
  local log=build/logs/$name.log start=$SECONDS
  "$@" 2>&1 | tee "$log"
  local rc=${PIPESTATUS[0]}
  local p=0 f=0 s=0 line
  # Our runners (browser, fuzz, sanitize) end with "N passed, M failed[, K skipped]", ctest with its own summary:
  # whichever comes last (a failing ctest's output, shown before ctest's summary, may hold a runner's line).
  local runnerAt ctestAt
  runnerAt=$(grep -nE '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n1 | cut -d: -f1)
  ctestAt=$(grep -nE '[0-9]+ tests failed out of [0-9]+' "$log" | tail -n1 | cut -d: -f1)
  if [ -n "$runnerAt" ] && [ "$runnerAt" -gt "${ctestAt:-0}" ]; then
    line=$(sed -n "${runnerAt}p" "$log")
    p=$(sed -E 's/^([0-9]+) passed.*/\1/' <<<"$line")
    f=$(sed -E 's/^[0-9]+ passed, ([0-9]+) failed.*/\1/' <<<"$line")
    if [[ $line =~ ([0-9]+)\ skipped ]]; then s=${BASH_REMATCH[1]}; fi
  elif ctest_counts "$log"; then
    p=$CTEST_PASSED f=$CTEST_FAILED s=$CTEST_SKIPPED
    if [ "$s" -gt 0 ]; then
      echo "--- $name: $s skipped:"
      sed 's/^/    /' <<<"$CTEST_SKIPPED_NAMES"
    fi
  fi
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
  passed=$((passed + p))
  failed=$((failed + f))
  skipped=$((skipped + s))
  [ "$rc" -eq 0 ] || failedSuites+=("$name")
  local seconds=$((SECONDS - start))
  echo "--- $name: exit $rc, $p passed, $f failed, $s skipped, $seconds s"
  summary+=("$(printf '%-9s %7d %7d %8d %8d' "$name" "$p" "$f" "$s" "$seconds")")
}

suites=("$@")
[ ${#suites[@]} -gt 0 ] || suites=(native browser fuzz sanitize)
for suite in "${suites[@]}"; do
  case $suite in
    native)   run native ctest --test-dir build/native --output-on-failure -j2 ;;
    browser)  run browser node tests/browser/run.mjs ;;
    fuzz)     run fuzz bash tests/fuzz/run.sh ;;
    sanitize) run sanitize bash tests/sanitize.sh ;;
    *) echo "run-all: unknown suite '$suite' (native, browser, fuzz, sanitize)" >&2; exit 2 ;;
  esac
done

echo
echo "=== summary ==="
printf '%-9s %7s %7s %8s %8s\n' suite passed failed skipped seconds
for line in "${summary[@]}"; do echo "$line"; done
printf '%-9s %7d %7d %8d %8d\n' total "$passed" "$failed" "$skipped" "$((SECONDS - startAll))"
if [ "${#failedSuites[@]}" -gt 0 ]; then
  echo "FAILED suites: ${failedSuites[*]} (logs in build/logs/)"
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "${#failedSuites[@]}" -eq 0 ]
