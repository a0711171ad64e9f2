/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fw.h - controller firmware state: the protocol engine (fw_engine.c) and
 * the grid dispatcher (fw_dispatch.c). Both are written against hal.h
 * only, so they build for the RV32I controller and for host tests.
 *
 * The firmware is one poll loop: fw_poll() does a bounded amount of work
 * (dispatcher, console, at most one frame from the link engine) and
 * returns; nothing in it waits on the link, so warps keep being refilled
 * while frames arrive and leave. The link engine (docs/soc.md) does the
 * COBS framing, the CRC and the copies between the link buffer and
 * CODE/DATA: the firmware reads request headers and small payloads, and
 * writes response headers and small payloads, a word at a time.
 */
#ifndef FW_H
#define FW_H

#include <stdbool.h>
#include <stdint.h>

#include "simty_arch.h"
#include "simty_link.h" /* field access and protocol numbers only */

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
/* Most requests the host may have outstanding (INFO's window): the
 * engine's TX slots, at most this many. */
#ifndef FW_MAX_WINDOW
#define FW_MAX_WINDOW SIMTY_MAX_WINDOW
#endif
/* Operations (WRITE, LAUNCH) the work queue holds (INFO's queue_depth). */
#ifndef FW_QUEUE_DEPTH
#define FW_QUEUE_DEPTH 16u
#endif
/* Bytes of WRITE data the queue keeps for WRITEs accepted while the device
 * is busy (INFO's stage_bytes; a multiple of 4). */
#ifndef FW_STAGE_BYTES
#define FW_STAGE_BYTES FW_MAX_PAYLOAD
#endif
/* Console records moved from the core's FIFO per fw_poll(). */
#define FW_CONSOLE_BURST 32u
/* Console records written to a TX slot between two refill checks while a
 * response is built (a multiple of 4: chunks stay word-aligned). */
#define FW_CONSOLE_CHUNK 64u
/* Cheap launch checks (fw_dispatch_refill()) per fw_poll() iteration
 * while a launch runs. */
#define FW_REFILL_SPINS 8u

/* The release version (hw/arch/simty_arch.h), reported by INFO. */
#define FW_VERSION SIMTY_VERSION_CODE

#if FW_MAX_PAYLOAD < SIMTY_MIN_PAYLOAD || FW_MAX_PAYLOAD > SIMTY_MAX_PAYLOAD
#error "FW_MAX_PAYLOAD outside the protocol's range"
#endif
#if FW_QUEUE_DEPTH < 1 || FW_QUEUE_DEPTH > 0xFFFF || FW_STAGE_BYTES % 4 != 0
#error "FW_QUEUE_DEPTH or FW_STAGE_BYTES out of range"
#endif
#if FW_MAX_WINDOW < 1 || FW_MAX_WINDOW > SIMTY_MAX_WINDOW
#error "FW_MAX_WINDOW outside the protocol's range"
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
  uint64_t start;     /* TIMER at the sequencer's START */
  uint64_t end;       /* TIMER when the firmware saw the launch end */
  /* The block sequencer's counters as last read (fw_dispatch_poll() and
   * the launch's end), read in this order so that done <= next_base. */
  uint32_t next_base; /* next logical id to hand out (SEQ_NEXT) */
  uint32_t done;      /* threads of the blocks that ended (SEQ_DONE) */
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

/* What the TX slot of a window position holds. */
enum fw_slot_state {
  FW_SLOT_EMPTY = 0, /* nothing cached (power-up, after INFO) */
  FW_SLOT_CACHED,    /* the response to request `seq`, `len` bytes */
  FW_SLOT_PARKED,    /* WAIT `seq` executed, its response not yet written */
};

struct fw_slot {
  uint16_t seq;
  uint8_t command; /* of the request */
  uint8_t state;   /* enum fw_slot_state */
  uint16_t len;    /* L of LINK_TX_SEND: header + payload */
};

/* One queued operation (docs/protocol.md, "Queued work"). */
enum fw_op_kind {
  FW_OP_WRITE = 1,  /* staged data -> memory */
  FW_OP_LAUNCH = 2, /* a checked launch descriptor */
};

struct fw_op {
  uint8_t kind;  /* enum fw_op_kind */
  uint8_t flags; /* LAUNCH: SIMTY_LAUNCH_F_* */
  uint8_t stack_log2;
  uint32_t number;   /* operation number */
  uint32_t addr;     /* WRITE: address; LAUNCH: entry */
  uint32_t len;      /* WRITE: bytes; LAUNCH: nthreads */
  uint32_t at;       /* WRITE: first word in the stage; LAUNCH: args */
  uint32_t data_end; /* LAUNCH */
  uint64_t timeout;  /* LAUNCH */
};

/* The work queue: operations accepted while the device was busy, run in
 * order by the poll loop; WRITE data waits in `stage`, a ring of words
 * (each staged WRITE takes consecutive words; one that would not fit
 * before the end starts again at word 0). */
