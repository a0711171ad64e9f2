/* SPDX-License-Identifier: Apache-2.0 */
/* chatty.c - board test kernel: every thread prints one long line, far
 * more bytes in all than the SoC's console FIFO and the firmware's
 * buffer hold, so printing threads stall until the host drains; the host
 * checks that every byte arrives, in order, tagged with its thread. */
#include <simty_kernel.h>
#include <stdio.h>

int main(void)
{
  unsigned i = simty_thread_id();
  printf("thread %03u says abcdefghijklmnopqrstuvwxyz %u\n", i, i * 7u);
  return 0;
}
