/* SPDX-License-Identifier: Apache-2.0 */
/*
 * host.c - vecadd: c[i] = a[i] + b[i] on the device for n elements (more
 * threads than the hardware has: the device runs them in waves), checked
 * against the CPU.
 */
#include <stdio.h>
#include <stdlib.h>

#include "example.h"
#include "vecadd.h"

int main(int argc, char **argv)
{
  struct example ex;
  example_init(&ex, argc, argv, "vecadd", EXAMPLE_KERNEL, 1000);
  example_check_n(&ex, 1u << 20, NULL);
  uint32_t n = (uint32_t)ex.n;
  int32_t *a = malloc(n * sizeof(*a)), *b = malloc(n * sizeof(*b));
  int32_t *c = malloc(n * sizeof(*c)), *want = malloc(n * sizeof(*want));
  if (!a || !b || !c || !want) {
    fprintf(stderr, "vecadd: out of host memory\n");
    return EXAMPLE_USAGE;
  }
  for (uint32_t i = 0; i < n; i++) {
    a[i] = (int32_t)example_rand(&ex);
    b[i] = (int32_t)example_rand(&ex);
    /* Wrap-around addition, as the RV32I add does. */
    want[i] = (int32_t)((uint32_t)a[i] + (uint32_t)b[i]);
  }
  struct vecadd_args args = {
      .n = n,
      .a = example_upload(&ex, a, n * sizeof(*a)),
      .b = example_upload(&ex, b, n * sizeof(*b)),
      .c = example_upload(&ex, NULL, n * sizeof(*c)),
  };
  example_run(&ex, &args, sizeof(args), n);
  example_download(&ex, args.c, c, n * sizeof(*c));
  uint64_t bad = example_compare(&ex, "c", c, want, n);
  free(a);
  free(b);
  free(c);
  free(want);
  return example_finish(&ex, bad, "c = a + b matches the CPU");
}
