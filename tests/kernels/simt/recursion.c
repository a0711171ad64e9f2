/* SPDX-License-Identifier: Apache-2.0 */
// recursion - each thread recurses to its own depth (its lane number).
// At every level one lane takes the base case and waits at a different
// call depth; the deepest path always runs first, and the levels merge back
// on the way out, so the witness after the call runs once per block.
// cflags: -O1 -fno-reorder-blocks
// dump: out:N
// dump: wit:N
// expect-all: i < N: out[i] == sum(3 * k + (i >> 3) for k in range(1, lane(i) + 1))
// expect-all: b < BLOCKS: wit[b * L] == 1
// expect: path_merges == divergent_branches + replays_mem
// expect: replays_indirect == 0
// At level k of a full block, k lanes wait in base cases (one path per
// call depth) while the running path replays its stack stores: with k =
// L - 2 that is L paths, the most a warp can hold:
// expect: cct_peak == max(0, min(L, N) - 2)
// run: one-wave
// The base-case test splits off one lane per level while two or more remain:
// expect: divergent_branches == sum(active(b) - 1 for b in range(BLOCKS))
// run: waves
// threads: min(2 * W * L + 3, 1024 - L)
// expect: divergent_branches == sum(active(b) - 1 for b in range(BLOCKS))
// run: deep
// count() recurses 200 + lane levels below main; with 64 lanes that passes
// the 255 saturation of the call depth, which may merge paths early but
// must not change results.
// args: deep_out
// stack-log2: 13
// data-size: max(1 << 20, (W * L) << 14)
// dump: deep_out:N
// expect-all: i < N: deep_out[i] == 200 + lane(i)
#include "simt.h"

uint32_t out[MAX_THREADS] __attribute__((aligned(256)));
uint32_t deep_out[MAX_THREADS] __attribute__((aligned(256)));
uint32_t wit[MAX_THREADS] __attribute__((aligned(256)));

/* sum of 3k + c for k = n..1; the store between the call and the addition
 * keeps the recursion from becoming a loop. */
__attribute__((noinline)) uint32_t rec(uint32_t n, uint32_t c)
{
  if (n == 0)
    return 0;
  uint32_t r = rec(n - 1, c);
  KEEP(r);
  return r + 3 * n + c;
}

__attribute__((noinline)) uint32_t count(uint32_t n)
{
  if (n == 0)
    return 0;
  uint32_t r = count(n - 1);
  KEEP(r);
  return r + 1;
}

int main(void)
{
  uint32_t t = simty_thread_id();
  uint32_t lane = t & (simty_lane_count() - 1u);
  uint32_t v = rec(lane, t >> 3);
  witness(wit, t);
  out[t] = v;
  if (simty_args() != 0)
    deep_out[t] = count(200 + lane);
  return 0;
}
