/* SPDX-License-Identifier: Apache-2.0 */
// loop_trips - a loop whose trip count is the thread's lane + 1: each
// iteration's exit test lets one more lane leave; the leavers wait at the
// loop exit (higher pc) and merge there, one merge per divergent exit.
// cflags: -fno-reorder-blocks
// dump: out:N
// dump: wit:N
// expect-all: i < N: out[i] == sum(j * (i + 1) + 1 for j in range(lane(i) + 1))
// expect-all: b < BLOCKS: wit[b * L] == 1
// Lanes of a block have distinct trip counts: active(b) - 1 divergent exits.
// expect: divergent_branches == sum(active(b) - 1 for b in range(BLOCKS))
// expect: path_merges == divergent_branches
// expect: replays_indirect == 0 and replays_mem == 0 and cct_peak == 0
// expect: mem_transactions == 3 * BLOCKS and mem_requests == 3 * N
// run: one-wave
// run: waves
// threads: min(2 * W * L + L // 2 + 1, 1024 - L)
#include "simt.h"

uint32_t out[MAX_THREADS] __attribute__((aligned(256)));
uint32_t wit[MAX_THREADS] __attribute__((aligned(256)));

int main(void)
{
  uint32_t t = simty_thread_id();
  uint32_t n = (t & (simty_lane_count() - 1u)) + 1u;
  uint32_t acc = 0;
  for (uint32_t j = 0; j < n; j++) {
    acc += j * (t + 1u) + 1u;
    KEEP(acc);
  }
  witness(wit, t);
  out[t] = acc;
  return 0;
}
