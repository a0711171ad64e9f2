/* SPDX-License-Identifier: Apache-2.0 */
/* vecadd.h - the argument block shared by the vecadd host and kernel.
 * Pointers are device addresses: 32-bit on both sides. */
#ifndef VECADD_H
#define VECADD_H

#include <stdint.h>

struct vecadd_args {
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
