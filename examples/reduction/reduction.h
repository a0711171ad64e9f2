/* SPDX-License-Identifier: Apache-2.0 */
/* reduction.h - the argument block shared by the reduction host and
 * kernel. Pointers are device addresses: 32-bit on both sides. */
#ifndef REDUCTION_H
#define REDUCTION_H

#include <stdint.h>

/* Elements each thread adds up in one pass: a pass shrinks the data by
 * this factor (the host runs passes until one value is left). */
#define REDUCTION_FAN_IN 16u

struct reduction_args {
  uint32_t n; /* elements in `in` */
#if defined(__riscv)
  const int32_t *in;
  int32_t *out; /* one partial sum per thread */
#else
  uint32_t in, out;
#endif
};

#endif
