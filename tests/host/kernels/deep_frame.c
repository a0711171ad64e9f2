/* SPDX-License-Identifier: Apache-2.0 */
/* deep_frame.c - a 1.6 KB local array: on the default 1 KiB stacks every
 * thread's frame reaches the next hardware thread's stack, which the
 * stack guard stops with a stack_overflow fault (simty-cc warns). */
#include <simty_kernel.h>

uint32_t out[1024];

int main(void)
{
  volatile uint32_t buf[400];
  uint32_t t = simty_thread_id();
  for (uint32_t i = 0; i < 400; i++)
    buf[i] = i + t;
  out[t] = buf[t % 400];
  return 0;
}
