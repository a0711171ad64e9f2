#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""runner.py - run Simty test kernels against any kernel runner.

A kernel runner is a program that implements the kernel-runner CLI
(docs/architecture.md, docs/runner-cli.md): the reference model
build/bin/simty-model, or the Verilator core testbench. This script
builds each test kernel once with simty-cc, runs it on every requested
W x L configuration, parses the runner's stdout (console lines, dumps,
counters) and stderr (fault record), and checks the expectations written
in the kernel's header comment. See tests/README.md for the format.

  python3 tests/kernels/runner.py --exe build/bin/simty-model \
      --configs 1x1,4x4,8x8 --suite isa,simt

Ends with exactly one line `N passed, M failed`; exits 1 if a test failed
or if no test ran, 2 on a usage error.
"""

import argparse
import ast
import concurrent.futures
import hashlib
import math
import os
import re
import shlex
import struct
import subprocess
import sys
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))

# Numbers from hw/arch/simty_arch.h, read from the header itself below so
# that a change there reaches the expectations too.
ARCH_HEADER = os.path.join(REPO, "hw", "arch", "simty_arch.h")


def read_arch(path):
    text = open(path, encoding="utf-8").read()
    consts = {}
    for m in re.finditer(r"#define\s+(SIMTY_\w+)\s+\(?(0x[0-9a-fA-F]+|\d+)u?\)?",
                         text):
        consts[m.group(1)] = int(m.group(2), 0)
    counters = [m.group(1) for m in re.finditer(
        r"X\((\w+),\s*\d+,\s*\"", text.split("SIMTY_COUNTER_MAP")[1])]
    faults = {}
    fault_text = text.split("SIMTY_FAULT_MAP(X)")[1].split("#ifndef")[0]
    for m in re.finditer(r"X\((\w+),\s*(\d+),", fault_text):
        faults[m.group(1).lower()] = int(m.group(2))
    return consts, counters, faults


ARCH, COUNTERS, FAULTS = read_arch(ARCH_HEADER)


# ---------------------------------------------------------------- ELF ----

class Elf:
    """Just enough ELF32 to find symbols, read words and patch headers."""

    def __init__(self, path):
        self.path = path
        self.data = open(path, "rb").read()
        self.symbols = {}
        self.segments = []
        d = self.data
        if len(d) < 52 or d[:4] != b"\x7fELF":
            raise ValueError("not an ELF file")
        self.elf_class = d[4]
        if self.elf_class != 1:
            return  # ELF64 (a bad-input test): header patching only
        (_, _, _, self.entry, phoff, shoff, _, _, phentsize, phnum,
         shentsize, shnum, _) = struct.unpack_from("<HHIIIIIHHHHHH", d, 16)
        for i in range(phnum):
            p_type, p_offset, p_vaddr, _, p_filesz, p_memsz, p_flags, _ = \
                struct.unpack_from("<IIIIIIII", d, phoff + i * phentsize)
            if p_type == 1:
                self.segments.append((p_vaddr, p_offset, p_filesz, p_memsz))
        sections = [struct.unpack_from("<IIIIIIIIII", d, shoff + i * shentsize)
                    for i in range(shnum)]
        for sh in sections:
            if sh[1] != 2:  # SHT_SYMTAB
                continue
            strtab = sections[sh[6]]
            for off in range(sh[4], sh[4] + sh[5], 16):
                name, value, size, _, _, _ = struct.unpack_from(
                    "<IIIBBH", d, off)
                start = strtab[4] + name
                end = d.index(b"\0", start)
                sym = d[start:end].decode("ascii", "replace")
                if sym and sym not in self.symbols:
                    self.symbols[sym] = (value, size)

    def addr(self, name):
        if name not in self.symbols:
            raise EvalError("symbol %r not in %s" % (name, self.path))
        return self.symbols[name][0]

    def size(self, name):
        self.addr(name)
        return self.symbols[name][1]

    def segment_end(self, addr):
        """First address past the PT_LOAD segment holding addr."""
        for vaddr, _, _, memsz in self.segments:
            if vaddr <= addr < vaddr + memsz:
                return vaddr + memsz
        raise EvalError("address 0x%08x not in a loaded segment" % addr)

    def word(self, addr):
        for vaddr, offset, filesz, memsz in self.segments:
            if vaddr <= addr and addr + 4 <= vaddr + memsz:
                rel = addr - vaddr
                raw = self.data[offset + rel:offset + min(rel + 4, filesz)] \
                    if rel < filesz else b""
                return struct.unpack("<I", raw.ljust(4, b"\0"))[0]
        raise EvalError("address 0x%08x not in a loaded segment" % addr)


# Header fields a `patch:` directive may set: (offset, struct format).
ELF32_FIELDS = {"e_type": (16, "<H"), "e_machine": (18, "<H"),
                "e_version": (20, "<I"), "e_entry": (24, "<I"),
                "e_ident_class": (4, "<B"), "e_ident_data": (5, "<B")}


# --------------------------------------------------------- expressions ----

class EvalError(Exception):
    pass


ALLOWED_NODES = (
    ast.Expression, ast.BoolOp, ast.BinOp, ast.UnaryOp, ast.Compare,
    ast.IfExp, ast.Call, ast.Name, ast.Constant, ast.Subscript, ast.Slice,
    ast.Tuple, ast.List, ast.GeneratorExp, ast.ListComp, ast.SetComp,
    ast.comprehension, ast.Load, ast.Store, ast.And, ast.Or, ast.Not,
    ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod, ast.Pow, ast.LShift,
    ast.RShift, ast.BitAnd, ast.BitOr, ast.BitXor, ast.Invert, ast.USub,
    ast.UAdd, ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.In,
    ast.NotIn)


def parse_expr(text):
    """Parse a Python expression restricted to arithmetic, comparisons,
    comprehensions and calls of the helper functions; no attributes, no
    lambdas, no dunder names."""
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as e:
        raise EvalError("syntax error in %r: %s" % (text, e.msg))
    for node in ast.walk(tree):
        if not isinstance(node, ALLOWED_NODES):
            raise EvalError("%s not allowed in %r" % (type(node).__name__, text))
        if isinstance(node, ast.Name) and node.id.startswith("_"):
            raise EvalError("name %r not allowed" % node.id)
        if isinstance(node, ast.Call) and not isinstance(node.func, ast.Name):
            raise EvalError("only helper functions may be called: %r" % text)
    return tree


def evaluate(tree, env, text="<expr>"):
    try:
        return eval(compile(tree, text, "eval"), env)  # restricted by parse_expr
    except EvalError:
        raise
    except Exception as e:  # a typo, a missing dump, a bad index
        raise EvalError("cannot evaluate %r: %s: %s" %
                        (text, type(e).__name__, e))


def explain(tree, env, text):
    """Why a boolean expression is false: the values of its comparisons'
    operands and of the subscripts it reads."""
    parts = []
    body = tree.body
    terms = body.values if isinstance(body, ast.BoolOp) else [body]
    for term in terms:
        nodes = []
        if isinstance(term, ast.Compare):
            nodes = [term.left] + list(term.comparators)
        for sub in ast.walk(term):
            if isinstance(sub, ast.Subscript) and sub not in nodes:
                nodes.append(sub)
        for node in nodes:
            if isinstance(node, ast.Constant):
                continue
            src = ast.unparse(node)
            try:
                value = evaluate(ast.Expression(node), env, src)
            except EvalError:
                continue
            if isinstance(value, (list, dict)) and len(str(value)) > 80:
                continue
            item = "%s = %r" % (src, value)
            if item not in parts:
                parts.append(item)
    return ", ".join(parts[:8])


def make_env(cfg, elf, result):
    """Names an expectation may use."""
    W, L, N = cfg["W"], cfg["L"], cfg["N"]
    blocks = -(-N // L)

    def active(b):
        return max(0, min(L, N - b * L))

    def lines(tid):
        return result["console"].get(tid, []) if result else []

    env = {"__builtins__": {}}
    env.update({
        "W": W, "L": L, "N": N, "HW": W * L, "BLOCKS": blocks,
        "XBAR": cfg.get("xbar", "full"),
        "WAVES": -(-blocks // W), "S": cfg["S"],
        "B2": sum(1 for b in range(blocks) if min(L, N - b * L) >= 2),
        "B2_PAIR": sum(1 for b in range(blocks) if min(L, N - b * L) == 2),
        "DATA_SIZE": cfg["data_size"], "CODE_SIZE": cfg["code_size"],
        "DATA_BASE": ARCH["SIMTY_DATA_BASE"], "CODE_BASE": ARCH["SIMTY_CODE_BASE"],
        "CONSOLE": ARCH["SIMTY_CONSOLE_ADDR"],
        "STACK_TOP": ARCH["SIMTY_DATA_BASE"] + cfg["data_size"],
        "DEPTH_MAX": (1 << ARCH["SIMTY_DEPTH_BITS"]) - 1,
        "FAULTS": dict(FAULTS),
        "active": active, "lines": lines,
        "lane": lambda i: i % L, "block": lambda i: i // L,
        "ceil_div": lambda a, b: -(-a // b),
        "log2": lambda x: int(x).bit_length() - 1,
        "popcount": lambda x: bin(x & 0xFFFFFFFF).count("1"),
        "u32": lambda x: x & 0xFFFFFFFF,
        "s32": lambda x: ((x & 0xFFFFFFFF) ^ 0x80000000) - 0x80000000,
        "min": min, "max": max, "abs": abs, "sum": sum, "len": len,
        "range": range, "set": set, "sorted": sorted, "all": all,
        "any": any, "int": int, "bool": bool, "list": list, "chr": chr,
        "str": str,
        "True": True, "False": False, "None": None,
    })
    if elf is not None and elf.elf_class == 1:
        env.update({"addr": elf.addr, "size": elf.size, "word": elf.word,
                    "segment_end": elf.segment_end})
    if result is not None:
        env.update(result["counters"])
        env.update(result["dumps"])
        env["console"] = result["console"]
        env["stderr"] = result["stderr"]
        env["exit_code"] = result["exit_code"]
        fault = result["fault"]
        for key in ("name", "cause", "pc", "hart", "tid", "addr"):
            env["fault_" + key] = fault[key] if fault else None
    return env


# ----------------------------------------------------------- test files ----

DIRECTIVE = re.compile(r"^\s*//\s?([a-z][a-z0-9-]*):\s*(.*?)\s*$")
CONTINUATION = re.compile(r"^\s*//\s{3,}(\S.*?)\s*$")
KEYS = {"isa", "isa-without", "threads", "cflags", "build", "patch", "dump", "args", "stack-log2",
        "data-size", "code-size", "max-cycles", "options", "run", "expect",
        "expect-counter", "expect-all", "expect-exit", "expect-stderr",
        "timeout", "order-dependent"}
RUN_OPTIONS = {"stack-log2": "--stack-log2", "data-size": "--data-size",
               "code-size": "--code-size", "max-cycles": "--max-cycles"}


class TestFile:
    """One kernel source and its header: shared directives, then one
    variant per `run:` line (or one unnamed variant)."""

    def __init__(self, path, suite):
        self.path = path
        self.suite = suite
        self.stem = os.path.splitext(os.path.basename(path))[0]
        self.common = []
        self.variants = []
        current = self.common
        last = None
        for lineno, line in enumerate(open(path, encoding="utf-8"), 1):
            if not line.lstrip().startswith("//"):
                if line.strip() and last is not None:
                    break  # header ends at the first non-comment line
                continue
            m = DIRECTIVE.match(line)
            if m and m.group(1) in KEYS:
                key, value = m.group(1), m.group(2)
                if key == "run":
                    current = []
                    self.variants.append((value, current))
                    last = None
                    continue
                last = [key, value, lineno]
                current.append(last)
            elif m:
                raise ValueError("%s:%d: unknown directive %r" %
                                 (path, lineno, m.group(1)))
            elif last is not None and CONTINUATION.match(line):
                last[1] += " " + CONTINUATION.match(line).group(1)
            else:
                last = None
        if not self.variants:
            self.variants.append(("", []))

    def directives(self, variant):
        return self.common + variant[1]


def isa_extensions(isa):
    """The optional extensions of an ISA string ("rv32ima_zicntr"): a set
    of "m", "a", "zicntr"; ValueError for anything else."""
    text = isa.strip().lower()
    m = re.match(r"^rv32i([ma]*)((?:_zicntr)?)$", text)
    if not m:
        raise ValueError("bad ISA string %r (rv32i[m][a][_zicntr])" % isa)
    return set(m.group(1)) | ({"zicntr"} if m.group(2) else set())


def test_isa(test, variant):
    """The ISA string a test variant needs ("rv32i" unless `isa:`)."""
    values = [v for k, v, _ in test.directives(variant) if k == "isa"]
    return values[-1] if values else "rv32i"


def isa_without(test, variant):
    """The extensions whose absence a test variant checks (`isa-without:`,
    e.g. an M encoding that must be illegal): a set like isa_extensions.
    The runner runs such a test without --isa (an RV32I model); a runner
    program that always has the extension (the RTL core's testbench) must
    leave it out (tests/rtl/rtl_diff.py fits_rtl)."""
    out = set()
    for k, v, _ in test.directives(variant):
        if k == "isa-without":
            out |= isa_extensions("rv32i" + ("_" if v.strip() == "zicntr" else "") + v.strip())
    return out


def find_tests(suite_dir, suites):
    tests = []
    for suite in suites:
        directory = os.path.join(suite_dir, suite)
        if not os.path.isdir(directory):
            raise SystemExit("runner: no suite directory %s" % directory)
        for name in sorted(os.listdir(directory)):
            if name.endswith((".c", ".S", ".txt")):
                tests.append(TestFile(os.path.join(directory, name), suite))
    return tests


# --------------------------------------------------------------- build ----

class Builder:
    def __init__(self, cc, build_dir):
        self.cc = cc
        self.build_dir = build_dir
        runtime = os.path.join(os.path.dirname(os.path.dirname(cc)), "lib", "simty")
        self.runtime_files = [cc] + [os.path.join(runtime, f) for f in
                                     ("crt0.o", "libsimty_rt.a", "simty_kernel.ld")]
        self.cache = {}
        self.lock = threading.Lock()  # one compile at a time per kernel

    def build(self, test, directives, cfg_env):
        """Returns (path of the kernel file to run, Elf or None)."""
        build = " ".join(v for k, v, _ in directives if k == "build") or "simty-cc"
        cflags = " ".join(v for k, v, _ in directives if k == "cflags")
        isa = ([v for k, v, _ in directives if k == "isa"] or ["rv32i"])[-1]
        patches = [v for k, v, _ in directives if k == "patch"]
        if build == "raw":
            return test.path, None
        key = (test.path, build, cflags, isa)
        with self.lock:
            if key not in self.cache:
                self.cache[key] = self._compile(test, build, cflags, isa)
        elf_path = self.cache[key]
        if not patches:
            return elf_path, Elf(elf_path)
        elf = Elf(elf_path)
        data = bytearray(elf.data)
        env = make_env(cfg_env, elf, None)
        for patch in patches:
            field, _, expr = patch.partition("=")
            field = field.strip()
            if field not in ELF32_FIELDS:
                raise EvalError("cannot patch %r" % field)
            value = evaluate(parse_expr(expr), env, expr)
            offset, fmt = ELF32_FIELDS[field]
            struct.pack_into(fmt, data, offset, value)
        tag = hashlib.sha1(repr(patches).encode() +
                           repr(sorted(cfg_env.items())).encode()).hexdigest()[:10]
        out = elf_path[:-4] + "-patched-" + tag + ".elf"
        with open(out, "wb") as f:
            f.write(data)
        return out, Elf(out)

    def _compile(self, test, build, cflags, isa="rv32i"):
        tag = hashlib.sha1((build + "|" + cflags +
                            ("" if isa == "rv32i" else "|" + isa))
                           .encode()).hexdigest()[:8]
        out_dir = os.path.join(self.build_dir, test.suite)
        os.makedirs(out_dir, exist_ok=True)
        out = os.path.join(out_dir, "%s-%s.elf" % (test.stem, tag))
        src_dir = os.path.dirname(test.path)
        inputs = [test.path] + [os.path.join(src_dir, f) for f in os.listdir(src_dir)
                                if f.endswith(".h")]
        if build == "simty-cc":
            inputs += self.runtime_files
            cmd = [self.cc, "-o", out, test.path] + shlex.split(cflags)
            if isa != "rv32i":
                cmd[1:1] = ["--isa", isa]
        elif build.startswith("cc "):
            include = os.path.join(os.path.dirname(os.path.dirname(self.cc)), "include")
            cmd = [a.replace("{src}", test.path).replace("{out}", out)
                   .replace("{include}", include)
                   for a in shlex.split(build[3:])] + shlex.split(cflags)
        else:
            raise ValueError("%s: unknown build %r" % (test.path, build))
        newest = max(os.path.getmtime(f) for f in inputs if os.path.exists(f))
        if os.path.exists(out) and os.path.getmtime(out) >= newest:
            return out
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            raise BuildError("build failed: %s\n%s" %
                             (" ".join(cmd), proc.stderr.strip()))
        return out


class BuildError(Exception):
    pass


# ----------------------------------------------------------------- run ----

CONSOLE_LINE = re.compile(r"^\[(\d+)\] ?(.*)$")
DUMP_LINE = re.compile(r"^([A-Za-z_.$][\w.$]*)\[(\d+)\] = (-?\d+)$")
COUNTER_LINE = re.compile(r"^([a-z_]+) = (\d+)$")
FLOAT_LINE = re.compile(r"^(ipc|simd_efficiency) = (\d+\.\d{3})$")
FAULT_LINE = re.compile(r"fault: (\w+) \(cause (\d+)\) pc=0x([0-9a-f]{8}) "
                        r"hart=(\d+) tid=(\d+) addr=0x([0-9a-f]{8})")


def parse_output(stdout, stderr, dumps):
    """Parse the runner's output in the order the CLI contract gives;
    returns (result, list of format problems)."""
    problems = []
    console, dump_values, counters, floats = {}, {}, {}, {}
    stage = 0  # 0 console, 1 dumps, 2 counters
    for line in stdout.splitlines():
        m = DUMP_LINE.match(line)
        if m and stage <= 1:
            stage = 1
            dump_values.setdefault(m.group(1), []).append(
                (int(m.group(2)), int(m.group(3))))
            continue
        m = COUNTER_LINE.match(line) or FLOAT_LINE.match(line)
        if m and (m.group(1) in COUNTERS or m.group(1) in ("ipc", "simd_efficiency")):
            stage = 2
            if m.group(1) in COUNTERS:
                counters[m.group(1)] = int(m.group(2))
            else:
                floats[m.group(1)] = float(m.group(2))
            continue
        m = CONSOLE_LINE.match(line)
        if m and stage == 0:
            console.setdefault(int(m.group(1)), []).append(m.group(2))
            continue
        problems.append("unexpected stdout line %r" % line[:100])
    arrays = {}
    for name, count in dumps:
        got = dump_values.pop(name, [])
        if [i for i, _ in got] != list(range(count)):
            problems.append("dump %s: expected %d lines %s[0..%d], got %d" %
                            (name, count, name, count - 1, len(got)))
        arrays[name] = [v for _, v in got]
    for name in dump_values:
        problems.append("dump of %s not requested" % name)
    fault = None
    m = FAULT_LINE.search(stderr)
    if m:
        fault = {"name": m.group(1), "cause": int(m.group(2)),
                 "pc": int(m.group(3), 16), "hart": int(m.group(4)),
                 "tid": int(m.group(5)), "addr": int(m.group(6), 16)}
    return {"console": console, "dumps": arrays, "counters": counters,
            "floats": floats, "fault": fault, "stderr": stderr}, problems


def counter_invariants(result, L):
    """Relations the counter definitions imply for every launch."""
    c = result["counters"]
    if len(c) != len(COUNTERS):
        missing = [n for n in COUNTERS if n not in c]
        return ["counters missing: %s" % ", ".join(missing)]
    problems = []
    checks = [
        ("warp_insts <= thread_insts <= warp_insts * L",
         c["warp_insts"] <= c["thread_insts"] <= c["warp_insts"] * L),
        ("mem_transactions <= mem_requests <= mem_transactions * L",
         c["mem_transactions"] <= c["mem_requests"] <= c["mem_transactions"] * L),
        ("replays_mem <= mem_transactions",
         c["replays_mem"] <= c["mem_transactions"]),
        ("sched_idle_cycles <= cycles", c["sched_idle_cycles"] <= c["cycles"]),
        ("cct_peak <= max(0, L - 2)", c["cct_peak"] <= max(0, L - 2)),
        ("uniform_vectors + affine_vectors <= warp_insts",
         c["uniform_vectors"] + c["affine_vectors"] <= c["warp_insts"]),
    ]
    for text, ok in checks:
        if not ok:
            problems.append("counter invariant %s broken (%s)" % (
                text, ", ".join("%s=%d" % (k, c[k]) for k in COUNTERS
                                if k in text)))
    f = result["floats"]
    if "ipc" not in f or "simd_efficiency" not in f:
        problems.append("ipc / simd_efficiency lines missing")
    else:
        if c["cycles"] and abs(f["ipc"] - c["warp_insts"] / c["cycles"]) > 0.0006:
            problems.append("ipc = %.3f, warp_insts / cycles = %.4f" %
                            (f["ipc"], c["warp_insts"] / c["cycles"]))
        if c["warp_insts"]:
            eff = c["thread_insts"] / (c["warp_insts"] * L)
            if abs(f["simd_efficiency"] - eff) > 0.0006:
                problems.append("simd_efficiency = %.3f, expected %.4f" %
                                (f["simd_efficiency"], eff))
    return problems


def run_one(args, builder, test, variant, W, L):
    """Build, run and check one (test, variant, config). Returns
    (passed, reason)."""
    directives = test.directives(variant)
    base = {"W": W, "L": L, "N": W * L, "S": ARCH["SIMTY_STACK_LOG2_DEFAULT"],
            "xbar": args.xbar or "full",
            "data_size": ARCH["SIMTY_DEFAULT_DATA_SIZE"],
            "code_size": ARCH["SIMTY_DEFAULT_CODE_SIZE"]}

    def value(key, default):
        exprs = [v for k, v, _ in directives if k == key]
        if not exprs:
            return default
        return int(evaluate(parse_expr(exprs[-1]), make_env(base, None, None),
                            exprs[-1]))

    base["N"] = value("threads", W * L)
    base["S"] = value("stack-log2", base["S"])
    base["data_size"] = value("data-size", base["data_size"])
    base["code_size"] = value("code-size", base["code_size"])
    kernel, elf = builder.build(test, directives, base)

    cmd = shlex.split(args.exe.replace("{W}", str(W)).replace("{L}", str(L)))
    cmd += ["--warps", str(W), "--lanes", str(L), "--threads", str(base["N"])]
    if args.xbar:
        # The runner program is told its kind: one built with the other
        # (an RTL testbench) refuses to run rather than being checked
        # against the wrong expectations.
        cmd += ["--xbar", args.xbar]
    isa = test_isa(test, variant)
    if isa != "rv32i":
        cmd += ["--isa", args.isa]
    for key, option in RUN_OPTIONS.items():
        if any(k == key for k, _, _ in directives):
            cmd += [option, str(value(key, 0))]
    for k, v, _ in directives:
        if k == "args":
            cmd += ["--args", v]
        elif k == "options":
            cmd += shlex.split(v)
    env0 = make_env(base, elf, None)
    dumps = []
    for k, v, _ in directives:
        if k == "dump":
            name, _, count = v.partition(":")
            n = int(evaluate(parse_expr(count), env0, count))
            dumps.append((name.strip(), n))
            cmd += ["--dump", "%s:%d" % (name.strip(), n)]
    cmd += ["--counters", kernel]
    timeout = value("timeout", args.timeout)
    if args.verbose:
        print("  $ " + " ".join(shlex.quote(c) for c in cmd), flush=True)
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True,
                              timeout=timeout, errors="replace")
    except subprocess.TimeoutExpired:
        return False, "runner did not finish within %d s" % timeout
    except OSError as e:
        return False, "cannot run %s: %s" % (cmd[0], e)

    expect_exit = value("expect-exit", 0)
    result, problems = parse_output(proc.stdout, proc.stderr, dumps)
    result["exit_code"] = proc.returncode
    stderr_first = proc.stderr.strip().splitlines()[0] if proc.stderr.strip() else ""
    if proc.returncode != expect_exit:
        why = "exit code %d, expected %d" % (proc.returncode, expect_exit)
        if stderr_first:
            why += " (stderr: %s)" % stderr_first[:200]
        return False, why
    if expect_exit == 0 and result["fault"]:
        return False, "fault reported on success: %s" % stderr_first
    if expect_exit == 3 and not result["fault"]:
        return False, "exit 3 without a fault line on stderr: %r" % stderr_first
    if expect_exit == 1:
        prog = os.path.basename(cmd[0])
        if not proc.stderr.startswith(prog + ": "):
            return False, "bad-input message must start with %r: %r" % (
                prog + ": ", stderr_first)
    if expect_exit in (0, 3):
        if problems:
            return False, problems[0]
        problems = counter_invariants(result, L)
        if problems:
            return False, problems[0]
    for k, v, lineno in directives:
        if k == "expect-stderr" and not re.search(v, proc.stderr, re.I | re.M):
            return False, "stderr does not match /%s/: %r" % (v, stderr_first[:200])

    def check_expects(result, kinds):
        env = make_env(base, elf, result)
        for k, v, lineno in directives:
            where = "%s:%d" % (os.path.relpath(test.path, REPO), lineno)
            if k in kinds and k in ("expect", "expect-counter"):
                tree = parse_expr(v)
                if not evaluate(tree, env, v):
                    return False, "%s: expect %s failed: %s" % (where, v, explain(tree, env, v))
            elif k in kinds and k == "expect-all":
                m = re.match(r"^([a-z_]\w*)\s*<\s*([^:]+):\s*(.+)$", v)
                if not m:
                    raise EvalError("%s: expect-all needs `VAR < BOUND: EXPR`" % where)
                var, bound, body = m.groups()
                tree = parse_expr(body)
                for i in range(int(evaluate(parse_expr(bound), env, bound))):
                    env[var] = i
                    if not evaluate(tree, env, body):
                        return False, "%s: %s failed for %s = %d: %s" % (
                            where, body, var, i, explain(tree, env, body))
                env.pop(var, None)
        return True, ""

    ok, why = check_expects(result, ("expect", "expect-counter", "expect-all"))
    if not ok:
        if base["xbar"] != "full":
            why += " [XBAR = %s]" % base["xbar"]
        return False, why
    for policy in args.policies:
        ok, why = same_results(cmd, ["--policy", policy], result, dumps, L,
                               timeout)
        if not ok:
            return False, "--policy %s: %s" % (policy, why)
    # Another crossbar kind changes the cycles, so the order in which
    # warps' atomics meet: an order-dependent test's results may differ,
    # and must only pass its own `expect` checks again.
    order_dependent = any(k == "order-dependent" for k, _, _ in directives)
    for xbar in args.xbars:
        if xbar == base["xbar"]:
            continue  # the run above was this kind
        ok, why = same_results(
            cmd, ["--xbar", xbar], result, dumps, L, timeout,
            (lambda r: check_expects(r, ("expect", "expect-all")))
            if order_dependent else None)
        if not ok:
            return False, "--xbar %s: %s" % (xbar, why)
    return True, ""


def same_results(cmd, extra, ref, dumps, L, timeout, expects=None):
    """Rerun `cmd` with the model-only options `extra` (--policy P,
    another reconvergence policy, or --xbar K, another memory crossbar
    kind, which only changes which lanes share a transaction): the exit
    code, every dump, each thread's console lines and the per-thread
    counters (thread_insts, mem_requests) must equal the default run's
    `ref`; only the schedule may differ. A faulting run
    only has to fault too (which lane faults first is schedule). The
    reconvergence witnesses (simt.h's witness(), dumped as `wit`) count
    how often a path passes a point: schedule, not results. The ipdom
    stack may hold up to 2 * L - 1 entries beyond the two hot ones.
    `expects`, if given, replaces the comparisons with `ref` (a test
    whose results depend on the order of warps): it checks the rerun's
    result alone."""
    ipdom = extra == ["--policy", "ipdom"]
    if extra[0] in cmd:  # --xbar K replaces the run's own --xbar
        i = cmd.index(extra[0])
        cmd = cmd[:i] + cmd[i + 2:]
    cmd = cmd[:-1] + extra + [cmd[-1]]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True,
                              timeout=timeout, errors="replace")
    except subprocess.TimeoutExpired:
        return False, "runner did not finish within %d s" % timeout
    result, problems = parse_output(proc.stdout, proc.stderr, dumps)
    result["exit_code"] = proc.returncode
    if proc.returncode != ref["exit_code"]:
        return False, "exit code %d, default run %d (%s)" % (
            proc.returncode, ref["exit_code"], proc.stderr.strip()[:200])
    if ref["exit_code"] != 0:
        return True, ""
    if problems:
        return False, problems[0]
    problems = [p for p in counter_invariants(result, L)
                if not (ipdom and "cct_peak" in p)]
    if problems:
        return False, problems[0]
    if ipdom and result["counters"]["cct_peak"] > 2 * L - 1:
        return False, "cct_peak %d > 2 * L - 1" % result["counters"]["cct_peak"]
    if expects is not None:
        return expects(result)
    for name, values in ref["dumps"].items():
        if name == "wit":
            continue
        if result["dumps"].get(name) != values:
            i = next(i for i, (a, b) in enumerate(
                zip(values, result["dumps"].get(name, []) + [None] * len(values)))
                if a != b)
            return False, "dump %s[%d] differs from the default run's" % (name, i)
    if result["console"] != ref["console"]:
        return False, "console lines differ from the default run's"
    for c in ("thread_insts", "mem_requests"):
        if result["counters"].get(c) != ref["counters"].get(c):
            return False, "%s = %s, default run %s" % (
                c, result["counters"].get(c), ref["counters"].get(c))
    return True, ""


def parse_configs(text):
    configs = []
    for item in text.split(","):
        m = re.match(r"^\s*(\d+)x(\d+)\s*$", item)
        if not m:
            raise SystemExit("runner: bad config %r (want WxL)" % item)
        configs.append((int(m.group(1)), int(m.group(2))))
    return configs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--exe", required=True,
                    help="kernel runner; {W} and {L} are replaced per config")
    ap.add_argument("--configs", help="comma-separated WxL list, e.g. 1x1,4x4")
    ap.add_argument("--warps", type=int, default=4)
    ap.add_argument("--lanes", type=int, default=4)
    ap.add_argument("--suite", default="isa,simt,bad",
                    help="comma-separated suites (directories of tests/kernels)")
    ap.add_argument("--suite-dir", default=HERE)
    ap.add_argument("--cc", default=os.path.join("build", "bin", "simty-cc"))
    ap.add_argument("--build-dir", default=os.path.join("build", "tests", "kernels"))
    ap.add_argument("-k", dest="filters", action="append", default=[],
                    help="only tests whose name contains this (repeatable)")
    ap.add_argument("--keep-going", action="store_true",
                    help="run every test even after a failure")
    ap.add_argument("--isa", default="rv32i",
                    help="ISA of the runner (e.g. rv32ima_zicntr, given to "
                    "it as --isa for tests that need extensions); tests "
                    "needing more are skipped")
    ap.add_argument("--policies", default="",
                    help="comma-separated extra reconvergence policies "
                    "(model only, e.g. pc,ipdom): each test is rerun with "
                    "--policy P and must give the same exit code, dumps, "
                    "console lines, thread_insts and mem_requests")
    ap.add_argument("--xbar", choices=("full", "rotate"),
                    help="the memory crossbar kind of the runner under test "
                    "(docs/architecture.md 3, \"Crossbar kind\"): given to "
                    "it as --xbar K, and to the expectations as XBAR "
                    "(default: not passed, XBAR = full)")
    ap.add_argument("--xbars", default="",
                    help="comma-separated extra memory crossbar kinds "
                    "(model only, e.g. rotate): each test is rerun with "
                    "--xbar K, with the same checks as --policies")
    ap.add_argument("--verbose", "-v", action="store_true")
    ap.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--timeout", type=int, default=300,
                    help="seconds before a runner process is killed")
    args = ap.parse_args()
    args.policies = [p for p in args.policies.split(",") if p]
    args.xbars = [x for x in args.xbars.split(",") if x]

    configs = parse_configs(args.configs) if args.configs else \
        [(args.warps, args.lanes)]
    try:
        tests = find_tests(args.suite_dir, args.suite.split(","))
    except ValueError as e:
        print("runner: %s" % e)
        print("0 passed, 1 failed")
        return 1
    builder = Builder(args.cc, args.build_dir)

    try:
        have = isa_extensions(args.isa)
    except ValueError as e:
        print("runner: --isa: %s" % e)
        return 2
    jobs = []
    skipped = 0
    for test in tests:
        for variant in test.variants:
            name = "%s/%s" % (test.suite, test.stem)
            if variant[0]:
                name += "/" + variant[0]
            if args.filters and not any(f in name for f in args.filters):
                continue
            try:
                need = isa_extensions(test_isa(test, variant))
            except ValueError as e:
                print("runner: %s: %s" % (test.path, e))
                print("0 passed, 1 failed")
                return 1
            if not need <= have:
                print("SKIP %s: needs %s, the runner has %s" % (
                    name, test_isa(test, variant), args.isa), flush=True)
                skipped += 1
                continue
            for W, L in configs:
                jobs.append(("%s @%dx%d" % (name, W, L), test, variant, W, L))

    def work(job):
        label, test, variant, W, L = job
        try:
            return run_one(args, builder, test, variant, W, L)
        except (EvalError, BuildError, ValueError) as e:
            return False, str(e)
        except Exception as e:  # a bug here must not hide the other tests
            return False, "runner.py internal error: %s: %s" % (type(e).__name__, e)

    passed = failed = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = [pool.submit(work, job) for job in jobs]
        for job, future in zip(jobs, futures):
            ok, reason = future.result()
            if ok:
                passed += 1
                print("PASS %s" % job[0], flush=True)
            else:
                failed += 1
                print("FAIL %s: %s" % (job[0], reason), flush=True)
                if not args.keep_going:
                    for f in futures:
                        f.cancel()
                    break
    print("%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
