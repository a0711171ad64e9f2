/* SPDX-License-Identifier: Apache-2.0 */
/* hotspot.c - kernel: one cell of one time step per thread. The lanes of
 * a warp take consecutive cells of a row: the loads of the cell, its east
 * and west neighbours and the rows above and below are unit stride; the
 * cells of the grid's edges take their own branches. The multiplications
 * by the conductances are libgcc calls whose loop is driven by the
 * uniform conductance (GCC passes the right-hand operand). */
#include <simty_kernel.h>

#include "hotspot.h"

int main(void)
{
  const struct hotspot_args *args = simty_args();
  uint32_t n = args->n;
  uint32_t i = simty_thread_id();
  if (i >= n * n)
    return 0;
  uint32_t r = i / n, c = i % n;
  const int32_t *in = args->in;
  int32_t t = in[i];
  int32_t nn = r > 0 ? in[i - n] : t;
  int32_t s = r + 1 < n ? in[i + n] : t;
  int32_t w = c > 0 ? in[i - 1] : t;
  int32_t e = c + 1 < n ? in[i + 1] : t;
  args->out[i] = hotspot_step(args, t, nn, s, e, w, args->power[i]);
  return 0;
}
