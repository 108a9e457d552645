#!/usr/bin/env bash
# A sweep on a real single-node Slurm: writes slurm.conf for this host, starts
# munged, slurmctld and slurmd (ports, state and sockets under WORKDIR, nothing
# system-wide), submits the job array `xoff sweep --emit slurm` wrote (4
# points), waits for it, collects, and checks that every point ran as an array
# task and that the table equals the one a local run of the same sweep gives.
# The daemons are stopped on every exit path.
#
#   slurm_test.sh XOFF SOURCE_DIR WORKDIR
#
# Exit 0 passed, 1 failed, 77 skipped (CTest SKIP_RETURN_CODE): Slurm or munge
# not installed, not root, or the daemons could not start here; the reason is
# printed.
set -uo pipefail
XOFF=$1
SRC=$2
W=$3
skip() { echo "SKIPPED: $*"; exit 77; }
fail() { echo "FAILED: $*"; exit 1; }

for tool in munged slurmctld slurmd sbatch sinfo scontrol; do
  command -v "$tool" >/dev/null || skip "$tool not found (scripts/setup.sh installs slurm-wlm and munge)"
done
[ "$(id -u)" -eq 0 ] || skip "slurmd must run as root to start jobs (running as $(id -un))"

rm -rf "$W"
mkdir -p "$W"/{state,spool,log,munge}
chmod 700 "$W/munge"
head -c 1024 /dev/urandom >"$W/munge/munge.key"
chmod 400 "$W/munge/munge.key"
H=$(hostname -s)
# Ports from the PID so that two test runs on one machine do not collide.
CTLD_PORT=$((20000 + ($$ % 10000) * 2))
SLURMD_PORT=$((CTLD_PORT + 1))
export SLURM_CONF="$W/slurm.conf"

stop() {
  scontrol shutdown >/dev/null 2>&1
  for pidfile in "$W/slurmd.pid" "$W/slurmctld.pid" "$W/munge/munged.pid"; do
    [ -f "$pidfile" ] && kill "$(cat "$pidfile")" 2>/dev/null
  done
  sleep 0.5
  for pidfile in "$W/slurmd.pid" "$W/slurmctld.pid" "$W/munge/munged.pid"; do
    [ -f "$pidfile" ] && kill -9 "$(cat "$pidfile")" 2>/dev/null
  done
}
trap stop EXIT

munged --key-file="$W/munge/munge.key" --socket="$W/munge/munge.sock" \
  --pid-file="$W/munge/munged.pid" --log-file="$W/munge/munged.log" \
  --seed-file="$W/munge/seed" --force ||
  skip "munged could not start: $(tail -3 "$W/munge/munged.log" 2>/dev/null)"

cat >"$SLURM_CONF" <<EOC
ClusterName=xofftest
SlurmctldHost=$H
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$W/munge/munge.sock
CredType=cred/munge
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
StateSaveLocation=$W/state
SlurmdSpoolDir=$W/spool
SlurmctldPidFile=$W/slurmctld.pid
SlurmdPidFile=$W/slurmd.pid
SlurmctldLogFile=$W/log/slurmctld.log
SlurmdLogFile=$W/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
ReturnToService=2
NodeName=$H CPUs=$(nproc) RealMemory=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 / 2 )) State=UNKNOWN
PartitionName=xoff Nodes=$H Default=YES MaxTime=INFINITE State=UP
EOC

slurmctld -f "$SLURM_CONF" || skip "slurmctld could not start: $(tail -3 "$W/log/slurmctld.log" 2>/dev/null)"
slurmd -f "$SLURM_CONF" || skip "slurmd could not start: $(tail -3 "$W/log/slurmd.log" 2>/dev/null)"
for _ in $(seq 60); do
  sinfo -h -o %T 2>/dev/null | grep -q idle && break
  sleep 0.5
done
sinfo -h -o %T 2>/dev/null | grep -q idle ||
  skip "the Slurm node did not come up: $(tail -3 "$W/log/slurmd.log" 2>/dev/null)"
echo "slurm: node $H idle (ports $CTLD_PORT, $SLURMD_PORT)"

# Poisson short flows: the seeds are replicates that differ.
SCEN="$SRC/scenarios/ecn_tradeoff.toml"
GRID=(--grid ecn.kmax=20KB,400KB --seeds 1-2)
"$XOFF" sweep "$SCEN" "${GRID[@]}" --emit slurm --slurm-time 00:05:00 --slurm-mem 500M \
  -o "$W/sw" || fail "xoff sweep --emit slurm"
grep -q '^#SBATCH --array=0-3$' "$W/sw/sweep.sbatch" || fail "sweep.sbatch has no --array=0-3"
timeout 300 sbatch --wait "$W/sw/sweep.sbatch" || fail "the Slurm array failed: $(tail -5 "$W"/sw/logs/slurm-* 2>/dev/null)"
n=$(ls "$W"/sw/logs/slurm-*_[0-3].out 2>/dev/null | wc -l)
[ "$n" -eq 4 ] || fail "expected 4 array task outputs, found $n"
"$XOFF" collect "$W/sw" -o "$W/sw/table.csv" || fail "xoff collect"
ok=$(grep -c ',ok,' "$W/sw/table.csv")
[ "$ok" -eq 4 ] || fail "expected 4 points with results, found $ok"

# The same sweep run here gives the same table, byte for byte.
"$XOFF" sweep "$SCEN" "${GRID[@]}" -j 2 -q -o "$W/local" >/dev/null || fail "local sweep"
cmp "$W/sw/table.csv" "$W/local/table.csv" || fail "Slurm and local tables differ"
echo "PASSED: 4 points ran as Slurm array tasks; table equals the local run's"
