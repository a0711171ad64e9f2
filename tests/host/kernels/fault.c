/* SPDX-License-Identifier: Apache-2.0 */
/* fault.c - thread `victim` stores to address 0 (outside data memory);
 * the others write out[tid] = tid + 1 first. */
#include <simty_kernel.h>

struct fault_args {
  uint32_t victim;
  uint32_t out;
};

int main(void)
{
  const struct fault_args *a = simty_args();
  uint32_t t = simty_thread_id();
  if (t == a->victim)
    *(volatile uint32_t *)0 = 1;
  ((volatile uint32_t *)(uintptr_t)a->out)[t] = t + 1;
  return 0;
}
