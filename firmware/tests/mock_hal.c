/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mock_hal.c - the fake SoC behind hal.h for host tests and benchmarks.
 */
#include "mock_hal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hal.h"
#include "simty_mmio.h"

struct mock mock;

static void violate(const char *what, uint32_t value)
{
  mock.violations++;
  if (mock.violations == 1)
    snprintf(mock.violation, sizeof mock.violation, "%s (0x%x)", what,
             (unsigned)value);
}

void mock_reset(uint32_t warps, uint32_t lanes)
{
  free(mock.log);
  memset(&mock, 0, sizeof mock);
  mock.warps = warps;
  mock.lanes = lanes;
  mock.clock_hz = 1000000u;
  mock.run_polls = 3;
  mock.reset_reads = 2;
  mock.timer_step = 10;
  mock.fault_at = -1;
  mock.rng = 12345u;
}

void mock_uart_push(const uint8_t *bytes, size_t n)
{
  if (mock.rx_tail + n > MOCK_UART_SIZE) {
    /* Compact the consumed part away. */
    memmove(mock.rx, mock.rx + mock.rx_head, mock.rx_tail - mock.rx_head);
    mock.rx_tail -= mock.rx_head;
    mock.rx_head = 0;
  }
  if (mock.rx_tail + n > MOCK_UART_SIZE) {
    fprintf(stderr, "mock: UART rx queue full\n");
    abort();
  }
  memcpy(mock.rx + mock.rx_tail, bytes, n);
  mock.rx_tail += n;
}

bool mock_console_push(uint32_t tid, uint8_t byte)
{
  if (mock.con_count == MOCK_CONSOLE_DEPTH)
    return false;
  uint32_t slot = (mock.con_head + mock.con_count) % MOCK_CONSOLE_DEPTH;
  mock.con_tid[slot] = tid;
  mock.con_byte[slot] = byte;
  mock.con_count++;
  return true;
}

static uint32_t next_rand(void)
{
  mock.rng = mock.rng * 1103515245u + 12345u;
  return mock.rng >> 16;
}

static unsigned popcount(uint32_t v)
{
  unsigned n = 0;
  for (; v; v &= v - 1)
    n++;
  return n;
}

/* The core takes the pending block: the warp turns busy in that cycle. */
static void accept_dispatch(void)
{
  uint32_t w = mock.d_warp;
  if (w >= mock.warps) {
    violate("dispatch to a warp that does not exist", w);
    mock.go_valid = false;
    return;
  }
  if (mock.busy & (1u << w))
    violate("dispatch to a busy warp", w);
  uint32_t all = mock.lanes == 32 ? 0xFFFFFFFFu : (1u << mock.lanes) - 1u;
  if (mock.d_mask == 0 || (mock.d_mask & ~all))
    violate("dispatch mask outside the warp", mock.d_mask);
  if (mock.nlog == mock.caplog) {
    mock.caplog = mock.caplog ? 2 * mock.caplog : 1024;
    mock.log = realloc(mock.log, mock.caplog * sizeof *mock.log);
    if (!mock.log)
      abort();
  }
  mock.log[mock.nlog++] = (struct mock_dispatch){
      w,
      mock.d_pc,
      mock.d_base,
      mock.d_mask,
      mock.nthreads,
      mock.args,
      mock.stack_top,
      mock.stack_log2,
      mock.busy_reads,
      (mock.ever_used & (1u << w)) ? mock.busy_reads - mock.freed_read[w] : 0,
      mock.rx_head};
  mock.ever_used |= 1u << w;
  mock.busy |= 1u << w;
  mock.busy_left[w] =
      mock.run_polls + (mock.run_jitter ? next_rand() % mock.run_jitter : 0);
  mock.go_valid = false;
  mock.ctr[SIMTY_CTR_warp_insts] += 1;
  mock.ctr[SIMTY_CTR_thread_insts] += popcount(mock.d_mask);
  if (mock.fault_at >= 0 && (size_t)mock.fault_at + 1 == mock.nlog) {
    mock.fault_valid = true; /* the core stops itself on a fault */
  }
}

