/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fw_dispatch.c - the grid dispatcher: runs a launch of any thread count
 * in waves over the hardware warps, handing each free warp the next block
 * of LANES consecutive logical ids, and watches faults, the time-out and
 * the console FIFO. Every entry point does a bounded amount of work.
 */
#include "fw.h"

#include "fw_string.h"
#include "hal.h"
#include "simty_mmio.h"

uint64_t fw_timer(void)
{
  uint32_t lo = hal_reg_read(SIMTY_MMIO_TIMER_LO); /* latches HI */
  uint32_t hi = hal_reg_read(SIMTY_MMIO_TIMER_HI);
  return ((uint64_t)hi << 32) | lo;
}

uint64_t fw_counter(uint32_t index)
{
  hal_reg_write(SIMTY_MMIO_CTR_SEL, index);
  /* latches HI; the SoC holds this load until the core's registered
     counter port has the selected counter (bounded: docs/soc.md) */
  uint32_t lo = hal_reg_read(SIMTY_MMIO_CTR_LO);
  uint32_t hi = hal_reg_read(SIMTY_MMIO_CTR_HI);
  return ((uint64_t)hi << 32) | lo;
}

static uint32_t log2_u32(uint32_t v)
{
  uint32_t l = 0;
  while (v > 1u) {
    v >>= 1;
    l++;
  }
  return l;
}

void fw_dispatch_init(struct fw *fw)
{
  struct fw_core *c = &fw->core;
  c->warps = hal_reg_read(SIMTY_MMIO_WARPS);
  c->lanes = hal_reg_read(SIMTY_MMIO_LANES);
  /* The register view has 32-bit masks: clamp what a broken core says
   * rather than dispatch past them. */
  if (c->warps < 1u || c->warps > 32u)
    c->warps = c->warps < 1u ? 1u : 32u;
  if (c->lanes < 1u || c->lanes > 32u)
    c->lanes = c->lanes < 1u ? 1u : 32u;
  c->lanes_log2 = log2_u32(c->lanes);
  c->all_warps = c->warps == 32u ? 0xFFFFFFFFu : (1u << c->warps) - 1u;
  c->lane_mask = c->lanes == 32u ? 0xFFFFFFFFu : (1u << c->lanes) - 1u;
  c->code_size = hal_reg_read(SIMTY_MMIO_CODE_SIZE);
  c->data_size = hal_reg_read(SIMTY_MMIO_DATA_SIZE);
  if (c->code_size > SIMTY_CODE_WINDOW)
    c->code_size = SIMTY_CODE_WINDOW;
  if (c->data_size > SIMTY_DATA_WINDOW)
    c->data_size = SIMTY_DATA_WINDOW;
  c->clock_hz = hal_reg_read(SIMTY_MMIO_CLOCK_HZ);
  c->cycles_per_ms = c->clock_hz / 1000u;
  if (c->cycles_per_ms == 0)
    c->cycles_per_ms = 1;
  memset(&fw->launch, 0, sizeof fw->launch);
  fw->launch.state = SIMTY_STATE_IDLE;
  fw_console_clear(fw);
}

/* Resets the core and waits (bounded) for the reset to finish. Memory
 * and counters survive; warps, paths, fault record and console FIFO
 * do not. */
static int reset_core(void)
{
  hal_reg_write(SIMTY_MMIO_ACTIVE, 0);
  hal_reg_write(SIMTY_MMIO_CORE_RESET, 1);
  for (uint32_t i = 0; i < FW_RESET_POLLS; i++) {
    if ((hal_reg_read(SIMTY_MMIO_CORE_RESET) & 1u) == 0) {
      hal_reg_write(SIMTY_MMIO_HALT, 0);
      return SIMTY_ST_OK;
    }
  }
  return SIMTY_ST_INTERNAL;
}

