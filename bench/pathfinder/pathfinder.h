/* SPDX-License-Identifier: Apache-2.0 */
/* pathfinder.h - the argument block shared by the pathfinder host and
 * kernel (after Rodinia's pathfinder): the cheapest path from the top row
 * of a rows x cols grid of weights to each cell of the bottom row, moving
 * down one row at a time to the same column or a neighbouring one. One
 * launch per row; pointers are device addresses, 32-bit on both sides. */
#ifndef PATHFINDER_H
#define PATHFINDER_H

#include <stdint.h>

struct pathfinder_args {
  uint32_t cols;
#if defined(__riscv)
  const int32_t *wall; /* this launch's row of weights, cols words */
  const int32_t *src;  /* the previous row's costs */
  int32_t *dst;        /* this row's costs */
#else
  uint32_t wall, src, dst;
#endif
};

#endif
