#!/usr/bin/env bash
# Speed-up of one run across MPI processes (xoff-mpi) on the 1,024-host
# scenarios of bench_scale (32 leaves x 32 hosts, 32 spines, 100 Gb/s, 1 us
# links, PFC + ECN/DCQCN, deadlock detection on, 300 us): the permutation of
# 1 MB RoCE flows and the ring AllReduce of 64 KB per rank (64 MB).
# Wall time of each run as its summary reports it (the run loop only, not
# the build), and whether the results files are identical.
#
#   bench/mpi_speedup.sh [BUILD_DIR] [MAX_PROCESSES]    (default build/release, 2)
set -euo pipefail
B=${1:-build/release}
MAXP=${2:-2}
SRC=$(cd "$(dirname "$0")/.." && pwd)
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
SET=(--set topology.leaves=32 --set topology.hosts_per_leaf=32 --set topology.spines=32)
echo "commit $(git -C "$SRC" rev-parse --short HEAD), $(nproc) cores, $(date -u +%F)"
for SCEN in "$SRC/bench/scenarios/scale_permutation.toml" "$SRC/bench/scenarios/scale_ring.toml"; do
  EXTRA=()
  [[ $SCEN == *ring* ]] && EXTRA=(--set collective[0].size=64MB)
  echo "$(basename "$SCEN") at 1,024 hosts"
  "$B/app/xoff" run "$SCEN" "${SET[@]}" "${EXTRA[@]}" -q --reproducible -o "$W/one.h5" | grep '^Run'
  for n in $(seq 1 "$MAXP"); do
    mpirun --oversubscribe --bind-to core -np "$n" "$B/app/xoff-mpi" run "$SCEN" "${SET[@]}" \
      "${EXTRA[@]}" -q --reproducible -o "$W/np$n.h5" | grep '^Partition\|^Run'
    cmp -s "$W/one.h5" "$W/np$n.h5" && echo "  np $n: results identical to xoff run" ||
      echo "  np $n: RESULTS DIFFER"
  done
done
