/* SPDX-License-Identifier: Apache-2.0 */
// console - device printf: every thread's bytes are tagged with its id and
// regrouped into lines by the runner; an unfinished line is flushed at the
// end. Console stores of a path are served in one transaction.
// cflags: -fno-reorder-blocks
// expect-all: i < N: lines(i) == ["thread %d of %d: square %d" % (i, N, i * i), "tail %c" % chr(65 + i % 26)]
// expect: len(console) == N
// run: one-wave
// run: waves
// threads: min(2 * W * L + 1, 1024 - L)
#include <stdio.h>

#include "simt.h"

int main(void)
{
  uint32_t t = simty_thread_id();
  printf("thread %u of %u: square %u\n", (unsigned)t,
         (unsigned)simty_thread_count(), (unsigned)(t * t));
  simty_puts("tail ");
  simty_putchar('A' + (int)(t % 26u));
  return 0;
}
