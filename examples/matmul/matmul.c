/* SPDX-License-Identifier: Apache-2.0 */
/* matmul.c - kernel: one element of C = A x B per thread. Thread t computes
 * C[t / n][t % n]: the lanes of a warp share a row of A (a broadcast load)
 * and read consecutive columns of B (a unit-stride load), so both loads of
 * the inner loop take one memory transaction per warp. The row element is
 * also the operand whose bits drive libgcc's __mulsi3 loop (GCC passes the
 * right-hand operand there): being the same on every lane, the loop does
 * not diverge. */
#include <simty_kernel.h>

#include "matmul.h"

int main(void)
{
  const struct matmul_args *args = simty_args();
  uint32_t n = args->n;
  uint32_t t = simty_thread_id();
  if (t >= n * n)
    return 0;
  uint32_t row = t / n, col = t % n;
  const int32_t *a = args->a + row * n;
  const int32_t *b = args->b + col;
  uint32_t sum = 0;
  for (uint32_t k = 0; k < n; k++)
    sum += (uint32_t)b[k * n] * (uint32_t)a[k];
  args->c[t] = (int32_t)sum;
  return 0;
}
