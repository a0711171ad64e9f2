/* SPDX-License-Identifier: Apache-2.0 */
/* reduction_atomic.h - the argument block shared by the reduction_atomic
 * host and kernel. Pointers are device addresses: 32-bit on both sides. */
#ifndef REDUCTION_ATOMIC_H
#define REDUCTION_ATOMIC_H

#include <stdint.h>

/* Elements each thread adds before its one atomic add. */
#define REDUCTION_ATOMIC_PER_THREAD 16u

struct reduction_atomic_args {
  uint32_t n;       /* elements */
  uint32_t threads; /* threads of the launch */
#if defined(__riscv)
  const int32_t *in;
  uint32_t *total; /* one word, zeroed by the host */
#else
  uint32_t in, total;
#endif
};

#endif
