/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fw_dispatch.c - the launch path: checks and starts a launch of any
 * thread count on the block sequencer (docs/soc.md: the hardware hands
 * each free warp the next block of LANES consecutive logical ids), and
 * watches its end, faults, the time-out, aborts and the console FIFO.
 * Every entry point does a bounded amount of work.
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

int fw_launch_check(const struct fw *fw, uint32_t entry, uint32_t nthreads,
                    uint32_t data_end, uint32_t stack_log2, uint32_t *detail)
{
  const struct fw_core *c = &fw->core;

  *detail = 0;
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
  return SIMTY_ST_OK;
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
  int st = fw_launch_check(fw, entry, nthreads, data_end, stack_log2, detail);
  if (st != SIMTY_ST_OK)
    return st;
  uint32_t stack_top = SIMTY_DATA_BASE + c->data_size;

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
  hal_reg_write(SIMTY_MMIO_SEQ_PC, entry);
  hal_reg_write(SIMTY_MMIO_SEQ_FIRST, 0);
  hal_reg_write(SIMTY_MMIO_CTR_CLEAR, 1);
  l->start = fw_timer();
  /* START opens the launch window (ACTIVE) and the sequencer hands out
   * the first blocks two cycles later; it closes the window itself when
   * the last block ends. */
  hal_reg_write(SIMTY_MMIO_SEQ_CTRL, SIMTY_SEQ_START);
  return SIMTY_ST_OK;
}

/* The sequencer's counters, threads done first: done <= next_base. */
static void read_counts(struct fw_launch *l)
{
  l->done = hal_reg_read(SIMTY_MMIO_SEQ_DONE);
  l->next_base = hal_reg_read(SIMTY_MMIO_SEQ_NEXT);
}

/* Ends the launch; the core stays halted until the next LAUNCH or RESET
 * so that nothing runs after a fault and memory keeps what it holds. */
static void finish(struct fw *fw, uint8_t state, uint8_t cause)
{
  struct fw_launch *l = &fw->launch;
  if (state == SIMTY_STATE_FAULT) {
    /* No further block, no further instruction. */
    hal_reg_write(SIMTY_MMIO_SEQ_CTRL, SIMTY_SEQ_STOP);
    hal_reg_write(SIMTY_MMIO_HALT, 1);
    hal_reg_write(SIMTY_MMIO_ACTIVE, 0);
  }
  /* A launch that ended has its window closed by the sequencer. */
  read_counts(l);
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

/* Ends the launch on the core's fault record. */
static void take_fault(struct fw *fw)
{
  struct fw_launch *l = &fw->launch;
  l->fault_pc = hal_reg_read(SIMTY_MMIO_FAULT_PC);
  l->fault_hart = hal_reg_read(SIMTY_MMIO_FAULT_HART);
  l->fault_tid = hal_reg_read(SIMTY_MMIO_FAULT_TID);
  l->fault_addr = hal_reg_read(SIMTY_MMIO_FAULT_ADDR);
  finish(fw, SIMTY_STATE_FAULT, (uint8_t)hal_reg_read(SIMTY_MMIO_FAULT_CAUSE));
}

/* One read of SEQ_STATUS: ends the launch on a fault or when the
 * sequencer says every block has run; true if the launch ended. A fault
 * wins over DONE (the core stops on its own at a fault, so a launch
 * whose last block faulted never shows DONE without FAULT). */
static bool check_end(struct fw *fw)
{
  uint32_t st = hal_reg_read(SIMTY_MMIO_SEQ_STATUS);
  if (st & SIMTY_SEQ_FAULT) {
    take_fault(fw);
    return true;
  }
  if (st & SIMTY_SEQ_DONE) {
    finish(fw, SIMTY_STATE_DONE, SIMTY_FAULT_NONE);
    return true;
  }
  return false;
}

uint32_t fw_launch_done(const struct fw *fw)
{
  return fw->launch.done;
}

void fw_dispatch_poll(struct fw *fw)
{
  struct fw_launch *l = &fw->launch;

  fw_console_poll(fw);
  if (l->state != SIMTY_STATE_RUNNING)
    return;
  if (check_end(fw))
    return;
  if (l->timeout != 0 && fw_timer() - l->start >= l->timeout) {
    synthetic_fault(fw, SIMTY_FAULT_TIMEOUT);
    return;
  }
  read_counts(l);
}

void fw_dispatch_refill(struct fw *fw)
{
  if (fw->launch.state != SIMTY_STATE_RUNNING)
    return;
  check_end(fw);
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
