/* SPDX-License-Identifier: Apache-2.0 */
/*
 * stream.c - streaming core benchmark: c[i] = a[i] + (b[i] << 1) over
 * arrays larger than the thread count, grid-stride so that the lanes of a
 * warp touch consecutive words (one line transaction per warp access).
 * IPC measures how well the core overlaps memory with issue.
 */
#include <stdint.h>

#include "simty_kernel.h"

#define STREAM_WORDS 8192

uint32_t stream_a[STREAM_WORDS], stream_b[STREAM_WORDS],
    stream_c[STREAM_WORDS];
volatile uint32_t stream_words = STREAM_WORDS;

int main(void)
{
  uint32_t tid = simty_thread_id();
  uint32_t step = simty_thread_count();
  uint32_t n = stream_words;
  /* Fill this thread's elements, then stream over them. */
  for (uint32_t i = tid; i < n; i += step) {
    stream_a[i] = i;
    stream_b[i] = i ^ 0x55u;
  }
  for (uint32_t i = tid; i < n; i += step)
    stream_c[i] = stream_a[i] + (stream_b[i] << 1);
  return 0;
}