struct fw_queue {
  struct fw_op op[FW_QUEUE_DEPTH];
  uint32_t head, count;
  uint32_t stage_head, stage_tail, staged; /* words; staged WRITEs */
  uint32_t accepted;   /* number of the last accepted operation */
  uint32_t done;       /* number of the last completed operation */
  uint32_t fault_op;   /* operation that ended the last sequence */
  uint32_t cancelled;  /* operations that sequence's end removed */
  uint32_t running_op; /* the queued launch running, 0 none */
  bool failed;         /* a fault ended the queue and no status record has
                          reported it yet: WRITE and LAUNCH are refused */
  bool full;           /* a WRITE or LAUNCH was refused QUEUE_FULL: later
                          ones are too, until another command runs */
  /* Counters of the sequence's earlier launches (SIMTY_LAUNCH_F_CONTINUE):
   * reported values are these plus the running launch's. */
  uint64_t acc[SIMTY_CTR_COUNT];
  uint32_t stage[FW_STAGE_BYTES / 4u];
};

/* Scratch for the parts of a response the firmware computes (status
 * record, counters, INFO, console records in chunks), copied to the TX
 * slot a word at a time. */
#define FW_SCRATCH_BYTES (FW_CONSOLE_CHUNK * SIMTY_CS_RECORD_SIZE)

struct fw {
  struct fw_core core;
  struct fw_launch launch;
  struct fw_console console;
  struct fw_queue queue;

  /* The link engine, as LINK_INFO describes it. */
  uint32_t rx_slots;
  uint32_t tx_slots;
  uint32_t stride;  /* bytes between slots */
  uint32_t window;  /* min(tx_slots, FW_MAX_WINDOW) */
  uint32_t baud;    /* LINK_BAUD */

  /* The window: requests run strictly in seq order; each takes the next
   * TX slot in turn, which keeps its response until request q + window
   * takes it over (with a power-of-two window, q's slot is q % window). */
  uint16_t expect; /* seq of the next request to execute */
  uint32_t pos;    /* its window position = TX slot (counts modulo window,
                      so any window size survives the seq wrap) */
  struct fw_slot slot[FW_MAX_WINDOW];

  /* Answers that are not cached (BAD_CRC, BAD_LENGTH, BAD_VERSION,
   * SEQUENCE) go out of the last TX slot. When that slot also caches a
   * response (window == tx_slots), its first 16 bytes (what a 4-byte
   * answer and its CRC cover) are saved here and put back before the
   * slot is sent again, so that no cached response is ever lost. */
  bool nak_borrowed;     /* the nak slot's head holds a nak */
  bool nak_saved_valid;  /* nak_saved must be put back */
  uint32_t nak_saved[4];

  /* A WAIT waiting for its launch to end (its slot is FW_SLOT_PARKED). */
  bool wait_parked;
  uint16_t wait_seq;
  uint32_t wait_flags;
  uint32_t wait_until; /* also due once this operation is done (0: no) */
  uint64_t wait_deadline;

  union {
    uint32_t w[FW_SCRATCH_BYTES / 4u];
    uint8_t b[FW_SCRATCH_BYTES];
  } scratch;

  /* Diagnostics. */
  uint32_t requests;   /* requests executed */
  uint32_t duplicates; /* requests answered from the cache (or absorbed) */
  uint32_t naks;       /* corrupt or foreign frames answered with an error */
  uint32_t sequence;   /* frames out of order answered with SEQUENCE */
};

/* ---- Engine (fw_engine.c) ---- */
void fw_init(struct fw *fw);
void fw_poll(struct fw *fw);

/* ---- Dispatcher (fw_dispatch.c) ---- */
uint64_t fw_timer(void);
void fw_dispatch_init(struct fw *fw);
/* LAUNCH's range checks (docs/protocol.md): SIMTY_ST_OK, or the status
 * with its detail (the field's offset, or the lowest stack address). */
int fw_launch_check(const struct fw *fw, uint32_t entry, uint32_t nthreads,
                    uint32_t data_end, uint32_t stack_log2, uint32_t *detail);
/* Checks and starts a launch; returns SIMTY_ST_OK or an error code, with
 * *detail set as docs/protocol.md says. */
int fw_launch_start(struct fw *fw, uint32_t entry, uint32_t nthreads,
                    uint32_t args, uint32_t data_end, uint64_t timeout,
                    uint32_t stack_log2, uint32_t *detail);
/* One bounded step: console, faults, time-out, the launch's end, the
 * sequencer's counters. */
void fw_dispatch_poll(struct fw *fw);
/* The hot path, called far more often than fw_dispatch_poll(): the
 * launch's end or fault (one register read); no console, no time-out.
 * Blocks are handed out by the hardware (the block sequencer). */
void fw_dispatch_refill(struct fw *fw);
/* Ends a running launch with an ABORTED record. */
void fw_launch_abort(struct fw *fw);
/* RESET: halts and resets the core, forgets the launch and the console. */
int fw_core_reset(struct fw *fw);
uint64_t fw_counter(uint32_t index);
uint64_t fw_launch_elapsed(const struct fw *fw);
/* Threads of completed blocks (the sequencer's count, as last read: at
 * most next_base). */
uint32_t fw_launch_done(const struct fw *fw);

/* Console stream: moves records from the core's FIFO into the buffer. */
void fw_console_poll(struct fw *fw);
uint32_t fw_console_pending(const struct fw *fw);
/* Copies up to max records (5 bytes each) to out, removing them. */
uint32_t fw_console_take(struct fw *fw, uint8_t *out, uint32_t max);
void fw_console_clear(struct fw *fw);

#endif /* FW_H */
