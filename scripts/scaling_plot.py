#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""scaling_plot.py - the scaling plot of docs/performance.md (issue 14):
docs/bench/scaling.png from the section "FPGA resources and Fmax (scaling
table)" (`make scaling-plot` runs it).

It reads every table of that section whose header has the columns device,
design, WxL, LUT4 (yosys), FF (yosys), BRAM, DSP (MULT18X18D) and Fmax MHz
(older tables are ignored), keeps the `soc` rows of one device (when a WxL
appears in several tables, the last one in the file wins) and draws, per
configuration ordered by threads then warps: LUT4 and FF against the
device's LUT sites (left), block RAMs, DSPs and Fmax (right). A row whose
Fmax cell is not a number is shown by the cell's first words (up to a
colon or parenthesis: "not routed", "not placed").

usage: scaling_plot.py [--doc docs/performance.md] [--device ECP5-85F]
                       [--out docs/bench/scaling.png] [--check]
  --check  print the rows it would plot and stop (no matplotlib needed)
"""
import argparse
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
SECTION = "## FPGA resources and Fmax (scaling table)"
DESIGN = "soc"
# A table counts when its header has every one of these columns.
NUMBERS = {"LUT4 (yosys)": "lut4", "FF (yosys)": "ff", "BRAM": "bram", "DSP (MULT18X18D)": "dsp"}
COLUMNS = ["device", "design", "WxL"] + list(NUMBERS) + ["Fmax MHz"]
SITES = "LUT sites placed"  # optional: "23,030/83,640 (28%)" gives the capacity
# Capacities of the devices the report targets: LUT4 sites (logic cells on
# iCE40), block RAMs, DSP multipliers.
DEVICES = {
    "ECP5-85F": {"lut": 83640, "bram": 208, "bram_name": "DP16KD", "dsp": 156},
    "iCE40-HX8K": {"lut": 7680, "bram": 32, "bram_name": "SB_RAM40_4K", "dsp": 0},
}


class ParseError(Exception):
    pass


def section_lines(text):
    """(line number, line) of the scaling section, up to the next '## '."""
    out, inside = [], False
    for n, line in enumerate(text.splitlines(), 1):
        if line.rstrip() == SECTION:
            inside = True
        elif inside and line.startswith("## "):
            break
        elif inside:
            out.append((n, line))
    if not inside:
        raise ParseError("no section '%s'" % SECTION)
    return out


def cells(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]


def tables(lines):
    """Each markdown table as (header cells, [(line number, cells)])."""
    out, cur = [], None
    for n, line in lines:
        if line.lstrip().startswith("|"):
            if cur is None:
                cur = (cells(line), [])
                out.append(cur)
            elif not set(line.replace("|", "").strip()) <= set("-: "):
                cur[1].append((n, cells(line)))
        else:
            cur = None
    return out


def number(cell, n, col):
    if re.fullmatch(r"\d{1,3}(,\d{3})+|\d+", cell):
        return int(cell.replace(",", ""))
    raise ParseError("line %d, column '%s': '%s' is not a number" % (n, col, cell))


def parse(text, device="ECP5-85F"):
    """The rows of DEVICE's `soc` design, ordered by threads then warps."""
    rows, matched = {}, 0
    for header, body in tables(section_lines(text)):
        if not all(c in header for c in COLUMNS):
            continue
        matched += 1
        for n, c in body:
            if len(c) != len(header):
                raise ParseError("line %d: %d cells, the header has %d" % (n, len(c), len(header)))
            cell = dict(zip(header, c))
            if cell["device"] != device or cell["design"] != DESIGN:
                continue
            wxl = re.fullmatch(r"(\d+)x(\d+)", cell["WxL"])
            if not wxl:
                raise ParseError("line %d, column 'WxL': '%s' is not WxL" % (n, cell["WxL"]))
            r = {"wxl": cell["WxL"], "warps": int(wxl.group(1)), "lanes": int(wxl.group(2)),
                 "line": n, "fmax_text": cell["Fmax MHz"]}
            for col, key in NUMBERS.items():
                r[key] = number(cell[col], n, col)
            fmax = cell["Fmax MHz"].strip("*")
            r["fmax"] = float(fmax) if re.fullmatch(r"\d+(\.\d+)?", fmax) else None
            r["status"] = re.split(r"[:(]", cell["Fmax MHz"])[0].strip() or "-"
            sites = re.search(r"/\s*([\d,]+)", cell.get(SITES, ""))
            r["lut_sites"] = number(sites.group(1), n, SITES) if sites else None
            rows[r["wxl"]] = r  # a later table's row replaces an earlier one
    if not matched:
        raise ParseError("no table in '%s' with the columns %s"
                         % (SECTION, ", ".join(COLUMNS)))
    if not rows:
        raise ParseError("no '%s' row of device '%s' in the scaling tables" % (DESIGN, device))
    return sorted(rows.values(), key=lambda r: (r["warps"] * r["lanes"], r["warps"]))


def capacity(rows, device):
    cap = dict(DEVICES.get(device, {"lut": None, "bram": 0, "bram_name": "BRAM", "dsp": 0}))
    sites = [r["lut_sites"] for r in rows if r["lut_sites"]]
    if sites:
        cap["lut"] = sites[-1]
    return cap


