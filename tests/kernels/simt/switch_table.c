/* SPDX-License-Identifier: Apache-2.0 */
// switch_table - a switch on tid & 7 compiled to a jump table: one jalr
// with per-lane targets. Lanes with the leader's target go on, the others
// replay the jump (lower pc, so they run first) until every distinct case
// has its path; the cases then run in pc order and merge at the join.
// cflags: -fno-reorder-blocks
// dump: out:N
// dump: wit:N
// expect-all: i < N: out[i] == [i * 3, i ^ 0x5a, i + 1000, i << 4,
//     i | 0x300, (i * 7) & 0xffff, 77 - i, i * 9 + 2][i & 7]
// expect-all: b < BLOCKS: wit[b * L] == 1
// One replay per extra distinct target in a block:
// expect: replays_indirect ==
//     sum(len(set((b * L + l) & 7 for l in range(active(b)))) - 1 for b in range(BLOCKS))
// The table load: lane l reads word (b * L + l) & 7 of the line-aligned
// table, one transaction under the full crossbar. Under the rotate one
// (docs/architecture.md 3, "Crossbar kind"; XBAR is the kind of the run)
// with L >= 16 the lanes are groups of 8 reading words 0-7: a
// transaction serves the rest of its leader's group (its rotation) and
// the leader's word in every other group (its broadcast), so the leader
// of group g is at word g: a block of a lanes takes a // 8 transactions,
// plus one if its last, partial group has lanes past word a // 8 - 1
// (1 transaction when L <= 8). Each extra transaction is a replay:
// expect: divergent_branches == 0 and replays_mem == (0 if XBAR == "full"
//     else sum(active(b) // 8 + (active(b) % 8 > active(b) // 8) - 1
//              for b in range(BLOCKS)))
// A memory replay's served lanes merge back too:
// expect: path_merges == replays_indirect + replays_mem
// After the last replay of a block every distinct case is a path:
// expect: cct_peak == max(0, min(L, N, 8) - 2)
// Four memory instructions: the table load (the table is at the start of
// .rodata, line-aligned), the witness load and store, the out store:
// expect: mem_transactions == 4 * BLOCKS + replays_mem and mem_requests == 4 * N
// run: one-wave
// run: waves
// threads: min(2 * W * L + 5, 1024 - L)
#include "simt.h"

uint32_t out[MAX_THREADS] __attribute__((aligned(256)));
uint32_t wit[MAX_THREADS] __attribute__((aligned(256)));

int main(void)
{
  uint32_t t = simty_thread_id();
  uint32_t v;
  switch (t & 7u) {
  case 0: v = t * 3; KEEP(v); break;
  case 1: v = t ^ 0x5a; KEEP(v); break;
  case 2: v = t + 1000; KEEP(v); break;
  case 3: v = t << 4; KEEP(v); break;
  case 4: v = t | 0x300; KEEP(v); break;
  case 5: v = (t * 7) & 0xffff; KEEP(v); break;
  case 6: v = 77 - t; KEEP(v); break;
  case 7: v = t * 9 + 2; KEEP(v); break;
  default: __builtin_unreachable();
  }
  witness(wit, t);
  out[t] = v;
  return 0;
}
