/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mock_hal.h - a fake SoC for host builds of the firmware (FW_HOST): a
 * register file that behaves like docs/soc.md (dispatch handshake, warps
 * that stay busy for a number of polls, fault injection, counters,
 * console FIFO, timer, UART byte queues) plus CODE and DATA arrays. It
 * records every dispatch and flags protocol violations (a block sent to
 * a busy warp, GO written while pending, an unknown register).
 */
#ifndef MOCK_HAL_H
#define MOCK_HAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "simty_arch.h"

#define MOCK_CODE_SIZE 0x4000u
#define MOCK_DATA_SIZE 0x80000u
#define MOCK_CONSOLE_DEPTH 4096u
#define MOCK_UART_SIZE (1u << 20)

struct mock_dispatch {
  uint32_t warp, pc, base, mask;
  uint32_t nthreads, args, stack_top, stack_log2;
  uint64_t busy_read; /* WARP_BUSY reads before this dispatch */
  uint64_t lag;       /* WARP_BUSY reads since the warp was seen free */
  size_t rx_at;       /* UART bytes the firmware had received */
};

struct mock {
  /* Configuration (set before fw_init). */
  uint32_t warps, lanes, clock_hz;
  uint32_t go_delay;    /* GO reads that still show pending */
  uint32_t run_polls;   /* WARP_BUSY reads a block stays busy */
  uint32_t run_jitter;  /* plus a pseudo-random 0 .. jitter-1 */
  uint32_t reset_reads; /* CORE_RESET reads that show busy */
  uint32_t timer_step;  /* cycles per TIMER_LO read */
  uint32_t tx_stall;    /* 1 = TX never ready; n > 1: every n-th read busy */
  long fault_at;        /* dispatch index that faults, -1 = none */
  uint32_t fault_cause, fault_pc, fault_hart, fault_tid, fault_addr;

  /* Memories. */
  uint8_t code[MOCK_CODE_SIZE];
  uint8_t data[MOCK_DATA_SIZE];
  uint64_t mem_writes, mem_reads;

  /* Core registers. */
  uint32_t nthreads, args, stack_top, stack_log2;
  uint32_t d_warp, d_pc, d_base, d_mask;
  bool go_valid;
  uint32_t go_left;
  uint32_t busy;
  uint32_t busy_left[32];
  uint64_t freed_read[32]; /* WARP_BUSY read that first showed it free */
  uint32_t ever_used;
  bool halt, active;
  uint32_t reset_left;
  uint32_t resets, halts, ctr_clears;
  bool fault_valid;
  uint64_t ctr[SIMTY_CTR_COUNT];
  uint32_t ctr_sel, ctr_hi;
  uint32_t con_tid[MOCK_CONSOLE_DEPTH];
  uint8_t con_byte[MOCK_CONSOLE_DEPTH];
  uint32_t con_head, con_count;
  uint64_t timer;
  uint32_t timer_hi;
  uint64_t busy_reads;
  uint32_t status_reads;
  uint32_t rng;

  /* UART: bytes for the firmware to receive, bytes it sent. */
  uint8_t rx[MOCK_UART_SIZE];
  size_t rx_head, rx_tail;
  uint8_t tx[MOCK_UART_SIZE];
  size_t tx_len;
  bool overrun;
  bool tx_ready_seen;

  /* Dispatch log and violations. */
  struct mock_dispatch *log;
  size_t nlog, caplog;
  unsigned violations;
  char violation[200];
};

extern struct mock mock;

/* Power-on state for a core of warps x lanes; frees the old log. */
void mock_reset(uint32_t warps, uint32_t lanes);
void mock_uart_push(const uint8_t *bytes, size_t n);
/* Appends a record to the console FIFO; false if it is full. */
bool mock_console_push(uint32_t tid, uint8_t byte);

#endif /* MOCK_HAL_H */