def check(rows, cap, device):
    print("%s %s rows (LUT sites %s, %s %s, MULT18X18D %s):"
          % (device, DESIGN, cap["lut"], cap["bram_name"], cap["bram"], cap["dsp"]))
    fmt = "%-6s %7s %7s %7s %5s %4s %10s  %s"
    print(fmt % ("WxL", "threads", "LUT4", "FF", "BRAM", "DSP", "Fmax", "doc line"))
    for r in rows:
        print(fmt % (r["wxl"], r["warps"] * r["lanes"], r["lut4"], r["ff"], r["bram"], r["dsp"],
                     "%.2f" % r["fmax"] if r["fmax"] is not None else r["status"], r["line"]))


def draw(rows, cap, device, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    x = list(range(len(rows)))
    right_end = len(rows) - 0.45
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 5))
    w = 0.38

    def capacity_line(ax, value, text, color):
        ax.axhline(value, ls="--", color=color, alpha=0.7)
        ax.text(right_end, value, text, ha="right", va="bottom", fontsize=8, color=color,
                bbox={"fc": "white", "ec": "none", "alpha": 0.8, "pad": 1})

    for i, (key, name) in enumerate([("lut4", "LUT4"), ("ff", "FF")]):
        bars = left.bar([v + (i - 0.5) * w for v in x], [r[key] for r in rows], w, label=name)
        left.bar_label(bars, ["{:,}".format(r[key]) for r in rows], fontsize=7)
    if cap["lut"]:
        capacity_line(left, cap["lut"], "%s: {:,} LUT4 sites".format(cap["lut"]) % device,
                      "gray")
        left.set_ylim(0, max([cap["lut"]] + [r["lut4"] for r in rows]) * 1.1)
    left.set_ylabel("count (Yosys)")
    left.set_title("Logic")

    # Blocks on the left axis (kept in the lower part), Fmax above them on
    # a second axis.
    colors = {"bram": "tab:green", "dsp": "tab:purple"}
    for i, (key, unit) in enumerate([("bram", cap["bram_name"]), ("dsp", "MULT18X18D")]):
        bars = right.bar([v + (i - 0.5) * w for v in x], [r[key] for r in rows], w,
                         label="%s (%s)" % (key.upper(), unit), color=colors[key])
        right.bar_label(bars, fontsize=7)
        if cap[key]:
            capacity_line(right, cap[key], "%d %s" % (cap[key], unit), colors[key])
    right.set_ylim(0, max([cap["bram"], cap["dsp"]] + [r["bram"] for r in rows]) * 1.7)
    right.set_ylabel("blocks")
    right.set_title("Block RAM, DSP and Fmax")
    mhz = right.twinx()
    routed = [(v, r["fmax"]) for v, r in zip(x, rows) if r["fmax"] is not None]
    top = max([f for _, f in routed] + [10]) * 1.25
    mhz.plot([v for v, _ in routed], [f for _, f in routed], "o", color="tab:red",
             label="Fmax (MHz)")
    for v, f in routed:
        mhz.annotate("%.2f MHz" % f, (v, f), textcoords="offset points", xytext=(0, 7),
                     ha="center", fontsize=8, color="tab:red")
    for v, r in zip(x, rows):
        if r["fmax"] is None:
            mhz.text(v, top * 0.8, r["status"], ha="center", va="center", fontsize=8,
                     color="tab:red", bbox={"fc": "white", "ec": "tab:red"})
    mhz.set_ylim(0, top)
    mhz.set_ylabel("Fmax (MHz)", color="tab:red")

    handles, names = right.get_legend_handles_labels()
    more, more_names = mhz.get_legend_handles_labels()
    left.legend(loc="upper center", bbox_to_anchor=(0.5, -0.25), ncol=2, fontsize=8)
    right.legend(handles + more, names + more_names, loc="upper center",
                 bbox_to_anchor=(0.5, -0.25), ncol=3, fontsize=8)
    for ax in (left, right):
        ax.set_xticks(x)
        ax.set_xticklabels(["%s\n(%d)" % (r["wxl"], r["warps"] * r["lanes"]) for r in rows])
        ax.set_xlabel("WxL (threads)")
        ax.set_xlim(-0.6, len(rows) - 0.4)
        ax.grid(axis="y", alpha=0.3)
    fig.suptitle("%s SoC by configuration (Yosys, nextpnr; data: docs/performance.md, "
                 "scaling table)" % device)
    fig.tight_layout()
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    fig.savefig(path, dpi=90)
    plt.close(fig)


def shown(path):
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel


def main():
    ap = argparse.ArgumentParser(description="the scaling plot of docs/performance.md")
    ap.add_argument("--doc", default=os.path.join(ROOT, "docs", "performance.md"))
    ap.add_argument("--device", default="ECP5-85F")
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", "bench", "scaling.png"))
    ap.add_argument("--check", action="store_true", help="print the rows, do not draw")
    a = ap.parse_args()
    try:
        with open(a.doc) as f:
            rows = parse(f.read(), a.device)
    except (OSError, ParseError) as e:
        sys.exit("scaling_plot: %s: %s" % (shown(a.doc), e))
    cap = capacity(rows, a.device)
    if a.check:
        check(rows, cap, a.device)
        return
    draw(rows, cap, a.device, a.out)
    print("scaling_plot: %d configurations -> %s" % (len(rows), shown(a.out)))


if __name__ == "__main__":
    main()
