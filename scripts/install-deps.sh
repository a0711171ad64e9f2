#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# install-deps.sh - install the Debian packages the build needs, if missing.
#
# Called by `make run` and `make test` before anything is built, so that a
# fresh Debian machine needs nothing but make. Installs with apt-get as
# root, through sudo otherwise, and says what to do when neither works.
# With --bench-report: only what `make bench-report` adds (matplotlib).
set -eu

PACKAGES="build-essential pkg-config python3 verilator yosys nextpnr-ice40
fpga-icestorm gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf
libcmocka-dev libusb-1.0-0-dev libftdi1-dev openfpgaloader
clang libclang-rt-14-dev libdw-dev"
# `make bench-report` alone also needs the plotting library (not the build
# nor the tests): install-deps.sh --bench-report.
if [ "${1:-}" = "--bench-report" ]; then
  PACKAGES="python3-matplotlib"
fi

missing=""
for pkg in $PACKAGES; do
  status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
  case "$status" in
    *"install ok installed"*) ;;
    *) missing="$missing $pkg" ;;
  esac
done

if [ -z "$missing" ]; then
  exit 0
fi

echo "install-deps: installing missing packages:$missing"
if [ "$(id -u)" = 0 ]; then
  SUDO=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  SUDO="sudo -n"
else
  echo "install-deps: missing packages:$missing" >&2
  echo "install-deps: run as root or with sudo, or install them by hand:" >&2
  echo "  apt-get install$missing" >&2
  exit 1
fi

export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
echo "install-deps: done"
