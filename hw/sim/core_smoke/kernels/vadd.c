/* SPDX-License-Identifier: Apache-2.0 */
// vadd: straight-line code, loads/stores, a uniform loop.
#include "simty_kernel.h"
int a[256], b[256], c[256];
int main(void)
{
  uint32_t t = simty_thread_id();
  a[t] = (int)t * 3;
  b[t] = 100 - (int)t;
  c[t] = a[t] + b[t];
  return 0;
}
