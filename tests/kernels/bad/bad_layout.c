/* SPDX-License-Identifier: Apache-2.0 */
// bad_layout - an entry point outside the loaded code, a kernel too large
// for the populated memory, stacks over the kernel data, missing symbols
// and bad options: a clear message, exit 1 (2 for usage), nothing runs.
// expect-exit: 1
// run: entry-in-data
// patch: e_entry = addr("result")
// expect-stderr: entry
// run: entry-past-code
// patch: e_entry = CODE_BASE + CODE_SIZE
// expect-stderr: entry
// run: entry-after-text
// Inside the CODE window but past the loaded instructions.
// patch: e_entry = segment_end(addr("main"))
// expect-stderr: entry
// run: data-size-too-small
// data-size: 2048
// stack-log2: 6
// expect-stderr: data|memory|fit|large|size
// run: code-size-too-small
// code-size: 64
// expect-stderr: code|memory|fit|large|size
// run: stacks-over-data
// Stacks filling all of the populated data memory cover the kernel's data.
// stack-log2: 20 - log2(W * L)
// expect-stderr: stack
// run: missing-dump-symbol
// dump: no_such_symbol:4
// expect-stderr: no_such_symbol
// run: missing-args-symbol
// args: no_such_symbol
// expect-stderr: no_such_symbol
// run: unknown-option
// options: --no-such-option
// expect-exit: 2
// run: control
// The same kernel with sane options runs.
// stack-log2: 19 - log2(W * L)
// expect-exit: 0
// dump: result:N
// expect-all: i < N: result[i] == i + 1
#include "input.h"
