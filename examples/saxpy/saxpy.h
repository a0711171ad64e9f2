/* SPDX-License-Identifier: Apache-2.0 */
/* saxpy.h - the argument block shared by the saxpy host and kernel.
 * Pointers are device addresses: 32-bit on both sides. */
#ifndef SAXPY_H
#define SAXPY_H

#include <stdint.h>

struct saxpy_args {
  uint32_t n;
  int32_t a;
#if defined(__riscv)
  const int32_t *x;
  int32_t *y;
#else
  uint32_t x, y;
#endif
};

#endif
