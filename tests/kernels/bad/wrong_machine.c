/* SPDX-License-Identifier: Apache-2.0 */
// wrong_machine - ELF files for another machine are refused (exit 1).
// run: x86-64-machine
// A valid kernel whose e_machine says x86-64 (62).
// patch: e_machine = 62
// expect-exit: 1
// expect-stderr: machine|risc|62
// run: rv64
// The same source built for RV64 (ELFCLASS64, lp64).
// build: cc riscv64-unknown-elf-gcc -march=rv64i -mabi=lp64 -ffreestanding -nostdlib -nostartfiles -Wl,-Ttext=0x10000 -Wl,-e,main -I{include} -o {out} {src}
// expect-exit: 1
// expect-stderr: elf|class|64|machine|risc
// run: control
// The unpatched kernel runs: the refusals above are about the header.
// dump: result:N
// expect-all: i < N: result[i] == i + 1
#include "input.h"
