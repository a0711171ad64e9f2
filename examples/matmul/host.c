/* SPDX-License-Identifier: Apache-2.0 */
/*
 * host.c - matmul: C = A x B for n x n matrices of 32-bit integers
 * (wrap-around products and sums), one output element per thread, checked
 * against the CPU. --n is the matrix dimension.
 */
#include <stdio.h>
#include <stdlib.h>

#include "example.h"
#include "matmul.h"

int main(int argc, char **argv)
{
  struct example ex;
  example_init(&ex, argc, argv, "matmul", EXAMPLE_KERNEL, 16);
  example_check_n(&ex, 256, "the matrix dimension");
  uint32_t n = (uint32_t)ex.n, nn = n * n;
  int32_t *a = malloc(nn * sizeof(*a)), *b = malloc(nn * sizeof(*b));
  int32_t *c = malloc(nn * sizeof(*c)), *want = malloc(nn * sizeof(*want));
  if (!a || !b || !c || !want) {
    fprintf(stderr, "matmul: out of host memory\n");
    return EXAMPLE_DEVICE_ERROR;
  }
  /* Signed entries of a few bits: the products exercise negative numbers
   * while __mulsi3's loop (one trip per bit of an operand) stays short. */
  for (uint32_t i = 0; i < nn; i++) {
    a[i] = (int32_t)(example_rand(&ex) % 255) - 127;
    b[i] = (int32_t)(example_rand(&ex) % 255) - 127;
  }
  for (uint32_t r = 0; r < n; r++)
    for (uint32_t col = 0; col < n; col++) {
      uint32_t sum = 0;
      for (uint32_t k = 0; k < n; k++)
        sum += (uint32_t)a[r * n + k] * (uint32_t)b[k * n + col];
      want[r * n + col] = (int32_t)sum;
    }
  struct matmul_args args = {
      .n = n,
      .a = example_upload(&ex, a, nn * sizeof(*a)),
      .b = example_upload(&ex, b, nn * sizeof(*b)),
      .c = example_upload(&ex, NULL, nn * sizeof(*c)),
  };
  example_run(&ex, &args, sizeof(args), nn);
  example_download(&ex, args.c, c, nn * sizeof(*c));
  uint64_t bad = example_compare(&ex, "c", c, want, nn);
  free(a);
  free(b);
  free(c);
  free(want);
  char summary[96];
  snprintf(summary, sizeof(summary), "%ux%u C = A x B matches the CPU", n, n);
  return example_finish(&ex, bad, summary);
}
