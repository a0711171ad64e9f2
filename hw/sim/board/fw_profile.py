#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""fw_profile.py - where the controller firmware spends its cycles, from a
`simty-sim --profile FILE` histogram and the firmware ELF's symbols.

usage: fw_profile.py PROFILE build/firmware/firmware.elf [--top N]"""
import argparse
import bisect
import subprocess


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("profile")
    ap.add_argument("elf")
    ap.add_argument("--top", type=int, default=15)
    a = ap.parse_args()
    out = subprocess.run(["riscv64-unknown-elf-nm", "-S", "--defined-only", a.elf],
                         check=True, capture_output=True, text=True).stdout
    funcs = []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[2] in "tTwW":
            funcs.append((int(parts[0], 16), int(parts[1], 16), parts[3]))
    funcs.sort()
    starts = [f[0] for f in funcs]
    per = {}
    total = 0
    with open(a.profile) as f:
        for line in f:
            pc, count = line.split()
            pc, count = int(pc, 16), int(count)
            total += count
            i = bisect.bisect_right(starts, pc) - 1
            name = "?"
            if i >= 0 and pc < funcs[i][0] + funcs[i][1]:
                name = funcs[i][2]
            per[name] = per.get(name, 0) + count
    print("%d controller cycles" % total)
    for name, count in sorted(per.items(), key=lambda kv: -kv[1])[:a.top]:
        print("%6.2f%% %12d  %s" % (100.0 * count / total, count, name))


if __name__ == "__main__":
    main()
