/* SPDX-License-Identifier: Apache-2.0 */
/*
 * host.c - fib: recursive Fibonacci with a different n (0 .. FIB_MAX_N) on
 * every thread, checked against an iterative computation on the CPU: the
 * value fib(n) and the number of calls the recursion made, which must be
 * 2 fib(n + 1) - 1. --n is the thread count.
 */
#include <stdio.h>
#include <stdlib.h>

#include "example.h"
#include "fib.h"

static uint32_t fib_iterative(uint32_t n)
{
  uint32_t a = 0, b = 1;
  for (uint32_t i = 0; i < n; i++) {
    uint32_t next = a + b;
    a = b;
    b = next;
  }
  return a;
}

int main(int argc, char **argv)
{
  struct example ex;
  example_init(&ex, argc, argv, "fib", EXAMPLE_KERNEL, 64);
  example_check_n(&ex, 65536, "threads");
  uint32_t count = (uint32_t)ex.n;
  uint32_t *n = malloc(count * sizeof(*n));
  int32_t *value = malloc(count * sizeof(*value));
  int32_t *calls = malloc(count * sizeof(*calls));
  int32_t *want_value = malloc(count * sizeof(*want_value));
  int32_t *want_calls = malloc(count * sizeof(*want_calls));
  if (!n || !value || !calls || !want_value || !want_calls) {
    fprintf(stderr, "fib: out of host memory\n");
    return EXAMPLE_DEVICE_ERROR;
  }
  uint64_t total_calls = 0;
  for (uint32_t t = 0; t < count; t++) {
    n[t] = example_rand(&ex) % (FIB_MAX_N + 1);
    want_value[t] = (int32_t)fib_iterative(n[t]);
    want_calls[t] = (int32_t)(2 * fib_iterative(n[t] + 1) - 1);
    total_calls += (uint32_t)want_calls[t];
  }
  struct fib_args args = {
      .count = count,
      .n = example_upload(&ex, n, count * sizeof(*n)),
      .value = example_upload(&ex, NULL, count * sizeof(*value)),
      .calls = example_upload(&ex, NULL, count * sizeof(*calls)),
  };
  example_run(&ex, &args, sizeof(args), count);
  example_download(&ex, args.value, value, count * sizeof(*value));
  example_download(&ex, args.calls, calls, count * sizeof(*calls));
  uint64_t bad = example_compare(&ex, "value", value, want_value, count);
  bad += example_compare(&ex, "calls", calls, want_calls, count);
  char summary[128];
  snprintf(summary, sizeof(summary),
           "fib(n) of %u threads (n = 0 .. %u, %llu calls) matches the CPU",
           count, FIB_MAX_N, (unsigned long long)total_calls);
  free(n);
  free(value);
  free(calls);
  free(want_value);
  free(want_calls);
  return example_finish(&ex, bad, summary);
}
