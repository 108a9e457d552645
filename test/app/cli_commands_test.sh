#!/bin/sh
# The command line as a new user meets it: version, bare `xoff` and `xoff help
# CMD`, a mistyped command, bad option values. Each case checks the exit code
# and a line of what is printed.
#   cli_commands_test.sh XOFF VERSION
X=$1
V=$2
fails=0
check() {  # check NAME WANT_RC PATTERN -- command...
  name=$1 want=$2 pat=$3
  shift 4
  out=$("$@" 2>&1)
  rc=$?
  if [ "$rc" -ne "$want" ] || ! printf '%s\n' "$out" | grep -q -- "$pat"; then
    echo "FAIL $name: exit $rc (want $want), output:"
    printf '%s\n' "$out" | head -5
    fails=$((fails + 1))
  else
    echo "ok   $name"
  fi
}
check version 0 "^xoff $V\$" -- "$X" --version
check bare 0 "sweep" -- "$X"
check help 0 "collect" -- "$X" help
check help_cmd 0 "\-\-max-events" -- "$X" help run
check help_unknown 2 'did you mean "sweep"' -- "$X" help swep
check typo 2 'did you mean "run"' -- "$X" runn scenarios/demo.toml
check unknown 2 "the commands are" -- "$X" frobnicate
check bad_seed 2 "seed" -- "$X" run x.toml --seed abc
check bad_level 2 "shout" -- "$X" run x.toml --log-level shout
check bad_option 2 "\-\-nope" -- "$X" run x.toml --nope
# Values at the int64 edges are refused with the key, not wrapped.
T=$(mktemp -d)
cat >"$T/s.toml" <<EOC
[scenario]
name = "edge"
duration = "100us"
[topology]
kind = "spine_leaf"
leaves = 2
spines = 1
hosts_per_leaf = 1
host_rate = "100Gbps"
EOC
check huge_delay 2 "host_delay: must be at most 10^6 s" -- "$X" check "$T/s.toml" --set topology.host_delay=9223372036854775807ps
check huge_rate 2 "host_rate: must be at most 100 Tbps" -- "$X" check "$T/s.toml" --set topology.host_rate=1000Tbps
check headroom_frame 2 "\-\-frame must be between" -- "$X" headroom --frame 9223372036854775807B
check headroom_ok 0 "153100 B" -- "$X" headroom --rate 400Gbps --cable 200m --frame 1518B
# SONiC-style sizing beside the bound (arithmetic in test/models/topology/headroom_test.cc)
check headroom_sonic 0 "xoff + xon = 63.299KB  *63299 B" -- "$X" headroom --rate 100Gbps --cable 5m --frame 9100B --sonic --mac-phy 819B --pipeline 18432B
check headroom_sonic_cell 2 "\-\-cell must be 1B..64KiB" -- "$X" headroom --sonic --cell 0B
check headroom_sonic_quanta 2 "give the peer response in quanta" -- "$X" headroom --sonic --rate 123Gbps
# Files that are not scenarios, and keys nested 10^5 deep, are refused.
mkfifo "$T/fifo.toml"
check fifo 2 "not a regular file" -- "$X" check "$T/fifo.toml"
check dev_zero 2 "not a regular file" -- "$X" check /dev/zero
python3 -c "print('a' + '.a' * 100000 + ' = 1')" >"$T/deep.toml"
check deep_keys 2 "deep.toml:1:130: error: key nested deeper than 64 levels" -- "$X" check "$T/deep.toml"
python3 -c "print('[' + '.'.join(['t'] * 100000) + ']')" >"$T/deep2.toml"
check deep_tables 2 "key nested deeper than 64 levels" -- "$X" check "$T/deep2.toml"
# -o naming the scenario itself is refused and the scenario left as it was.
cp "$T/s.toml" "$T/keep.toml"
check o_is_scenario 2 "names the scenario file itself" -- "$X" run "$T/s.toml" -q -o "$T/s.toml"
cmp -s "$T/s.toml" "$T/keep.toml" || { echo "FAIL o_is_scenario: the scenario was changed"; fails=$((fails + 1)); }
# A temporary left by a killed writer (its process gone) is cleaned up.
cat >>"$T/s.toml" <<EOC
[[traffic.flow]]
src = "h0"
dst = "h1"
size = "10KB"
EOC
touch "$T/r.h5.tmp.2147483646.00000000000000ff"
check stale_temp 0 "Results" -- "$X" run "$T/s.toml" -o "$T/r.h5"
[ ! -e "$T/r.h5.tmp.2147483646.00000000000000ff" ] || { echo "FAIL stale_temp: left behind"; fails=$((fails + 1)); }
# A very long duration: the run still stops soon after its traffic is done
# (completion is checked at least every simulated ms), not after 10^3 s of sampling.
check long_duration 0 "Flows        1 of 1 finished" -- "$X" run "$T/s.toml" --no-output --set scenario.duration=1000s --max-events 1000000
# A fabric whose dimensions multiply out beyond the limit is refused at once.
check huge_fabric 2 "at most 262144 hosts" -- "$X" check "$T/s.toml" --set topology.leaves=4096 --set topology.hosts_per_leaf=4096 --set topology.spines=4096
cp "$T/s.toml" "$T/cdf.toml"
printf '[[traffic.poisson]]\nload = 0.3\ncdf = "/dev/zero"\n' >>"$T/cdf.toml"
check cdf_device 2 "is not a regular file" -- "$X" check "$T/cdf.toml"
# A full disk (here a file-size limit): a clear error, exit 1, no file left.
rc=$(sh -c "ulimit -f 50; trap '' XFSZ; '$X' run '$T/s.toml' -q -o '$T/big.h5' --set scenario.duration=1ms >/dev/null 2>'$T/big.err'; echo \$?")
if [ "$rc" -eq 1 ] && grep -q "cannot write results" "$T/big.err" && ! ls "$T"/big.h5* >/dev/null 2>&1; then
  echo "ok   disk_full"
