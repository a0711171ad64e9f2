#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""rtl_diff.py - differential check of the RTL core against the model.

Runs each kernel on the reference model (build/bin/simty-model) and on the
Verilator testbench (build/rtl/core_{W}x{L}/simty-rtl) with the same
options, both with --trace, --counters and a --dump of the kernel's whole
data (from its lowest data symbol to _end: every .rodata/.data/.bss
object), and compares:

- exit codes; the fault cause (and, when one block runs, the whole fault
  record: with several blocks which fault comes first depends on timing);
- for runs that end normally: every dumped word, the console lines of
  each thread, counters 1-8 and 10-12, and the per-block traces (lines
  grouped by BASE_TID, in order: docs/architecture.md section 1);
- for a single-block fault: traces and memory up to the fault as well.

    rtl_diff.py --configs 4x4,8x8 --suite isa,simt       # runner suites
    rtl_diff.py --configs 4x4 --threads 40 k1.elf k2.elf  # given kernels
    rtl_diff.py --configs 8x8 --xbar rotate --suite simt \
        --rtl 'build/rtl/core_{W}x{L}_rotate/simty-rtl'     # rotate crossbar

Kernels of the runner suites (tests/kernels/) are built and run with the
options of their header directives (threads, args, stack-log2, options);
tests whose build is `raw` (malformed files) compare exit codes only.
Ends with `N passed, M failed`; exit 1 if anything failed or nothing ran.
"""
import argparse
import concurrent.futures
import os
import re
import shlex
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "tests", "kernels"))
import runner  # noqa: E402  (test-file directives, ELF reader, arch numbers)

COMPARED_COUNTERS = [n for i, n in enumerate(runner.COUNTERS)
                     if i not in (0, 9)]  # cycles, sched_idle: timing
DATA_BASE = runner.ARCH["SIMTY_DATA_BASE"]


def data_dump(elf):
    """(symbol, words) covering [lowest data symbol, _end), or None."""
    syms = elf.symbols
    if "_end" not in syms:
        return None
    end = syms["_end"][0]
    best = None
    for name, (value, _) in syms.items():
        if DATA_BASE <= value < end and value % 4 == 0 and \
                re.match(r"^[A-Za-z_.$][\w.$]*$", name):
            if best is None or value < best[1]:
                best = (name, value)
    if best is None:
        return None
    return best[0], (end - best[1] + 3) // 4


def symbolize(elf, addr):
    """`name+off` of the data object holding addr (for messages)."""
    best = None
    for name, (value, size) in elf.symbols.items():
        if value <= addr and (size == 0 or addr < value + size) and \
                value >= DATA_BASE:
            if best is None or value > best[1]:
                best = (name, value)
    return "%s+%d" % best if best else "0x%08x" % addr


def read_trace(path):
    blocks = {}
    with open(path) as f:
        for line in f:
            base, pc, mask = line.split()
            blocks.setdefault(int(base), []).append((int(pc, 16), int(mask, 16)))
    return blocks


def compare_traces(model, rtl):
    """First difference of two per-block traces, or None."""
    for base in sorted(set(model) | set(rtl)):
        a, b = model.get(base), rtl.get(base)
        if a is None or b is None:
            return "block %d traced by the %s only" % (
                base, "model" if b is None else "RTL")
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                ctx = "; ".join("%08x/%x" % e for e in a[max(0, i - 3):i])
                return ("block %d instruction %d: model pc=%08x mask=%x, "
                        "RTL pc=%08x mask=%x (before: %s)" %
                        (base, i, x[0], x[1], y[0], y[1], ctx))
        if len(a) != len(b):
            return "block %d: model retired %d instructions, RTL %d" % (
                base, len(a), len(b))
    return None


def run(cmd, timeout):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True,
                           timeout=timeout, errors="replace")
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return None, "", "timed out after %d s" % timeout


def diff_kernel(model_exe, rtl_exe, kernel, elf, W, L, options, workdir,
                timeout=600, rtl_options=(), order_dependent=False):
    """Run kernel on both; returns None if they agree, else a reason.
    rtl_options go to the RTL only (testbench plusargs). order_dependent:
    the kernel's results depend on the order in which warps' atomics meet
    (`order-dependent:` directive): with more than one warp, only the exit
    code and the fault cause are compared (the runner checks its results)."""
    opts = ["--warps", str(W), "--lanes", str(L), "--isa", RTL_ISA] + \
        options + ["--counters"]
    dumps = []
    if elf is not None and elf.elf_class == 1:
        d = data_dump(elf)
        if d:
            dumps = [d]
            opts += ["--dump", "%s:%d" % d]
    traces = [os.path.join(workdir, "model.trace"),
              os.path.join(workdir, "rtl.trace")]
    results = []
    for exe, trace, own in zip((model_exe, rtl_exe), traces,
                               ((), tuple(rtl_options))):
        cmd = shlex.split(exe) + opts + list(own) + ["--trace", trace, kernel]
        code, out, err = run(cmd, timeout)
        if code is None:
            return "%s: %s" % (os.path.basename(cmd[0]), err)
        parsed, problems = runner.parse_output(out, err, dumps)
        if problems and code in (0, 3):
            return "%s output: %s" % (os.path.basename(cmd[0]), problems[0])
        parsed["exit_code"] = code
        results.append(parsed)
    m, r = results
    first_err = lambda res: (res["stderr"].strip().splitlines() or [""])[0]
    if m["exit_code"] != r["exit_code"]:
        return "exit code: model %d (%s), RTL %d (%s)" % (
            m["exit_code"], first_err(m)[:120], r["exit_code"],
            first_err(r)[:120])
    if m["exit_code"] not in (0, 3):
        return None  # bad input: both refused it
    if order_dependent and W > 1:
        if m["exit_code"] == 3 and (m["fault"] or {}).get("cause") != \
                (r["fault"] or {}).get("cause"):
            return "fault: model %s, RTL %s" % (first_err(m), first_err(r))
        return None
    nthreads = W * L
    if "--threads" in options:
        nthreads = int(options[options.index("--threads") + 1], 0)
    one_block = nthreads <= L
    # Report the first difference of each kind: together they usually
    # point at the culprit (a wrong trace explains wrong counters).
    problems = []
    if m["exit_code"] == 3:
        mf, rf = m["fault"], r["fault"]
        if not mf or not rf:
            return "exit 3 without a fault line (model %r, RTL %r)" % (
                first_err(m), first_err(r))
        if mf["cause"] != rf["cause"]:
            return "fault: model %s, RTL %s" % (first_err(m), first_err(r))
        if mf["name"] == "timeout" or not one_block:
            return None  # which fault/slot comes first depends on timing
        if mf != rf:
            problems.append("fault record: model %s, RTL %s" % (
                first_err(m), first_err(r)))
    else:
        bad = ["%s %s/%s" % (name, m["counters"].get(name),
                             r["counters"].get(name))
               for name in COMPARED_COUNTERS
               if m["counters"].get(name) != r["counters"].get(name)]
        if bad:
            problems.append("counters model/RTL: " + ", ".join(bad))
        if m["console"] != r["console"]:
            for tid in sorted(set(m["console"]) | set(r["console"])):
                if m["console"].get(tid) != r["console"].get(tid):
                    problems.append("console of thread %d: model %r, RTL %r" % (
                        tid, m["console"].get(tid), r["console"].get(tid)))
                    break
    for name, count in dumps:
        a, b = m["dumps"][name], r["dumps"][name]
        diffs = [i for i, (x, y) in enumerate(zip(a, b)) if x != y]
        if diffs:
            i = diffs[0]
            addr = elf.addr(name) + 4 * i
            problems.append("memory: %d words differ, first at 0x%08x (%s): "
                            "model %d, RTL %d" % (len(diffs), addr,
                                                  symbolize(elf, addr),
                                                  a[i], b[i]))
    why = compare_traces(read_trace(traces[0]), read_trace(traces[1]))
    if why:
        problems.append("trace " + why)
    return "; ".join(problems) if problems else None


def parse_configs(text):
    return runner.parse_configs(text)


# Populated memory sizes of the RTL builds (hw/rtl/rtl.mk).
RTL_CODE_SIZE = runner.ARCH["SIMTY_DEFAULT_CODE_SIZE"]
RTL_DATA_SIZE = runner.ARCH["SIMTY_DEFAULT_DATA_SIZE"]


# The ISA of the testbench's core (hw/sim/core/simty_tb_top.v's EXT_*):
# the model runs with it too, so that both decode the same instructions.
RTL_ISA = "rv32ima_zicntr"


def fits_rtl(test, variant, W, L):
    """False if the test asks for memory sizes other than the RTL build's
    (they are parameters of the core, fixed per binary), for ISA
    extensions (`isa:`) the core lacks (A), or checks that an extension the
    core has is missing (`isa-without:`)."""
    directives = test.directives(variant)
    have = runner.isa_extensions(RTL_ISA)
    if not runner.isa_extensions(runner.test_isa(test, variant)) <= have:
        return False
    if runner.isa_without(test, variant) & have:
        return False
    for k, v, _ in directives:
        if k == "cflags" and "--isa" in v:
            m = re.search(r"--isa[ =](\S+)", v)
            if not m or not runner.isa_extensions(m.group(1)) <= have:
                return False
    base = {"W": W, "L": L, "N": W * L,
            "S": runner.ARCH["SIMTY_STACK_LOG2_DEFAULT"],
            "data_size": RTL_DATA_SIZE, "code_size": RTL_CODE_SIZE}
    for key in ("threads", "stack-log2", "data-size", "code-size"):
        exprs = [v for k, v, _ in directives if k == key]
        if exprs:
            name = {"threads": "N", "stack-log2": "S", "data-size": "data_size",
                    "code-size": "code_size"}[key]
            base[name] = int(runner.evaluate(
                runner.parse_expr(exprs[-1]),
                runner.make_env(base, None, None), exprs[-1]))
    return base["data_size"] == RTL_DATA_SIZE and \
        base["code_size"] == RTL_CODE_SIZE


def suite_jobs(args, builder):
    """(label, kernel, elf, W, L, options) for the runner's test files."""
    jobs = []
    for test in runner.find_tests(args.suite_dir, args.suite.split(",")):
        for variant in test.variants:
            name = "%s/%s" % (test.suite, test.stem)
            if variant[0]:
                name += "/" + variant[0]
            if args.filters and not any(f in name for f in args.filters):
                continue
            for W, L in args.configs:
                if fits_rtl(test, variant, W, L):
                    jobs.append((name, test, variant, W, L))
    return jobs


