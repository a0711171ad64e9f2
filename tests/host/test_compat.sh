#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# test_compat.sh SIMTY OLD_FW OLD_PROTO [PROTO] - a host of this release against
# simulated boards of two releases: the current firmware opens and reports
# every version; a firmware that speaks link protocol OLD_PROTO is refused
# with SIMTY_EPROTO (exit 1) and a message that names both protocol
# versions and the fix. Then the current board works again.
set -u
simty=$1
old_fw=$2
old=$3
proto=${4:-3} # this release's link protocol (driver/link/simty_proto.h)
fail() { echo "test_compat: FAIL: $*"; exit 1; }
out=$(mktemp)
err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT

"$simty" --version >"$out" || fail "simty --version"
grep -q "link protocol $proto" "$out" || fail "--version lacks the protocol: $(cat "$out")"
ver=$(sed -n 's/^simty \([0-9.]*\) .*/\1/p' "$out")
[ -n "$ver" ] || fail "--version names no version: $(cat "$out")"

env -u SIMTY_SIM_FW "$simty" --device sim info >"$out" 2>"$err" ||
  fail "current board: $(cat "$err")"
grep -q "protocol:    version $proto" "$out" || fail "info: protocol line: $(cat "$out")"
grep -qF "firmware:    version $ver" "$out" || fail "info: firmware line: $(cat "$out")"
grep -qF "bitstream:   version $ver, build " "$out" || fail "info: bitstream line: $(cat "$out")"
# the extensions from INFO (0.2.0): the simulated board is rv32ima_zicntr
grep -qF "isa:         rv32ima_zicntr" "$out" || fail "info: isa line: $(cat "$out")"
env -u SIMTY_SIM_FW "$simty" --device sim --version >"$out" 2>"$err" ||
  fail "--version with a device: $(cat "$err")"
grep -qF "firmware $ver, bitstream $ver" "$out" || fail "--version with a device: $(cat "$out")"
echo "test_compat: the current board opens and reports its versions"

rc=0
SIMTY_SIM_FW=$old_fw "$simty" --device sim info >"$out" 2>"$err" || rc=$?
[ "$rc" -eq 1 ] || fail "a protocol-$old board: exit $rc, expected 1 ($(cat "$out" "$err"))"
grep -q "SIMTY_EPROTO\|protocol error" "$err" || fail "not an EPROTO error: $(cat "$err")"
grep -q "protocol $old" "$err" || fail "the message lacks the device's version: $(cat "$err")"
grep -q "protocol $proto" "$err" || fail "the message lacks the library's version: $(cat "$err")"
grep -qi "bitstream\|reprogram" "$err" || fail "the message lacks the fix: $(cat "$err")"
echo "test_compat: a protocol-$old board is refused: $(grep "^simty:" "$err" | head -1)"
echo "test_compat: 2 passed, 0 failed"
