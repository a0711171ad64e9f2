/* SPDX-License-Identifier: Apache-2.0 */
/* chatter.c - prints forever: a wait must still honour its time-out. */
#include <stdio.h>

#include <simty_kernel.h>

int main(void)
{
  for (uint32_t i = 0;; i++)
    printf("%u says %u\n", (unsigned)simty_thread_id(), (unsigned)i);
}
