/* SPDX-License-Identifier: Apache-2.0 */
/*
 * host.c - histogram: HISTOGRAM_BINS bins of n byte values, race-free
 * without atomics: a counting launch fills one private sub-histogram per
 * thread, a merging launch adds them up per bin. The bins are checked
 * against the CPU. The sub-histograms start as 0xA5 garbage: a kernel that
 * forgot to zero them would be off in every bin. They stay on the device
 * (copying them back would cost more link time than the whole run).
 */
#include <stdio.h>
#include <stdlib.h>

#include "example.h"
#include "histogram.h"

int main(int argc, char **argv)
{
  struct example ex;
  example_init(&ex, argc, argv, "histogram", EXAMPLE_KERNEL, 2048);
  example_check_n(&ex, 1u << 20, NULL);
  uint32_t n = (uint32_t)ex.n;
  uint32_t threads = (n + HISTOGRAM_PER_THREAD - 1) / HISTOGRAM_PER_THREAD;
  uint32_t sub_words = threads * HISTOGRAM_BINS;
  uint8_t *values = malloc(n);
  int32_t hist[HISTOGRAM_BINS], want[HISTOGRAM_BINS] = {0};
  if (!values) {
    fprintf(stderr, "histogram: out of host memory\n");
    return EXAMPLE_DEVICE_ERROR;
  }
  /* The sum of two uniform bytes, halved: a triangle-shaped histogram, so
   * the bins differ and a swapped or dropped bin shows. */
  for (uint32_t i = 0; i < n; i++) {
    uint32_t r = example_rand(&ex);
    values[i] = (uint8_t)(((r & 0xFF) + ((r >> 8) & 0xFF)) >> 1);
    want[values[i] >> HISTOGRAM_SHIFT]++;
  }
  struct histogram_args args = {
      .phase = HISTOGRAM_COUNT,
      .n = n,
      .threads = threads,
      .values = example_upload(&ex, values, n),
      .sub = example_upload(&ex, NULL, sub_words * sizeof(uint32_t)),
      .hist = example_upload(&ex, NULL, sizeof(hist)),
  };
  example_run(&ex, &args, sizeof(args), threads);
  args.phase = HISTOGRAM_MERGE;
  example_run(&ex, &args, sizeof(args), HISTOGRAM_BINS);
  example_download(&ex, args.hist, hist, sizeof(hist));
  uint64_t bad = example_compare(&ex, "hist", hist, want, HISTOGRAM_BINS);
  free(values);
  char summary[96];
  snprintf(summary, sizeof(summary),
           "%u bins of %u values (%u private sub-histograms) match the CPU",
           HISTOGRAM_BINS, n, threads);
  return example_finish(&ex, bad, summary);
}
