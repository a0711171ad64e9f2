/* SPDX-License-Identifier: Apache-2.0 */
/* selftest_kernel.h - argument block of the `simty selftest` kernel,
 * shared by the kernel and the CLI. Addresses are device addresses. */
#ifndef SELFTEST_KERNEL_H
#define SELFTEST_KERNEL_H

#include <stdint.h>

enum selftest_mode {
  SELFTEST_IDENTITY = 0, /* out[3t..3t+2] = tid, hart, nthreads */
  SELFTEST_DIVERGE = 1,  /* out[t] = a data-dependent loop and branch mix */
  SELFTEST_CONSOLE = 2,  /* threads < param print "selftest T\n" */
  SELFTEST_TRAP = 3,     /* thread `param` executes ebreak */
  SELFTEST_SPIN = 4,     /* never ends (for abort) */
};

struct selftest_args {
  uint32_t mode;
  uint32_t param;
  uint32_t out; /* device address of the output words */
};

/* The divergent computation, also run on the host to check the device. */
static inline uint32_t selftest_diverge(uint32_t t)
{
  uint32_t v = t * 2654435761u;
  for (uint32_t i = 0; i < (t % 7u) + 1u; i++) {
    if (v & 1u)
      v = v * 3u + 1u;
    else
      v ^= v >> 3;
    if ((t + i) % 3u == 0u)
      v += i;
  }
  return v;
}

#endif
