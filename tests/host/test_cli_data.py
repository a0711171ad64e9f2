#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""test_cli_data.py - the simty CLI feeding a kernel its data and reporting
like a user expects, on the model backend.

--load (text and raw, by file name and explicit format), --fill (value and
step), --dump formats and into a file (read back by --load), the README's
vecadd command line, --json errors (every error one JSON object on
stdout), --version, fault lines and JSON faults naming the function and
source line (and a kernel without debug information: the symbol, or
nothing), no thread as "none" / null, counters on a fresh device.
Exits 1 on the first failure.

  python3 tests/host/test_cli_data.py BUILD_DIR
"""
import json
import os
import struct
import subprocess
import sys
import tempfile

BUILD = sys.argv[1] if len(sys.argv) > 1 else "build"
SIMTY = os.path.join(BUILD, "bin", "simty")
SIMTY_CC = os.path.join(BUILD, "bin", "simty-cc")
KDIR = os.path.join(BUILD, "kernels", "tests", "host", "kernels")
checks = 0

VECADD = """#include <simty_kernel.h>

int a[256], b[256], c[256];

int main(void)
{
  unsigned i = simty_thread_id();
  if (i < 256)
    c[i] = a[i] + b[i];
  return 0;
}
"""


def run(args, device="model"):
    env = dict(os.environ, SIMTY_DEVICE=device)
    return subprocess.run(args, capture_output=True, text=True, env=env,
                          timeout=120)


def check(cond, what, proc=None):
    global checks
    checks += 1
    if not cond:
        print("FAIL:", what)
        if proc is not None:
            print("--- exit", proc.returncode)
            print("--- stdout\n" + proc.stdout)
            print("--- stderr\n" + proc.stderr)
        sys.exit(1)


tmp = tempfile.mkdtemp(prefix="simty-cli-data-")
src = os.path.join(tmp, "vecadd.c")
elf = os.path.join(tmp, "vecadd.elf")
with open(src, "w") as f:
    f.write(VECADD)
subprocess.run([SIMTY_CC, "-o", elf, src], check=True)
nodebug = os.path.join(tmp, "vecadd-nodebug.elf")
subprocess.run(["riscv64-unknown-elf-objcopy", "--strip-debug", elf, nodebug],
               check=True)
stripped = os.path.join(tmp, "vecadd-stripped.elf")
subprocess.run(["riscv64-unknown-elf-objcopy", "--strip-debug",
                "--keep-symbol=a", "--keep-symbol=b", "--keep-symbol=c",
                "--strip-unneeded", elf, stripped], check=True)

# 1. --load text (by name), --fill with a step, --dump.
a_txt = os.path.join(tmp, "a.txt")
with open(a_txt, "w") as f:
    f.write("# a[i] = i\n" + "\n".join(str(i) for i in range(128)) + "\n")
    f.write(", ".join(str(i) for i in range(128, 256)) + "\n")
s = run([SIMTY, "run", elf, "--threads", "256", "--load", "a=" + a_txt,
         "--fill", "b:256:1000,2", "--dump", "c:256"])
want = ["c[%d] = %d" % (i, i + 1000 + 2 * i) for i in range(256)]
check(s.returncode == 0 and s.stdout.splitlines() == want,
      "--load text, --fill VALUE,STEP, --dump", s)

# 2. The README's command line: right results, not zeros.
s = run([SIMTY, "run", elf, "--threads", "256", "--fill", "a:256:0,1",
         "--fill", "b:256:100", "--dump", "c:4"])
check(s.returncode == 0 and s.stdout.splitlines() ==
      ["c[0] = 100", "c[1] = 101", "c[2] = 102", "c[3] = 103"],
      "README vecadd: c[i] = i + 100", s)

# 3. --load raw (by name, and explicit :raw / :text), negative and hex.
a_bin = os.path.join(tmp, "a.bin")
with open(a_bin, "wb") as f:
    f.write(struct.pack("<256i", *[-i for i in range(256)]))
s = run([SIMTY, "run", elf, "--threads", "256", "--load", "a=" + a_bin,
         "--dump", "c:3"])
check(s.stdout.splitlines() == ["c[0] = 0", "c[1] = -1", "c[2] = -2"],
      "--load raw by file name", s)
a_data = os.path.join(tmp, "a.data")
with open(a_data, "w") as f:
    f.write("0x10 -5 7\n")
s = run([SIMTY, "run", elf, "--threads", "3", "--load", "a:text=" + a_data,
         "--dump", "c:3"])
check(s.stdout.splitlines() == ["c[0] = 16", "c[1] = -5", "c[2] = 7"],
      "--load SYMBOL:text=FILE", s)
s = run([SIMTY, "run", elf, "--threads", "3", "--load", "a:raw=" + a_txt,
         "--dump", "c:1:hex"])
check(s.stdout.splitlines() == ["c[0] = 0x5b612023"],
      "--load SYMBOL:raw=FILE takes the bytes as they are", s)
s = run([SIMTY, "run", elf, "--load", "a=" + os.path.join(tmp, "bad.txt")])
check(s.returncode == 1 and "bad.txt" in s.stderr, "--load missing file", s)
with open(os.path.join(tmp, "bad.txt"), "w") as f:
    f.write("1 2 x3\n")
s = run([SIMTY, "run", elf, "--load", "a=" + os.path.join(tmp, "bad.txt")])
check(s.returncode == 1 and "bad.txt:1: 'x3' is not a number" in s.stderr,
      "--load text names the bad token", s)
big = os.path.join(tmp, "big.bin")
with open(big, "wb") as f:
    f.write(b"\0" * (2 << 20))
s = run([SIMTY, "run", elf, "--load", "a=" + big])
check(s.returncode == 1 and ("outside" in s.stderr or "past" in s.stderr),
      "--load past the end of memory refused", s)

# 4. --dump formats, into files, read back by --load.
s = run([SIMTY, "run", elf, "--threads", "4", "--fill", "a:4:1.5",
         "--fill", "b:4:0", "--dump", "c:2:float", "--dump", "c:1:uint",
         "--dump", "c+4:1:hex"])
check(s.returncode == 0 and s.stdout.splitlines() ==
      ["c[0] = 1.5", "c[1] = 1.5", "c[0] = 1069547520", "c+4[0] = 0x3fc00000"],
      "--dump float, uint, hex, SYMBOL+OFFSET", s)
out_txt = os.path.join(tmp, "c.txt")
out_bin = os.path.join(tmp, "c.bin")
s = run([SIMTY, "run", elf, "--threads", "256", "--fill", "a:256:-3,1",
         "--fill", "b:256:0", "--dump", "c:256=" + out_txt,
         "--dump", "c:256:raw=" + out_bin, "--dump", "c:1"])
check(s.returncode == 0 and s.stdout == "c[0] = -3\n",
      "dumps into files leave stdout to the others", s)
with open(out_txt) as f:
    check(f.read().split() == [str(i - 3) for i in range(256)],
          "--dump =FILE: one value a line")
with open(out_bin, "rb") as f:
    check(struct.unpack("<256i", f.read()) == tuple(i - 3 for i in range(256)),
          "--dump :raw=FILE: the bytes")
s = run([SIMTY, "run", elf, "--threads", "256", "--load", "a=" + out_txt,
         "--load", "b=" + out_bin, "--dump", "c:2"])
check(s.stdout.splitlines() == ["c[0] = -6", "c[1] = -4"],
      "--dump files read back by --load", s)
for bad in ("c", "c:x", "c:2:octal", "c:2:raw", ":2"):
    s = run([SIMTY, "run", elf, "--dump", bad])
    check(s.returncode == 2 and "bad value" in s.stderr,
          "--dump %r refused" % bad, s)
for opt, bad in (("--fill", "a:2"), ("--fill", "a:2:x"),
                 ("--fill", "a:2:1.5,1"), ("--load", "a"), ("--load", "a="),
                 ("--load", "a:octal=f")):
    s = run([SIMTY, "run", elf, opt, bad])
    check(s.returncode == 2 and "bad value" in s.stderr,
          "%s %r refused" % (opt, bad), s)
s = run([SIMTY, "run", elf, "--fill", "nope:1:1"])
check(s.returncode == 1 and "no symbol 'nope' for --fill" in s.stderr,
      "--fill unknown symbol", s)
s = run([SIMTY, "info", "--load", "a=x"])
check(s.returncode == 2 and "option of 'run'" in s.stderr,
      "--load given to info", s)

# 5. --json: results and every error as one JSON object on stdout.
s = run([SIMTY, "--json", "run", elf, "--threads", "4", "--fill", "a:4:2",
         "--fill", "b:4:3", "--dump", "c:2", "--dump", "c:2:hex",
         "--dump", "c:4=" + out_txt])
r = json.loads(s.stdout)
check(r["dumps"] == {"c": [5, 5], "c:hex": ["0x00000005", "0x00000005"]},
      "--json dumps, keyed SYMBOL[:FORMAT]", s)
check(r["dump_files"] == {"c": out_txt}, "--json dump_files", s)
for args, code, exit_code in (
        ([SIMTY, "--json", "run", os.path.join(tmp, "missing.elf")],
         "SIMTY_EFILE", 1),
        ([SIMTY, "--json", "--device", "bogus://x", "info"], "SIMTY_EURI", 1),
        ([SIMTY, "--json", "run", elf, "--threads", "x"], "usage", 2),
        ([SIMTY, "--json", "frobnicate"], "usage", 2),
        ([SIMTY, "frobnicate", "--json"], "usage", 2),
        ([SIMTY, "--json", "counters"], "SIMTY_ENOLAUNCH", 1),
        ([SIMTY, "--json", "run", elf, "--dump", "nope:1"], None, 1)):
    s = run(args)
    try:
        e = json.loads(s.stdout)["error"]
    except (ValueError, KeyError):
        e = None
    check(s.returncode == exit_code and e is not None and e["code"] == code
          and e["exit"] == exit_code and e["message"] and
          s.stderr.startswith("simty: "),
          "JSON error for %s" % " ".join(args[1:]), s)

# 6. --version: the host side, and with a device its side.
s = run([SIMTY, "--version"])
check(s.returncode == 0 and s.stdout.startswith("simty ") and
      "link protocol" in s.stdout, "--version", s)
s = run([SIMTY, "--device", "model", "--version"])
check(s.returncode == 0 and "in-process model" in s.stdout,
      "--version with a device", s)
s = run([SIMTY, "--version"], device="model?warps=2&lanes=2")
check(s.returncode == 0 and "device model?warps=2&lanes=2" in s.stdout,
      "--version with $SIMTY_DEVICE", s)
s = run([SIMTY, "--json", "--version"])
v = json.loads(s.stdout)
check(s.returncode == 0 and v["simty"] == v["library_version"] and
      v["device"]["backend"] == "model", "--json --version", s)

# 7. Faults name the function and source line; JSON pc as hex; no thread.
FAULT = """#include <simty_kernel.h>

