#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""run_cpu_tests.py - run the controller-core bench programs and judge them.

usage: run_cpu_tests.py SIM DIR
  SIM  the Verilated bench (simty_ctrl_cpu_tb)
  DIR  holds rv32i_all.{hex,elf}, trapN.{hex,elf}, cprog.hex and
       cprog_host.txt (the host build's signature lines)

Each program must end in the trap it expects at the pc it expects; the
signature lines must match exactly. Exits 1 on the first difference."""
import subprocess
import sys

NM = "riscv64-unknown-elf-nm"


def symbols(elf):
    out = subprocess.run([NM, elf], check=True, capture_output=True, text=True).stdout
    table = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3:
            table[parts[2]] = int(parts[0], 16)
    return table


def run(sim, hexfile, extra=()):
    res = subprocess.run([sim, "+hex=" + hexfile, "+max_cycles=2000000", *extra],
                         capture_output=True, text=True, timeout=120)
    lines = res.stdout.splitlines()
    sigs = [int(l.split()[1], 16) for l in lines if l.startswith("SIG ")]
    traps = [l.split() for l in lines if l.startswith("TRAP ")]
    trap = (int(traps[0][1]), int(traps[0][2], 16)) if traps else None
    cycles = [int(l.split()[1]) for l in lines if l.startswith("CYCLES ")]
    if res.returncode != 0 or trap is None:
        print(res.stdout + res.stderr)
    return sigs, trap, (cycles[0] if cycles else None), res.returncode


def main():
    sim, d = sys.argv[1], sys.argv[2]
    failures = 0

    def check(name, ok, detail):
        nonlocal failures
        print(("PASS " if ok else "FAIL ") + name + ("" if ok else ": " + detail))
        if not ok:
            failures += 1

    syms = symbols(d + "/rv32i_all.elf")
    want = syms["expected_checks"]
    for mode in ((), ("+waitstates",)):
        sigs, trap, cycles, rc = run(sim, d + "/rv32i_all.hex", mode)
        name = "rv32i_all" + (" (random wait states)" if mode else "")
        check(name + " signature", sigs == [want],
              "signature %s, want [%#x] checks" % ([hex(s) for s in sigs], want))
        check(name + " ends in ecall at pass_ecall", trap == (1, syms["pass_ecall"]),
              "trap %s, want (1, %#x)" % (trap, syms["pass_ecall"]))

    for case in range(1, 11):
        elf = "%s/trap%d.elf" % (d, case)
        s = symbols(elf)
        sigs, trap, _, rc = run(sim, "%s/trap%d.hex" % (d, case))
        want_trap = (s["expected_cause"], s["trap_here"])
        check("trap case %d" % case, trap == want_trap and sigs == [],
              "trap %s sigs %s, want %s and no signature" % (trap, sigs, want_trap))

    with open(d + "/cprog_host.txt") as f:
        host = [int(l.split()[1], 16) for l in f if l.startswith("SIG ")]
    csyms = symbols(d + "/cprog.elf")
    for mode in ((), ("+waitstates",)):
        sigs, trap, cycles, rc = run(sim, d + "/cprog.hex", mode)
        name = "cprog" + (" (random wait states)" if mode else "")
        check(name + " matches the host build", sigs == host and len(host) > 10,
              "got %s want %s" % ([hex(s) for s in sigs], [hex(s) for s in host]))
        check(name + " returns from main", trap == (1, csyms["_end_of_test"]),
              "trap %s" % (trap,))
        if not mode and cycles:
            print("cprog: %d cycles" % cycles)

    print("controller core: %d failure(s)" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
