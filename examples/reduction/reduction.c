/* SPDX-License-Identifier: Apache-2.0 */
/* reduction.c - kernel: one pass of a sum. With T threads, thread t adds
 * in[t], in[t + T], in[t + 2T], ... into out[t]. The stride is the thread
 * count, so at every step the lanes of a warp read consecutive words (one
 * transaction), and each thread writes only its own partial sum: no two
 * threads touch the same word, no atomics needed. */
#include <simty_kernel.h>

#include "reduction.h"

int main(void)
{
  const struct reduction_args *args = simty_args();
  uint32_t stride = simty_thread_count();
  uint32_t t = simty_thread_id();
  uint32_t sum = 0;
  for (uint32_t i = t; i < args->n; i += stride)
    sum += (uint32_t)args->in[i];
  args->out[t] = (int32_t)sum;
  return 0;
}
