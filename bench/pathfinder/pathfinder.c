/* SPDX-License-Identifier: Apache-2.0 */
/* pathfinder.c - kernel: one column of one row per thread,
 * dst[c] = wall[c] + min(src[c-1], src[c], src[c+1]) (the neighbours that
 * exist). The two comparisons take data-dependent branches; the edge
 * columns take their own path. Every load and the store are unit stride
 * across a warp's lanes. */
#include <simty_kernel.h>

#include "pathfinder.h"

int main(void)
{
  const struct pathfinder_args *args = simty_args();
  uint32_t c = simty_thread_id();
  uint32_t cols = args->cols;
  if (c >= cols)
    return 0;
  int32_t best = args->src[c];
  if (c > 0 && args->src[c - 1] < best)
    best = args->src[c - 1];
  if (c + 1 < cols && args->src[c + 1] < best)
    best = args->src[c + 1];
  args->dst[c] = args->wall[c] + best;
  return 0;
}
