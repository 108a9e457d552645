#!/usr/bin/env bash
# Windows (sim::Simulator::set_parts, decided by World) change the order in
# which independent parts run, never a result: `xoff run --reproducible` with
# XOFF_WINDOWS=off and with 8 parts asked writes the same file, byte for
# byte, on the bundled scenarios that allow them (PFC deadlocks found, the
# storm with its watchdog and faults, the ring and tree AllReduce, DCQCN, QoS,
# the 128-host fat-tree); a 1,024-host permutation turns them on by itself
# (40 parts: each leaf with its hosts, the spines four to a part) and matches
# the sequential run; 4,096 parts asked of a 128-host fabric fill the 24 it
# can give; a TCP scenario and a small fabric stay sequential and say why in
# --stats.
#
#   windows_test.sh XOFF SOURCE_DIR WORKDIR
set -uo pipefail
XOFF=$1
SRC=$2
W=$3
fail() { echo "FAILED: $*"; exit 1; }
rm -rf "$W"
mkdir -p "$W"

same() {  # same NAME SCENARIO [ARGS...]: off against 8 parts
  local n=$1 s=$2
  shift 2
  XOFF_WINDOWS=off "$XOFF" run "$SRC/$s" -q --reproducible -o "$W/$n.off.h5" "$@" >/dev/null ||
    fail "$n: xoff run (windows off)"
  XOFF_WINDOWS=8 "$XOFF" run "$SRC/$s" -q --reproducible --stats -o "$W/$n.on.h5" "$@" \
    >"$W/$n.on.txt" || fail "$n: xoff run (8 parts)"
  grep -Eq "^Windows      ([2-7] parts \(8 asked; the others got no node\)|8 parts), lookahead" \
    "$W/$n.on.txt" ||
    fail "$n: not run in windows: $(grep '^Windows' "$W/$n.on.txt")"
  cmp -s "$W/$n.off.h5" "$W/$n.on.h5" || fail "$n: the file differs with windows"
  echo "ok: $n ($(grep -o '[0-9]* windows' "$W/$n.on.txt"))"
}

same deadlock_ring scenarios/deadlock_ring.toml
same bounce_deadlock scenarios/bounce_deadlock.toml
same pfc_storm scenarios/pfc_storm.toml
same allreduce_ring scenarios/allreduce_ring.toml
same dcqcn_stability scenarios/dcqcn_stability.toml
same qos_mismatch scenarios/qos_mismatch.toml
same fat_tree_128 bench/scenarios/fat_tree_128.toml

# Large enough to turn them on by itself: 32 leaves x 32 hosts, 32 spines
# (4,096 ports), cut at 20 us.
big=(--set topology.leaves=32 --set topology.spines=32 --set topology.hosts_per_leaf=32
  --set scenario.duration=20us)
XOFF_WINDOWS=off "$XOFF" run "$SRC/bench/scenarios/scale_permutation.toml" "${big[@]}" -q \
  --reproducible -o "$W/big.off.h5" >/dev/null || fail "1,024 hosts: xoff run (windows off)"
env -u XOFF_WINDOWS "$XOFF" run "$SRC/bench/scenarios/scale_permutation.toml" "${big[@]}" -q \
  --reproducible --stats -o "$W/big.on.h5" >"$W/big.on.txt" || fail "1,024 hosts: xoff run"
# One part asked per four nodes: 1,088 / 4 = 272. A leaf and its 32 hosts
# (33 nodes) fill a part alone, the 32 spines four to a part: 32 + 8 = 40.
grep -q "^Windows      40 parts (272 asked; the others got no node), lookahead 1us" \
  "$W/big.on.txt" || fail "1,024 hosts: expected 40 parts: $(grep '^Windows' "$W/big.on.txt")"
cmp -s "$W/big.off.h5" "$W/big.on.h5" || fail "1,024 hosts: the file differs with windows"
echo "ok: 1,024-host permutation, 40 parts by itself"

# More parts asked than the fabric has groups to give: a leaf and its hosts
# are never split, so the 128-host spine-leaf (8 leaves, 16 spines) has 24
# groups, and --stats counts the parts that got nodes.
XOFF_WINDOWS=4096 "$XOFF" run "$SRC/bench/scenarios/scale_permutation.toml" -q --no-output --stats \
  --set scenario.duration=20us >"$W/many.txt" || fail "4,096 parts asked: xoff run"
grep -q "^Windows      24 parts (4096 asked; the others got no node), lookahead 1us" "$W/many.txt" ||
  fail "4,096 parts asked: $(grep '^Windows' "$W/many.txt")"
echo "ok: 4,096 parts asked of a 128-host fabric, 24 got nodes"

# Stays sequential, and says why.
env -u XOFF_WINDOWS "$XOFF" run "$SRC/scenarios/demo.toml" -q --no-output --stats >"$W/demo.txt" ||
  fail "demo"
grep -q "^Windows      off (a small fabric" "$W/demo.txt" ||
  fail "demo: $(grep '^Windows' "$W/demo.txt")"
XOFF_WINDOWS=8 "$XOFF" run "$SRC/scenarios/trust_boundary.toml" -q --no-output --stats \
  >"$W/tcp.txt" || fail "trust_boundary"
grep -q "^Windows      off (TCP flows" "$W/tcp.txt" || fail "TCP: $(grep '^Windows' "$W/tcp.txt")"
XOFF_WINDOWS=banana "$XOFF" run "$SRC/scenarios/demo.toml" -q --no-output --stats \
  >"$W/bad.txt" 2>"$W/bad.err" || fail "XOFF_WINDOWS=banana"
grep -q "XOFF_WINDOWS=banana ignored (allowed: auto, off" "$W/bad.err" ||
  fail "XOFF_WINDOWS=banana: no warning"
echo "ok: sequential where windows cannot or need not be"
