/* SPDX-License-Identifier: Apache-2.0 */
/* big_data.c - 128 KiB of .bss: too big for a device with 64 KiB of data
 * memory, fine on the default 1 MiB. */
#include <simty_kernel.h>

int32_t big[32768];

int main(void)
{
  uint32_t t = simty_thread_id();
  big[t * 1024u % 32768u] = (int32_t)t;
  return 0;
}
