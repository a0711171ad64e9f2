/* SPDX-License-Identifier: Apache-2.0 */
/* simt.h - helpers shared by the SIMT behaviour kernels. */
#ifndef SIMT_H
#define SIMT_H

#include <stdint.h>

#include "simty_kernel.h"

#define MAX_THREADS 1024

/* Keep a value in a register and the code that made it where it is: the
 * compiler may not fold it into branch-free code or move it across. */
#define KEEP(x) __asm__ volatile("" : "+r"(x))

/* Base logical id of the calling thread's block (the warp's lane 0). */
static inline uint32_t block_base(uint32_t tid)
{
  return tid & ~(simty_lane_count() - 1u);
}

/* Reconvergence witness: a plain, non-atomic increment of w[block base].
 * The lanes of one path load the same word in one transaction, so a block
 * that runs this once, reconverged, leaves 1; a block that runs it as k
 * separate paths leaves k (docs/architecture.md, section 3). */
static inline void witness(volatile uint32_t *w, uint32_t tid)
{
  uint32_t i = block_base(tid);
  w[i] = w[i] + 1u;
}

#endif
