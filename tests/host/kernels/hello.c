/* SPDX-License-Identifier: Apache-2.0 */
/* hello.c - device printf: each thread prints one full line, then odd
 * threads leave an unfinished line that the host flushes at the end. */
#include <stdio.h>

#include <simty_kernel.h>

int main(void)
{
  uint32_t t = simty_thread_id();
  printf("hello from %u of %u\n", (unsigned)t, (unsigned)simty_thread_count());
  if (t & 1)
    printf("tail %u", (unsigned)t);
  return 0;
}
