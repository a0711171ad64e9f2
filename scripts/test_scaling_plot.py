#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""test_scaling_plot.py - unit tests of scaling_plot.py's parser (not its
drawing): only the scaling section's tables with the new header count, the
newest row of a configuration wins, numbers with thousands commas, a text
Fmax, and the errors. Run by `make test-scaling-plot`."""
import os
import sys
import unittest

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import scaling_plot  # noqa: E402

NEW = ("| device | design | WxL | LUT4 (yosys) | FF (yosys) | BRAM | DSP (MULT18X18D) "
       "| LUT sites placed | target | Fmax MHz |\n"
       "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n")
DOC = """# Performance

## SoC

| device | design | WxL | LUT4 (yosys) | FF (yosys) | BRAM | DSP (MULT18X18D) | LUT sites placed | target | Fmax MHz |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
| ECP5-85F | soc | 2x2 | 1 | 1 | 1 | 1 | 1/83,640 (0%) | 25 MHz | 99.0 |

## FPGA resources and Fmax (scaling table)

| device | design | WxL | LUT4 (yosys) | FF (yosys) | BRAM (yosys) | LC / COMB placed | BRAM placed | fits | Fmax MHz |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
| ECP5-85F | soc | 4x4 | 20355 | 3639 | 116 | 23029/83640 (27%) | 116/208 (55%) | yes | 26.3 |

Text between the tables.

""" + NEW + """| ECP5-85F | soc | 8x8 | 30,000 | 10,000 | 120 | 32 | 38,000/83,640 (45%) | 25 MHz | 40.00 |
| ECP5-85F | soc | 4x4 | 17,000 | 6,000 | 110 | 16 | 22,000/83,640 (26%) | 25 MHz | 41.00 |
| ECP5-85F | core | 2x2 | 1 | 1 | 1 | 1 | - | 25 MHz | - |
| iCE40-HX8K | soc | 1x1 | 5,706 | 3,262 | 30 | 0 | 7,000/7,680 (91%) | 12 MHz | 30.5 |

### Timing

| change | Fmax | critical path |
| --- | --- | --- |
| main | 25.37 MHz | somewhere |

""" + NEW + """| ECP5-85F | soc | 16x8 | 39,222 | 13,187 | 128 | 32 | 46,866/83,640 (56%) | 25 MHz | not routed: 24.76 estimated |
| ECP5-85F | soc | 8x8 | 33,215 | 11,507 | 128 | 32 | 40,843/83,640 (48%) | 50 MHz (PLL) | **43.34** |

## Link protocol

""" + NEW + """| ECP5-85F | soc | 32x32 | 1 | 1 | 1 | 1 | - | 25 MHz | 1.0 |
"""


class ParseTest(unittest.TestCase):
    def test_rows(self):
        rows = scaling_plot.parse(DOC)
        self.assertEqual([r["wxl"] for r in rows], ["4x4", "8x8", "16x8"])
        r4, r8, r16 = rows
        # 4x4: only in the new table (the old-format row is ignored)
        self.assertEqual((r4["lut4"], r4["ff"], r4["bram"], r4["dsp"]), (17000, 6000, 110, 16))
        self.assertEqual(r4["fmax"], 41.0)
        # 8x8: the second new table replaces the first
        self.assertEqual((r8["lut4"], r8["ff"], r8["bram"]), (33215, 11507, 128))
        self.assertEqual(r8["fmax"], 43.34)
        self.assertEqual(r8["lut_sites"], 83640)
        # 16x8: a text Fmax
        self.assertIsNone(r16["fmax"])
        self.assertTrue(r16["fmax_text"].startswith("not routed"))
        self.assertEqual(r16["status"], "not routed")
        self.assertEqual((r16["warps"], r16["lanes"]), (16, 8))
        self.assertEqual(scaling_plot.capacity(rows, "ECP5-85F")["lut"], 83640)

    def test_status(self):
        # a text Fmax is shown by its first words
        doc = DOC.replace("not routed: 24.76 estimated", "not placed (synthesis only)")
        r16 = scaling_plot.parse(doc)[2]
        self.assertIsNone(r16["fmax"])
        self.assertEqual(r16["status"], "not placed")

    def test_device(self):
        rows = scaling_plot.parse(DOC, "iCE40-HX8K")
        self.assertEqual([(r["wxl"], r["lut4"], r["fmax"]) for r in rows], [("1x1", 5706, 30.5)])
        self.assertEqual(scaling_plot.capacity(rows, "iCE40-HX8K")["lut"], 7680)

    def error(self, text, *words):
        with self.assertRaises(scaling_plot.ParseError) as e:
            scaling_plot.parse(text)
        for w in words:
            self.assertIn(w, str(e.exception))

    def test_malformed_number(self):
        bad = DOC.replace("| 39,222 |", "| 39.222 |")
        self.error(bad, "LUT4 (yosys)", "'39.222' is not a number")
        self.error(DOC.replace("| 13,187 |", "| 13,18 |"), "FF (yosys)", "13,18")
        self.error(DOC.replace("| 120 | 32 |", "| 120 | - |"), "DSP (MULT18X18D)")

    def test_missing(self):
        self.error(DOC.replace("## FPGA resources", "## FPGA area"), "no section")
        self.error(DOC.replace("| DSP (MULT18X18D) |", "| DSP |"), "no table")
        self.error(DOC.replace("| ECP5-85F | soc |", "| ECP5-25F | soc |"), "no 'soc' row")
        self.error(DOC.replace("| 16x8 |", "| 16 x 8 |"), "is not WxL")
        self.error(DOC.replace("| 25 MHz | 41.00 |", "| 41.00 |"), "cells")


if __name__ == "__main__":
    unittest.main()
