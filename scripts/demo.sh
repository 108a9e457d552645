#!/usr/bin/env bash
# README command 1: install what is missing, build Release and run the demo scenario.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
cmake --preset release
cmake --build --preset release -j "$(nproc)"
mkdir -p out
./build/release/app/xoff run scenarios/demo.toml -o out/demo.h5 "$@"
