/* SPDX-License-Identifier: Apache-2.0 */
/* transpose.h - the argument block shared by the transpose host and
 * kernel (after the CUDA samples' transpose, naive version: Simty has no
 * shared scratchpad to stage tiles in): out = in^T for a rows x cols
 * matrix of words. Pointers are device addresses, 32-bit on both sides. */
#ifndef TRANSPOSE_H
#define TRANSPOSE_H

#include <stdint.h>

struct transpose_args {
  uint32_t rows, cols;
#if defined(__riscv)
  const int32_t *in; /* rows x cols, row-major */
  int32_t *out;      /* cols x rows, row-major */
#else
  uint32_t in, out;
#endif
};

#endif