int fw_launch_start(struct fw *fw, uint32_t entry, uint32_t nthreads,
                    uint32_t args, uint32_t data_end, uint64_t timeout,
                    uint32_t stack_log2, uint32_t *detail)
{
  const struct fw_core *c = &fw->core;
  struct fw_launch *l = &fw->launch;

  *detail = 0;
  if (l->state == SIMTY_STATE_RUNNING)
    return SIMTY_ST_BUSY;
  if ((entry & 3u) != 0 || entry < SIMTY_CODE_BASE ||
      entry - SIMTY_CODE_BASE >= c->code_size) {
    *detail = SIMTY_LAUNCH_ENTRY;
    return SIMTY_ST_BAD_ARGUMENT;
  }
  if (nthreads == 0 || nthreads > SIMTY_MAX_THREADS) {
    *detail = SIMTY_LAUNCH_NTHREADS;
    return SIMTY_ST_BAD_ARGUMENT;
  }
  if (data_end < SIMTY_DATA_BASE || data_end - SIMTY_DATA_BASE > c->data_size) {
    *detail = SIMTY_LAUNCH_DATA_END;
    return SIMTY_ST_BAD_ARGUMENT;
  }
  if (stack_log2 < SIMTY_STACK_LOG2_MIN || stack_log2 > SIMTY_STACK_LOG2_MAX) {
    *detail = SIMTY_LAUNCH_STACK_LOG2;
    return SIMTY_ST_BAD_ARGUMENT;
  }
  /* docs/architecture.md section 4: every hardware thread's stack sits
   * between _end and the top of DATA. */
  uint32_t stack_top = SIMTY_DATA_BASE + c->data_size;
  uint64_t stacks = (uint64_t)(c->warps * c->lanes) << stack_log2;
  if (stacks > (uint64_t)(stack_top - data_end)) {
    *detail = (uint32_t)((uint64_t)stack_top - stacks); /* lowest stack */
    return SIMTY_ST_STACK_OVERLAP;
  }

  /* Start clean whatever the last launch left: a fault, an abort or a
   * time-out leaves the core halted with warps busy. */
  if (reset_core() != SIMTY_ST_OK)
    return SIMTY_ST_INTERNAL;
  fw_console_clear(fw);

  uint32_t id = l->id + 1u;
  memset(l, 0, sizeof *l);
  l->id = id;
  l->entry = entry;
  l->nthreads = nthreads;
  l->args = args;
  l->stack_top = stack_top;
  l->stack_log2 = stack_log2;
  l->timeout = timeout;
  l->state = SIMTY_STATE_RUNNING;

  hal_reg_write(SIMTY_MMIO_LAUNCH_NTHREADS, nthreads);
  hal_reg_write(SIMTY_MMIO_LAUNCH_ARGS, args);
  hal_reg_write(SIMTY_MMIO_LAUNCH_STACK_TOP, stack_top);
  hal_reg_write(SIMTY_MMIO_LAUNCH_STACK_LOG2, stack_log2);
  /* Every block of a launch starts at the entry: the register keeps it. */
  hal_reg_write(SIMTY_MMIO_DISPATCH_PC, entry);
  hal_reg_write(SIMTY_MMIO_CTR_CLEAR, 1);
  hal_reg_write(SIMTY_MMIO_ACTIVE, 1);
  l->start = fw_timer();
  fw_dispatch_poll(fw);
  return SIMTY_ST_OK;
}

/* Ends the launch; the core stays halted until the next LAUNCH or RESET
 * so that nothing runs after a fault and memory keeps what it holds. */
static void finish(struct fw *fw, uint8_t state, uint8_t cause)
{
  struct fw_launch *l = &fw->launch;
  if (state == SIMTY_STATE_FAULT)
    hal_reg_write(SIMTY_MMIO_HALT, 1);
  hal_reg_write(SIMTY_MMIO_ACTIVE, 0);
  l->end = fw_timer();
  l->state = state;
  l->cause = cause;
}

static void synthetic_fault(struct fw *fw, uint8_t cause)
{
  struct fw_launch *l = &fw->launch;
  l->fault_pc = 0;
  l->fault_hart = SIMTY_NO_THREAD;
  l->fault_tid = SIMTY_NO_THREAD;
  l->fault_addr = 0;
  finish(fw, SIMTY_STATE_FAULT, cause);
}

