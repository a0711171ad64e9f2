/* SPDX-License-Identifier: Apache-2.0 */
/* spin.c - board test kernel that never ends (for ABORT and time-outs):
 * every thread counts in memory forever. */
#include <simty_kernel.h>
#include <stdint.h>

int main(void)
{
  volatile uint32_t *counter = simty_args();
  for (;;)
    counter[simty_thread_id() % 16u] += 1u;
}
