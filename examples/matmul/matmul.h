/* SPDX-License-Identifier: Apache-2.0 */
/* matmul.h - the argument block shared by the matmul host and kernel:
 * C = A x B for n x n row-major 32-bit integer matrices. Pointers are
 * device addresses: 32-bit on both sides. */
#ifndef MATMUL_H
#define MATMUL_H

#include <stdint.h>

struct matmul_args {
  uint32_t n;
#if defined(__riscv)
  const int32_t *a;
  const int32_t *b;
  int32_t *c;
#else
  uint32_t a, b, c;
#endif
};

#endif
