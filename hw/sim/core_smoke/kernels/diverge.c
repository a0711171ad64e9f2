/* SPDX-License-Identifier: Apache-2.0 */
// diverge: if/else divergence, data-dependent loops, calls and recursion.
#include "simty_kernel.h"
int out[256];
static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
__attribute__((noinline)) static int collatz(unsigned x)
{
  int s = 0;
  while (x != 1) { x = (x & 1) ? 3 * x + 1 : x / 2; s++; }
  return s;
}
int main(void)
{
  uint32_t t = simty_thread_id();
  int v;
  if (t & 1) v = fib((int)(t % 7));
  else v = collatz(t + 1);
  if (t % 3 == 0) v += 1000;
  out[t] = v;
  return 0;
}
