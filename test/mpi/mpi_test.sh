#!/usr/bin/env bash
# One run across MPI processes gives the one-process file, byte for byte:
# `xoff run --reproducible` against `mpirun -np N xoff-mpi run --reproducible`
# for N = 1, 2, 3 on the bundled PFC deadlock (found across processes), the
# PFC storm with its watchdog and faults, the ring and tree AllReduce of
# scenarios/allreduce_ring.toml, and a 64-host incast. Then: scenarios
# xoff-mpi cannot split yet (TCP, a collective of several phases) are
# refused (exit 2, the reason, nothing written), and
# a process killed mid-run makes mpirun fail and leaves no results file.
#
#   mpi_test.sh XOFF XOFF_MPI SOURCE_DIR WORKDIR
#
# Exit 0 passed, 1 failed, 77 skipped (no mpirun, or xoff-mpi not built).
set -uo pipefail
XOFF=$1
XMPI=$2
SRC=$3
W=$4
fail() { echo "FAILED: $*"; exit 1; }
command -v mpirun >/dev/null || { echo "SKIPPED: mpirun not found (scripts/setup.sh installs openmpi-bin)"; exit 77; }
[ -x "$XMPI" ] || { echo "SKIPPED: xoff-mpi was not built (no MPI when cmake ran)"; exit 77; }
# Under the AddressSanitizer build (scripts/asan.sh): OpenMPI's own start-up
# allocations are never freed, so leak reports here would be MPI's, not ours
# (xoff's leaks are checked by every other test of that run).
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
# Root in CI containers; more processes than cores on a 2-core machine.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
MPIRUN=(mpirun --oversubscribe --bind-to none)
rm -rf "$W"
mkdir -p "$W"

for s in scenarios/deadlock_ring.toml scenarios/pfc_storm.toml scenarios/allreduce_ring.toml \
  bench/scenarios/incast_64.toml; do
  b=$(basename "$s" .toml)
  "$XOFF" run "$SRC/$s" -q --reproducible -o "$W/$b.h5" >"$W/$b.txt" || fail "xoff run $s"
  for n in 1 2 3; do
    "${MPIRUN[@]}" -np $n "$XMPI" run "$SRC/$s" -q --reproducible -o "$W/$b.np$n.h5" \
      >"$W/$b.np$n.txt" 2>&1 || fail "mpirun -np $n xoff-mpi run $s: $(tail -5 "$W/$b.np$n.txt")"
    cmp -s "$W/$b.h5" "$W/$b.np$n.h5" || fail "$s: the $n-process file differs from xoff run's"
    [ ! -e "$W/$b.np$n.h5.parts" ] || fail "$s: the parts directory was left behind"
  done
  grep -q "^Partition    3 processes (leaf)" "$W/$b.np3.txt" || fail "$s: no partition line in the summary"
  echo "ok: $s identical at 1, 2 and 3 processes ($(grep -o '[0-9]* frames between processes' "$W/$b.np3.txt") at 3)"
done
grep -q "1 deadlocks" "$W/deadlock_ring.np3.txt" || fail "the deadlock across processes was not reported"

# A METIS cut instead of contiguous groups: another split, the same file.
if "${MPIRUN[@]}" -np 2 "$XMPI" run "$SRC/scenarios/pfc_storm.toml" -q --reproducible --partition metis \
  -o "$W/metis.h5" >"$W/metis.txt" 2>&1; then
  cmp -s "$W/pfc_storm.h5" "$W/metis.h5" || fail "pfc_storm: the METIS split's file differs from xoff run's"
  grep -q "^Partition    2 processes (metis)" "$W/metis.txt" || fail "no metis partition line"
  echo "ok: pfc_storm split by METIS over 2 processes: identical"
elif grep -q "built without METIS" "$W/metis.txt"; then
  echo "note: built without METIS, --partition metis refused (scripts/setup.sh installs libmetis-dev)"
else
  fail "mpirun --partition metis: $(tail -5 "$W/metis.txt")"
fi

# Refused: TCP flows (the demo mixes TCP RPCs and collectives too).
"${MPIRUN[@]}" -np 2 "$XMPI" run "$SRC/scenarios/incast_buffer.toml" -q -o "$W/refused.h5" \
  >"$W/refused.txt" 2>&1
rc=$?
[ $rc -ne 0 ] || fail "a TCP scenario should be refused"
grep -q "xoff-mpi cannot run this scenario yet: TCP flows" "$W/refused.txt" || fail "no reason given: $(cat "$W/refused.txt")"
[ ! -e "$W/refused.h5" ] && [ ! -e "$W/refused.h5.parts" ] || fail "a refused run wrote something"
echo "ok: a TCP scenario is refused with the reason, nothing written"

# Refused: a collective of several phases (each iteration waits for all ranks).
"${MPIRUN[@]}" -np 2 "$XMPI" run "$SRC/scenarios/allreduce_ring.toml" -q -o "$W/phases.h5" \
  --set 'collective[0].iterations=2' >"$W/phases.txt" 2>&1
rc=$?
[ $rc -ne 0 ] || fail "a collective of 2 iterations should be refused"
grep -q "ring: iterations > 1" "$W/phases.txt" || fail "no reason given: $(cat "$W/phases.txt")"
[ ! -e "$W/phases.h5" ] && [ ! -e "$W/phases.h5.parts" ] || fail "a refused run wrote something"
echo "ok: a collective of 2 iterations is refused with the reason, nothing written"

# A process killed mid-run: mpirun fails, says which, and no file looks complete.
"${MPIRUN[@]}" -np 2 "$XMPI" run "$SRC/scenarios/deadlock_ring.toml" -q -o "$W/killed.h5" \
  --set scenario.duration=2s --set scenario.stop_when_done=false >"$W/killed.txt" 2>&1 &
mpid=$!
for _ in $(seq 1 100); do [ -d "$W/killed.h5.parts" ] && break; sleep 0.1; done
sleep 1
victim=$(pgrep -f "xoff-mpi run .*killed.h5" | tail -1)
[ -n "$victim" ] || fail "no xoff-mpi process to kill"
kill -9 "$victim"
wait $mpid
rc=$?
[ $rc -ne 0 ] || fail "mpirun exited 0 after a process was killed"
grep -qi "signal 9\|killed\|exited on signal" "$W/killed.txt" || fail "mpirun did not report the death: $(cat "$W/killed.txt")"
[ ! -e "$W/killed.h5" ] || fail "a results file was left after a process died"
echo "ok: a killed process fails the run (exit $rc) and leaves no results file"
echo "PASSED"
