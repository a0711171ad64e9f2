/* SPDX-License-Identifier: Apache-2.0 */
/*
 * host.c - reduction_atomic: the wrap-around 32-bit sum of n integers in
 * one launch (examples/reduction takes a launch per level without
 * atomics): each thread adds a strided slice, then adds its partial sum to
 * the total with an atomic add. Checked against the CPU.
 *
 * Needs the A extension: on a device without it the program prints SKIP
 * and exits 0.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "example.h"
#include "reduction_atomic.h"

int main(int argc, char **argv)
{
  struct example ex;
  example_init_isa(&ex, argc, argv, "reduction_atomic", EXAMPLE_KERNEL, 1024,
                   SIMTY_EXT_A);
  example_check_n(&ex, 1u << 20, NULL);
  uint32_t n = (uint32_t)ex.n;
  uint32_t threads =
      (n + REDUCTION_ATOMIC_PER_THREAD - 1) / REDUCTION_ATOMIC_PER_THREAD;
  int32_t *data = malloc(n * sizeof(*data));
  if (!data) {
    fprintf(stderr, "reduction_atomic: out of host memory\n");
    return EXAMPLE_DEVICE_ERROR;
  }
  uint32_t total = 0;
  for (uint32_t i = 0; i < n; i++) {
    data[i] = (int32_t)example_rand(&ex);
    total += (uint32_t)data[i];
  }
  int32_t got = 0, want = (int32_t)total;
  struct reduction_atomic_args args = {
      .n = n,
      .threads = threads,
      .in = example_upload(&ex, data, n * sizeof(*data)),
      .total = example_upload(&ex, &got, sizeof(got)),
  };
  example_run(&ex, &args, sizeof(args), threads);
  example_download(&ex, args.total, &got, sizeof(got));
  uint64_t bad = example_compare(&ex, "sum", &got, &want, 1);
  free(data);
  char summary[96];
  snprintf(summary, sizeof(summary),
           "sum = %" PRId32 " of %u integers by %u threads' atomic adds", got,
           n, threads);
  return example_finish(&ex, bad, summary);
}
