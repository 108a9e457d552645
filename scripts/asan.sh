#!/usr/bin/env bash
# The unit suite (label `unit`, about 400 tests, the seeded fuzz driver and
# the property tests among them) under AddressSanitizer and UBSan: the asan
# preset, a Debug build. About 6 minutes to build and 3 to run on 2 cores,
# so CI (.ci/run) runs it after the main suite. The scenario-label tests
# (whole bundled scenarios, minutes under ASan) are left to a manual run:
#   cmake --preset asan && cmake --build --preset asan && ctest --test-dir build/asan
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
cmake --preset asan
cmake --build --preset asan -j "$(nproc)"
ctest --preset asan "$@"
