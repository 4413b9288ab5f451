#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan + UBSan) in build/fuzz and runs each for a bounded time.
#   fuzz_tokenizer  fuzz_config_json  fuzz_url_state  fuzz_safetensors   (tests/fuzz/CMakeLists.txt says what each checks)
#   fuzz_check_readers
#
# Usage: bash tests/fuzz/run.sh [TARGET...]
#   env FUZZ_SECONDS  seconds of fuzzing in all, shared equally by the targets run (default 60: 12 s each of the
#                     five; at least 1 s a target). libFuzzer's own clock (-max_total_time) measures each target's
#                     share; loading its corpus and the build are not counted.
#       JOBS (build parallelism, default 2), FUZZ_BUILD_DIR (build/fuzz),
#       FUZZ_FRESH=1 (start from the committed seeds only, dropping what earlier runs found)
# Nothing in the repository is written: the committed seeds (tests/fuzz/corpus/<target>/) and the inputs of bugs
# already fixed (tests/fuzz/regressions/<target>/) are copied into build/fuzz/run/<target>/corpus, which grows from
# run to run; crash/timeout/oom inputs land in build/fuzz/run/<target>/.
# Exit code: 0 no finding; 1 a target crashed, hit UB, broke an invariant, timed out or ran out of memory;
#            2 no clang or the build failed. No network is used.
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${FUZZ_BUILD_DIR:-$ROOT/build/fuzz}
SECONDS_TOTAL=${FUZZ_SECONDS:-60}
JOBS=${JOBS:-2}
ALL_TARGETS=(fuzz_tokenizer fuzz_config_json fuzz_url_state fuzz_safetensors)
ALL_TARGETS+=(fuzz_check_readers)  # check my implementation: a learner's result files (the same total time)
TARGETS=("$@")
[ ${#TARGETS[@]} -gt 0 ] || TARGETS=("${ALL_TARGETS[@]}")
SECONDS_EACH=$(( SECONDS_TOTAL / ${#TARGETS[@]} ))
[ "$SECONDS_EACH" -ge 1 ] || SECONDS_EACH=1

say() { echo "fuzz: $*"; }

if ! command -v clang++ >/dev/null || ! command -v clang >/dev/null; then
  say "FAILED: clang/clang++ not found (Debian: clang libclang-rt-14-dev; .ci/install-deps.sh installs them)"
  exit 2
fi

# ---- configure (once) and build ----
if [ -f "$BUILD/CMakeCache.txt" ]; then
  if ! grep -qE '^CMAKE_CXX_COMPILER:[A-Z]+=.*clang\+\+' "$BUILD/CMakeCache.txt"; then
    say "FAILED: $BUILD was configured with another compiler; remove it or set FUZZ_BUILD_DIR"
    exit 2
  fi
  CONFIGURE=(cmake -S "$ROOT" -B "$BUILD" -DATTNLAB_FUZZ=ON)
else
  CONFIGURE=(env CC=clang CXX=clang++ cmake -S "$ROOT" -B "$BUILD" -DATTNLAB_FUZZ=ON
             -DCMAKE_BUILD_TYPE=RelWithDebInfo)
fi
mkdir -p "$BUILD"
if ! "${CONFIGURE[@]}" >"$BUILD/fuzz-configure.log" 2>&1; then
  cat "$BUILD/fuzz-configure.log"
  say "FAILED: cmake configure"
  exit 2
fi
say "building ${TARGETS[*]} in $BUILD (-j$JOBS)"
if ! cmake --build "$BUILD" -j "$JOBS" --target "${TARGETS[@]}" >"$BUILD/fuzz-build.log" 2>&1; then
  tail -n 60 "$BUILD/fuzz-build.log"
  say "FAILED: build (full log: $BUILD/fuzz-build.log)"
  exit 2
fi

# ---- run ----
# ASan/UBSan: libFuzzer reports and saves the input itself; UB is fatal (also compiled -fno-sanitize-recover).
export ASAN_OPTIONS=${FUZZ_ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
FAILED=()
SUMMARY=()
for target in "${TARGETS[@]}"; do
  binary="$BUILD/fuzz/$target"
  work="$BUILD/run/$target"
  [ "${FUZZ_FRESH:-0}" = 1 ] && rm -rf "$work"
  mkdir -p "$work/corpus"
  rm -f "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$work"/oom-* "$work"/slow-unit-*
  for seeds in "$ROOT/tests/fuzz/corpus/$target" "$ROOT/tests/fuzz/regressions/$target"; do
    [ -d "$seeds" ] && cp -f "$seeds"/* "$work/corpus/" 2>/dev/null
  done
  log="$work/fuzz.log"
  say "$target: ${SECONDS_EACH}s (log: $log)"
  start=$(date +%s)
  # The outer timeout only guards against a hang outside libFuzzer's own clock (e.g. while loading the corpus).
  (cd "$work" && timeout --signal=KILL $((SECONDS_EACH + 300)) "$binary" corpus \
      -max_total_time="$SECONDS_EACH" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
      -artifact_prefix="$work/" >"$log" 2>&1)
  rc=$?
  elapsed=$(( $(date +%s) - start ))
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
  rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log" | tail -n 1)
  last=$(grep -E '^#[0-9]+' "$log" | tail -n 1)
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
  corp=$(sed -n 's/.* corp: \([0-9]*\).*/\1/p' <<<"$last")
  artifacts=$(ls "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$work"/oom-* 2>/dev/null)
  if [ $rc -eq 0 ] && [ -z "$artifacts" ]; then status=PASS; else status=FAIL; FAILED+=("$target"); fi
  line="$target $status execs=${execs:-?} (${rate:-?}/s) cov=${cov:-?} ft=${ft:-?} corpus=${corp:-?} time=${elapsed}s rss=${rss:-?}MB"
  SUMMARY+=("$line")
  if [ "$status" = FAIL ]; then
    echo "----- $target: exit code $rc; end of $log -----"
    grep -nE 'ERROR: |runtime error:|FUZZ_CHECK|SUMMARY:|Test unit written|deadly signal|uncaught' "$log" | head -n 20
    echo "..."
    tail -n 40 "$log"
    for a in $artifacts; do echo "reproduce: $binary $a"; done
    echo "-----"
  fi
done

for line in "${SUMMARY[@]}"; do say "$line"; done
# One "test" per target for the test runner's count.
echo "$(( ${#TARGETS[@]} - ${#FAILED[@]} )) passed, ${#FAILED[@]} failed"
if [ ${#FAILED[@]} -gt 0 ]; then
  say "FAILED: ${FAILED[*]}"
  exit 1
fi
say "all ${#TARGETS[@]} targets clean (${SECONDS_EACH}s each, FUZZ_SECONDS=$SECONDS_TOTAL in all)"
