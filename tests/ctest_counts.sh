# Reads the counts from a ctest log; sourced by tests/run-all.sh and tests/sanitize.sh.
#   ctest_counts LOG   sets CTEST_PASSED, CTEST_FAILED, CTEST_SKIPPED and CTEST_SKIPPED_NAMES (one "NAME" a line);
#                      returns 1 when LOG has no ctest summary line.
# ctest's summary ("97% tests passed, 1 tests failed out of 40") counts a skipped test (exit code SKIP_RETURN_CODE,
# "***Skipped") as passed; here it counts as skipped, read from the "The following tests did not run:" list
# ("  12 - name (Skipped)"). A "Not Run" test (its program missing) is already among ctest's failed ones; disabled
# tests are in neither count.
ctest_counts() {
  local log=$1 line total
  line=$(grep -E '[0-9]+ tests failed out of [0-9]+' "$log" | tail -n 1)
  [ -n "$line" ] || return 1
  CTEST_FAILED=$(sed -E 's/.* ([0-9]+) tests failed out of ([0-9]+).*/\1/' <<<"$line")
  total=$(sed -E 's/.* out of ([0-9]+).*/\1/' <<<"$line")
  CTEST_SKIPPED_NAMES=$(sed -n '/^The following tests did not run:/,/^$/s/^[[:space:]]*[0-9]* - \(.*\) (Skipped)$/\1/p' "$log")
  CTEST_SKIPPED=$(grep -c . <<<"$CTEST_SKIPPED_NAMES")
  CTEST_PASSED=$((total - CTEST_FAILED - CTEST_SKIPPED))
}
