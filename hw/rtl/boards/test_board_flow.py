#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Unit tests of simty_board_flow.py's logic (no FPGA tool runs): the ECP5
PLL settings against known-good ones and the PLL's limits, the clock
parameters a top gets, the timing verdict, the parsing of Yosys's and
nextpnr's JSON, the paths given to yowasp tools, and the output folders
that boards.mk names. Run by `make test-boards-lint`."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import simty_board_flow as flow  # noqa: E402

LIM = flow.ECP5_PLL


def check_limits(tc, fin, p):
    tc.assertTrue(1 <= p["clki_div"] <= LIM["clki_div"])
    tc.assertTrue(1 <= p["clkfb_div"] <= LIM["clkfb_div"])
    tc.assertTrue(1 <= p["clkop_div"] <= LIM["clkop_div"])
    tc.assertEqual(p["clkop_cphase"], p["clkop_div"] - 1)
    pfd = fin / p["clki_div"]
    out = pfd * p["clkfb_div"]
    vco = out * p["clkop_div"]
    tc.assertAlmostEqual(out, p["out_mhz"], places=9)
    tc.assertAlmostEqual(vco, p["vco_mhz"], places=9)
    tc.assertTrue(LIM["pfd"][0] <= pfd <= LIM["pfd"][1], pfd)
    tc.assertTrue(LIM["vco"][0] <= vco <= LIM["vco"][1], vco)
    tc.assertTrue(LIM["out"][0] <= out <= LIM["out"][1], out)


class Pll(unittest.TestCase):
    def test_known_good(self):
        # (in, out) -> CLKI_DIV, CLKFB_DIV, CLKOP_DIV: settings that
        # Lattice's tools and prjtrellis's ecppll give (VCO 576-600 MHz).
        known = {(25, 20): (5, 4, 30), (25, 50): (1, 2, 12), (12, 48): (1, 4, 12),
                 (12, 60): (1, 5, 10), (20, 30): (2, 3, 20), (25, 12.5): (2, 1, 48)}
        for (fin, fout), want in known.items():
            p = flow.ecp5_pll(fin, fout)
            self.assertEqual((p["clki_div"], p["clkfb_div"], p["clkop_div"]), want,
                             f"{fin} -> {fout}")
            self.assertEqual(p["clkop_cphase"], want[2] - 1)
            check_limits(self, fin, p)

    def test_sweep_within_limits(self):
        # Every requested frequency from 25 MHz: settings within the
        # limits, exact where 25 * n / m (m <= 8) hits it.
        for tenth in range(40, 4001, 7):
            fout = tenth / 10.0
            p = flow.ecp5_pll(25.0, fout)
            self.assertIsNotNone(p, fout)
            check_limits(self, 25.0, p)
        for fout in (20, 25, 30, 37.5, 40, 50, 60, 62.5, 75, 100, 150):
            self.assertAlmostEqual(flow.ecp5_pll(25.0, fout)["out_mhz"], fout, places=9)

    def test_nearest(self):
        # No setting within the limits comes closer (exhaustive search).
        for fin, fout in ((25.0, 33.0), (25.0, 47.3), (12.0, 41.1)):
            p = flow.ecp5_pll(fin, fout)
            best = None
            for ci in range(1, LIM["clki_div"] + 1):
                pfd = fin / ci
                if not LIM["pfd"][0] <= pfd <= LIM["pfd"][1]:
                    continue
                for fb in range(1, LIM["clkfb_div"] + 1):
                    out = pfd * fb
                    if not LIM["out"][0] <= out <= LIM["out"][1]:
                        continue
                    if any(LIM["vco"][0] <= out * d <= LIM["vco"][1]
                           for d in range(1, LIM["clkop_div"] + 1)):
                        err = abs(out - fout)
                        best = err if best is None else min(best, err)
            self.assertAlmostEqual(abs(p["out_mhz"] - fout), best, places=9)

    def test_bad_input(self):
        self.assertIsNone(flow.ecp5_pll(5.0, 50.0))   # below the 8 MHz input minimum


class ClockParams(unittest.TestCase):
    def test_oscillator(self):
        params, got, _ = flow.clock_params(25.0, 25.0, [("WARPS", "8")])
        self.assertEqual(got, 25.0)
        self.assertEqual(dict(params), {"WARPS": "8", "CLK_HZ": "25000000",
                                        "PLL_CLKI_DIV": "0"})

    def test_pll(self):
        params, got, line = flow.clock_params(25.0, 50.0, [("CLK_HZ", "1")])
        d = dict(params)
        self.assertEqual(got, 50.0)
        self.assertEqual((d["CLK_HZ"], d["PLL_CLKI_DIV"], d["PLL_CLKFB_DIV"],
                          d["PLL_CLKOP_DIV"], d["PLL_CLKOP_CPHASE"]),
                         ("50000000", "1", "2", "12", "11"))
        self.assertIn("CLKOP_DIV=12", line)
        # The frequency achieved, not the one asked for, reaches CLK_HZ.
        params, got, _ = flow.clock_params(25.0, 33.3, [])
        self.assertEqual(dict(params)["CLK_HZ"], str(round(got * 1e6)))
        self.assertEqual(dict(params)["CLK_HZ"], "33333333")

    def test_unreachable(self):
        with self.assertRaises(SystemExit):
            flow.clock_params(25.0, 1000.0, [])
        with self.assertRaises(SystemExit):
            flow.clock_params(25.0, 1.0, [])


