/* SPDX-License-Identifier: Apache-2.0 */
// needs_ext - a kernel built for extensions the device lacks is refused
// before it runs (exit 1), naming the missing extension; the runner runs
// it as RV32I (no `isa:` line), the build asks for more.
// run: needs-m
// cflags: --isa rv32im
// isa-without: m
// expect-exit: 1
// expect-stderr: needs the M extension \(rv32i2p1_m2p0
// run: needs-ma
// cflags: --isa rv32ima
// isa-without: m
// expect-exit: 1
// expect-stderr: needs the M and A extensions
// run: control
// The same source for RV32I runs: multiply is a libgcc call there.
// dump: result:N
// expect-all: i < N: result[i] == i * i + 1
#include <stdint.h>

#include "simty_kernel.h"

int32_t result[1024];
volatile int32_t step = 1;

int main(void)
{
  int32_t t = (int32_t)simty_thread_id();
  result[t] = t * t + step;
  return 0;
}
