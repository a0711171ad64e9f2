/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cli_kernel.c - kernel for the simty-model CLI test (test_cli.py):
 * console lines (finished and unfinished), --args, --dump with negative
 * values, and an ebreak on request.
 */
#include <stdio.h>

#include "simty_kernel.h"

int out[64];
/* Only reached through --args: kept despite --gc-sections. */
__attribute__((used, retain)) int args_block[4] = {7, 8, 9, 10};
#ifndef TRAP_TID
#define TRAP_TID -1 /* the test builds a copy with -DTRAP_TID=5 */
#endif
volatile int trap_tid = TRAP_TID;

int main(void)
{
  unsigned t = simty_thread_id();
  int *a = simty_args();
  out[t] = (a ? a[t % 4] : -1) * (int)t - 5;
  if ((int)t == trap_tid)
    simty_trap();
  if (t < 3)
    printf("line %u\npart %u", t, t);
  return 0;
}
