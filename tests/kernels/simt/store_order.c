/* SPDX-License-Identifier: Apache-2.0 */
// store_order - lanes of one warp store to the same word and to the same
// bytes in one transaction: stores apply in lane order, so the highest
// served lane's byte remains (docs/architecture.md, section 3, rule 4).
// dump: word:N
// dump: bytes:N
// dump: halves:N
// expect-all: b < BLOCKS: word[b * L] == active(b) - 1
// expect-all: b < BLOCKS: bytes[b * L] == sum(
//     max([l for l in range(active(b)) if l % 4 == k] + [0]) << (8 * k) for k in range(4))
// expect-all: b < BLOCKS: halves[b * L] == sum(
//     max([l + 0x100 for l in range(active(b)) if l % 2 == k] + [0]) << (16 * k) for k in range(2))
// expect: mem_transactions == 3 * BLOCKS and replays_mem == 0
// expect: mem_requests == 3 * N
// run: one-wave
// run: waves
// threads: min(2 * W * L + 3, 1024 - L)
#include "simt.h"

volatile uint32_t word[MAX_THREADS] __attribute__((aligned(256)));
volatile uint32_t bytes[MAX_THREADS] __attribute__((aligned(256)));
volatile uint32_t halves[MAX_THREADS] __attribute__((aligned(256)));

int main(void)
{
  uint32_t t = simty_thread_id();
  uint32_t lane = t & (simty_lane_count() - 1u);
  uint32_t base = t - lane;
  word[base] = lane;
  ((volatile uint8_t *)&bytes[base])[lane & 3u] = (uint8_t)lane;
  ((volatile uint16_t *)&halves[base])[lane & 1u] = (uint16_t)(lane + 0x100);
  return 0;
}
