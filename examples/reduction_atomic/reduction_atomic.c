/* SPDX-License-Identifier: Apache-2.0 */
/* reduction_atomic.c - kernel: the sum of n integers in one launch. With T
 * threads, thread t adds in[t], in[t + T], in[t + 2T], ... (the lanes of a
 * warp read consecutive words: one transaction each step), then adds its
 * partial sum to the total with one atomic_fetch_add (amoadd.w). The lanes
 * of a warp all add to the same word, so one transaction serves them, in
 * lane order (docs/architecture.md section 3). Built with simty-cc --isa
 * rv32ia: it needs the A extension. */
#include <stdatomic.h>

#include <simty_kernel.h>

#include "reduction_atomic.h"

int main(void)
{
  const struct reduction_atomic_args *args = simty_args();
  uint32_t t = simty_thread_id();
  uint32_t sum = 0;
  for (uint32_t i = t; i < args->n; i += args->threads)
    sum += (uint32_t)args->in[i];
  atomic_fetch_add_explicit((_Atomic uint32_t *)args->total, sum,
                            memory_order_relaxed);
  return 0;
}
