/* SPDX-License-Identifier: Apache-2.0 */
/* histogram_atomic.h - the argument block shared by the histogram_atomic
 * host and kernel. Pointers are device addresses: 32-bit on both sides. */
#ifndef HISTOGRAM_ATOMIC_H
#define HISTOGRAM_ATOMIC_H

#include <stdint.h>

/* Values are bytes; bin b counts the values v with v >> HISTOGRAM_SHIFT
 * equal to b (the bins of examples/histogram). */
#define HISTOGRAM_BINS 32u
#define HISTOGRAM_SHIFT 3u
/* Values each thread takes. */
#define HISTOGRAM_PER_THREAD 32u

struct histogram_atomic_args {
  uint32_t n;       /* values */
  uint32_t threads; /* threads of the launch */
#if defined(__riscv)
  const uint8_t *values;
  uint32_t *hist; /* HISTOGRAM_BINS shared counts, zeroed by the host */
#else
  uint32_t values, hist;
#endif
};

#endif
