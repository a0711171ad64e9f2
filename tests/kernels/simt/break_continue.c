/* SPDX-License-Identifier: Apache-2.0 */
// break_continue - a loop with per-thread continue and break conditions;
// every path the conditions create rejoins before the loop's end, so the
// witness after the loop runs once per block and every split merges.
// cflags: -fno-reorder-blocks
// dump: out:N
// dump: wit:N
// expect-all: i < N: out[i] ==
//     sum(j + 1 for j in range(min(8, 2 + (i & 6))) if j % 4 != i % 4)
// expect-all: b < BLOCKS: wit[b * L] == 1
// Each split is a divergent branch and merges exactly once:
// expect: path_merges == divergent_branches
// With 4 or more lanes the continue test splits every block in its first
// iteration (lane 0 skips j = 0, lanes 1..3 do not):
// expect: divergent_branches >= sum(1 for b in range(BLOCKS) if active(b) >= 2)
// expect: replays_indirect == 0 and replays_mem == 0
// run: one-wave
// run: waves
// threads: min(2 * W * L + 3, 1024 - L)
#include "simt.h"

uint32_t out[MAX_THREADS] __attribute__((aligned(256)));
uint32_t wit[MAX_THREADS] __attribute__((aligned(256)));

int main(void)
{
  uint32_t t = simty_thread_id();
  uint32_t skip = t & 3u;           /* iterations j with j % 4 == skip */
  uint32_t stop = 2u + (t & 6u);    /* break when j reaches stop */
  uint32_t acc = 0;
  KEEP(skip);
  KEEP(stop);
  for (uint32_t j = 0; j < 8; j++) {
    if ((j & 3u) == skip)
      continue;
    if (j == stop)
      break;
    acc += j + 1u;
    KEEP(acc);
  }
  witness(wit, t);
  out[t] = acc;
  return 0;
}
