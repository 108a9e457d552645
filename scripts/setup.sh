#!/usr/bin/env bash
# Installs every Debian 12 package xoff needs to build, test and plot.
# Idempotent: packages already present are skipped, so a second run does nothing.
set -euo pipefail
PKGS=(
  build-essential cmake ninja-build pkg-config
  libboost-graph-dev libspdlog-dev libfmt-dev libhdf5-dev libeigen3-dev
  libbenchmark-dev libgtest-dev libgmock-dev libtomlplusplus-dev libcli11-dev
  clang-format git
  python3 python3-h5py python3-matplotlib python3-numpy
  parallel slurm-wlm munge  # sweeps: GNU parallel and a single-node Slurm in the tests
  tshark  # the pcap tests decode xoff's captures with it
  openmpi-bin libopenmpi-dev  # xoff-mpi and its test under a real mpirun
  libmetis-dev  # xoff-mpi --partition metis
)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#PKGS[@]} packages present"
  exit 0
fi
echo "setup: installing ${missing[*]}"
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
