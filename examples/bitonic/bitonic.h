/* SPDX-License-Identifier: Apache-2.0 */
/* bitonic.h - the argument block shared by the bitonic host and kernel.
 * Pointers are device addresses: 32-bit on both sides. */
#ifndef BITONIC_H
#define BITONIC_H

#include <stdint.h>

/* One launch per stage (k, j) of a bitonic sorting network on n = 2^m
 * keys: k = 2, 4, ..., n is the size of the sequences being merged, j =
 * k/2, k/4, ..., 1 the distance of the compared keys. n/2 threads, one
 * compare-exchange each. */
struct bitonic_args {
  uint32_t k, j;
#if defined(__riscv)
  int32_t *keys;
#else
  uint32_t keys;
#endif
};

#endif
