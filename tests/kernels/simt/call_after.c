/* SPDX-License-Identifier: Apache-2.0 */
// call_after - a call inside a divergent if to a function placed after the
// caller. The calling lanes run at depth + 1, so they go before the lanes
// waiting at the join even though the callee's pc is higher; after the
// return both meet at the join (witness once per block). A second call,
// made by every lane, holds its own if/else that reconverges inside the
// callee.
// cflags: -fno-reorder-blocks -fno-reorder-functions -fno-toplevel-reorder
// dump: out:N
// dump: wit:N
// dump: wit_inner:N
// expect: addr("helper") > addr("main") and addr("inner") > addr("main")
// expect-all: i < N: out[i] == (i * 5 + 3 if i % 2 else i) + (i + 7 if i & 2 else i * 2)
// expect-all: b < BLOCKS: wit[b * L] == 1 and wit_inner[b * L] == 1
// One split by the if in main, one by the if in inner, per block with lanes
// of both parities (bit 0) and of both values of bit 1 respectively:
// expect: divergent_branches ==
//     sum(1 for b in range(BLOCKS) if active(b) >= 2) +
//     sum(1 for b in range(BLOCKS) if active(b) >= 3)
// Every split, including the replays of stack accesses, merges once:
// expect: path_merges == divergent_branches + replays_mem
// expect: replays_indirect == 0
// run: one-wave
// run: waves
// threads: min(2 * W * L + L // 2 + 1, 1024 - L)
#include "simt.h"

uint32_t out[MAX_THREADS] __attribute__((aligned(256)));
uint32_t wit[MAX_THREADS] __attribute__((aligned(256)));
uint32_t wit_inner[MAX_THREADS] __attribute__((aligned(256)));

__attribute__((noinline)) uint32_t helper(uint32_t x);
__attribute__((noinline)) uint32_t inner(uint32_t x);

int main(void)
{
  uint32_t t = simty_thread_id();
  uint32_t v = t;
  if (t & 1)
    v = helper(v);
  witness(wit, t);
  v += inner(t);
  out[t] = v;
  return 0;
}

__attribute__((noinline)) uint32_t helper(uint32_t x)
{
  uint32_t y = x * 5;
  KEEP(y);
  return y + 3;
}

__attribute__((noinline)) uint32_t inner(uint32_t x)
{
  uint32_t y;
  if (x & 2) {
    y = x + 7;
    KEEP(y);
  } else {
    y = x * 2;
    KEEP(y);
  }
  witness(wit_inner, x);
  return y;
}
