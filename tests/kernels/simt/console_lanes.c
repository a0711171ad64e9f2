/* SPDX-License-Identifier: Apache-2.0 */
// console_lanes - a path's console stores are one transaction serving all
// its lanes (rule 5), whatever values they write.
// dump: out:N
// expect-all: i < N: out[i] == i
// expect-all: i < N: lines(i) == [chr(97 + i % 16) + "!"]
// expect: mem_transactions == 4 * BLOCKS and mem_requests == 4 * N
// expect: replays_mem == 0
// run: one-wave
// run: waves
// threads: min(2 * W * L + 1, 1024 - L)
#include "simt.h"

uint32_t out[MAX_THREADS] __attribute__((aligned(256)));

int main(void)
{
  uint32_t t = simty_thread_id();
  simty_putchar('a' + (int)(t & 15u));
  simty_putchar('!');
  simty_putchar('\n');
  out[t] = t;
  return 0;
}
