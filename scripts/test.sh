#!/usr/bin/env bash
# README command 2: install what is missing, build (CI preset: warnings are errors)
# and run the whole test suite except the `slow` label.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
cmake --preset ci
cmake --build --preset ci -j "$(nproc)"
ctest --preset ci "$@"
