#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""board_report.py - the FPGA scaling table (`make board-report`).

Each item FAMILY:WHAT:WxL goes through Yosys and nextpnr with
hw/rtl/boards/simty_board_flow.py:
  core  simty_core alone, in simty_board_core_shell (inputs from a shift
        register, outputs folded into one XOR: placeable with 3 pins);
        results in OUT/FAMILY_core_WxL/
  soc   the whole SoC as the board bitstream builds it: `make bitstream
        BOARD=hx8k` (ice40) or `BOARD=ulx3s` (ecp5) at WxL, with the
        board's pins, memory sizes and firmware image; results (and the
        bitstream when it fits) in the folder `make board-dir` names
Devices: ice40 = iCE40-HX8K CT256, ecp5 = LFE5U-85F CABGA381. Core rows
target 12 MHz (ice40) and 25 MHz (ecp5); soc rows the board's own clock
and nextpnr options (boards.mk). A run whose inputs have not changed is
not redone (--force redoes it). The table goes to stdout and
OUT/table.md.
"""
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys
import time

FLOW = os.path.join("hw", "rtl", "boards", "simty_board_flow.py")
FAMILY = {
    "ice40": {"device": "--hx8k --package ct256", "mhz": 12, "board": "hx8k",
              "name": "iCE40-HX8K"},
    "ecp5": {"device": "--85k --package CABGA381", "mhz": 25, "board": "ulx3s",
             "name": "ECP5-85F"},
}


def parse_item(item):
    try:
        fam, what, cfg = item.split(":")
        w, l = (int(x) for x in cfg.split("x"))
    except ValueError:
        raise SystemExit(f"board_report: bad item '{item}' (FAMILY:core|soc:WxL)")
    if fam not in FAMILY or what not in ("core", "soc"):
        raise SystemExit(f"board_report: bad item '{item}' (ice40|ecp5 : core|soc : WxL)")
    return fam, what, w, l


def run_one(a, item):
    fam, what, w, l = parse_item(item)
    f = FAMILY[fam]
    if what == "core":
        out = os.path.join(a.out, f"{fam}_core_{w}x{l}")
        code, data = a.mem[fam]
        # CODE and DATA sizes only set the core's range checks.
        cmd = [sys.executable, FLOW, "--family", fam, "--device", f["device"],
               "--top", "simty_board_core_shell", "--out", out, "--freq", str(f["mhz"]),
               "--build", a.build, "--label", f"{fam}_core_{w}x{l}",
               "--inc", "hw/rtl/core", "--inc", os.path.join(a.build, "gen"),
               "--param", f"WARPS={w}", "--param", f"LANES={l}",
               "--param", f"CODE_SIZE={code}", "--param", f"DATA_SIZE={data}"]
        if not a.force:
            cmd.append("--reuse")
        cmd += ["hw/rtl/boards/common/simty_board_core_shell.v"] + a.core_srcs
    else:
        mk = [f"BOARD={f['board']}", f"WARPS={w}", f"LANES={l}", f"BUILD={a.build}"]
        out = subprocess.run([a.make, "-s", "--no-print-directory", "board-dir"] + mk,
                             check=True, capture_output=True, text=True).stdout.strip()
        # The table reports Fmax: a configuration that misses the clock is
        # still placed and routed to the end.
        cmd = [a.make, "--no-print-directory", "bitstream", "BOARD_ALLOW_TIMING_FAIL=1"] + mk
        if a.force:
            cmd.append("BOARD_FORCE=1")
    start = time.time()
    print(f"board_report: {item}: {' '.join(cmd[:6])} ... (logs in {out}/)", flush=True)
    rc = subprocess.call(cmd)
    summ = os.path.join(out, "summary.json")
    s = json.load(open(summ)) if os.path.exists(summ) else {"synth": None, "pnr": None}
    s["flow_exit"] = rc
    s["wall_seconds"] = round(time.time() - start)
    return item, s


def row(item, s):
    fam, what, w, l = parse_item(item)
    f = FAMILY[fam]
    syn = s.get("synth") or {}
    pnr = s.get("pnr") or {}
    util = pnr.get("util", {})
    if not syn.get("ok"):
        return [f["name"], what, f"{w}x{l}", "synthesis failed", "", "", "", "", "", "", ""]
    lut = syn.get("lut", 0)
    logic = util.get("lc") or util.get("comb")
    bram = util.get("bram")

    def frac(u):
        return f"{u['used']}/{u['avail']} ({u['pct']}%)" if u else "-"

    if not pnr:
        fits = "not run"
    elif pnr.get("fits"):
        fits = "yes"
    elif pnr.get("over"):
        fits = "no: " + ", ".join(pnr["over"])
    else:
        fits = "P&R error: " + "; ".join(pnr.get("errors", [])[:1])
    fmax = pnr.get("fmax_mhz")
    fmax_s = f"{fmax:.1f}" if (fmax and pnr.get("fits")) else "-"
    target = s.get("freq_mhz", f["mhz"])
    if fmax and pnr.get("fits") and not pnr.get("meets_freq"):
        fmax_s += " (misses)"
    ff = syn.get("ff", 0)
    return [f["name"], what, f"{w}x{l}", str(lut), str(ff), str(syn.get("bram", 0)),
            frac(logic), frac(bram), fits, f"{target:g}", fmax_s]


HEAD = ["device", "design", "WxL", "LUT4 (yosys)", "FF (yosys)", "BRAM (yosys)",
        "LC / COMB placed", "BRAM placed", "fits", "target MHz", "Fmax MHz"]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--out", required=True)
    p.add_argument("--build", default="build")
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--ice40-mem", default="2048,2048", help="CODE,DATA bytes (core)")
    p.add_argument("--ecp5-mem", default="16384,131072", help="CODE,DATA bytes (core)")
    p.add_argument("--core-srcs", required=True)
    p.add_argument("--force", action="store_true")
    p.add_argument("items", nargs="+")
    a = p.parse_args()
    a.mem = {"ice40": a.ice40_mem.split(","), "ecp5": a.ecp5_mem.split(",")}
    a.make = os.environ.get("MAKE", "make")
    a.core_srcs = a.core_srcs.split()
    for it in a.items:
        parse_item(it)
    os.makedirs(a.out, exist_ok=True)

    results = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
        for item, s in ex.map(lambda it: run_one(a, it), a.items):
            results[item] = s

    rows = [row(it, results[it]) for it in a.items]
    lines = ["| " + " | ".join(HEAD) + " |", "|" + " --- |" * len(HEAD)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    table = "\n".join(lines)
    date = time.strftime("%Y-%m-%d")
    shells = sorted({(w, l) for it in a.items for f_, what, w, l in [parse_item(it)]
                     if what == "core"})
    shell_txt = "; ".join(f"{w}x{l}: +{shell_in(w, l) + 1} FF, ~{shell_out(w, l) // 3} LUT4"
                          for w, l in shells)
    notes = (f"Measured {date} with {tool_version(['yosys', '-V'])} and "
             f"{tool_version(['nextpnr-ice40', '--version']).split(' -- ')[-1]} "
             "(nextpnr-ice40) / the nextpnr-ecp5 named in each pnr.log; Fmax from "
             "nextpnr's post-route timing (seed 1) at the row's target: core rows "
             "at 12 MHz (ice40) and 25 MHz (ecp5) with nextpnr's default options, "
             "soc rows at the board's clock and nextpnr options (hw/rtl/boards/"
             "boards.mk: hx8k, ulx3s); LC = iCE40 logic cells, COMB = ECP5 LUT4 sites.")
    if shell_txt:
        notes += (" Core rows include simty_board_core_shell, which adds one flop per "
                  "core input bit and an XOR tree over the outputs (" + shell_txt + ").")
    open(os.path.join(a.out, "table.md"), "w").write(table + "\n\n" + notes + "\n")
    print()
    print(table)
    print()
    print(notes)
    return 0


def shell_in(w, l):
    """Input bits simty_board_core_shell feeds the core (its flops, less 1)."""
    wb = max(1, (w - 1).bit_length())
    return 101 + 1 + wb + 64 + l + 1 + 1 + 4 + 1 + 32 + 32 * l


def shell_out(w, l):
    """Output bits the shell folds into its XOR tree."""
    wb = max(1, (w - 1).bit_length())
    return 1 + w + 1 + 4 + 128 + 1 + 64 + 1 + 8 + 32 + 1 + 32 + 1 + 32 + 4 * l + 32 * l + \
        1 + wb + 32 + l


def tool_version(cmd):
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        text = (out.stdout + out.stderr).strip().splitlines()
        return text[-1] if text else "?"
    except (OSError, subprocess.SubprocessError):
        return "?"


if __name__ == "__main__":
    sys.exit(main())
