/* SPDX-License-Identifier: Apache-2.0 */
/* treewalk.h - the argument block shared by the treewalk host and kernel:
 * lookups in an unbalanced binary search tree (random insertion order, so
 * path lengths vary from key to key). Node i has key[i] and children
 * left[i], right[i] (TREEWALK_NONE for none); node 0 is the root. Each
 * thread looks up one query and writes the depth at which it found it, or
 * TREEWALK_NONE - depth reached when it is absent. Pointers are device
 * addresses, 32-bit on both sides. */
#ifndef TREEWALK_H
#define TREEWALK_H

#include <stdint.h>

#define TREEWALK_NONE (-1)

struct treewalk_args {
  uint32_t nqueries;
#if defined(__riscv)
  const int32_t *key;
  const int32_t *left;
  const int32_t *right;
  const int32_t *query;
  int32_t *result;
#else
  uint32_t key, left, right, query, result;
#endif
};

#endif
