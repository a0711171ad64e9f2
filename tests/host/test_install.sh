#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# test_install.sh DIR - the tree `make install PREFIX=DIR/usr` produced must
# be usable on its own: simty-cc builds a kernel, pkg-config gives the flags
# for a host program, the program runs it on the model and checks it, the
# installed simty CLI runs the kernel too, simty-model is there, and the
# installed simulated boards (4x4, 8x8) start from the prefix.
set -eu
dir=$1
prefix=$dir/usr
src=$(cd "$(dirname "$0")/../.." && pwd)
fail() { echo "test_install: FAIL: $*"; exit 1; }

for f in bin/simty bin/simty-cc bin/simty-model bin/simty-sim \
    sim/board_4x4/simty-sim-bin sim/board_8x8/simty-sim-bin firmware/firmware.hex \
    lib/libsimty.a lib/pkgconfig/simty.pc \
    include/simty.h include/simty_kernel.h include/simty_arch.h \
    lib/simty/crt0.o lib/simty/libsimty_rt.a lib/simty/simty_kernel.ld \
    lib/simty/simty_memory.ld; do
  [ -e "$prefix/$f" ] || fail "$f not installed"
done

work=$dir/work
mkdir -p "$work"
cd "$work"
# The kernel, with the installed compiler wrapper only.
"$prefix/bin/simty-cc" -o vecadd.elf "$src/examples/vecadd/vecadd.c" ||
  fail "installed simty-cc cannot build a kernel"
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
cflags=$(pkg-config --cflags simty) || fail "pkg-config --cflags simty"
libs=$(pkg-config --libs simty) || fail "pkg-config --libs simty"
ver=$(awk '/^#define SIMTY_VERSION_(MAJOR|MINOR|PATCH) /{v = v (v == "" ? "" : ".") $3} END {print v}' \
  "$src/hw/arch/simty_arch.h")
[ "$(pkg-config --modversion simty)" = "$ver" ] ||
  fail "simty.pc says version $(pkg-config --modversion simty), the source $ver"
case "$cflags" in *"$prefix/include"*) ;; *) fail "cflags lack the include dir: $cflags" ;; esac
# The host program, with the installed header and library only.
${CC:-cc} -std=c11 -Wall -Werror -I"$src/examples/common" -I"$src/examples/vecadd" \
  -DEXAMPLE_KERNEL='"vecadd.elf"' $cflags -o vecadd \
  "$src/examples/vecadd/host.c" "$src/examples/common/example.c" $libs ||
  fail "cannot build a host program against the installed library"
./vecadd --device model --quiet | grep -q "vecadd: PASS" || fail "vecadd on the model"
# The installed CLI.
"$prefix/bin/simty" --device model run vecadd.elf --threads 4 2>err.txt && fail "vecadd with no arguments should fault"
grep -q "fault: load_out_of_range" err.txt || fail "installed simty run fault line"
"$prefix/bin/simty" --device model info | grep -q "4 warps x 4 lanes" || fail "installed simty info"

# The installed reference model runs the README's kernel command.
rc=0; "$prefix/bin/simty-model" --threads 4 vecadd.elf 2>err.txt || rc=$?
[ $rc -eq 3 ] && grep -q "^fault: load_out_of_range" err.txt ||
  fail "installed simty-model (vecadd with no arguments faults, exit 3; got $rc)"
"$prefix/bin/simty-model" --threads 4 "$src/README.md" 2>&1 | grep -q "simty-model: " ||
  fail "installed simty-model refuses a non-ELF with its name"
"$prefix/bin/simty" --version | grep -q "^simty " || fail "installed simty --version"

# The simulated boards (speaking this release's protocol): found next to the installed simty, with nothing in
# the environment pointing at it, in every configuration the docs use; a
# configuration not installed says how to install it.
proto=$(sed -n 's/^#define SIMTY_PROTO_VERSION \([0-9]*\)u*.*/\1/p' \
  "$src/driver/link/simty_proto.h")
env -u SIMTY_SIM "$prefix/bin/simty" --device sim info 2>/dev/null |
  grep -q "protocol:    version $proto" || fail "installed simty cannot start the installed simty-sim"
env -u SIMTY_SIM "$prefix/bin/simty" --device 'sim?warps=8&lanes=8' info 2>err.txt |
  grep -q "8 warps x 8 lanes" || fail "installed sim?warps=8&lanes=8: $(cat err.txt)"
[ ! -s err.txt ] || fail "the installed simulated board is not quiet: $(cat err.txt)"
env -u SIMTY_SIM "$prefix/bin/simty" --device 'sim?warps=2&lanes=16' info 2>err.txt &&
  fail "an uninstalled configuration should not open"
grep -q "SIM_INSTALL_CONFIGS=" err.txt || fail "no install hint for a missing board: $(cat err.txt)"
echo "test_install: the installed simulated boards answer (4x4, 8x8)"
echo "test_install: installed tree works (simty-cc, pkg-config, libsimty, simty)"
