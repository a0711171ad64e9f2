/* SPDX-License-Identifier: Apache-2.0 */
/* vecadd.c - kernel: c[i] = a[i] + b[i], one element per thread. */
#include <simty_kernel.h>

#include "vecadd.h"

int main(void)
{
  const struct vecadd_args *args = simty_args();
  uint32_t i = simty_thread_id();
  if (i < args->n)
    args->c[i] = args->a[i] + args->b[i];
  return 0;
}
