/* SPDX-License-Identifier: Apache-2.0 */
/*
 * simty_proto.h - the Simty host link protocol, version 3: command and
 * error codes, frame header layout and every payload layout, as byte
 * offsets (all multi-byte fields little-endian). docs/protocol.md is the
 * prose; this header is the one source of the numbers, shared by the
 * controller firmware and the host library.
 *
 * Freestanding-safe: plain preprocessor and enums, no library calls.
 */
#ifndef SIMTY_PROTO_H
#define SIMTY_PROTO_H

/* A build may claim another version (-DSIMTY_PROTO_VERSION=N), as the
 * version-mismatch test does to stand for a device of another release. */
#ifndef SIMTY_PROTO_VERSION
#define SIMTY_PROTO_VERSION 3u
#endif

/* ---- Frame (before COBS) ----
 *   0 u8  version      SIMTY_PROTO_VERSION
 *   1 u8  command      request: the command; response: command | 0x80
 *   2 u16 seq          chosen by the host, echoed by the response
 *   4 u16 length       payload bytes that follow the header
 *   6 u8  status       0 in requests; OK or an error code in responses
 *   7 u8  reserved     0 (ignored by receivers)
 *   8 ... payload
 *   8+length u32 crc   CRC-32 (IEEE) of bytes 0 .. 8+length-1
 * On the wire: 0x00, COBS(frame), 0x00. */
#define SIMTY_HDR_VERSION 0
#define SIMTY_HDR_COMMAND 1
#define SIMTY_HDR_SEQ 2
#define SIMTY_HDR_LENGTH 4
#define SIMTY_HDR_STATUS 6
#define SIMTY_HDR_RESERVED 7
#define SIMTY_HDR_SIZE 8u
#define SIMTY_CRC_SIZE 4u
#define SIMTY_FRAME_OVERHEAD (SIMTY_HDR_SIZE + SIMTY_CRC_SIZE)
#define SIMTY_RESPONSE_FLAG 0x80u

/* Largest payload the protocol allows; a device reports its own limit
 * (never more than this, never less than SIMTY_MIN_PAYLOAD) in INFO. */
#define SIMTY_MAX_PAYLOAD 4096u
#define SIMTY_MIN_PAYLOAD 256u

/* ---- Commands: X(name, code) ---- */
#define SIMTY_COMMAND_MAP(X)                                                   \
  X(INFO, 0x01)                                                                \
  X(WRITE, 0x02)                                                               \
  X(READ, 0x03)                                                                \
  X(LAUNCH, 0x04)                                                              \
  X(STATUS, 0x05)                                                              \
  X(WAIT, 0x06)                                                                \
  X(ABORT, 0x07)                                                               \
  X(COUNTERS, 0x08)                                                            \
  X(RESET, 0x09)                                                               \
  X(CONSOLE, 0x0A)

enum simty_command {
#define SIMTY_X_(name, code) SIMTY_CMD_##name = code,
  SIMTY_COMMAND_MAP(SIMTY_X_)
#undef SIMTY_X_
};

/* ---- Status codes of responses: X(name, code, description) ----
 * Every error response carries a 4-byte payload: u32 detail (per code,
 * see docs/protocol.md; 0 when there is nothing to add). */
#define SIMTY_LINK_ERROR_MAP(X)                                                \
  X(OK, 0, "success")                                                          \
  X(BAD_CRC, 1, "frame CRC mismatch")                                          \
  X(BAD_LENGTH, 2, "frame or payload length wrong for the command")            \
  X(BAD_VERSION, 3, "unsupported protocol version")                            \
  X(UNKNOWN_COMMAND, 4, "unknown command")                                     \
  X(OUT_OF_RANGE, 5, "address range outside populated CODE/DATA")              \
  X(PROTECTED, 6, "address range touches firmware or MMIO")                    \
  X(BUSY, 7, "a launch is running")                                            \
  X(NO_LAUNCH, 8, "no launch is running")                                      \
  X(BAD_ARGUMENT, 9, "invalid argument")                                       \
  X(STACK_OVERLAP, 10, "thread stacks would overlap kernel data")              \
  X(INTERNAL, 11, "device internal error")                                    \
  X(SEQUENCE, 12, "request out of order")                                     \
  X(QUEUE_FULL, 13, "the device's work queue is full")                       \
  X(CANCELLED, 14, "refused: a fault ended the work queue, not yet reported")

