/* SPDX-License-Identifier: Apache-2.0 */
/* saxpy.c - kernel: y[i] = a * x[i] + y[i] in 32-bit integers, one element
 * per thread. RV32I has no multiply: GCC calls libgcc's __mulsi3, a
 * shift-and-add loop whose trip count is the bit length of one operand, so
 * lanes with different x[i] leave that loop at different times. */
#include <simty_kernel.h>

#include "saxpy.h"

int main(void)
{
  const struct saxpy_args *args = simty_args();
  uint32_t i = simty_thread_id();
  if (i < args->n)
    args->y[i] = (int32_t)((uint32_t)args->a * (uint32_t)args->x[i] +
                           (uint32_t)args->y[i]);
  return 0;
}
