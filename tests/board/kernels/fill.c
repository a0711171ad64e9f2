/* SPDX-License-Identifier: Apache-2.0 */
/* fill.c - board test kernel: every thread writes a value computed from
 * its logical id, through a divergent branch and a call, into out[]; one
 * thread prints a line on the device console. The host recomputes
 * expected() and checks every word. */
#include <simty_kernel.h>
#include <stdint.h>
#include <stdio.h>

struct fill_args {
  uint32_t n;
  uint32_t seed;
  uint32_t *out;
};

static __attribute__((noinline)) uint32_t mix(uint32_t x, uint32_t seed)
{
  for (int k = 0; k < 3; k++)
    x = (x ^ (x >> 7)) * 0x9E3779B1u + seed;
  return x;
}

int main(void)
{
  const struct fill_args *a = simty_args();
  uint32_t i = simty_thread_id();
  if (i >= a->n)
    return 0;
  uint32_t v;
  if (i % 3 == 0)
    v = mix(i, a->seed);
  else
    v = i * 7u + simty_thread_count();
  a->out[i] = v;
  if (i == 5)
    printf("thread %u of %u\n", (unsigned)i, (unsigned)simty_thread_count());
  return 0;
}
