/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mock_hal.h - a fake SoC for host builds of the firmware (FW_HOST): a
 * register file that behaves like docs/soc.md (the block sequencer handing
 * blocks to warps that stay busy for a number of polls, fault injection,
 * counters,
 * console FIFO, timer) plus CODE and DATA arrays, and the link engine of
 * docs/soc.md at register level: the test pushes wire bytes, the engine
 * decodes them (with the C codec, driver/link/simty_link.c) into RX slots
 * of its link buffer and reports them through LINK_RX_STATUS; a send
 * appends the CRC to a TX slot and COBS-encodes it into the wire bytes
 * the test reads; COPY moves bytes between CODE, DATA and the link
 * buffer. It records every dispatch and flags protocol violations (START
 * while the sequencer is busy or the core resets, launch registers
 * rewritten while it is busy, a busy TX slot rewritten, an RX slot read
 * that the engine owns, an unknown register).
 *
 * Time: the mock core and sequencer move one step per SEQ_STATUS read
 * (the firmware's launch check): busy warps count down, those that end
 * free, their blocks count as done, and the sequencer hands the next
 * blocks to the free warps, lowest first (after go_delay steps each: a
 * core slow to take them), then ends the launch when every block has.
 */
#ifndef MOCK_HAL_H
#define MOCK_HAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "simty_arch.h"
#include "simty_link.h"

#define MOCK_CODE_SIZE 0x4000u
#define MOCK_DATA_SIZE 0x80000u
#define MOCK_CONSOLE_DEPTH 4096u
#define MOCK_UART_SIZE (1u << 20)
#define MOCK_MAX_SLOTS 8u /* RX + TX slots the link buffer holds */
#define MOCK_QUEUE_MAX 16u

struct mock_dispatch {
  uint32_t warp, pc, base, mask;
  uint32_t nthreads, args, stack_top, stack_log2;
  uint64_t step;      /* sequencer steps before this dispatch */
  uint64_t lag;       /* steps since the warp freed */
  size_t rx_at;       /* wire bytes the link engine had taken */
  uint64_t link_at;   /* TX slot words the firmware had written */
};

struct mock {
  /* Configuration (set before fw_init). */
  uint32_t warps, lanes, clock_hz;
  uint32_t go_delay;    /* steps the core takes to take an offered block */
  uint32_t run_polls;   /* steps a block stays busy */
  uint32_t run_jitter;  /* plus a pseudo-random 0 .. jitter-1 */
  uint32_t reset_reads; /* CORE_RESET reads that show busy */
  uint32_t timer_step;  /* cycles per TIMER_LO read */
  uint32_t rx_slots, tx_slots; /* LINK_INFO (default 2 and 4) */
  uint32_t baud, hw_version, hw_build, extensions;
  uint32_t tx_delay;   /* engine steps a queued send waits before it leaves */
  uint32_t tx_stall;   /* 1 = nothing leaves the TX queue */
  uint32_t copy_delay; /* COPY_GO reads that show busy */
  long fault_at;        /* dispatch index that faults, -1 = none */
  uint32_t fault_cause, fault_pc, fault_hart, fault_tid, fault_addr;

  /* Memories. */
  uint8_t code[MOCK_CODE_SIZE];
  uint8_t data[MOCK_DATA_SIZE];
  uint8_t linkbuf[SIMTY_LINKBUF_WINDOW];

  /* Core registers. */
  uint32_t nthreads, args, stack_top, stack_log2;
  /* Block sequencer. */
  uint32_t seq_pc, seq_first;
  bool seq_launch;      /* a launch in progress */
  bool seq_done, seq_stopped;
  uint32_t seq_next, seq_left, seq_threads_done, seq_held;
  uint32_t block_threads[32]; /* threads of the block each warp holds */
  uint32_t go_left;
  uint32_t seq_starts, seq_stops;
  uint64_t done_reads;  /* SEQ_STATUS reads that showed DONE */
  uint32_t busy;
  uint32_t busy_left[32];
  uint64_t freed_step[32]; /* step at which it freed */
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
  uint64_t steps;
  uint32_t status_reads;
  uint32_t rng;

  /* Link engine. Wire bytes from the host and to it. */
  uint8_t rx[MOCK_UART_SIZE];
  size_t rx_head, rx_tail;
  uint8_t tx[MOCK_UART_SIZE];
  size_t tx_len;
  bool link_enabled;
  struct simty_link_decoder dec;
  int dec_slot;        /* RX slot being filled, -1 none yet */
  uint32_t rx_busy;    /* RX slots holding a reported frame */
  uint32_t held_n;     /* reported frames, oldest first */
  uint32_t held_slot[MOCK_MAX_SLOTS], held_kind[MOCK_MAX_SLOTS];
  uint32_t held_len[MOCK_MAX_SLOTS];
  uint32_t txq_n;      /* queued sends, oldest first */
  uint32_t txq_slot[MOCK_QUEUE_MAX], txq_len[MOCK_QUEUE_MAX];
  uint32_t txq_left;   /* steps before the oldest leaves */
  uint64_t frames_sent;
  uint32_t copy_src, copy_dst, copy_len, copy_left;
  uint64_t copies, copy_bytes;
  uint64_t mem_stores; /* controller stores to CODE/DATA (queued WRITEs) */
  uint64_t rx_payload_reads; /* RX slot words read past header + 32 bytes */
  uint64_t link_writes;      /* TX slot words written by the firmware */

  /* Dispatch log and violations. */
  struct mock_dispatch *log;
  size_t nlog, caplog;
  unsigned violations;
  char violation[200];
};

extern struct mock mock;

/* Power-on state for a core of warps x lanes; frees the old log. */
void mock_reset(uint32_t warps, uint32_t lanes);
/* Wire bytes from the host to the device's UART (the link engine takes
 * them from there). */
void mock_uart_push(const uint8_t *bytes, size_t n);
/* Address of LINKBUF byte addr in the mock, or NULL. */
uint8_t *mock_linkbuf(uint32_t addr);
/* Appends a record to the console FIFO; false if it is full. */
bool mock_console_push(uint32_t tid, uint8_t byte);

#endif /* MOCK_HAL_H */
