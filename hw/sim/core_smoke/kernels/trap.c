/* SPDX-License-Identifier: Apache-2.0 */
#include "simty_kernel.h"
int main(void)
{
  if (simty_thread_id() == 6) __asm__ volatile("ebreak");
  return 0;
}
