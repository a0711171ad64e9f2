/* SPDX-License-Identifier: Apache-2.0 */
/*
 * host.c - histogram_atomic: HISTOGRAM_BINS bins of n byte values in one
 * launch, with atomic adds to shared bins (examples/histogram does it
 * without atomics, in two launches). Checked against the CPU.
 *
 * Needs the A extension (the simulated board, the ULX3S build,
 * 'model?isa=rv32ia'): on a device without it the program prints SKIP and
 * exits 0.
 */
#include <stdio.h>
#include <stdlib.h>

#include "example.h"
#include "histogram_atomic.h"

int main(int argc, char **argv)
{
  struct example ex;
  example_init_isa(&ex, argc, argv, "histogram_atomic", EXAMPLE_KERNEL, 2048,
                   SIMTY_EXT_A);
  example_check_n(&ex, 1u << 20, NULL);
  uint32_t n = (uint32_t)ex.n;
  uint32_t threads = (n + HISTOGRAM_PER_THREAD - 1) / HISTOGRAM_PER_THREAD;
  uint8_t *values = malloc(n);
  int32_t hist[HISTOGRAM_BINS] = {0}, want[HISTOGRAM_BINS] = {0};
  if (!values) {
    fprintf(stderr, "histogram_atomic: out of host memory\n");
    return EXAMPLE_DEVICE_ERROR;
  }
  /* The values of examples/histogram: the sum of two uniform bytes,
   * halved (a triangle, so that the bins differ). */
  for (uint32_t i = 0; i < n; i++) {
    uint32_t r = example_rand(&ex);
    values[i] = (uint8_t)(((r & 0xFF) + ((r >> 8) & 0xFF)) >> 1);
    want[values[i] >> HISTOGRAM_SHIFT]++;
  }
  struct histogram_atomic_args args = {
      .n = n,
      .threads = threads,
      .values = example_upload(&ex, values, n),
      .hist = example_upload(&ex, hist, sizeof(hist)),
  };
  example_run(&ex, &args, sizeof(args), threads);
  example_download(&ex, args.hist, hist, sizeof(hist));
  uint64_t bad = example_compare(&ex, "hist", hist, want, HISTOGRAM_BINS);
  free(values);
  char summary[96];
  snprintf(summary, sizeof(summary),
           "%u bins of %u values by %u threads' atomic adds match the CPU",
           HISTOGRAM_BINS, n, threads);
  return example_finish(&ex, bad, summary);
}