class Timing(unittest.TestCase):
    def test_verdicts(self):
        ok, line = flow.timing_verdict({"clk": (51.2, 50.0)}, False)
        self.assertTrue(ok)
        self.assertIn("timing met", line)
        ok, line = flow.timing_verdict({"osc": (300.0, 25.0), "clk": (25.4, 50.0)}, False)
        self.assertFalse(ok)
        self.assertIn("TIMING FAILED", line)
        self.assertIn("25.40", line)
        self.assertEqual(len(line.splitlines()), 1)
        ok, line = flow.timing_verdict({"clk": (25.4, 50.0)}, True)
        self.assertTrue(ok)
        self.assertIn("BOARD_ALLOW_TIMING_FAIL=1", line)
        ok, _ = flow.timing_verdict({}, False)
        self.assertFalse(ok)


class Reuse(unittest.TestCase):
    """A run whose inputs are unchanged is not placed again; whether a
    missed clock still gives a bitstream is decided again."""

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        d = self.dir.name
        self.a = type("A", (), {"out": d, "top": "top", "family": "ecp5", "pack": False,
                                "allow_timing_fail": False})()
        with open(os.path.join(d, "top.config"), "w") as f:
            f.write("routed\n")
        with open(os.path.join(d, "top.bit"), "w") as f:
            f.write("stale\n")
        self.summ = os.path.join(d, "summary.json")
        self.old = {"status": 2, "timing_met": False, "date": "today",
                    "lines": ["x: synthesis", "x: TIMING FAILED: ..."],
                    "pnr": {"clocks": {"clk": {"fmax_mhz": 30.0, "target_mhz": 50.0}}}}

    def tearDown(self):
        self.dir.cleanup()

    def test_missed_clock(self):
        self.assertEqual(flow.reuse(self.a, dict(self.old), "x", self.summ, None), 2)
        self.assertFalse(os.path.exists(os.path.join(self.dir.name, "top.bit")))
        self.a.allow_timing_fail = True
        self.assertEqual(flow.reuse(self.a, dict(self.old), "x", self.summ, None), 0)

    def test_met_or_no_bitstream(self):
        old = dict(self.old, status=0, timing_met=True, bitstream=None)
        self.assertEqual(flow.reuse(self.a, old, "x", self.summ, None), 0)
        self.a.pack = True    # no bitstream yet: redo the run
        self.assertIsNone(flow.reuse(self.a, old, "x", self.summ, None))


class Parsing(unittest.TestCase):
    def test_stat_json(self):
        stat = {"modules": {"\\top": {"num_cells_by_type": {"LUT4": 3}}},
                "design": {"num_cells_by_type": {"LUT4": 10, "TRELLIS_FF": 4, "DP16KD": 2,
                                                 "MULT18X18D": 1, "EHXPLLL": 1, "CCU2C": 5}}}
        c = flow.stat_cells("ecp5", stat)
        self.assertEqual((c["lut"], c["ff"], c["bram"], c["dsp"], c["pll"], c["carry"],
                          c["gbuf"]), (10, 4, 2, 1, 1, 5, 0))
        c = flow.stat_cells("ice40", {"design": {"num_cells_by_type": {
            "SB_LUT4": 7, "SB_DFFE": 2, "SB_DFFSR": 1, "SB_GB": 1}}})
        self.assertEqual((c["lut"], c["ff"], c["gbuf"]), (7, 3, 1))

    def test_pnr_report(self):
        rep = {"utilization": {"TRELLIS_COMB": {"used": 100, "available": 1000},
                               "EHXPLLL": {"used": 1, "available": 4},
                               "DCCA": {"used": 2, "available": 56},
                               "MULT18X18D": {"used": 0, "available": 156}},
               "fmax": {"clk_osc": {"achieved": 400.0, "constraint": 25.0},
                        "clk_pll": {"achieved": 48.5, "constraint": 50.0}},
               "critical_paths": [
                   {"from": "posedge clk_pll", "to": "posedge clk_pll", "path": [
                       {"type": "clk-to-q", "delay": 0.5, "from": {"cell": "a_q"},
                        "to": {"cell": "lut1"}},
                       {"type": "routing", "delay": 1.5, "from": {"cell": "lut1"},
                        "to": {"cell": "ram.CEB"}}]},
                   {"from": "<async>", "to": "posedge clk_pll", "path": [
                       {"type": "routing", "delay": 9.0, "from": {"cell": "pin"},
                        "to": {"cell": "sync"}}]}]}
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "r.json")
            with open(path, "w") as f:
                json.dump(rep, f)
            util, fmax, clocks, crit, errors = flow.parse_pnr("ecp5", "ERROR: x\n", path)
        self.assertEqual(util["comb"], {"used": 100, "avail": 1000, "pct": 10})
        self.assertEqual(util["pll"]["used"], 1)
        self.assertEqual(util["gbuf"]["used"], 2)
        self.assertEqual(util["dsp"]["used"], 0)
        self.assertEqual(fmax, 48.5)
        self.assertEqual(clocks["clk_pll"], (48.5, 50.0))
        self.assertEqual(crit, {"from": "a_q", "to": "ram.CEB", "ns": 2.0, "routing_pct": 75})
        self.assertEqual(errors, ["ERROR: x"])

    def test_pnr_log_fallback(self):
        log = ("Info:        TRELLIS_COMB:  2000/83640     2%\n"
               "Info: Max frequency for clock 'clk': 30.00 MHz (FAIL at 50.00 MHz)\n"
               "Info: Max frequency for clock 'clk': 31.50 MHz (FAIL at 50.00 MHz)\n")
        util, fmax, clocks, crit, _ = flow.parse_pnr("ecp5", log, "/nonexistent.json")
        self.assertEqual(util["comb"]["used"], 2000)
        self.assertEqual(fmax, 31.5)     # the last report: after routing
        self.assertEqual(clocks, {"clk": (31.5, 50.0)})
        self.assertIsNone(crit)


