/* SPDX-License-Identifier: Apache-2.0 */
/* fib.h - the argument block shared by the fib host and kernel. Pointers
 * are device addresses: 32-bit on both sides. */
#ifndef FIB_H
#define FIB_H

#include <stdint.h>

/* Largest n the host draws: fib(n) makes 2 fib(n + 1) - 1 calls, 1973 for
 * 15, and nests n deep (16 bytes of stack per level). */
#define FIB_MAX_N 15u

struct fib_args {
  uint32_t count; /* threads with an input */
#if defined(__riscv)
  const uint32_t *n; /* per thread: which Fibonacci number */
  uint32_t *value;   /* per thread: fib(n[t]) */
  uint32_t *calls;   /* per thread: calls the recursion made */
#else
  uint32_t n, value, calls;
#endif
};

#endif