void fw_launch_abort(struct fw *fw)
{
  if (fw->launch.state == SIMTY_STATE_RUNNING)
    synthetic_fault(fw, SIMTY_FAULT_ABORTED);
}

int fw_core_reset(struct fw *fw)
{
  hal_reg_write(SIMTY_MMIO_HALT, 1);
  int st = reset_core();
  uint32_t id = fw->launch.id;
  memset(&fw->launch, 0, sizeof fw->launch);
  fw->launch.id = id;
  fw->launch.state = SIMTY_STATE_IDLE;
  hal_reg_write(SIMTY_MMIO_CTR_CLEAR, 1);
  fw_console_clear(fw);
  return st;
}

uint64_t fw_launch_elapsed(const struct fw *fw)
{
  const struct fw_launch *l = &fw->launch;
  if (l->state == SIMTY_STATE_IDLE)
    return 0;
  uint64_t end = l->state == SIMTY_STATE_RUNNING ? fw_timer() : l->end;
  return end - l->start;
}

/* Ends the launch on the core's fault record; true if there was one. */
static bool check_fault(struct fw *fw)
{
  struct fw_launch *l = &fw->launch;
  if ((hal_reg_read(SIMTY_MMIO_FAULT_VALID) & 1u) == 0)
    return false;
  l->fault_pc = hal_reg_read(SIMTY_MMIO_FAULT_PC);
  l->fault_hart = hal_reg_read(SIMTY_MMIO_FAULT_HART);
  l->fault_tid = hal_reg_read(SIMTY_MMIO_FAULT_TID);
  l->fault_addr = hal_reg_read(SIMTY_MMIO_FAULT_ADDR);
  finish(fw, SIMTY_STATE_FAULT, (uint8_t)hal_reg_read(SIMTY_MMIO_FAULT_CAUSE));
  return true;
}

/* True once the core has taken the block just given (bounded wait); if
 * not, the dispatcher stops and a later poll goes on: GO is never written
 * while it reads 1. */
static bool go_taken(void)
{
  for (uint32_t i = 0; i < FW_GO_POLLS; i++) {
    if ((hal_reg_read(SIMTY_MMIO_DISPATCH_GO) & 1u) == 0)
      return true;
  }
  return false;
}

/* Hands every free warp, lowest index first, the next block of up to
 * LANES consecutive logical ids, and ends the launch after the last one.
 * A warp that finished and one never used are alike here: a refilled
 * warp stays in flight, the others leave it. The controller takes 3-5
 * cycles an instruction and a warp waits for this path between two
 * blocks, so it does the least it can: launch state in locals (the
 * register accesses are volatile), DISPATCH_PC written once per launch
 * (the register keeps it), DISPATCH_MASK only when it changes (the
 * partial last block), threads done counted when asked
 * (fw_launch_done()). */
