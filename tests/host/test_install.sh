#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# test_install.sh DIR - the tree `make install PREFIX=DIR/usr` produced must
# be usable on its own: simty-cc builds a kernel, pkg-config gives the flags
# for a host program, the program runs it on the model and checks it, and
# the installed simty CLI runs the kernel too.
set -eu
dir=$1
prefix=$dir/usr
src=$(cd "$(dirname "$0")/../.." && pwd)
fail() { echo "test_install: FAIL: $*"; exit 1; }

for f in bin/simty bin/simty-cc lib/libsimty.a lib/pkgconfig/simty.pc \
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

# The simulated board, when it was built and installed: found next to the
# installed simty, with nothing in the environment pointing at it.
if [ -x "$prefix/bin/simty-sim" ]; then
  env -u SIMTY_SIM "$prefix/bin/simty" --device sim info 2>/dev/null |
    grep -q "protocol:    version 2" || fail "installed simty cannot start the installed simty-sim"
  echo "test_install: the installed simulated board answers"
fi
echo "test_install: installed tree works (simty-cc, pkg-config, libsimty, simty)"