class ToolPathsTest(unittest.TestCase):
    def test_native(self):
        tp = flow.ToolPaths(False, None)
        self.assertEqual(tp("/tmp/x/synth.json"), "/tmp/x/synth.json")
        self.assertNotIn("YOWASP_MOUNT", tp.environ())

    def test_wasm_mounts(self):
        # /tmp inside yowasp is its own temporary folder: every folder is
        # mounted at a fixed point instead.
        tp = flow.ToolPaths(True, {"A": "1"})
        a = tp("/tmp/b/boards/x/synth.json")
        b = tp("/tmp/b/boards/x/top.config")
        c = tp("rel/dir/file.lpf")
        self.assertEqual(a, "/simty-m0/synth.json")
        self.assertEqual(b, "/simty-m0/top.config")
        self.assertEqual(c, "/simty-m1/file.lpf")
        env = tp.environ()
        self.assertEqual(env["A"], "1")
        self.assertEqual(env["YOWASP_MOUNT"], "/simty-m0=/tmp/b/boards/x:/simty-m1=" +
                         os.path.abspath("rel/dir"))


class Folders(unittest.TestCase):
    def board_dir(self, *args):
        make = os.environ.get("MAKE", "make")
        build = os.environ.get("BUILD", "build")
        out = subprocess.run([make, "-s", "--no-print-directory", "board-dir",
                              f"BUILD={build}"] + list(args), check=True,
                             capture_output=True, text=True).stdout.strip()
        return os.path.relpath(out, build)

    # The ULX3S's default clock (boards.mk's ULX3S_MHZ, passed by the
    # boards-lint recipe).
    default_mhz = os.environ.get("ULX3S_MHZ", "25")

    def test_names(self):
        self.assertEqual(self.board_dir("BOARD=ulx3s"),
                         f"boards/ulx3s_8x8_{self.default_mhz}mhz_3000000baud")
        self.assertEqual(self.board_dir("BOARD=ulx3s", "BOARD_MHZ=50", "BAUD=115200",
                                        "WARPS=16"),
                         "boards/ulx3s_16x8_50mhz_115200baud")
        self.assertEqual(self.board_dir("BOARD=hx8k"), "boards/hx8k_1x4_12mhz_1500000baud")

    def test_tool_options(self):
        # Tool options change the result: a folder of their own, the same
        # for the same options, another for others.
        base = f"boards/ulx3s_8x8_{self.default_mhz}mhz_3000000baud"
        a = self.board_dir("BOARD=ulx3s", "BOARD_SYNTH_OPTS=-abc9")
        b = self.board_dir("BOARD=ulx3s", "BOARD_SYNTH_OPTS=-abc9")
        c = self.board_dir("BOARD=ulx3s", "BOARD_PNR_OPTS=--router router2")
        self.assertRegex(a, "^" + base + "_opts[0-9a-f]{8}$")
        self.assertEqual(a, b)
        self.assertNotEqual(a, c)
        self.assertRegex(c, "^" + base + "_opts[0-9a-f]{8}$")


if __name__ == "__main__":
    unittest.main(verbosity=1)
