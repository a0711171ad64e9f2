/* SPDX-License-Identifier: Apache-2.0 */
/* histogram_atomic.c - kernel: a histogram in one launch, every thread
 * adding to the shared bins with atomic_fetch_add (amoadd.w). Built with
 * simty-cc --isa rv32ia: it needs the A extension.
 *
 * Thread t counts values t, t + T, t + 2T, ...: the lanes of a warp load
 * consecutive bytes (one transaction), then add 1 to their bins. Lanes
 * whose bins share a line are served by one transaction, one after the
 * other in lane order (docs/architecture.md section 3), so lanes hitting
 * the same bin each get their own count; the others replay. No race:
 * every shared access is atomic (simty-model --racecheck). */
#include <stdatomic.h>

#include <simty_kernel.h>

#include "histogram_atomic.h"

int main(void)
{
  const struct histogram_atomic_args *args = simty_args();
  uint32_t t = simty_thread_id();
  _Atomic uint32_t *hist = (_Atomic uint32_t *)args->hist;
  for (uint32_t i = t; i < args->n; i += args->threads)
    atomic_fetch_add_explicit(&hist[args->values[i] >> HISTOGRAM_SHIFT], 1u,
                              memory_order_relaxed);
  return 0;
}