enum simty_link_status {
#define SIMTY_X_(name, code, text) SIMTY_ST_##name = code,
  SIMTY_LINK_ERROR_MAP(SIMTY_X_)
#undef SIMTY_X_
};
#define SIMTY_ERROR_PAYLOAD 4u

/* ---- INFO: request empty; response 56 bytes ---- */
#define SIMTY_INFO_PROTO_VERSION 0 /* u8 */
#define SIMTY_INFO_COUNTER_COUNT 1 /* u8 */
#define SIMTY_INFO_MAX_PAYLOAD 2   /* u16 */
#define SIMTY_INFO_WARPS 4         /* u16 */
#define SIMTY_INFO_LANES 6         /* u16 */
#define SIMTY_INFO_CODE_BASE 8     /* u32 */
#define SIMTY_INFO_CODE_SIZE 12    /* u32 */
#define SIMTY_INFO_DATA_BASE 16    /* u32 */
#define SIMTY_INFO_DATA_SIZE 20    /* u32 */
#define SIMTY_INFO_CLOCK_HZ 24     /* u32 */
#define SIMTY_INFO_FW_VERSION 28   /* u32 */
#define SIMTY_INFO_BAUD 32         /* u32 link rate, bits/s */
#define SIMTY_INFO_WINDOW 36       /* u16 requests a host may have outstanding */
#define SIMTY_INFO_LINK_FLAGS 38   /* u16 SIMTY_LINK_FLAG_* */
#define SIMTY_INFO_HW_VERSION 40   /* u32 SoC version register */
#define SIMTY_INFO_HW_BUILD 44     /* u32 SoC build identifier */
#define SIMTY_INFO_QUEUE_DEPTH 48  /* u16 operations the work queue holds */
#define SIMTY_INFO_EXTENSIONS 50   /* u16 SIMTY_EXT_* of the core (0: RV32I,
                                      * and what firmware before 0.2 sends) */
/* Bit 8 of SIMTY_INFO_EXTENSIONS (the SoC's EXTENSIONS register), not an ISA
 * extension: the core's memory crossbar is `rotate` (docs/architecture.md
 * section 3, "Crossbar kind"); 0: `full`, and every older device. */
#define SIMTY_INFO_EXT_XBAR_ROTATE 0x100u
#define SIMTY_INFO_STAGE_BYTES 52  /* u32 bytes of queued WRITE data it holds */
#define SIMTY_INFO_SIZE 56u
#define SIMTY_LINK_FLAG_ENGINE 0x1u /* frames handled by the link engine */
/* Largest window the protocol allows (INFO reports the device's). */
#define SIMTY_MAX_WINDOW 16u

/* ---- WRITE: request u32 addr + 1..max_payload-4 data bytes; response
 * empty ---- */
#define SIMTY_WRITE_ADDR 0
#define SIMTY_WRITE_DATA 4

/* ---- READ: request u32 addr, u32 count (1..max_payload); response the
 * count bytes ---- */
#define SIMTY_READ_ADDR 0
#define SIMTY_READ_COUNT 4
#define SIMTY_READ_SIZE 8u

/* ---- LAUNCH: request 32 bytes; response 8 bytes ---- */
#define SIMTY_LAUNCH_ENTRY 0       /* u32 */
#define SIMTY_LAUNCH_NTHREADS 4    /* u32, 1 .. 2^31 */
#define SIMTY_LAUNCH_ARGS 8        /* u32 */
#define SIMTY_LAUNCH_DATA_END 12   /* u32, the kernel's _end */
#define SIMTY_LAUNCH_TIMEOUT 16    /* u64, core cycles, 0 = none */
#define SIMTY_LAUNCH_STACK_LOG2 24 /* u8 */
#define SIMTY_LAUNCH_FLAGS 25      /* u8 SIMTY_LAUNCH_F_* */
#define SIMTY_LAUNCH_RESERVED 26   /* 6 bytes of 0 */
#define SIMTY_LAUNCH_SIZE 32u
/* The launch continues the sequence of the launch before it: the counters
 * add up (cct_peak: the maximum) and the console keeps its records. */
#define SIMTY_LAUNCH_F_CONTINUE 0x1u
#define SIMTY_LAUNCH_F_MASK 0x1u
#define SIMTY_LAUNCHED_ID 0        /* u32 launch id (once it starts) */
#define SIMTY_LAUNCHED_STACK_TOP 4 /* u32 */
#define SIMTY_LAUNCHED_OP 8        /* u32 its operation number */
#define SIMTY_LAUNCHED_QUEUED 12   /* u32 operations queued ahead of it */
#define SIMTY_LAUNCHED_SIZE 16u

