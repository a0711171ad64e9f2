/* SPDX-License-Identifier: Apache-2.0 */
/*
 * host.c - transpose (CUDA samples, naive): out = in^T for an n x (n / 2)
 * matrix of random words, one launch, checked against the CPU. --n is
 * the number of rows (at least 2).
 */
#include <stdio.h>
#include <stdlib.h>

#include "example.h"
#include "transpose.h"

int main(int argc, char **argv)
{
  struct example ex;
  example_init(&ex, argc, argv, "transpose", EXAMPLE_KERNEL, 64);
  if (ex.n < 2 || ex.n > 1024) {
    fprintf(stderr, "transpose: --n (rows) must be 2 .. 1024\n");
    simty_kernel_free(ex.kernel);
    simty_close(ex.dev);
    return EXAMPLE_USAGE;
  }
  uint32_t rows = (uint32_t)ex.n, cols = rows / 2, nn = rows * cols;
  int32_t *in = malloc(nn * sizeof(*in)), *want = malloc(nn * sizeof(*want));
  int32_t *got = malloc(nn * sizeof(*got));
  if (!in || !want || !got) {
    fprintf(stderr, "transpose: out of host memory\n");
    return EXAMPLE_DEVICE_ERROR;
  }
  for (uint32_t i = 0; i < nn; i++)
    in[i] = (int32_t)example_rand(&ex);
  for (uint32_t r = 0; r < rows; r++)
    for (uint32_t c = 0; c < cols; c++)
      want[c * rows + r] = in[r * cols + c];
  struct transpose_args args = {
      .rows = rows, .cols = cols,
      .in = example_upload(&ex, in, nn * sizeof(*in)),
      .out = example_upload(&ex, NULL, nn * sizeof(*got)),
  };
  example_run(&ex, &args, sizeof(args), nn);
  example_download(&ex, args.out, got, nn * sizeof(*got));
  uint64_t bad = example_compare(&ex, "out", got, want, nn);
  free(in);
  free(want);
  free(got);
  char summary[96];
  snprintf(summary, sizeof(summary), "%ux%u transpose matches the CPU", rows, cols);
  return example_finish(&ex, bad, summary);
}
