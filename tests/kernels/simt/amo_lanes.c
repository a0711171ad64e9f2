/* SPDX-License-Identifier: Apache-2.0 */
// amo_lanes - A extension inside a warp, independent of the schedule:
// lanes of a warp on one word apply in lane order (each gets its own old
// value), a divergent subset, lanes on two words of one line (one
// transaction), lanes on lines of their own (one transaction each, the
// others replay), lr.w/sc.w of a warp's lanes on one word (the lowest lane
// wins), on their own words (all win), a store between lr.w and sc.w (all
// lose), and atomics on stack variables (interleaved stacks: a warp's
// variables share a line). Every word belongs to one block, so the results
// do not depend on the order of warps: rtl-diff compares everything.
// The lanes must meet at each atomic as one path: GCC's jump threading and
// block reordering would duplicate the code after a divergent branch.
// isa: rv32ia
// cflags: -fno-thread-jumps -fno-reorder-blocks
// dump: bad:N
// expect-all: i < N: bad[i] == 0
// dump: sumw:BLOCKS
// expect-all: i < BLOCKS: sumw[i] == sum(l + 1 for l in range(L) if i * L + l < N)
// dump: swapw:BLOCKS
// expect-all: i < BLOCKS: swapw[i] == min(N, (i + 1) * L)
// dump: lrw:BLOCKS
// expect-all: i < BLOCKS: lrw[i] == i * L + 100
// dump: lrw2:BLOCKS
// expect-all: i < BLOCKS: lrw2[i] == 7
// run: one-wave
// run: waves
// threads: min(2 * W * L + L // 2 + 1, 1024 - L)
#include <stdint.h>

#include "simty_kernel.h"

#define MAXT 1024
#define FAR_WORDS 8192

/* One AMO instruction: rd = old word, word = op(old, v). */
#define AMO(op, p, v)                                                        \
  ({                                                                         \
    uint32_t r_;                                                             \
    __asm__ volatile(op " %0, %2, (%1)"                                      \
                     : "=r"(r_)                                              \
                     : "r"(p), "r"(v)                                        \
                     : "memory");                                            \
    r_;                                                                      \
  })

int32_t bad[MAXT];   /* per thread: a bit per failed check */
uint32_t sumw[MAXT];
uint32_t maxw[MAXT];
uint32_t swapw[MAXT];
int32_t minw[MAXT];
uint32_t lrw[MAXT];
uint32_t lrw2[MAXT];
uint32_t ownw[MAXT];
uint32_t pairw[2 * MAXT] __attribute__((aligned(8)));
/* thread t's word is far[t * L]: a line of its own */
uint32_t farw[FAR_WORDS] __attribute__((aligned(128)));

/* The checks set bits of e without branches: a branch on a check would
 * let GCC duplicate the code after it, and the lanes would no longer meet
 * at the next atomic as one path. */
#define CHECK(bit, cond) (e |= (uint32_t)((cond) ? 0 : 1) << (bit))

int main(void)
{
  const uint32_t t = simty_thread_id(), L = simty_lane_count();
  const uint32_t l = t & (L - 1u), b = t / L;
  uint32_t e = 0, r, old, fail, x;

  /* 1: every lane adds l + 1 to its block's word: lane l gets the sum of
   * the lower lanes' (all of them run) */
  r = AMO("amoadd.w", &sumw[b], l + 1u);
  CHECK(1, r == l * (l + 1u) / 2u);
  /* 2: a divergent subset: the odd lanes, maximum of their ids */
  r = 0;
  if (l & 1u)
    r = AMO("amomaxu.w", &maxw[b], t);
  CHECK(2, !(l & 1u) || r == (l == 1u ? 0u : t - 2u));
  /* 3: a swap chain: lane l gets lane l - 1's value */
  r = AMO("amoswap.w", &swapw[b], t + 1u);
  CHECK(3, r == (l == 0u ? 0u : t));
  /* 4: signed minimum of l - 2 */
  r = AMO("amomin.w", &minw[b], (uint32_t)((int32_t)l - 2));
  CHECK(4, (int32_t)r == (l == 0u ? 0 : -2));
  /* 5: two words of one line, by lane parity: lane l gets the lower lanes'
   * bits of its parity (the word's xor so far) */
  r = AMO("amoxor.w", &pairw[2u * b + (l & 1u)], 1u << l);
  x = (l & 1u ? 0xaaaaaaaau : 0x55555555u) & ((1u << l) - 1u);
  CHECK(5, r == x);
  /* 6: every lane on a line of its own (one transaction each) */
  r = AMO("amoor.w", &farw[(t * L) % FAR_WORDS], 0x100u | l);
  CHECK(6, r == 0u);
  r = AMO("amoand.w", &farw[(t * L) % FAR_WORDS], 0xffu);
  CHECK(7, r == (0x100u | l));
  CHECK(8, farw[(t * L) % FAR_WORDS] == l);
  /* 7: lr.w then sc.w by every lane on one word: the lowest lane's sc.w
   * succeeds and clears the others' reservations */
  __asm__ volatile("lr.w %0, (%2)\n\tsc.w %1, %3, (%2)"
                   : "=&r"(old), "=&r"(fail)
                   : "r"(&lrw[b]), "r"(t + 100u)
                   : "memory");
  CHECK(9, old == 0u && fail == (l == 0u ? 0u : 1u));
  /* 8: on their own words (one line): every sc.w succeeds */
  __asm__ volatile("lr.w %0, (%2)\n\tsc.w %1, %3, (%2)"
                   : "=&r"(old), "=&r"(fail)
                   : "r"(&ownw[t]), "r"(t ^ 0x5a5au)
                   : "memory");
  CHECK(10, old == 0u && fail == 0u && ownw[t] == (t ^ 0x5a5au));
  /* 9: a store by lane 0 between lr.w and sc.w: every sc.w fails */
  __asm__ volatile("lr.w %0, (%1)" : "=r"(old) : "r"(&lrw2[b]) : "memory");
  if (l == 0u)
    *(volatile uint32_t *)&lrw2[b] = 7u;
  __asm__ volatile("sc.w %0, %2, (%1)"
                   : "=r"(fail)
                   : "r"(&lrw2[b]), "r"(t)
                   : "memory");
  CHECK(11, old == 0u && fail == 1u);
  /* 10: a stack variable (the lanes' same offset: one line) */
  {
    volatile uint32_t local = t * 3u;
    r = AMO("amoadd.w", &local, 5u);
    CHECK(12, r == t * 3u && local == t * 3u + 5u);
    r = AMO("amomaxu.w", &local, 0xffffffffu);
    CHECK(13, r == t * 3u + 5u && local == 0xffffffffu);
  }
  bad[t] = (int32_t)e;
  return 0;
}
