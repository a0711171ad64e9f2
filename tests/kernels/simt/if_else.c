/* SPDX-License-Identifier: Apache-2.0 */
// if_else - an if/else on lane parity splits each warp once and the two
// paths merge at the join: the witness after the join runs once per block.
// threads: W * L
// dump: out:N
// dump: wit:N
// expect-all: i < N: out[i] == (3 * i + 1 if i % 2 else i ^ 0x55)
// expect: divergent_branches == sum(1 for b in range(BLOCKS) if active(b) >= 2)
// expect: path_merges == divergent_branches
// expect: replays_indirect == 0 and replays_mem == 0 and cct_peak == 0
// Three memory instructions (witness load and store, out store), unit
// stride or broadcast, one transaction each per path that runs them:
// expect: mem_requests == 3 * N
// GCC's block reordering may put the else block after the join; the
// priority rule then reconverges later (see the reordered variant), so the
// main variants keep blocks in source order.
// run: one-wave
// cflags: -fno-reorder-blocks
// expect-all: b < BLOCKS: wit[b * L] == 1
// expect: mem_transactions == 3 * BLOCKS
// run: waves
// cflags: -fno-reorder-blocks
// threads: min(3 * W * L + L // 2 + 1, 1024 - L)
// expect-all: b < BLOCKS: wit[b * L] == 1
// expect: mem_transactions == 3 * BLOCKS
// run: reordered
// At plain -O2 GCC 12 places the else block after the join and jumps back:
// the then-path reaches the join first, has the lower pc, runs on to
// main's return (depth 0, crt0's pc); the else path (depth 1) then runs
// and passes the witness alone; both merge after main returns.
// threads: min(2 * W * L + 1, 1024 - L)
// expect-all: b < BLOCKS: wit[b * L] == (2 if active(b) >= 2 else 1)
// expect: mem_transactions == 3 * (BLOCKS + divergent_branches)
#include "simt.h"

uint32_t out[MAX_THREADS] __attribute__((aligned(256)));
uint32_t wit[MAX_THREADS] __attribute__((aligned(256)));

int main(void)
{
  uint32_t t = simty_thread_id();
  uint32_t v = t;
  if (t & 1) {
    v = v * 3 + 1;
    KEEP(v);
  } else {
    v ^= 0x55;
    KEEP(v);
  }
  witness(wit, t);
  out[t] = v;
  return 0;
}