uint32_t hal_reg_read(uint32_t off)
{
  switch (off) {
  case SIMTY_MMIO_ID:
    return SIMTY_MMIO_ID_VALUE;
  case SIMTY_MMIO_WARPS:
    return mock.warps;
  case SIMTY_MMIO_LANES:
    return mock.lanes;
  case SIMTY_MMIO_CODE_SIZE:
    return MOCK_CODE_SIZE;
  case SIMTY_MMIO_DATA_SIZE:
    return MOCK_DATA_SIZE;
  case SIMTY_MMIO_CLOCK_HZ:
    return mock.clock_hz;
  case SIMTY_MMIO_CORE_RESET:
    if (mock.reset_left) {
      mock.reset_left--;
      return 1;
    }
    return 0;
  case SIMTY_MMIO_HALT:
    return mock.halt;
  case SIMTY_MMIO_ACTIVE:
    return mock.active;
  case SIMTY_MMIO_DISPATCH_GO:
    if (mock.go_valid) {
      if (mock.go_left) {
        mock.go_left--;
        return 1;
      }
      if (!mock.halt && !mock.fault_valid)
        accept_dispatch();
    }
    return mock.go_valid;
  case SIMTY_MMIO_WARP_BUSY:
    mock.busy_reads++;
    if (!mock.halt && !mock.fault_valid && mock.reset_left == 0) {
      for (uint32_t w = 0; w < mock.warps; w++) {
        if ((mock.busy & (1u << w)) && mock.busy_left[w]-- == 0) {
          mock.busy &= ~(1u << w);
          mock.freed_read[w] = mock.busy_reads;
        }
      }
    }
    return mock.busy;
  case SIMTY_MMIO_FAULT_VALID:
    return mock.fault_valid;
  case SIMTY_MMIO_FAULT_CAUSE:
    return mock.fault_valid ? mock.fault_cause : 0;
  case SIMTY_MMIO_FAULT_PC:
    return mock.fault_valid ? mock.fault_pc : 0;
  case SIMTY_MMIO_FAULT_HART:
    return mock.fault_valid ? mock.fault_hart : 0;
  case SIMTY_MMIO_FAULT_TID:
    return mock.fault_valid ? mock.fault_tid : 0;
  case SIMTY_MMIO_FAULT_ADDR:
    return mock.fault_valid ? mock.fault_addr : 0;
  case SIMTY_MMIO_CTR_SEL:
    return mock.ctr_sel;
  case SIMTY_MMIO_CTR_LO:
    if (mock.ctr_sel >= SIMTY_CTR_COUNT)
      return mock.ctr_hi = 0;
    mock.ctr_hi = (uint32_t)(mock.ctr[mock.ctr_sel] >> 32);
    return (uint32_t)mock.ctr[mock.ctr_sel];
  case SIMTY_MMIO_CTR_HI:
    return mock.ctr_hi;
  case SIMTY_MMIO_CONSOLE_STATUS:
    return mock.con_count;
  case SIMTY_MMIO_CONSOLE_TID:
    return mock.con_count ? mock.con_tid[mock.con_head] : 0;
  case SIMTY_MMIO_CONSOLE_DATA: {
    if (mock.con_count == 0) {
      violate("console read while empty", 0);
      return 0;
    }
    uint8_t b = mock.con_byte[mock.con_head];
    mock.con_head = (mock.con_head + 1) % MOCK_CONSOLE_DEPTH;
    mock.con_count--;
    return b;
  }
  case SIMTY_MMIO_TIMER_LO:
    mock.timer += mock.timer_step;
    if (mock.active)
      mock.ctr[SIMTY_CTR_cycles] += mock.timer_step;
    mock.timer_hi = (uint32_t)(mock.timer >> 32);
    return (uint32_t)mock.timer;
  case SIMTY_MMIO_TIMER_HI:
    return mock.timer_hi;
  case SIMTY_MMIO_UART_DATA:
    if (mock.rx_head == mock.rx_tail) {
      violate("UART read while empty", 0);
      return 0;
    }
    return mock.rx[mock.rx_head++];
  case SIMTY_MMIO_UART_STATUS: {
    uint32_t s = 0;
    mock.status_reads++;
    if (mock.rx_head != mock.rx_tail)
      s |= SIMTY_UART_RX_VALID;
    if (mock.tx_stall != 1 &&
        (mock.tx_stall == 0 || mock.status_reads % mock.tx_stall != 0))
      s |= SIMTY_UART_TX_READY;
    mock.tx_ready_seen = (s & SIMTY_UART_TX_READY) != 0;
    if (mock.overrun)
      s |= SIMTY_UART_RX_OVERRUN;
    return s;
  }
  default:
    violate("read of an unknown register", off);
    return 0;
  }
}

