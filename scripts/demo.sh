#!/usr/bin/env bash
# README command 1: install what is missing, build Release and run the demo scenario.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
cmake --preset release
cmake --build --preset release -j "$(nproc)"
mkdir -p out
./build/release/app/xoff run scenarios/demo.toml -o out/demo.h5 "$@"
# Pictures of the run (Debian's python3 has h5py and matplotlib).
/usr/bin/python3 analysis/plot/xoff_plot.py out/demo.h5 -o out/demo_plots
