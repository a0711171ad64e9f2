/* SPDX-License-Identifier: Apache-2.0 */
/* histogram.c - kernel: a histogram with no atomics, in two launches.
 *
 * Counting: each thread owns one row of sub-histograms and is the only one
 * to write it, so the read-modify-write of a count cannot race. The lanes
 * of a warp increment different rows (and usually different bins): those
 * accesses hit different lines and replay, one transaction per lane.
 * Merging: thread b reads column b of every row; the lanes of a warp read
 * consecutive bins of a row, one transaction per warp and row. */
#include <simty_kernel.h>

#include "histogram.h"

int main(void)
{
  const struct histogram_args *args = simty_args();
  uint32_t t = simty_thread_id();
  if (args->phase == HISTOGRAM_COUNT) {
    uint32_t *mine = args->sub + t * HISTOGRAM_BINS;
    for (uint32_t b = 0; b < HISTOGRAM_BINS; b++)
      mine[b] = 0;
    for (uint32_t i = t; i < args->n; i += args->threads)
      mine[args->values[i] >> HISTOGRAM_SHIFT]++;
  } else if (t < HISTOGRAM_BINS) {
    uint32_t sum = 0;
    for (uint32_t r = 0; r < args->threads; r++)
      sum += args->sub[r * HISTOGRAM_BINS + t];
    args->hist[t] = sum;
  }
  return 0;
}
