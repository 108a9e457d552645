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
echo "ok: 6 points ran under GNU parallel; table equals the local run's"

# Each point across 2 MPI processes (xoff-mpi beside xoff, mpirun): the same
# table as the points run by xoff itself, one process each.
XMPI="$(dirname "$XOFF")/xoff-mpi"
if [ -x "$XMPI" ] && command -v mpirun >/dev/null; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"  # OpenMPI's own start-up
  AR="$SRC/scenarios/allreduce_ring.toml"
  "$XOFF" sweep "$AR" --grid buffer.alpha=0.5,1 --processes 2 --emit parallel -o "$W/mpi" ||
    fail "xoff sweep --processes 2 --emit parallel"
  grep -q "^mpirun -np 2 '$XMPI' run " "$W/mpi/parallel.txt" ||
    fail "the commands should start xoff-mpi under mpirun -np 2: $(head -1 "$W/mpi/parallel.txt")"
  parallel --will-cite --jobs 1 :::: "$W/mpi/parallel.txt" ||
    fail "a 2-process point failed: $(cat "$W"/mpi/logs/*.log | tail -5)"
  "$XOFF" collect "$W/mpi" -o "$W/mpi/table.csv" >/dev/null || fail "xoff collect (mpi)"
  "$XOFF" sweep "$AR" --grid buffer.alpha=0.5,1 -q -o "$W/mpi_local" >/dev/null ||
    fail "local sweep of allreduce_ring"
  cmp "$W/mpi/table.csv" "$W/mpi_local/table.csv" ||
    fail "2-process points and 1-process points give different tables"
  # A scenario xoff-mpi cannot split is refused before anything is written.
  if "$XOFF" sweep "$SRC/scenarios/incast_buffer.toml" --grid buffer.alpha=0.5,1 --processes 2 \
    --emit parallel -o "$W/mpi_bad" 2>"$W/mpi_bad.err"; then
    fail "a TCP scenario should be refused with --processes 2"
  fi
  grep -q "cannot run across processes" "$W/mpi_bad.err" || fail "no reason: $(cat "$W/mpi_bad.err")"
  [ ! -e "$W/mpi_bad" ] || fail "a refused sweep wrote $W/mpi_bad"
  echo "ok: 2 points across 2 MPI processes each; table equals the 1-process sweep's"
else
  echo "note: xoff-mpi or mpirun missing: --processes not tested"
fi
echo "PASSED"
