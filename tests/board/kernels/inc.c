/* SPDX-License-Identifier: Apache-2.0 */
/* inc.c - fault-injection kernel: every thread adds 1 to x[tid] (a plain
 * load and store, not atomic). The host zeroes x, launches N threads and
 * expects exactly 1 in x[0..N-1]: a launch executed twice leaves 2. */
#include <simty_kernel.h>
#include <stdint.h>

#define INC_MAX 4096

uint32_t x[INC_MAX];

int main(void)
{
  uint32_t i = simty_thread_id();
  if (i < INC_MAX)
    x[i] += 1u;
  return 0;
}
