#!/bin/sh
# `cmake --install` into a scratch prefix, then use the installed xoff from
# another directory: `xoff list` finds the bundled scenarios under
# <prefix>/share/xoff, a scenario elsewhere finds the bundled "websearch" CDF,
# and a bundled scenario runs by its installed path.
#   install_test.sh BUILD_DIR WORK
set -u
B=$1
W=$2
rm -rf "$W"
mkdir -p "$W/elsewhere"
cmake --install "$B" --prefix "$W/prefix" >/dev/null || { echo "FAIL: cmake --install"; exit 1; }
X="$W/prefix/bin/xoff"
[ -x "$X" ] || { echo "FAIL: no $X"; exit 1; }
cd "$W/elsewhere" || exit 1
out=$("$X" list) || { echo "FAIL: xoff list"; exit 1; }
echo "$out" | grep -q "bundled scenarios in $W/prefix/share/xoff/scenarios" ||
  { echo "FAIL: list did not use the installed scenarios:"; echo "$out" | head -3; exit 1; }
echo "$out" | grep -q '^demo.toml' || { echo "FAIL: demo.toml not listed"; exit 1; }
cat >web.toml <<EOC
[scenario]
name = "web"
duration = "100us"
[topology]
kind = "spine_leaf"
leaves = 2
spines = 1
hosts_per_leaf = 2
host_rate = "100Gbps"
[[traffic.poisson]]
load = 0.3
cdf = "websearch"
EOC
"$X" check web.toml >/dev/null || { echo "FAIL: the bundled websearch CDF was not found"; exit 1; }
"$X" run "$W/prefix/share/xoff/scenarios/incast_buffer.toml" -q -o r.h5 >/dev/null ||
  { echo "FAIL: running an installed scenario"; exit 1; }
[ -f "$W/prefix/share/xoff/plot/xoff_plot.py" ] || { echo "FAIL: plot script not installed"; exit 1; }
echo "PASSED: installed xoff lists, finds CDFs and runs from $W/elsewhere"
