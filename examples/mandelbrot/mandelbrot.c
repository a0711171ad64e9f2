/* SPDX-License-Identifier: Apache-2.0 */
/* mandelbrot.c - kernel: the escape-time count of one pixel per thread.
 * Neighbouring pixels escape after different numbers of iterations: the
 * lanes of a warp leave the loop at different times (divergence) and the
 * warp runs at the pace of its slowest pixel. */
#include <simty_kernel.h>

#include "mandelbrot.h"

int main(void)
{
  const struct mandelbrot_args *args = simty_args();
  uint32_t t = simty_thread_id();
  if (t >= args->width * args->height)
    return 0;
  uint32_t px = t % args->width, py = t / args->width;
  /* The step is the right-hand operand: the same on every lane, it drives
   * __mulsi3's loop without divergence. */
  int32_t cx = args->x0 + (int32_t)(px * (uint32_t)args->dx);
  int32_t cy = args->y0 + (int32_t)(py * (uint32_t)args->dy);
  args->iters[t] = mandel_escape(cx, cy, args->max_iter);
  return 0;
}
