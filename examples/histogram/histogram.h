/* SPDX-License-Identifier: Apache-2.0 */
/* histogram.h - the argument block shared by the histogram host and
 * kernel. Pointers are device addresses: 32-bit on both sides. */
#ifndef HISTOGRAM_H
#define HISTOGRAM_H

#include <stdint.h>

/* Values are bytes; bin b counts the values v with v >> HISTOGRAM_SHIFT
 * equal to b. */
#define HISTOGRAM_BINS 32u
#define HISTOGRAM_SHIFT 3u
/* Values each thread of the counting pass takes. */
#define HISTOGRAM_PER_THREAD 32u

enum histogram_phase {
  /* Thread t zeroes its private sub-histogram sub[t][*], then counts
   * values t, t + T, t + 2T, ... into it. */
  HISTOGRAM_COUNT = 0,
  /* Thread b adds up sub[*][b] into hist[b]. */
  HISTOGRAM_MERGE = 1,
};

struct histogram_args {
  uint32_t phase;
  uint32_t n;       /* values */
  uint32_t threads; /* threads of the counting pass: rows of sub */
#if defined(__riscv)
  const uint8_t *values;
  uint32_t *sub; /* threads x HISTOGRAM_BINS counts, one row per thread */
  uint32_t *hist;
#else
  uint32_t values, sub, hist;
#endif
};

#endif
