#!/usr/bin/env bash
# The core and the CLI built with AddressSanitizer + UndefinedBehaviorSanitizer (-DATTNLAB_SANITIZE=ON) and run
# through ctest. Any ASan/UBSan/LSan report aborts the test that hit it, so the script exits non-zero.
#
# Built (SANITIZE_TARGETS below): the core's unit tests (attn_core_tests), the training engine's (attn_train_tests),
# the GPT-2 ids helper (gpt2_ids_tests), the program that dumps the engine's gradients for PyTorch
# (train_torch_dump) and the CLI (attnlab).
# Run: the ctests whose command runs one of those programs: the GoogleTest cases of the two unit-test binaries, the
# CLI end to end, the numpy reference and trace digests, the trained presets, the framework agreements and the
# GPT-2 oracles (listed from `ctest --show-only=json-v1`, so a stale program of an earlier, larger build in the
# same folder is not run).
# Why only these: they are the code that computes numbers and reads untrusted input (texts, Config/Model JSON,
# links through the CLI's parsers), where a buffer overrun or UB would hide. The UI and walkthrough tests (Dear
# ImGui and the drawing code, on top of the same core) would double the ASan build and add little: the browser
# suite and the fuzzers (tests/fuzz, ASan+UBSan, url_state through the UI) exercise the UI's input paths.
# Not run here: the UI/walkthrough tests, the wasm tests (label "wasm"), the browser tests and the desktop app.
#
# Usage: bash tests/sanitize.sh           (build dir build/asan; env: JOBS=2, ASAN_BUILD_DIR, CC/CXX, ASAN_BUILD_TYPE)
# Exit code: 0 clean; 1 a test failed or a sanitizer reported; 2 the build failed.
# Last line: "N passed, M failed, K skipped" (the ctests run).
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${ASAN_BUILD_DIR:-$ROOT/build/asan}
JOBS=${JOBS:-2}
BUILD_TYPE=${ASAN_BUILD_TYPE:-Debug}
START=$(date +%s)

say() { echo "sanitize: $*"; }

# -O1 keeps the instrumented tests fast enough. -g1 for readable stacks: function names and line tables, inlined
# frames included, no local variables (nothing a sanitizer report prints); a report's stack is the same as with -g
# (checked on an inlined heap overflow), and each file compiles in ~70% of the CPU time (gcc 12: json_io 21.2 ->
# 15.8 s, stages 19.6 -> 13.9, cmd_trace 24.4 -> 18.4, test_kernels_products 23.5 -> 15.9). Both flavours of the
# build type get it.
say "configuring $BUILD ($BUILD_TYPE, -O1 -g1, ASan+UBSan)"
if ! cmake -S "$ROOT" -B "$BUILD" -DATTNLAB_SANITIZE=ON -DCMAKE_BUILD_TYPE="$BUILD_TYPE" \
     -DCMAKE_CXX_FLAGS_DEBUG="-g1 -O1" -DCMAKE_C_FLAGS_DEBUG="-g1 -O1" \
     -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-g1 -O1" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-g1 -O1" \
     -DATTNLAB_FUZZ=OFF >"$BUILD.configure.log" 2>&1; then
  cat "$BUILD.configure.log"
  say "FAILED: cmake configure"
  exit 2
fi

# Sanitizer settings for everything below, including gtest_discover_tests running the binaries at build time.
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export LSAN_OPTIONS=${LSAN_OPTIONS:-}

SANITIZE_TARGETS=(attnlab attn_core_tests attn_train_tests gpt2_ids_tests train_torch_dump)
# Only targets this configuration has (gpt2_ids_tests needs the npm data packages).
TARGETS=()
HAVE=$(cmake --build "$BUILD" --target help 2>/dev/null)
for target in "${SANITIZE_TARGETS[@]}"; do
  grep -qE "^\.\.\. $target( |\$)" <<<"$HAVE" && TARGETS+=("$target")
done
say "building ${TARGETS[*]} (-j$JOBS)"
if ! cmake --build "$BUILD" -j "$JOBS" --target "${TARGETS[@]}" >"$BUILD.build.log" 2>&1; then
  tail -n 60 "$BUILD.build.log"
  say "FAILED: build (full log: $BUILD.build.log)"
  exit 2
fi

# The ctests whose command runs a program built above (its path, not followed by more of a file name: attnlab,
# not attnlab-desktop), minus the wasm and browser labels; as test numbers for ctest -I.
SELECTED=$(ctest --test-dir "$BUILD" --show-only=json-v1 2>/dev/null | /usr/bin/python3 -c '
import json, re, sys
build, targets = sys.argv[1], sys.argv[2:]
programs = [re.compile(re.escape(build) + r"/(?:[^ ]*/)?" + re.escape(t) + r"(?![\w.-])") for t in targets]
picked = []
for number, test in enumerate(json.load(sys.stdin)["tests"], start=1):
    labels = [v for p in test.get("properties", []) if p["name"] == "LABELS" for v in p["value"]]
    if "wasm" in labels or "browser" in labels:
        continue
    if any(p.search(arg) for arg in test.get("command", []) for p in programs):
        picked.append(str(number))
print(",".join(picked))
' "$BUILD" "${TARGETS[@]}")
if [ -z "$SELECTED" ]; then
  say "FAILED: no ctest runs ${TARGETS[*]}"
  echo "0 passed, 1 failed"
  exit 1
fi
say "running $(tr ',' '\n' <<<"$SELECTED" | wc -l) ctests (those that run ${TARGETS[*]})"
ctest --test-dir "$BUILD" -j "$JOBS" --output-on-failure --timeout 600 -I "0,0,0,$SELECTED" \
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

source "$ROOT/tests/ctest_counts.sh"
if ctest_counts "$BUILD.ctest.log"; then
  [ "$CTEST_SKIPPED" -eq 0 ] || say "skipped: $(paste -sd' ' <<<"$CTEST_SKIPPED_NAMES")"
else
  CTEST_PASSED=0 CTEST_FAILED=1 CTEST_SKIPPED=0
  say "no ctest summary in $BUILD.ctest.log"
fi
[ $CTEST_RC -eq 0 ] || [ "$CTEST_FAILED" -gt 0 ] || CTEST_FAILED=1
say "$(( $(date +%s) - START )) s (log: $BUILD.ctest.log)"
echo "$CTEST_PASSED passed, $CTEST_FAILED failed, $CTEST_SKIPPED skipped"
if [ $CTEST_RC -ne 0 ]; then say "FAILED"; exit 1; fi
say "clean"
