/* SPDX-License-Identifier: Apache-2.0 */
/* input.h - a small valid kernel for the bad-input tests, which break it
 * from outside (patched headers, tight memory sizes, missing symbols). */
#include <stdint.h>

#include "simty_kernel.h"

uint32_t result[1024];

int main(void)
{
  uint32_t t = simty_thread_id();
  result[t] = t + 1;
  return 0;
}