int out[4];

static int __attribute__((noipa)) deref(int *p)
{
  return *p;
}

int main(void)
{
  unsigned i = simty_thread_id();
  out[i & 3] = deref((int *)(i == 3 ? 4u : (unsigned)&out[0]));
  return 0;
}
"""
fsrc = os.path.join(tmp, "fault.c")
felf = os.path.join(tmp, "fault.elf")
with open(fsrc, "w") as f:
    f.write(FAULT)
subprocess.run([SIMTY_CC, "-o", felf, fsrc], check=True)
s = run([SIMTY, "--json", "run", felf, "--threads", "4"])
r = json.loads(s.stdout)
fl = r["fault"]
# The reference: binutils' addr2line on the same pc.
where = subprocess.run(["riscv64-unknown-elf-addr2line", "-e", felf, fl["pc"]],
                       capture_output=True, text=True).stdout.strip()
check(where.startswith(fsrc + ":"), "addr2line knows the pc: " + where)
s = run([SIMTY, "run", felf, "--threads", "4"])
line = s.stderr.splitlines()[0] if s.stderr else ""
check(s.returncode == 3 and line.startswith("fault: load_out_of_range") and
      line.endswith(" in deref at " + where), "fault line: deref at " + where, s)
check(fl["source"] == "deref at " + where and
      fl["pc"] == "0x%08x" % fl["pc_value"] and fl["tid"] == 3 and
      fl["addr"] == "0x00000004", "JSON fault: source, pc as hex", s)
fnd = os.path.join(tmp, "fault-nodebug.elf")
subprocess.run(["riscv64-unknown-elf-objcopy", "--strip-debug", felf, fnd],
               check=True)
s = run([SIMTY, "run", fnd, "--threads", "4"])
line = s.stderr.splitlines()[0] if s.stderr else ""
check(s.returncode == 3 and " in deref+0x" in line,
      "without debug information: the symbol and offset", s)
fst = os.path.join(tmp, "fault-stripped.elf")
subprocess.run(["riscv64-unknown-elf-objcopy", "--strip-all", felf, fst],
               check=True)
s = run([SIMTY, "run", fst, "--threads", "4"])
line = s.stderr.splitlines()[0] if s.stderr else ""
check(s.returncode == 3 and line.endswith("addr=0x00000004"),
      "stripped: the plain fault line", s)

# 8. --trace: simty-model's trace lines, each naming its function and line.
MODEL = os.path.join(BUILD, "bin", "simty-model")
tr = os.path.join(tmp, "trace.txt")
tr_model = os.path.join(tmp, "trace-model.txt")
s = run([SIMTY, "run", elf, "--threads", "8", "--fill", "a:8:1",
         "--trace", tr, "--dump", "c:1"])
check(s.returncode == 0 and s.stdout == "c[0] = 1\n", "run --trace", s)
m = run([MODEL, "--threads", "8", "--trace", tr_model, elf])
with open(tr) as f:
    lines = f.read().splitlines()
with open(tr_model) as f:
    check([" ".join(l.split()[:3]) for l in lines] == f.read().splitlines(),
          "--trace: the runner's BASE_TID PC MASK lines")
body = [l for l in lines if " main at " in l]
check(len(body) > 0 and all(l.split(" main at ")[1].startswith(src + ":")
                            for l in body) and
      any(" _start at " in l and "crt0.S:" in l for l in lines),
      "--trace names main at vecadd.c:LINE and crt0's _start")
pc = body[0].split()[1]
where = subprocess.run(["riscv64-unknown-elf-addr2line", "-e", elf, "0x" + pc],
                       capture_output=True, text=True).stdout.strip()
check(body[0].endswith(" main at " + where), "--trace line == addr2line: " +
      body[0] + " / " + where)
s = run([SIMTY, "--json", "--device", "model?warps=2&lanes=2", "run", elf,
         "--trace", os.path.join(tmp, "nodir", "t.txt")])
check(s.returncode == 1 and "t.txt" in json.loads(s.stdout)["error"]["message"],
      "--trace into a missing directory", s)

SPIN = os.path.join(KDIR, "spin.elf")
s = run([SIMTY, "--json", "run", SPIN, "--timeout", "100"])
r = json.loads(s.stdout)
check(s.returncode == 3 and r["status"] == "timeout" and
      (r["fault"] is None or isinstance(r["fault"]["pc"], str)),
      "JSON time-out", s)

print("test_cli_data: %d checks passed" % checks)