void hal_reg_write(uint32_t off, uint32_t v)
{
  switch (off) {
  case SIMTY_MMIO_CORE_RESET:
    if (v & 1u) {
      mock.resets++;
      mock.reset_left = mock.reset_reads;
      mock.busy = 0;
      mock.ever_used = 0;
      mock.go_valid = false;
      mock.fault_valid = false;
      mock.con_head = mock.con_count = 0;
    }
    return;
  case SIMTY_MMIO_HALT:
    if ((v & 1u) && !mock.halt)
      mock.halts++;
    mock.halt = v & 1u;
    return;
  case SIMTY_MMIO_ACTIVE:
    mock.active = v & 1u;
    return;
  case SIMTY_MMIO_LAUNCH_NTHREADS:
    mock.nthreads = v;
    return;
  case SIMTY_MMIO_LAUNCH_ARGS:
    mock.args = v;
    return;
  case SIMTY_MMIO_LAUNCH_STACK_TOP:
    mock.stack_top = v;
    return;
  case SIMTY_MMIO_LAUNCH_STACK_LOG2:
    mock.stack_log2 = v;
    return;
  case SIMTY_MMIO_DISPATCH_WARP:
    mock.d_warp = v;
    return;
  case SIMTY_MMIO_DISPATCH_PC:
    mock.d_pc = v;
    return;
  case SIMTY_MMIO_DISPATCH_BASE:
    mock.d_base = v;
    return;
  case SIMTY_MMIO_DISPATCH_MASK:
    mock.d_mask = v;
    return;
  case SIMTY_MMIO_DISPATCH_GO:
    if (mock.go_valid)
      violate("GO written while a dispatch is pending", mock.d_warp);
    if (mock.reset_left)
      violate("GO written during a core reset", mock.d_warp);
    mock.go_valid = true;
    mock.go_left = mock.go_delay;
    return;
  case SIMTY_MMIO_CTR_SEL:
    mock.ctr_sel = v;
    return;
  case SIMTY_MMIO_CTR_CLEAR:
    mock.ctr_clears++;
    memset(mock.ctr, 0, sizeof mock.ctr);
    return;
  case SIMTY_MMIO_UART_DATA:
    if (mock.tx_len == MOCK_UART_SIZE) {
      fprintf(stderr, "mock: UART tx capture full\n");
      abort();
    }
    /* Writing without having seen TX_READY would lose the byte. */
    if (!mock.tx_ready_seen)
      violate("UART write without TX_READY", v);
    mock.tx_ready_seen = false;
    mock.tx[mock.tx_len++] = (uint8_t)v;
    return;
  case SIMTY_MMIO_UART_STATUS:
    if (v & SIMTY_UART_RX_OVERRUN)
      mock.overrun = false;
    return;
  default:
    violate("write of an unknown register", off);
    return;
  }
}

static uint8_t *mem_at(uint32_t addr, uint32_t n)
{
  if (addr >= SIMTY_CODE_BASE &&
      addr - SIMTY_CODE_BASE + (uint64_t)n <= MOCK_CODE_SIZE)
    return mock.code + (addr - SIMTY_CODE_BASE);
  if (addr >= SIMTY_DATA_BASE &&
      addr - SIMTY_DATA_BASE + (uint64_t)n <= MOCK_DATA_SIZE)
    return mock.data + (addr - SIMTY_DATA_BASE);
  violate("memory access outside CODE/DATA", addr);
  return NULL;
}

void hal_mem_write(uint32_t addr, const uint8_t *src, uint32_t n)
{
  uint8_t *p = mem_at(addr, n);
  mock.mem_writes++;
  if (p)
    memcpy(p, src, n);
}

void hal_mem_read(uint32_t addr, uint8_t *dst, uint32_t n)
{
  const uint8_t *p = mem_at(addr, n);
  mock.mem_reads++;
  if (p)
    memcpy(dst, p, n);
  else
    memset(dst, 0, n);
}
