/* SPDX-License-Identifier: Apache-2.0 */
/*
 * host.c - saxpy: y = a * x + y on 32-bit integers (wrap-around, as the
 * RV32I result is), one element per thread, checked against the CPU.
 */
#include <stdio.h>
#include <stdlib.h>

#include "example.h"
#include "saxpy.h"

int main(int argc, char **argv)
{
  struct example ex;
  example_init(&ex, argc, argv, "saxpy", EXAMPLE_KERNEL, 1024);
  example_check_n(&ex, 1u << 20, NULL);
  uint32_t n = (uint32_t)ex.n;
  int32_t *x = malloc(n * sizeof(*x)), *y = malloc(n * sizeof(*y));
  int32_t *want = malloc(n * sizeof(*want));
  if (!x || !y || !want) {
    fprintf(stderr, "saxpy: out of host memory\n");
    return EXAMPLE_DEVICE_ERROR;
  }
  /* A multiplier of a few bits keeps __mulsi3 short when GCC passes it as
   * the loop operand; x spans the whole 32-bit range. */
  int32_t a = (int32_t)(example_rand(&ex) % 2001) - 1000;
  for (uint32_t i = 0; i < n; i++) {
    x[i] = (int32_t)example_rand(&ex);
    y[i] = (int32_t)example_rand(&ex);
    want[i] = (int32_t)((uint32_t)a * (uint32_t)x[i] + (uint32_t)y[i]);
  }
  struct saxpy_args args = {
      .n = n,
      .a = a,
      .x = example_upload(&ex, x, n * sizeof(*x)),
      .y = example_upload(&ex, y, n * sizeof(*y)),
  };
  example_run(&ex, &args, sizeof(args), n);
  example_download(&ex, args.y, y, n * sizeof(*y));
  uint64_t bad = example_compare(&ex, "y", y, want, n);
  free(x);
  free(y);
  free(want);
  char summary[96];
  snprintf(summary, sizeof(summary), "y = %d * x + y matches the CPU", a);
  return example_finish(&ex, bad, summary);
}
