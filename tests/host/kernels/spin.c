/* SPDX-License-Identifier: Apache-2.0 */
/* spin.c - never ends: for host time-out and abort tests. */
#include <simty_kernel.h>

int main(void)
{
  for (volatile uint32_t i = 0;; i++)
    ;
}
