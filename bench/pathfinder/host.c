/* SPDX-License-Identifier: Apache-2.0 */
/*
 * host.c - pathfinder (Rodinia): the cheapest top-to-bottom path cost of
 * every bottom cell of a grid of random weights 0 .. 9, one launch per row
 * (the device keeps the two rows of costs and swaps them), checked against
 * the CPU. --n is the number of columns; rows = n / 8 (at least 2).
 */
#include <stdio.h>
#include <stdlib.h>

#include "example.h"
#include "pathfinder.h"

int main(int argc, char **argv)
{
  struct example ex;
  example_init(&ex, argc, argv, "pathfinder", EXAMPLE_KERNEL, 256);
  if (ex.n < 2 || ex.n > 65536) {
    fprintf(stderr, "pathfinder: --n (columns) must be 2 .. 65536\n");
    simty_kernel_free(ex.kernel);
    simty_close(ex.dev);
    return EXAMPLE_USAGE;
  }
  uint32_t cols = (uint32_t)ex.n, rows = cols / 8 < 2 ? 2 : cols / 8;
  int32_t *wall = malloc((size_t)rows * cols * sizeof(*wall));
  int32_t *cpu = malloc(2 * (size_t)cols * sizeof(*cpu));
  int32_t *got = malloc((size_t)cols * sizeof(*got));
  if (!wall || !cpu || !got) {
    fprintf(stderr, "pathfinder: out of host memory\n");
    return EXAMPLE_DEVICE_ERROR;
  }
  for (uint32_t i = 0; i < rows * cols; i++)
    wall[i] = (int32_t)(example_rand(&ex) % 10);
  /* CPU reference: the same recurrence, row by row. */
  int32_t *prev = cpu, *next = cpu + cols;
  for (uint32_t c = 0; c < cols; c++)
    prev[c] = wall[c];
  for (uint32_t r = 1; r < rows; r++) {
    for (uint32_t c = 0; c < cols; c++) {
      int32_t best = prev[c];
      if (c > 0 && prev[c - 1] < best)
        best = prev[c - 1];
      if (c + 1 < cols && prev[c + 1] < best)
        best = prev[c + 1];
      next[c] = wall[r * cols + c] + best;
    }
    int32_t *t = prev;
    prev = next;
    next = t;
  }
  uint32_t dwall = example_upload(&ex, wall, (size_t)rows * cols * sizeof(*wall));
  uint32_t bufs[2] = {example_upload(&ex, wall, cols * sizeof(*wall)),
                      example_upload(&ex, NULL, cols * sizeof(*wall))};
  for (uint32_t r = 1; r < rows; r++) {
    struct pathfinder_args args = {
        .cols = cols,
        .wall = dwall + r * cols * (uint32_t)sizeof(*wall),
        .src = bufs[(r - 1) & 1],
        .dst = bufs[r & 1],
    };
    example_run(&ex, &args, sizeof(args), cols);
  }
  example_download(&ex, bufs[(rows - 1) & 1], got, cols * sizeof(*got));
  uint64_t bad = example_compare(&ex, "cost", got, prev, cols);
  free(wall);
  free(cpu);
  free(got);
  char summary[96];
  snprintf(summary, sizeof(summary), "%u x %u path costs match the CPU", rows, cols);
  return example_finish(&ex, bad, summary);
}
