/* SPDX-License-Identifier: Apache-2.0 */
// func_ptr - calls through a table of function pointers indexed by tid & 3:
// the jalr (a call: depth + 1) runs the leader's callee to its return
// before the replaying lanes jump again; all meet after the call.
// cflags: -fno-reorder-blocks
// dump: out:N
// dump: wit:N
// expect-all: i < N: out[i] == [i + 11, i * 2, i ^ 0x77, 500 - i][i & 3]
// expect-all: b < BLOCKS: wit[b * L] == 1
// expect: replays_indirect ==
//     sum(len(set((b * L + l) & 3 for l in range(active(b)))) - 1 for b in range(BLOCKS))
// expect: divergent_branches == 0
// expect: path_merges == replays_indirect + replays_mem
// Peak: a callee running, the replaying jalr and the returned lanes.
// expect: cct_peak == (1 if min(L, N) >= 3 else 0)
// run: one-wave
// run: waves
// threads: min(2 * W * L + 3, 1024 - L)
#include "simt.h"

uint32_t out[MAX_THREADS] __attribute__((aligned(256)));
uint32_t wit[MAX_THREADS] __attribute__((aligned(256)));

__attribute__((noinline)) static uint32_t f0(uint32_t x) { return x + 11; }
__attribute__((noinline)) static uint32_t f1(uint32_t x) { return x * 2; }
__attribute__((noinline)) static uint32_t f2(uint32_t x) { return x ^ 0x77; }
__attribute__((noinline)) static uint32_t f3(uint32_t x) { return 500 - x; }

/* 16-byte aligned: one line for any warp of 4 or more lanes. */
uint32_t (*const table[4])(uint32_t) __attribute__((aligned(16))) = {f0, f1, f2, f3};

int main(void)
{
  uint32_t t = simty_thread_id();
  uint32_t (*fn)(uint32_t) = table[t & 3u];
  KEEP(fn);
  uint32_t v = fn(t);
  witness(wit, t);
  out[t] = v;
  return 0;
}