def suite_options(builder, test, variant, W, L):
    """Build the kernel and compute its options like runner.run_one."""
    directives = test.directives(variant)
    base = {"W": W, "L": L, "N": W * L,
            "S": runner.ARCH["SIMTY_STACK_LOG2_DEFAULT"],
            "data_size": runner.ARCH["SIMTY_DEFAULT_DATA_SIZE"],
            "code_size": runner.ARCH["SIMTY_DEFAULT_CODE_SIZE"]}

    def value(key, default):
        exprs = [v for k, v, _ in directives if k == key]
        if not exprs:
            return default
        return int(runner.evaluate(runner.parse_expr(exprs[-1]),
                                   runner.make_env(base, None, None), exprs[-1]))

    base["N"] = value("threads", W * L)
    base["S"] = value("stack-log2", base["S"])
    kernel, elf = builder.build(test, directives, base)
    opts = ["--threads", str(base["N"])]
    for key in ("stack-log2", "max-cycles", "data-size", "code-size"):
        if any(k == key for k, _, _ in directives):
            opts += ["--" + key, str(value(key, 0))]
    for k, v, _ in directives:
        if k == "args":
            opts += ["--args", v]
        elif k == "options":
            opts += shlex.split(v)
    return kernel, elf, opts


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", default=os.path.join("build", "bin", "simty-model"))
    ap.add_argument("--rtl", default=os.path.join(
        "build", "rtl", "core_{W}x{L}", "simty-rtl"),
        help="RTL runner; {W} and {L} are replaced per config")
    ap.add_argument("--configs", default="4x4")
    ap.add_argument("--suite", help="runner suites, e.g. isa,simt")
    ap.add_argument("--suite-dir", default=os.path.join(REPO, "tests", "kernels"))
    ap.add_argument("--cc", default=os.path.join("build", "bin", "simty-cc"))
    ap.add_argument("--build-dir", default=os.path.join(
        "build", "tests", "rtl-diff"))
    ap.add_argument("--threads", help="for kernels given as files")
    ap.add_argument("--xbar", help="crossbar kind, given to both as --xbar "
                    "(the RTL binary must be built with it)")
    ap.add_argument("--rtl-option", action="append", default=[],
                    help="extra option for the RTL only (e.g. +console-stall)")
    ap.add_argument("-k", dest="filters", action="append", default=[])
    ap.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--keep-going", action="store_true")
    ap.add_argument("kernels", nargs="*")
    args = ap.parse_args()
    args.configs = parse_configs(args.configs)
    if bool(args.suite) == bool(args.kernels):
        ap.error("give --suite or kernel files (not both)")

    builder = runner.Builder(args.cc, args.build_dir)
    if args.suite:
        jobs = suite_jobs(args, builder)
    else:
        jobs = [(os.path.basename(k), k, None, W, L)
                for k in args.kernels for W, L in args.configs]

    def work(job):
        name, test, variant, W, L = job
        order = False
        try:
            if isinstance(test, str):
                kernel, elf = test, runner.Elf(test)
                opts = ["--threads", args.threads] if args.threads else []
            else:
                kernel, elf, opts = suite_options(builder, test, variant, W, L)
                order = any(k == "order-dependent"
                            for k, _, _ in test.directives(variant))
            if args.xbar:
                opts = opts + ["--xbar", args.xbar]
            rtl = args.rtl.replace("{W}", str(W)).replace("{L}", str(L))
            with tempfile.TemporaryDirectory(prefix="rtl-diff-") as tmp:
                return diff_kernel(args.model, rtl, kernel, elf, W, L, opts,
                                   tmp, rtl_options=args.rtl_option,
                                   order_dependent=order)
        except (runner.EvalError, runner.BuildError, ValueError, OSError) as e:
            return str(e)

    passed = failed = 0
    with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
        futures = [pool.submit(work, j) for j in jobs]
        for job, fut in zip(jobs, futures):
            why = fut.result()
            label = "%s @%dx%d%s" % (job[0], job[3], job[4],
                                     " --xbar " + args.xbar if args.xbar else "")
            if why is None:
                passed += 1
                print("PASS %s" % label, flush=True)
            else:
                failed += 1
                print("FAIL %s: %s" % (label, why), flush=True)
                if not args.keep_going:
                    for f in futures:
                        f.cancel()
                    break
    print("%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
