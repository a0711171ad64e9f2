/* SPDX-License-Identifier: Apache-2.0 */
// amo_warps - A extension between warps: every thread of every warp
// updates the same shared words at once: an lr.w/sc.w retry loop adding
// its id + 1 to one counter (a failed sc.w retries, so every addition
// lands once), tickets from amoadd.w (each ticket is taken once: the
// thread stores its id in its ticket's slot), amoadd.w on three shared
// bins, amomaxu.w and amominu.w on one word. The totals are checked; which
// thread gets which ticket depends on the order of warps.
// isa: rv32ia
// order-dependent: which warp's atomics on the shared words come first
// dump: counter:1
// dump: tickets:1
// dump: slot:N
// dump: bins:3
// dump: extremes:2
// expect: counter[0] == N * (N + 1) // 2
// expect: tickets[0] == N and sorted(slot) == list(range(N))
// expect: bins[0] == len(range(0, N, 3)) and bins[1] == len(range(1, N, 3)) and bins[2] == len(range(2, N, 3))
// expect: extremes[0] == N - 1 and extremes[1] == 0
// run: one-wave
// run: waves
// threads: min(3 * W * L + L // 2 + 1, 1024)
#include <stdint.h>

#include "simty_kernel.h"

uint32_t counter;
uint32_t tickets;
int32_t slot[1024];
uint32_t bins[3];
uint32_t extremes[2] = {0, 0xffffffffu};

int main(void)
{
  const uint32_t t = simty_thread_id();
  uint32_t old, fail;
  do {
    __asm__ volatile("lr.w %0, (%1)" : "=r"(old) : "r"(&counter) : "memory");
    old += t + 1u;
    __asm__ volatile("sc.w %0, %2, (%1)"
                     : "=r"(fail)
                     : "r"(&counter), "r"(old)
                     : "memory");
  } while (fail);
  slot[__atomic_fetch_add(&tickets, 1u, __ATOMIC_RELAXED)] = (int32_t)t;
  __atomic_fetch_add(&bins[t % 3u], 1u, __ATOMIC_RELAXED);
  __asm__ volatile("amomaxu.w x0, %1, (%0)" : : "r"(&extremes[0]), "r"(t)
                   : "memory");
  __asm__ volatile("amominu.w x0, %1, (%0)" : : "r"(&extremes[1]), "r"(t)
                   : "memory");
  return 0;
}