else
  echo "FAIL disk_full: exit $rc, $(cat "$T/big.err"), files: $(ls "$T")"
  fails=$((fails + 1))
fi
# A scenario estimated beyond --max-memory is refused up front, with the figures.
check max_memory 2 "needs about" -- "$X" run "$T/s.toml" --no-output --max-memory 1MB
check max_memory_ok 0 "Flows" -- "$X" run "$T/s.toml" --no-output --max-memory 1GB
check max_memory_bad 2 "max-memory lots" -- "$X" run "$T/s.toml" --no-output --max-memory lots
# Errors name keys as the user writes them (buffer.size), not the model's fields.
check user_names 2 "buffer.size (50000 B) leaves no shared pool" -- "$X" check "$T/s.toml" --set buffer.size=50KB
# --stats counts the packet pool: one flow never has 4,096 packets live, so
# one chunk of 4,096 (sim/pool.h), 64 B each (a line: models/core/packet.h):
# 4,096 x 64 = 262,144 B = 0.3 MB.
check stats_packets 0 "^Packets      room for 4096 in the pool (0.3 MB, 64 B each): the peak live, rounded up" -- "$X" run "$T/s.toml" --no-output -q --stats
# Transparent huge pages (app/run/huge_pages.h): where the kernel gives them
# on request (madvise mode), xoff starts itself again asking glibc's malloc for
# them, so the run's heap sits in 2 MiB pages; XOFF_HUGE_PAGES=0 keeps 4 KiB
# pages. 512 hosts: a heap of ~20 MB, so several whole 2 MiB ranges. (A
# sanitizer build says why it does not ask.)
big="--set topology.leaves=32 --set topology.hosts_per_leaf=16 --set topology.spines=8"
mode=$(sed -n 's/.*\[\(.*\)\].*/\1/p' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null)
# (Skipped where this process may not have them: THP_enabled 0 in its status.)
if [ "$mode" = madvise ] && ! grep -q "THP_enabled:[[:space:]]*0" /proc/self/status &&
  ! "$X" run "$T/s.toml" --no-output -q --stats 2>&1 | grep -q "sanitizer build"; then
  check huge_pages 0 " [1-9][0-9.]* MB of it in 2 MiB pages (transparent huge pages asked for" -- env -u GLIBC_TUNABLES "$X" run "$T/s.toml" --no-output -q --stats $big
  check huge_pages_off 0 " 0.0 MB of it in 2 MiB pages (transparent huge pages not asked for" -- env -u GLIBC_TUNABLES XOFF_HUGE_PAGES=0 "$X" run "$T/s.toml" --no-output -q --stats $big
  check huge_pages_user 0 " 0.0 MB of it in 2 MiB pages" -- env GLIBC_TUNABLES=glibc.malloc.hugetlb=0 "$X" run "$T/s.toml" --no-output -q --stats $big
else
  echo "skip huge_pages: transparent huge pages are '$mode' here (or a sanitizer build)"
fi
rm -rf "$T"
[ "$fails" -eq 0 ] || exit 1
