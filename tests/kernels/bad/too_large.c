/* SPDX-License-Identifier: Apache-2.0 */
// too_large - a kernel whose data (2 MiB) exceeds the populated data
// memory (1 MiB by default) is refused at load, exit 1.
// run: default-data-size
// expect-exit: 1
// expect-stderr: data|memory|fit|large|size
// run: fits-in-larger-memory
// With 4 MiB of data memory it loads and runs.
// data-size: 4 << 20
// expect-exit: 0
// dump: result:N
// expect-all: i < N: result[i] == i + 1
#include <stdint.h>

#include "simty_kernel.h"

uint32_t big[(2 << 20) / 4];
uint32_t result[1024];

int main(void)
{
  uint32_t t = simty_thread_id();
  big[t * 1024] = t;
  result[t] = big[t * 1024] + 1;
  return 0;
}
