#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""test_run_bench.py - unit tests of run_bench.py's parsing: the counter
dump of a host program, the model's stats=FILE lines (the contract of
issue 18: one JSON object per launch, summed over launches, cct_peak the
maximum, def-use counts added) and the derived figures. Run by
`make test-bench-check`."""
import os
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_bench  # noqa: E402


class ParseTest(unittest.TestCase):
    def test_counters(self):
        text = ("x: PASS: fine\ncounters (2 launches):\ncycles = 100\nwarp_insts = 80\n"
                "thread_insts = 240\nsimd_efficiency = 0.750\nipc = 0.800\n")
        c = run_bench.parse_counters(text)
        self.assertEqual(c["cycles"], 100)
        self.assertEqual(c["thread_insts"], 240)
        self.assertAlmostEqual(c["simd_efficiency"], 0.75)

    def test_stats_summed(self):
        bins = "[1,2,3,4,8,16,32,64]"
        lines = [
            '{"policy": "ipdom", "warps": 4, "lanes": 4, "nthreads": 16, "counters": '
            '{"cycles": 10, "warp_insts": 5, "cct_peak": 2}, "defuse": {"bins": %s, '
            '"counts": [0,1,2,3,4,5,6,7,8]}}' % bins,
            "",
            '{"policy": "ipdom", "warps": 4, "lanes": 4, "nthreads": 16, "counters": '
            '{"cycles": 1, "warp_insts": 1, "cct_peak": 1}, "defuse": {"bins": %s, '
            '"counts": [0,1,1,1,1,1,1,1,1]}}' % bins,
        ]
        with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
            f.write("\n".join(lines) + "\n")
        try:
            st = run_bench.read_stats(f.name)
        finally:
            os.remove(f.name)
        self.assertEqual(st["launches"], 2)
        self.assertEqual(st["counters"], {"cycles": 11, "warp_insts": 6, "cct_peak": 2})
        self.assertEqual(st["defuse"]["counts"], [0, 2, 3, 4, 5, 6, 7, 8, 9])
        self.assertIsNone(run_bench.read_stats(f.name))

    def test_derived(self):
        c = {"cycles": 200, "warp_insts": 100, "thread_insts": 300, "mem_requests": 40,
             "mem_transactions": 10, "replays_mem": 3, "replays_indirect": 2,
             "uniform_vectors": 25, "affine_vectors": 10}
        d = run_bench.derived(c, 4)
        self.assertAlmostEqual(d["simd_eff"], 0.75)
        self.assertAlmostEqual(d["ipc"], 0.5)
        self.assertAlmostEqual(d["tx_per_req"], 0.25)
        self.assertEqual(d["replays"], 5)
        self.assertAlmostEqual(d["uniform"], 0.25)
        self.assertAlmostEqual(d["affine"], 0.10)
        self.assertEqual(run_bench.derived({}, 4)["simd_eff"], 0.0)


if __name__ == "__main__":
    unittest.main()
