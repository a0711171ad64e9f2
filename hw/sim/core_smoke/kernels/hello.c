/* SPDX-License-Identifier: Apache-2.0 */
#include <stdio.h>
#include "simty_kernel.h"
int main(void)
{
  printf("hi %u\n", (unsigned)simty_thread_id());
  return 0;
}
