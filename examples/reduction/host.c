/* SPDX-License-Identifier: Apache-2.0 */
/*
 * host.c - reduction: the wrap-around 32-bit sum of n integers in passes.
 * Each pass runs ceil(count / REDUCTION_FAN_IN) threads that each add a
 * strided slice into one partial sum; the partials feed the next pass
 * until one value is left. Every pass's partial sums and the final sum are
 * checked against the CPU.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "example.h"
#include "reduction.h"

int main(int argc, char **argv)
{
  struct example ex;
  example_init(&ex, argc, argv, "reduction", EXAMPLE_KERNEL, 1024);
  example_check_n(&ex, 1u << 20, NULL);
  uint32_t n = (uint32_t)ex.n;
  int32_t *data = malloc(n * sizeof(*data));
  int32_t *want = malloc(n * sizeof(*want));
  int32_t *got = malloc(n * sizeof(*got));
  if (!data || !want || !got) {
    fprintf(stderr, "reduction: out of host memory\n");
    return EXAMPLE_DEVICE_ERROR;
  }
  uint32_t total = 0;
  for (uint32_t i = 0; i < n; i++) {
    data[i] = (int32_t)example_rand(&ex);
    total += (uint32_t)data[i];
  }

  /* Even a single element takes one pass, so the kernel always runs.
   * Every pass goes to the device's stream at once, each into its own
   * buffer, and every buffer comes back in the same stream: one wait. */
  uint64_t bad = 0;
  uint32_t count = n, passes = 0;
  uint32_t threads_of[32];
  int32_t *partial[32];
  uint32_t src = example_upload(&ex, data, n * sizeof(*data));
  do {
    uint32_t threads = (count + REDUCTION_FAN_IN - 1) / REDUCTION_FAN_IN;
    struct reduction_args args = {
        .n = count,
        .in = src,
        .out = example_upload(&ex, NULL, threads * sizeof(int32_t)),
    };
    example_submit(&ex, &args, sizeof(args), threads);
    partial[passes] = malloc(threads * sizeof(int32_t));
    if (!partial[passes]) {
      fprintf(stderr, "reduction: out of host memory\n");
      return EXAMPLE_DEVICE_ERROR;
    }
    int e = simty_read_async(ex.dev, args.out, partial[passes],
                             threads * sizeof(int32_t), NULL);
    if (e)
      example_die(&ex, e, "cannot read device memory");
    threads_of[passes] = threads;
    src = args.out;
    count = threads;
    passes++;
  } while (count > 1);
  example_sync(&ex);
  /* The CPU does the same passes on its own copy of each level. */
  count = n;
  for (uint32_t p = 0; p < passes; p++) {
    uint32_t threads = threads_of[p];
    for (uint32_t t = 0; t < threads; t++) {
      uint32_t sum = 0;
      for (uint32_t i = t; i < count; i += threads)
        sum += (uint32_t)data[i];
      want[t] = (int32_t)sum;
    }
    char what[32];
    snprintf(what, sizeof(what), "pass%u", p);
    bad += example_compare(&ex, what, partial[p], want, threads);
    for (uint32_t t = 0; t < threads; t++)
      data[t] = want[t];
    count = threads;
  }
  memcpy(got, partial[passes - 1], sizeof(int32_t));
  for (uint32_t p = 0; p < passes; p++)
    free(partial[p]);
  int32_t expected = (int32_t)total;
  bad += example_compare(&ex, "sum", got, &expected, 1);

  char summary[96];
  snprintf(summary, sizeof(summary), "sum = %" PRId32 " in %u passes", got[0],
           passes);
  free(data);
  free(want);
  free(got);
  return example_finish(&ex, bad, summary);
}
