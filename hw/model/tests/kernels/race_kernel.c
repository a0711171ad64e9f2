/* SPDX-License-Identifier: Apache-2.0 */
/*
 * race_kernel.c - the race checker's test kernel (test_cli.py).
 *
 * Each thread sums a local array (its stack, reused by the threads of
 * later waves on the same hardware thread: not a race) into its own out[]
 * word (not a race), then adds its id to one shared word: a plain `+=`
 * (a race between every pair of threads), or with -DRACE_FREE an atomic
 * add (simty-cc --isa rv32ia), which is not.
 */
#include <stdatomic.h>
#include <stdint.h>

#include "simty_kernel.h"

int32_t out[1024];
#ifdef RACE_FREE
_Atomic int32_t shared_sum;
#else
int32_t shared_sum;
#endif

int main(void)
{
  uint32_t t = simty_thread_id();
  volatile int32_t local[8];
  for (int i = 0; i < 8; i++)
    local[i] = (int32_t)t + i;
  int32_t s = 0;
  for (int i = 0; i < 8; i++)
    s += local[i];
  out[t] = s;
#ifdef RACE_FREE
  atomic_fetch_add(&shared_sum, (int32_t)t);
#else
  shared_sum += (int32_t)t;
#endif
  return 0;
}
