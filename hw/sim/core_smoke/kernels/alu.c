/* SPDX-License-Identifier: Apache-2.0 */
// alu: ALU-bound loop, no memory in the loop: issue rate.
#include "simty_kernel.h"
int out[1024];
int main(void)
{
  uint32_t x = simty_thread_id(), y = 7;
  for (int i = 0; i < 200; i++) {
    x = x * 5 + y;
    y ^= x >> 3;
    x += y << 1;
  }
  out[simty_thread_id()] = (int)(x ^ y);
  return 0;
}
