/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fw.h - controller firmware state: the protocol engine (fw_engine.c) and
 * the grid dispatcher (fw_dispatch.c). Both are written against hal.h
 * only, so they build for the RV32I controller and for host tests.
 *
 * The firmware is one poll loop: fw_poll() does a bounded amount of work
 * (UART in, UART out, dispatcher, console) and returns; nothing in it
 * waits on the UART, so warps keep being refilled while frames arrive.
 */
#ifndef FW_H
#define FW_H

#include <stdbool.h>
#include <stdint.h>

#include "simty_arch.h"
#include "simty_link.h"

/* Largest payload this build accepts and sends (reported by INFO). */
#ifndef FW_MAX_PAYLOAD
#define FW_MAX_PAYLOAD SIMTY_MAX_PAYLOAD
#endif
/* Console records (thread id, byte) buffered between host drains. */
#ifndef FW_CONSOLE_RECORDS
#define FW_CONSOLE_RECORDS 1024u
#endif
/* Register polls a core reset may take before the firmware gives up. */
#ifndef FW_RESET_POLLS
#define FW_RESET_POLLS 100000u
#endif
/* Bytes moved per fw_poll() in each direction, and console records. */
#define FW_UART_BURST 64u
#define FW_CONSOLE_BURST 32u
/* DISPATCH_GO reads a refill waits for the core to take a block before
 * leaving the rest to the next poll. */
#define FW_GO_POLLS 4u
/* UART bytes moved between two refill checks while a launch runs. */
#define FW_REFILL_BYTES 8u
/* Cheap refill checks per fw_poll() iteration while a launch runs. */
#define FW_REFILL_SPINS 8u

/* The release version (hw/arch/simty_arch.h), reported by INFO. */
#define FW_VERSION SIMTY_VERSION_CODE

#if FW_MAX_PAYLOAD < SIMTY_MIN_PAYLOAD || FW_MAX_PAYLOAD > SIMTY_MAX_PAYLOAD
#error "FW_MAX_PAYLOAD outside the protocol's range"
#endif

/* What the core reports about itself (INFO registers, read once). */
struct fw_core {
  uint32_t warps;
  uint32_t lanes;
  uint32_t lanes_log2;
  uint32_t code_size;
  uint32_t data_size;
  uint32_t clock_hz;
  uint32_t cycles_per_ms;
  uint32_t all_warps; /* mask of every warp */
  uint32_t lane_mask; /* mask of every lane (a full block) */
};

struct fw_launch {
  uint8_t state; /* enum simty_launch_state */
  uint8_t cause; /* enum simty_fault_cause */
  uint32_t id;
  uint32_t entry;
  uint32_t nthreads;
  uint32_t args;
  uint32_t stack_top;
  uint32_t stack_log2;
  uint64_t timeout;   /* cycles, 0 = none */
  uint64_t start;     /* TIMER at the first dispatch */
  uint64_t end;       /* TIMER when the launch ended */
  uint32_t next_base; /* next logical id to hand out */
  uint32_t inflight;  /* warps holding a block, as the firmware sees it */
  bool go_pending;    /* a dispatch the core has not yet taken */
  uint32_t go_warp;
  uint32_t disp_mask; /* DISPATCH_MASK as last written (0 = not yet) */
  uint32_t block_threads[32]; /* threads of the block each warp holds */
  uint32_t fault_pc;
  uint32_t fault_hart;
  uint32_t fault_tid;
  uint32_t fault_addr;
};

struct fw_console {
  uint32_t tid[FW_CONSOLE_RECORDS];
  uint8_t byte[FW_CONSOLE_RECORDS];
  uint32_t head; /* oldest record */
  uint32_t count;
};

struct fw {
  struct fw_core core;
  struct fw_launch launch;
  struct fw_console console;

  /* Receive side: a decoded frame is held (the UART is left alone) until
   * the response to it can be sent. */
  struct simty_link_decoder dec;
  enum simty_link_event held;
  _Alignas(4) uint8_t rx[SIMTY_FRAME_SIZE(FW_MAX_PAYLOAD)];

  /* Transmit side: tx holds the last response, which doubles as the
   * cache that answers a retransmitted request without executing it. */
  _Alignas(4) uint8_t tx[SIMTY_FRAME_SIZE(FW_MAX_PAYLOAD)];
  size_t tx_len;
  bool cache_valid;
  uint16_t cache_seq;
  uint32_t cache_crc; /* CRC field of the request that tx answers */
  uint8_t nak[SIMTY_FRAME_SIZE(SIMTY_ERROR_PAYLOAD)];
  struct simty_link_encoder enc;

  /* A WAIT waiting for its launch to end. */
  bool wait_parked;
  uint16_t wait_seq;
  uint32_t wait_crc;
  uint32_t wait_flags;
  uint64_t wait_deadline;

  /* Diagnostics. */
  uint32_t requests;   /* requests executed */
  uint32_t duplicates; /* requests answered from the cache */
  uint32_t naks;       /* corrupt frames answered with an error */
  uint32_t uart_overruns;
};

/* ---- Engine (fw_engine.c) ---- */
void fw_init(struct fw *fw);
void fw_poll(struct fw *fw);

/* ---- Dispatcher (fw_dispatch.c) ---- */
uint64_t fw_timer(void);
void fw_dispatch_init(struct fw *fw);
/* Checks and starts a launch; returns SIMTY_ST_OK or an error code, with
 * *detail set as docs/protocol.md says. */
int fw_launch_start(struct fw *fw, uint32_t entry, uint32_t nthreads,
                    uint32_t args, uint32_t data_end, uint64_t timeout,
                    uint32_t stack_log2, uint32_t *detail);
/* One bounded step: console, faults, time-out, finished warps, refills. */
void fw_dispatch_poll(struct fw *fw);
/* The hot path, called far more often than fw_dispatch_poll(): faults,
 * finished warps, refills; no console, no time-out (a few reads). */
void fw_dispatch_refill(struct fw *fw);
/* Ends a running launch with an ABORTED record. */
void fw_launch_abort(struct fw *fw);
/* RESET: halts and resets the core, forgets the launch and the console. */
int fw_core_reset(struct fw *fw);
uint64_t fw_counter(uint32_t index);
uint64_t fw_launch_elapsed(const struct fw *fw);
/* Threads of completed blocks: those handed out minus those of the
 * blocks still in flight. */
uint32_t fw_launch_done(const struct fw *fw);

/* Console stream: moves records from the core's FIFO into the buffer. */
void fw_console_poll(struct fw *fw);
uint32_t fw_console_pending(const struct fw *fw);
/* Copies up to max records (5 bytes each) to out, removing them. */
uint32_t fw_console_take(struct fw *fw, uint8_t *out, uint32_t max);
void fw_console_clear(struct fw *fw);

#endif /* FW_H */
