#!/usr/bin/env python3
"""board_report.py - the FPGA scaling table (`make board-report`).

Each item FAMILY:WHAT:WxL goes through Yosys and nextpnr with
hw/rtl/boards/simty_board_flow.py:
  core  simty_core alone, in simty_board_core_shell (inputs from a shift
        register, outputs folded into one XOR: placeable with 3 pins)
  soc   the whole SoC in its board top (hx8k for ice40, ulx3s for ecp5)
        with the board's pins, memory sizes and firmware image
Devices: ice40 = iCE40-HX8K CT256 at 12 MHz, ecp5 = LFE5U-85F CABGA381 at
25 MHz. Results stay in OUT/FAMILY_WHAT_WxL/ (logs, summary.json); the
table goes to stdout and OUT/table.md. Runs already summarised with the
same sources are not rerun unless --force.

  board_report.py --out DIR --ice40-fw HEX --ecp5-fw HEX \\
      --soc-srcs "..." --core-srcs "..." ice40:core:4x4 ecp5:soc:8x8 ...
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import subprocess
import sys
import time

FLOW = os.path.join("hw", "rtl", "boards", "simty_board_flow.py")
FAMILY = {
    "ice40": {"device": "--hx8k --package ct256", "mhz": 12, "board": "hx8k",
              "constraints": "hw/rtl/boards/hx8k/simty_board_hx8k.pcf",
              "name": "iCE40-HX8K", "link_fifo": 512, "console": 64},
    "ecp5": {"device": "--85k --package CABGA381", "mhz": 25, "board": "ulx3s",
             "constraints": "hw/rtl/boards/ulx3s/simty_board_ulx3s.lpf",
             "name": "ECP5-85F", "link_fifo": 512, "console": 512},
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


def sources_digest(files):
    h = hashlib.sha1()
    for f in sorted(files):
        h.update(f.encode())
        with open(f, "rb") as fh:
            h.update(fh.read())
    return h.hexdigest()


def command(a, fam, what, w, l, out):
    f = FAMILY[fam]
    cmd = [sys.executable, FLOW, "--family", fam, "--device", f["device"],
           "--out", out, "--freq", str(f["mhz"]), "--build", a.build,
           "--label", f"{fam}_{what}_{w}x{l}", "--inc", "hw/rtl/soc", "--inc", "hw/rtl/core",
           "--inc", os.path.join(a.build, "gen"), "--param", f"WARPS={w}",
           "--param", f"LANES={l}"]
    if a.threads:
        cmd += ["--threads", str(a.threads)]
    if what == "core":
        # CODE and DATA sizes only set the core's range checks.
        fw, code, data = a.mem[fam]
        cmd += ["--top", "simty_board_core_shell", "--param", f"CODE_SIZE={code}",
                "--param", f"DATA_SIZE={data}",
                "hw/rtl/boards/common/simty_board_core_shell.v"] + a.core_srcs
    else:
        fw, code, data = a.mem[fam]
        top = f"simty_board_{f['board']}"
        cmd += ["--top", top, "--constraints", f["constraints"],
                "--param", f"FW_SIZE={fw}", "--param", f"CODE_SIZE={code}",
                "--param", f"DATA_SIZE={data}", "--param", f"FW_IMAGE={a.fw[fam]}",
                "--param", "BAUD=115200", "--param", f"LINK_FIFO_DEPTH={f['link_fifo']}",
                "--param", f"CONSOLE_DEPTH={f['console']}",
                f"hw/rtl/boards/{f['board']}/{top}.v"] + a.soc_srcs + a.core_srcs
    return cmd


def run_one(a, item):
    fam, what, w, l = parse_item(item)
    out = os.path.join(a.out, f"{fam}_{what}_{w}x{l}")
    cmd = command(a, fam, what, w, l, out)
    files = [c for c in cmd if c.endswith(".v")] + [FLOW]
    if what == "soc":
        files.append(a.fw[fam])
    digest = sources_digest(files)
    summ = os.path.join(out, "summary.json")
    if not a.force and os.path.exists(summ):
        try:
            s = json.load(open(summ))
            if s.get("digest") == digest and s.get("pnr") is not None:
                print(f"board_report: {item}: unchanged sources, kept {summ}", flush=True)
                return item, s
        except ValueError:
            pass
    os.makedirs(out, exist_ok=True)
    start = time.time()
    print(f"board_report: {item}: running (log in {out}/)", flush=True)
    rc = subprocess.call(cmd)
    s = json.load(open(summ)) if os.path.exists(summ) else {"synth": None, "pnr": None}
    s["digest"] = digest
    s["flow_exit"] = rc
    s["wall_seconds"] = round(time.time() - start)
    json.dump(s, open(summ, "w"), indent=1)
    return item, s


def row(item, s):
    fam, what, w, l = parse_item(item)
    f = FAMILY[fam]
    syn = s.get("synth") or {}
    pnr = s.get("pnr") or {}
    util = pnr.get("util", {})
    if not syn.get("ok"):
        return [f["name"], what, f"{w}x{l}", "synthesis failed", "", "", "", "", "", ""]
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
    ff = syn.get("ff", 0)
    return [f["name"], what, f"{w}x{l}", str(lut), str(ff), str(syn.get("bram", 0)),
            frac(logic), frac(bram), fits, fmax_s]


HEAD = ["device", "design", "WxL", "LUT4 (yosys)", "FF (yosys)", "BRAM (yosys)",
        "LC / COMB placed", "BRAM placed", "fits", "Fmax MHz"]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--out", required=True)
    p.add_argument("--build", default="build")
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--threads", type=int, default=0)
    p.add_argument("--ice40-fw", required=True)
    p.add_argument("--ecp5-fw", required=True)
    p.add_argument("--ice40-mem", default="16384,2048,2048")
    p.add_argument("--ecp5-mem", default="32768,16384,131072")
    p.add_argument("--soc-srcs", required=True)
    p.add_argument("--core-srcs", required=True)
    p.add_argument("--force", action="store_true")
    p.add_argument("items", nargs="+")
    a = p.parse_args()
    a.fw = {"ice40": a.ice40_fw, "ecp5": a.ecp5_fw}
    a.mem = {"ice40": a.ice40_mem.split(","), "ecp5": a.ecp5_mem.split(",")}
    a.soc_srcs = a.soc_srcs.split()
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
    notes = (f"Measured {date}: yosys {tool_version(['yosys', '-V'])}, "
             f"nextpnr-ice40 {tool_version(['nextpnr-ice40', '--version'])}; "
             "Fmax from nextpnr's post-route timing (ice40 target 12 MHz, "
             "ecp5 target 25 MHz, seed 1).")
    open(os.path.join(a.out, "table.md"), "w").write(table + "\n\n" + notes + "\n")
    print()
    print(table)
    print()
    print(notes)
    return 0


def tool_version(cmd):
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        text = (out.stdout + out.stderr).strip().splitlines()
        return text[-1] if text else "?"
    except (OSError, subprocess.SubprocessError):
        return "?"


if __name__ == "__main__":
    sys.exit(main())
