/* SPDX-License-Identifier: Apache-2.0 */
/* selftest_kernel.c - the kernel of `simty selftest` (embedded in the
 * CLI): one entry, several modes chosen by the argument block. */
#include <simty_kernel.h>

#include "selftest_kernel.h"

int main(void)
{
  const struct selftest_args *a = simty_args();
  uint32_t t = simty_thread_id();
  uint32_t *out = (uint32_t *)(uintptr_t)a->out;
  switch (a->mode) {
  case SELFTEST_IDENTITY:
    out[3 * t] = t;
    out[3 * t + 1] = simty_hart_id();
    out[3 * t + 2] = simty_thread_count();
    break;
  case SELFTEST_DIVERGE:
    out[t] = selftest_diverge(t);
    break;
  case SELFTEST_CONSOLE:
    if (t < a->param) {
      simty_puts("selftest ");
      char digits[12];
      int n = 0;
      uint32_t v = t;
      do {
        digits[n++] = (char)('0' + v % 10u);
        v /= 10u;
      } while (v);
      while (n)
        simty_putchar(digits[--n]);
      simty_putchar('\n');
    }
    break;
  case SELFTEST_TRAP:
    if (t == a->param)
      simty_trap();
    break;
  case SELFTEST_SPIN:
    for (volatile uint32_t i = 0;; i++)
      ;
  default:
    break;
  }
  return 0;
}
