#!/usr/bin/env bash
# A sweep through GNU parallel: `xoff sweep --emit parallel` writes the command
# file, GNU parallel runs it (2 jobs), `xoff collect` merges; the table must
# equal the one of the same sweep run by xoff itself.
#
#   parallel_test.sh XOFF SOURCE_DIR WORKDIR
#
# Exit 0 passed, 1 failed, 77 skipped (GNU parallel not installed).
set -uo pipefail
XOFF=$1
SRC=$2
W=$3
fail() { echo "FAILED: $*"; exit 1; }
command -v parallel >/dev/null || { echo "SKIPPED: GNU parallel not found (scripts/setup.sh installs it)"; exit 77; }
rm -rf "$W"
mkdir -p "$W"
SCEN="$SRC/scenarios/incast_buffer.toml"
GRID=(--grid buffer.alpha=0.25,1,4 --seeds 3-4)
"$XOFF" sweep "$SCEN" "${GRID[@]}" --emit parallel -o "$W/sw" || fail "xoff sweep --emit parallel"
[ "$(wc -l <"$W/sw/parallel.txt")" -eq 6 ] || fail "parallel.txt should hold 6 commands"
parallel --will-cite --jobs 2 --joblog "$W/sw/parallel.joblog" :::: "$W/sw/parallel.txt" ||
  fail "GNU parallel reported failed jobs: $(cat "$W/sw/parallel.joblog")"
[ "$(tail -n +2 "$W/sw/parallel.joblog" | wc -l)" -eq 6 ] || fail "the joblog should list 6 jobs"
"$XOFF" collect "$W/sw" -o "$W/sw/table.csv" || fail "xoff collect"
[ "$(grep -c ',ok,' "$W/sw/table.csv")" -eq 6 ] || fail "expected 6 points with results"
"$XOFF" sweep "$SCEN" "${GRID[@]}" -j 2 -q -o "$W/local" >/dev/null || fail "local sweep"
cmp "$W/sw/table.csv" "$W/local/table.csv" || fail "GNU parallel and local tables differ"
echo "PASSED: 6 points ran under GNU parallel; table equals the local run's"
