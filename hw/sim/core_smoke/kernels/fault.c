/* SPDX-License-Identifier: Apache-2.0 */
// fault: a misaligned load by some lanes.
#include "simty_kernel.h"
int buf[64];
int main(void)
{
  uint32_t t = simty_thread_id();
  volatile char *p = (volatile char *)buf;
  int v = *(volatile int *)(p + ((t == 5) ? 2 : 4 * t));
  buf[t] = v;
  return 0;
}
