/* SPDX-License-Identifier: Apache-2.0 */
/* fib.c - kernel: the naive doubly recursive Fibonacci, a different n on
 * every thread.
 *
 * Lanes of a warp call and return at different times: every call raises
 * the path's depth and every return lowers it, and a path at greater depth
 * runs first. A lane that reaches its base case early waits at its return
 * for the deeper lanes to climb back to its depth, where the paths meet at
 * the same pc and depth and merge again. Every call saves registers on
 * the thread's own stack: each lane's stack is in a different memory
 * line, so those accesses replay once per lane. */
#include <simty_kernel.h>

#include "fib.h"

/* The two calls must stay real calls: noipa keeps GCC from specialising
 * the function, and without sibling-call optimisation it does not turn the
 * second call into a loop (tail recursion with an accumulator). */
__attribute__((noipa, optimize("no-optimize-sibling-calls"))) static uint32_t
fib(uint32_t n, uint32_t *calls)
{
  ++*calls;
  if (n < 2)
    return n;
  uint32_t a = fib(n - 1, calls);
  uint32_t b = fib(n - 2, calls);
  return a + b;
}

int main(void)
{
  const struct fib_args *args = simty_args();
  uint32_t t = simty_thread_id();
  if (t >= args->count)
    return 0;
  uint32_t calls = 0;
  args->value[t] = fib(args->n[t], &calls);
  args->calls[t] = calls;
  return 0;
}
