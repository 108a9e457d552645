#!/usr/bin/env bash
# Coverage-guided fuzzing of the scenario loader with libFuzzer (clang, under
# AddressSanitizer and UBSan): installs clang and its runtime if missing,
# builds the `fuzz` preset's scenario_fuzz target and runs it on a corpus made
# from the bundled scenarios.
#   scripts/fuzz.sh [SECONDS] [extra libFuzzer options...]   (default 300 s)
# Findings (crash-*, timeout-*, oom-*) are left in build/fuzz/findings; replay
# one with build/fuzz/test/fuzz/scenario_fuzz FILE. Without clang the same
# target runs under the seeded driver: ctest -R fuzz_scenario (CI), -L slow.
set -euo pipefail
cd "$(dirname "$0")/.."
secs="${1:-300}"
[ $# -gt 0 ] && shift
need=()
for p in clang libclang-rt-14-dev; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}"
fi
./scripts/setup.sh
cmake --preset fuzz
cmake --build --preset fuzz --target scenario_fuzz -j "$(nproc)"
work=build/fuzz/run
rm -rf "$work/corpus"
mkdir -p "$work/corpus" build/fuzz/findings
cp scenarios/*.toml test/app/data/*.toml "$work/corpus/"
# -rss_limit_mb: the target refuses scenarios estimated above 256 MB, so more
# than 2 GB is a finding; -timeout: one input never needs seconds.
exec build/fuzz/test/fuzz/scenario_fuzz "$work/corpus" -max_total_time="$secs" \
  -rss_limit_mb=2048 -timeout=20 -max_len=65536 -close_fd_mask=3 \
  -artifact_prefix=build/fuzz/findings/ -dict=test/fuzz/scenario.dict "$@"