static void collect_and_refill(struct fw *fw)
{
  struct fw_launch *l = &fw->launch;
  const struct fw_core *c = &fw->core;
  const uint32_t end = l->nthreads;
  uint32_t next = l->next_base;
  uint32_t inflight = l->inflight;
  uint32_t disp_mask = l->disp_mask;
  bool pending = l->go_pending;

  /* GO before WARP_BUSY: the core sets a warp's busy bit in the cycle it
   * takes the block, so once GO reads 0 the busy bit tells the truth. */
  if (pending && (hal_reg_read(SIMTY_MMIO_DISPATCH_GO) & 1u) == 0)
    pending = false;
  uint32_t free_warps = c->all_warps & ~hal_reg_read(SIMTY_MMIO_WARP_BUSY);
  if (pending)
    free_warps &= ~(1u << l->go_warp);

  for (uint32_t w = 0; free_warps != 0; w++, free_warps >>= 1) {
    if ((free_warps & 1u) == 0)
      continue;
    if (pending || next >= end) {
      inflight &= ~(free_warps << w); /* this warp and every free one above */
      break;
    }
    uint32_t n = c->lanes;
    uint32_t mask = c->lane_mask;
    if (end - next < n) {
      n = end - next; /* < lanes <= 32 */
      mask = (1u << n) - 1u;
    }
    hal_reg_write(SIMTY_MMIO_DISPATCH_WARP, w);
    hal_reg_write(SIMTY_MMIO_DISPATCH_BASE, next);
    if (mask != disp_mask) {
      hal_reg_write(SIMTY_MMIO_DISPATCH_MASK, mask);
      disp_mask = mask;
    }
    hal_reg_write(SIMTY_MMIO_DISPATCH_GO, 1);
    l->block_threads[w] = n;
    inflight |= 1u << w;
    next += n;
    if (!go_taken()) {
      pending = true;
      l->go_warp = w;
    }
  }

  l->next_base = next;
  l->inflight = inflight;
  l->disp_mask = disp_mask;
  l->go_pending = pending;
  if (next >= end && inflight == 0 && !pending)
    finish(fw, SIMTY_STATE_DONE, SIMTY_FAULT_NONE);
}

uint32_t fw_launch_done(const struct fw *fw)
{
  const struct fw_launch *l = &fw->launch;
  uint32_t held = 0;
  for (uint32_t w = 0; w < fw->core.warps; w++)
    if (l->inflight & (1u << w))
      held += l->block_threads[w];
  return l->next_base - held;
}

void fw_dispatch_poll(struct fw *fw)
{
  struct fw_launch *l = &fw->launch;

  fw_console_poll(fw);
  if (l->state != SIMTY_STATE_RUNNING)
    return;
  if (check_fault(fw))
    return;
  if (l->timeout != 0 && fw_timer() - l->start >= l->timeout) {
    synthetic_fault(fw, SIMTY_FAULT_TIMEOUT);
    return;
  }
  collect_and_refill(fw);
}

void fw_dispatch_refill(struct fw *fw)
{
  if (fw->launch.state != SIMTY_STATE_RUNNING)
    return;
  if (check_fault(fw))
    return;
  collect_and_refill(fw);
}

/* ---- Console stream ---- */

void fw_console_clear(struct fw *fw)
{
  fw->console.head = 0;
  fw->console.count = 0;
}

void fw_console_poll(struct fw *fw)
{
  struct fw_console *k = &fw->console;
  for (uint32_t i = 0; i < FW_CONSOLE_BURST; i++) {
    /* A full buffer stalls the core's FIFO and then the printing threads:
     * the host drains it, nothing is lost. */
    if (k->count == FW_CONSOLE_RECORDS)
      return;
    if ((hal_reg_read(SIMTY_MMIO_CONSOLE_STATUS) & 0xFFFFu) == 0)
      return;
    uint32_t slot = (k->head + k->count) % FW_CONSOLE_RECORDS;
    k->tid[slot] = hal_reg_read(SIMTY_MMIO_CONSOLE_TID);
    k->byte[slot] = (uint8_t)hal_reg_read(SIMTY_MMIO_CONSOLE_DATA);
    k->count++;
  }
}

uint32_t fw_console_pending(const struct fw *fw)
{
  return fw->console.count +
         (hal_reg_read(SIMTY_MMIO_CONSOLE_STATUS) & 0xFFFFu);
}

uint32_t fw_console_take(struct fw *fw, uint8_t *out, uint32_t max)
{
  struct fw_console *k = &fw->console;
  uint32_t n = 0;
  while (n < max && k->count > 0) {
    simty_put_u32(out, k->tid[k->head]);
    out[4] = k->byte[k->head];
    out += SIMTY_CS_RECORD_SIZE;
    k->head = (k->head + 1u) % FW_CONSOLE_RECORDS;
    k->count--;
    n++;
    /* Refill from the core as we go so one response carries as much as
     * fits, not just what the buffer held. */
    if (k->count == 0)
      fw_console_poll(fw);
  }
  return n;
}
