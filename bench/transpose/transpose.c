/* SPDX-License-Identifier: Apache-2.0 */
/* transpose.c - kernel: one element per thread; thread t reads in[t]
 * (unit stride across a warp's lanes: one transaction per line) and
 * writes it to out[col * rows + row] (a stride of `rows` words: one
 * transaction per lane, the writes replay). No divergence but the bound
 * check. */
#include <simty_kernel.h>

#include "transpose.h"

int main(void)
{
  const struct transpose_args *args = simty_args();
  uint32_t t = simty_thread_id();
  uint32_t rows = args->rows, cols = args->cols;
  if (t >= rows * cols)
    return 0;
  uint32_t r = t / cols, c = t % cols;
  args->out[c * rows + r] = args->in[t];
  return 0;
}
