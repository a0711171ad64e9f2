/* SPDX-License-Identifier: Apache-2.0 */
/*
 * host.c - bitonic: sorts n = 2^m signed keys with a bitonic network, one
 * launch per stage (m (m + 1) / 2 launches of n/2 threads), checked
 * against qsort on the CPU. The keys include duplicates and both extreme
 * values.
 */
#include <stdio.h>
#include <stdlib.h>

#include "bitonic.h"
#include "example.h"

static int compare_keys(const void *pa, const void *pb)
{
  int32_t a = *(const int32_t *)pa, b = *(const int32_t *)pb;
  return (a > b) - (a < b);
}

int main(int argc, char **argv)
{
  struct example ex;
  example_init(&ex, argc, argv, "bitonic", EXAMPLE_KERNEL, 256);
  if (ex.n < 2 || ex.n > (1u << 20) || (ex.n & (ex.n - 1)) != 0) {
    fprintf(stderr, "bitonic: --n (keys) must be a power of two, 2 .. 2^20\n");
    simty_kernel_free(ex.kernel);
    simty_close(ex.dev);
    return EXAMPLE_USAGE;
  }
  uint32_t n = (uint32_t)ex.n;
  int32_t *keys = malloc(n * sizeof(*keys));
  int32_t *want = malloc(n * sizeof(*want));
  if (!keys || !want) {
    fprintf(stderr, "bitonic: out of host memory\n");
    return EXAMPLE_DEVICE_ERROR;
  }
  for (uint32_t i = 0; i < n; i++) {
    uint32_t r = example_rand(&ex);
    /* One key in eight from a set of 16 values: duplicates. */
    want[i] = keys[i] = (r & 7) == 0 ? (int32_t)(r >> 28) - 8 : (int32_t)r;
  }
  want[0] = keys[0] = INT32_MIN;
  want[n - 1] = keys[n - 1] = INT32_MAX;
  qsort(want, n, sizeof(*want), compare_keys);

  struct bitonic_args args = {.keys =
                                  example_upload(&ex, keys, n * sizeof(*keys))};
  for (args.k = 2; args.k <= n; args.k <<= 1)
    for (args.j = args.k >> 1; args.j > 0; args.j >>= 1)
      example_run(&ex, &args, sizeof(args), n / 2);
  example_download(&ex, args.keys, keys, n * sizeof(*keys));
  uint64_t bad = example_compare(&ex, "keys", keys, want, n);
  char summary[96];
  snprintf(summary, sizeof(summary), "%u keys sorted in %u stages, as qsort", n,
           ex.launches);
  free(keys);
  free(want);
  return example_finish(&ex, bad, summary);
}
