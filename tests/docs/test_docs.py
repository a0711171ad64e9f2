#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""test_docs.py - the documentation's code works as written.

Extracts the marked fenced code blocks of each Markdown file (the markers
are described in docs/docs-tests.md) and, in a scratch directory per file,
outside the source tree, against an installed prefix only:

  ```c kernel NAME.c        saved, compiled with PREFIX/bin/simty-cc
  ```c program NAME.c [run] saved, compiled with cc -std=c11 -Wall -Wextra
                            -Werror and `pkg-config simty` (the installed
                            header and library); `run`: run on the model
                            (SIMTY_DEVICE=model), exit 0
  ```c header NAME.h        saved for the others to include
  ```sh session             "$ COMMAND" lines run with sh in order (PATH
                            starts with PREFIX/bin); the lines after a
                            command, if any, are its exact stdout; exit 0

Blocks are handled in file order. Exits 1 after the first failing file's
report (every file is still tried).

  python3 tests/docs/test_docs.py --prefix PREFIX --work DIR FILE.md...
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

FENCE = re.compile(r"^(```+|~~~+)\s*(.*)$")
KINDS = {"kernel", "program", "header", "session"}


def blocks(path):
    """(line, info words, text) of every fenced block of a Markdown file."""
    out = []
    with open(path) as f:
        lines = f.read().split("\n")
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        fence, info = m.group(1), m.group(2).split()
        start = i + 1
        i += 1
        while i < len(lines) and not lines[i].startswith(fence):
            i += 1
        out.append((start, info, "\n".join(lines[start:i]) + "\n"))
        i += 1
    return out


class Failure(Exception):
    pass


def sh(cmd, cwd, env, what):
    p = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True,
                       timeout=600, shell=isinstance(cmd, str))
    if p.returncode != 0:
        raise Failure("%s: exit %d\n%s%s" % (what, p.returncode, p.stdout,
                                             p.stderr))
    return p


def check_file(md, prefix, work, counts):
    name = os.path.basename(md)
    wd = os.path.join(work, name.replace(".md", ""))
    shutil.rmtree(wd, ignore_errors=True)
    os.makedirs(wd)
    env = dict(os.environ)
    env["PATH"] = os.path.join(prefix, "bin") + os.pathsep + env["PATH"]
    env["PKG_CONFIG_PATH"] = os.path.join(prefix, "lib", "pkgconfig")
    env["SIMTY_DEVICE"] = "model"
    env.pop("SIMTY_SIM", None)
    cc = os.environ.get("CC", "cc")
    for line, info, text in blocks(md):
        if len(info) < 2 or info[1] not in KINDS:
            continue
        kind = info[1]
        where = "%s:%d (%s)" % (md, line, " ".join(info))
        if kind in ("kernel", "program", "header"):
            if len(info) < 3:
                raise Failure("%s: a %s block needs a file name" % (where, kind))
            with open(os.path.join(wd, info[2]), "w") as f:
                f.write(text)
        if kind == "kernel":
            elf = info[2].rsplit(".", 1)[0] + ".elf"
            sh(["simty-cc", "-o", elf, info[2]], wd, env, where + " simty-cc")
        elif kind == "program":
            exe = info[2].rsplit(".", 1)[0]
            flags = sh("pkg-config --cflags --libs simty", wd, env,
                       "pkg-config").stdout.split()
            sh([cc, "-std=c11", "-Wall", "-Wextra", "-Werror", "-o", exe,
                info[2]] + flags, wd, env, where + " compile")
            if "run" in info[3:]:
                sh(["./" + exe], wd, env, where + " run on the model")
        elif kind == "session":
            run_session(text, wd, env, where)
        counts[kind] = counts.get(kind, 0) + 1
        counts["blocks"] = counts.get("blocks", 0) + 1


def run_session(text, wd, env, where):
    cmd, expect = None, []

    def finish():
        if cmd is None:
            return
        p = sh(cmd, wd, env, "%s: $ %s" % (where, cmd))
        if expect and p.stdout.rstrip("\n").split("\n") != expect:
            raise Failure("%s: $ %s\n--- expected\n%s\n--- got\n%s" %
                          (where, cmd, "\n".join(expect), p.stdout))

    for ln in text.rstrip("\n").split("\n"):
        if ln.startswith("$ "):
            finish()
            cmd, expect = ln[2:], []
        elif cmd is not None:
            expect.append(ln)
        elif ln.strip() and not ln.startswith("#"):
            raise Failure("%s: a session line must start with '$ ': %r" %
                          (where, ln))
    finish()


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--prefix", required=True, help="installed simty prefix")
    ap.add_argument("--work", required=True, help="scratch directory")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    prefix, work = os.path.abspath(a.prefix), os.path.abspath(a.work)
    failed = 0
    counts = {}
    for md in a.files:
        try:
            check_file(md, prefix, work, counts)
            print("docs: %s ok" % md)
        except Failure as e:
            failed += 1
            print("docs: FAIL %s" % e)
    print("docs: %d blocks checked (%s), %d file(s) failed" %
          (counts.get("blocks", 0),
           ", ".join("%d %s" % (v, k) for k, v in sorted(counts.items())
                     if k != "blocks"), failed))
    # Every file must have been looked at; README.md and docs/host_lib.md
    # must hold checked programs.
    if counts.get("program", 0) == 0 or counts.get("session", 0) == 0:
        print("docs: FAIL no program or session block found: markers lost?")
        failed += 1
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
