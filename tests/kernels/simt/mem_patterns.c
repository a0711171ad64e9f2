/* SPDX-License-Identifier: Apache-2.0 */
// mem_patterns - the leader/follower rule on unit-stride, permuted,
// broadcast, sub-word, strided, offset and scattered accesses. main is a
// leaf that touches no stack, so the counters hold exactly these accesses
// (checked in the objdump: nine loads/stores, in the order below).
// Transactions per access = distinct lines (L words) its lanes touch
// with the full crossbar; more with the rotate one (below).
// cflags: -fno-reorder-blocks
// dump: res:N
// dump: perm:N
// dump: bcast:N
// dump: scat:min(N * L, 16384)
// expect-all: i < N: res[i] == 3 * i + 1
// expect-all: i < N: perm[i] == (3 * (block(i) * L + L - 1 - lane(i)) + 1
//     if block(i) * L + L - 1 - lane(i) < N else 0)
// expect-all: i < N: bcast[i] == 0x12f4d678 + [0x78, -0x2a, -0x0c, 0x12][i & 3]
// expect-all: i < N * L: scat[i] == (i // L + 1 if i % L == 0 else 0)
// expect: replays_indirect == 0 and divergent_branches == 0
// expect: mem_requests == 9 * N
// Lines touched per block by each access, in program order: store res[t],
// load res[perm t], store perm[t], load word shared, load byte
// shared[t & 3], store bcast[t], load ro[2t], load ro[t + 1], store
// scat[t * L].
// Under the rotate crossbar (docs/architecture.md 3, "Crossbar kind"; XBAR
// is the kind of the run) a transaction serves only the lanes of the
// leader's line at the leader's word or at its rotation: the reversed
// load serves lanes k and k + L/2 of the leader k (min(a, L/2)
// transactions for a block of a lanes, 1 at L = 1), the stride-2 load one
// lane (a); unit stride, the broadcast, bytes of one word and offset 1
// (the lanes in the leader's line are at its rotation) cost what they
// cost under full, and stride L is a line per lane under both.
// expect: mem_transactions == (sum(
//     3 + 2 + 1
//     + len(set(2 * (b * L + l) // L for l in range(active(b))))
//     + len(set((b * L + l + 1) // L for l in range(active(b))))
//     + active(b)
//     for b in range(BLOCKS)) if XBAR == "full" else sum(
//     2 + min(active(b), max(1, L // 2)) + 2 + 1
//     + active(b)
//     + len(set((b * L + l + 1) // L for l in range(active(b))))
//     + active(b)
//     for b in range(BLOCKS)))
// expect: replays_mem == mem_transactions - 9 * BLOCKS
// expect: path_merges == replays_mem
// run: one-wave
// run: waves
// threads: min(2 * W * L + 3, 16384 // L)
#include "simt.h"

/* 256-byte aligned: every line boundary of L <= 64 lanes is an index
 * multiple of L. The stride-2 and offset-1 loads reach other blocks'
 * elements, so they read ro, which no thread writes: loading res there
 * would race with the warps storing it, and the loaded values (so the
 * uniform/affine counters the RTL diff compares) would depend on the
 * schedule. ro is twice as long for the stride-2 loads. */
volatile uint32_t res[MAX_THREADS] __attribute__((aligned(256)));
volatile uint32_t ro[2 * MAX_THREADS + 64] __attribute__((aligned(256)));
uint32_t perm[MAX_THREADS] __attribute__((aligned(256)));
uint32_t bcast[MAX_THREADS] __attribute__((aligned(256)));
uint32_t scat[16384] __attribute__((aligned(256)));
volatile uint32_t shared __attribute__((aligned(256))) = 0x12f4d678;

int main(void)
{
  uint32_t t = simty_thread_id();
  uint32_t lanes = simty_lane_count();
  uint32_t lane = t & (lanes - 1u);
  uint32_t base = t - lane;
  res[t] = 3 * t + 1;                                    /* unit stride */
  perm[t] = res[base + lanes - 1u - lane];               /* reversed */
  uint32_t w = shared;                                   /* broadcast */
  int8_t byte = ((volatile int8_t *)&shared)[t & 3u];    /* same word */
  bcast[t] = w + (uint32_t)(int32_t)byte;
  uint32_t a = ro[2 * t];                                /* stride 2 */
  uint32_t b = ro[t + 1];                                /* offset 1 */
  uint32_t idx = t; /* t * lanes without a multiply call: uniform loop */
  for (uint32_t m = lanes; m > 1u; m >>= 1)
    idx <<= 1;
  scat[idx] = t + 1;                                     /* stride L */
  KEEP(a);
  KEEP(b);
  return 0;
}
