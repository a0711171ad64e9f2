/* SPDX-License-Identifier: Apache-2.0 */
/* globals.c - for the CLI tests: out[t] = w[0] * t + w[1] from a
 * two-word argument block (simty run --arg A --arg B, or --args table,
 * an initialised array). Without an argument block the first load
 * faults (address 0). Thread 2 prints a line. */
#include <simty_kernel.h>

int32_t out[64];
int32_t table[2] = {-7, 100};

int main(void)
{
  const int32_t *w = simty_args();
  uint32_t t = simty_thread_id();
  if (t == 2)
    simty_puts("two says hi\n");
  if (t < 64)
    out[t] = w[0] * (int32_t)t + w[1];
  else if (t == 0xffffffffu) /* never: keeps `table` linked */
    out[0] = table[t & 1];
  return 0;
}
