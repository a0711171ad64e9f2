/* SPDX-License-Identifier: Apache-2.0 */
/* reverse.c - for the crossbar tests: each block of LANES threads reads
 * its line of `in` reversed (lane l reads word LANES - 1 - l): one
 * transaction per block with the full crossbar, LANES / 2 with the
 * rotate one (docs/architecture.md 3, "Crossbar kind"), the same
 * out[t] = 2 * in[reversed t] + 1 under both. */
#include <simty_kernel.h>

int32_t in[64] __attribute__((aligned(256)));
int32_t out[64] __attribute__((aligned(256)));

int main(void)
{
  uint32_t t = simty_thread_id();
  uint32_t lanes = simty_lane_count();
  uint32_t lane = t & (lanes - 1u);
  uint32_t src = t - lane + lanes - 1u - lane;
  if (src < 64 && t < 64)
    out[t] = 2 * in[src] + 1;
  return 0;
}
