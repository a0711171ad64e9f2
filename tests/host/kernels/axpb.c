/* SPDX-License-Identifier: Apache-2.0 */
/* axpb.c - out[i] = a * in[i] + b for i < n, one element per thread;
 * `calls` counts the launches since load (.data is set up per load). */
#include <simty_kernel.h>

struct axpb_args {
  uint32_t n;
  int32_t a, b;
  uint32_t in, out;
};

volatile int32_t calls = 100;

int main(void)
{
  const struct axpb_args *p = simty_args();
  uint32_t i = simty_thread_id();
  if (i == 0)
    calls = calls + 1;
  if (i < p->n) {
    const int32_t *in = (const int32_t *)(uintptr_t)p->in;
    int32_t *out = (int32_t *)(uintptr_t)p->out;
    out[i] = p->a * in[i] + p->b;
  }
  return 0;
}