/* ---- STATUS: request u32 flags; WAIT: request u32 wait_ms, u32 flags.
 * Both answer a status record, then the optional sections the flags
 * select, in this order. ---- */
#define SIMTY_STATUS_FLAGS 0
#define SIMTY_STATUS_REQ_SIZE 4u
#define SIMTY_WAIT_MS 0
#define SIMTY_WAIT_FLAGS 4
#define SIMTY_WAIT_REQ_SIZE 8u
#define SIMTY_WAIT_UNTIL 8 /* u32, optional (12-byte request): also answer
                              once operation `until` has completed */
#define SIMTY_WAIT_REQ_SIZE_UNTIL 12u
#define SIMTY_WANT_COUNTERS 0x1u /* append every counter, u64 each */
#define SIMTY_WANT_CONSOLE 0x2u  /* append a console section */
#define SIMTY_WANT_MASK 0x3u

/* Status record (64 bytes). */
#define SIMTY_SR_STATE 0            /* u8, enum simty_launch_state */
#define SIMTY_SR_CAUSE 1            /* u8, simty_fault_cause */
#define SIMTY_SR_RESERVED 2         /* u16 0 */
#define SIMTY_SR_LAUNCH_ID 4        /* u32 */
#define SIMTY_SR_NTHREADS 8         /* u32 */
#define SIMTY_SR_DISPATCHED 12      /* u32 logical ids handed to warps */
#define SIMTY_SR_DONE 16            /* u32 threads ended */
#define SIMTY_SR_FAULT_PC 20        /* u32 */
#define SIMTY_SR_FAULT_HART 24      /* u32 */
#define SIMTY_SR_FAULT_TID 28       /* u32 */
#define SIMTY_SR_FAULT_ADDR 32      /* u32 */
#define SIMTY_SR_CONSOLE_PENDING 36 /* u32 console records waiting */
#define SIMTY_SR_ELAPSED 40         /* u64 cycles since the launch began */
/* The work queue (docs/protocol.md section 3, "Queued work"). Operation
 * numbers count accepted WRITEs and LAUNCHes from 1 at power-up. */
#define SIMTY_SR_OPS_ACCEPTED 48 /* u32 number of the last accepted op */
#define SIMTY_SR_OPS_DONE 52     /* u32 number of the last completed op */
#define SIMTY_SR_FAULT_OP 56     /* u32 op that ended the last sequence
                                    (fault, time-out, abort); 0 none */
#define SIMTY_SR_QUEUED 60       /* u16 ops accepted, not yet started */
#define SIMTY_SR_CANCELLED 62    /* u16 ops the last fault/abort/RESET
                                    removed unrun */
#define SIMTY_SR_SIZE 64u

enum simty_launch_state {
  SIMTY_STATE_IDLE = 0,    /* no launch since power-up or RESET */
  SIMTY_STATE_RUNNING = 1, /* threads are being dispatched or run */
  SIMTY_STATE_DONE = 2,    /* every thread ended */
  SIMTY_STATE_FAULT = 3,   /* ended by a fault, time-out or abort */
};

/* No thread stands behind a TIMEOUT or ABORTED record. */
#define SIMTY_NO_THREAD 0xFFFFFFFFu

/* ---- COUNTERS: request u8 first, u8 count (0 = through the last),
 * u16 0; response u8 first, u8 count, u16 0, count x u64 ---- */
#define SIMTY_COUNTERS_FIRST 0
#define SIMTY_COUNTERS_COUNT 1
#define SIMTY_COUNTERS_REQ_SIZE 4u
#define SIMTY_COUNTERS_VALUES 4

/* ---- CONSOLE: request u32 max_records (0 = as many as fit);
 * response is a console section. Console section:
 *   0 u32 pending   records still waiting after this response
 *   4 u16 count     records that follow
 *   6 u16 0
 *   8 count x { u32 tid, u8 byte } ---- */
#define SIMTY_CONSOLE_MAX 0
#define SIMTY_CONSOLE_REQ_SIZE 4u
#define SIMTY_CS_PENDING 0
#define SIMTY_CS_COUNT 4
#define SIMTY_CS_RECORDS 8
#define SIMTY_CS_HEADER 8u
#define SIMTY_CS_RECORD_SIZE 5u

#endif /* SIMTY_PROTO_H */
