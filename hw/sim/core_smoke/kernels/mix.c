/* SPDX-License-Identifier: Apache-2.0 */
// mix: per-thread function pointers (indirect-jump replay), strided and
// scattered accesses (memory replay), byte/half stores merging in a line.
#include "simty_kernel.h"
int out[512];
unsigned char bytes[512];
short halves[512];
static int f0(int x) { return x + 1; }
static int f1(int x) { return x * 3; }
static int f2(int x) { return x - 7; }
static int (*const fns[3])(int) = {f0, f1, f2};
int main(void)
{
  uint32_t t = simty_thread_id();
  int v = fns[t % 3]((int)t);
  out[(t * 5) % 512] = v;
  bytes[t] = (unsigned char)(v + bytes[t ^ 1]);
  halves[t / 2] = (short)v;
  out[256 + t] = out[(t * 5) % 512] + bytes[t] + halves[t / 2];
  return 0;
}
