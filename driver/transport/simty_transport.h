/* SPDX-License-Identifier: Apache-2.0 */
/*
 * simty_transport.h - byte-stream transports to a Simty device, and the
 * host side of the link layer (simty_session) that runs over any of them.
 *
 * A transport moves raw bytes with deadlines: a connected socket (tcp://,
 * and sim, which spawns the simulated board on one end of a socket pair),
 * an FTDI UART through libftdi1 (ftdi://) or raw USB bulk endpoints
 * through libusb-1.0 (usb://). The session frames requests
 * (driver/link/simty_link.h), keeps a window of them in flight, matches
 * responses by sequence number and command, recovers losses go-back-N,
 * and resynchronises after garbage (docs/protocol.md section 2).
 *
 * Errors are enum simty_error codes (simty.h), with a one-line detail in
 * the transport's or session's `err`. Deadlines are CLOCK_MONOTONIC
 * nanoseconds. Not thread-safe: the host library serialises calls per
 * device.
 */
#ifndef SIMTY_TRANSPORT_H
#define SIMTY_TRANSPORT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "simty_link.h"

struct simty_transport;

struct simty_transport_ops {
  /* Sends all n bytes before the deadline. 0, SIMTY_ETIMEDOUT, SIMTY_EIO,
   * SIMTY_ECLOSED (peer gone, device unplugged). */
  int (*send)(struct simty_transport *t, const uint8_t *buf, size_t n,
              uint64_t deadline_ns);
  /* Receives at least one byte (at most cap) unless the deadline passes
   * first; *got = bytes received (0 on a time-out, which returns 0).
   * Errors: SIMTY_EIO, SIMTY_ECLOSED. */
  int (*recv)(struct simty_transport *t, uint8_t *buf, size_t cap,
              size_t *got, uint64_t deadline_ns);
  /* Releases everything (the kernel driver is reattached for FTDI). */
  void (*close)(struct simty_transport *t);
};

struct simty_transport {
  const struct simty_transport_ops *ops;
  void *priv;
  const char *kind;        /* "tcp", "sim", "ftdi", "usb", "test" */
  uint32_t bytes_per_sec;  /* wire rate for deadlines; 0 = not limiting */
  uint32_t margin_ms;      /* slack added to every response deadline */
  uint32_t wait_slice_ms;  /* device time per WAIT request */
  /* sim?xbar=K: the crossbar kind asked for ("full", "rotate"; "" none),
   * which the board's INFO must report; and what to say if the board
   * exits at start-up (how that board is built; "" nothing). */
  char want_xbar[8];
  char start_hint[160];
  char err[256];
};

/* Frees a transport (NULL accepted). */
void simty_transport_close(struct simty_transport *t);

/* ---- Connected sockets: tcp:// and sim ---- */

/* Wraps a connected stream socket (taken over: closed with the
 * transport). `child`: a process to terminate and reap at close (0 for
 * none). */
int simty_transport_fd(int fd, pid_t child, const char *kind,
                       struct simty_transport **out, char *err,
                       size_t err_size);

/* tcp://HOST:PORT. `rest` is what follows "tcp://". */
int simty_transport_tcp(const char *rest, struct simty_transport **out,
                        char *err, size_t err_size);

/* sim[?warps=W&lanes=L&xbar=full|rotate&verbose=0|1]: spawns the
 * simulated board with one end of a socket pair (--fd; --warps, --lanes,
 * --xbar passed on when given). The program is $SIMTY_SIM, else simty-sim
 * next to the running executable or in a bin/ directory above it, else on
 * PATH. */
int simty_transport_sim(const char *rest, struct simty_transport **out,
                        char *err, size_t err_size);

/* ---- FTDI UART (libftdi1): ftdi://[VID:PID[:SERIAL]][/INTERFACE][?baud=N]
 * Defaults: 0403:6010, interface B (the UART of iCE40 boards' FT2232H),
 * 3,000,000 baud, 8N1, latency timer 1 ms. ---- */

struct simty_ftdi_params {
  int vid, pid;
  char serial[64]; /* "" = first match */
  int interface;   /* 1..4 = A..D */
  uint32_t baud;
};

/* Parses `rest` (after "ftdi://"). 0 or SIMTY_EURI with a reason. */
int simty_ftdi_parse(const char *rest, struct simty_ftdi_params *p, char *err,
                     size_t err_size);
int simty_transport_ftdi(const char *rest, struct simty_transport **out,
                         char *err, size_t err_size);

/* ---- Raw USB bulk (libusb-1.0): usb://VID:PID[?interface=N] ---- */

struct simty_usb_params {
  int vid, pid;
  int interface;
};

int simty_usb_parse(const char *rest, struct simty_usb_params *p, char *err,
                    size_t err_size);
int simty_transport_usb(const char *rest, struct simty_transport **out,
                        char *err, size_t err_size);

/* ---- The host link layer (protocol v3, docs/protocol.md section 2) ----
 *
 * A session keeps a window of requests in flight: up to the device's
 * `window` (INFO) requests sent and not yet collected, with consecutive
 * seqs. Answers are matched by seq and command and handed back in
 * submission order (simty_session_complete() always collects the oldest).
 *
 * Recovery is go-back-N: when the oldest outstanding request passes its
 * deadline (wire time of every byte queued ahead of it and of its answer,
 * the transport's margin doubled per retransmission of that request up to
 * 8x, plus its own extra_ms), when the device answers SEQUENCE naming a
 * request we have outstanding (once per named seq), or when it reports
 * one of our requests damaged (BAD_CRC/BAD_LENGTH, once its every copy
 * has been accounted for), the session sends a lone 0x00, then every
 * outstanding request from that one on, in order. The device executes in
 * seq order and answers a retransmission of an executed request from its
 * cache, so nothing runs twice. Retransmissions never pile up: a copy is
 * never queued while an earlier copy of the same request may still be in
 * the transport's buffers (by the wire-time estimate; such a request goes
 * again once the device has answered something at or behind it), and a
 * deadline passes only once every byte queued has had time to leave. A request that needed
 * SIMTY_SESSION_ATTEMPTS copies and still has no answer fails the whole
 * window with SIMTY_ELINK (SIMTY_EPROTO if every copy arrived damaged);
 * the next submission then reopens the session with INFO first.
 *
 * On a noisy link (repeated naks, losses or time-outs) the payload size
 * advised for bulk frames (bulk_payload) halves, down to
 * SIMTY_MIN_PAYLOAD, and doubles again after a run of clean answers. */

#define SIMTY_SESSION_ATTEMPTS 5
#define SIMTY_SESSION_BACKOFF_MAX 8u  /* margin multiplier cap */
#define SIMTY_SESSION_CLEAN_RUN 16u   /* clean answers before growing */

enum simty_slot_state {
  SIMTY_SLOT_FREE = 0,
  SIMTY_SLOT_SENT,     /* outstanding: sent, no answer yet */
  SIMTY_SLOT_ANSWERED, /* answer kept until collected */
  SIMTY_SLOT_FAILED,   /* the window failed (link lost, transport error) */
};

/* One request of the window. */
struct simty_session_slot {
  uint16_t seq;
  uint8_t command;
  uint8_t state;    /* enum simty_slot_state */
  uint8_t attempts; /* copies sent because of this request's own losses */
  uint8_t inflight; /* copies sent whose fate is not known yet */
  uint8_t damaged;  /* every loss so far was a damaged-request answer */
  uint8_t pending;  /* a go-back-N copy waits for the last one to leave */
  uint32_t resp_max, extra_ms;
  uint64_t deadline; /* CLOCK_MONOTONIC ns */
  uint64_t gone_ns;  /* when its last copy is estimated out of the buffers */
  /* The answer (ANSWERED) or the failure (FAILED). */
  int error;
  uint8_t status;
  uint32_t detail;
  uint16_t payload_len;
  size_t wire_len;
  uint8_t wire[SIMTY_WIRE_MAX(SIMTY_FRAME_SIZE(SIMTY_MAX_PAYLOAD)) + 1];
  uint8_t payload[SIMTY_MAX_PAYLOAD];
};

struct simty_session {
  struct simty_transport *t;
  uint16_t seq;         /* of the last request submitted */
  uint16_t max_payload; /* the device's, after INFO; SIMTY_MIN_PAYLOAD before */
  uint16_t window;      /* the device's, after INFO; 1 before */
  uint16_t link_flags;  /* SIMTY_LINK_FLAG_* from INFO */
  uint32_t baud;        /* the device's link rate from INFO (0: unknown) */
  uint16_t bulk_payload; /* advised payload of bulk frames (noise-adapted) */
  int dead;      /* the transport failed for good (ECLOSED) */
  int need_sync; /* the window failed: reopen with INFO before going on */
  uint8_t info[SIMTY_INFO_SIZE]; /* the last INFO answer */
  /* The window: a ring of `count` slots from `head` (oldest). */
  struct simty_session_slot slot[SIMTY_MAX_WINDOW];
  unsigned head, count;
  /* Go-back-N reacts once per named seq. */
  int react_valid;
  uint16_t react_seq;
  uint64_t tx_free_ns; /* when the bytes we queued are estimated sent */
  unsigned noise, clean_run; /* bulk frame size adaptation */
  struct simty_link_decoder dec;
  uint8_t rx_frame[SIMTY_FRAME_SIZE(SIMTY_MAX_PAYLOAD)];
  uint8_t tx_frame[SIMTY_FRAME_SIZE(SIMTY_MAX_PAYLOAD)];
  uint8_t rx_bytes[4096]; /* received, not yet fed to the decoder */
  size_t rx_len, rx_pos;
  /* The answer of the request simty_session_complete() (or _request())
   * returned last: valid until the next submission. */
  uint8_t status;
  uint32_t detail; /* u32 detail of an error response */
  const uint8_t *payload;
  uint16_t payload_len;
  /* Statistics since init. */
  uint32_t requests, retransmits, stale_frames, bad_frames;
  uint32_t timeouts, naks, sequence_naks, shrinks, max_outstanding;
  char err[256];
  char lost[256]; /* why the window failed, for each request in it */
};

/* Starts a session over t (taken over: closed by simty_session_close).
 * Nothing is sent: simty_session_open() does the INFO exchange. */
void simty_session_init(struct simty_session *s, struct simty_transport *t);
void simty_session_close(struct simty_session *s);

/*
 * Opens (or reopens) the session: INFO with nothing outstanding. Reads
 * the device's window, max payload, baud and flags (s->info keeps the
 * whole answer, also in s->payload). A device of another protocol version
 * (BAD_VERSION, or INFO naming another version) gives SIMTY_EPROTO with a
 * message naming both versions.
 */
int simty_session_open(struct simty_session *s);

/* Requests that can be submitted now (window minus requests in it). */
unsigned simty_session_room(const struct simty_session *s);

/*
 * Sends one request if the window has room (SIMTY_EBUSY otherwise; INFO
 * only with an empty window). `resp_max`: the largest OK payload expected
 * (a longer one is SIMTY_EPROTO); `extra_ms`: device time the request may
 * take (WAIT's wait_ms). *ticket (may be NULL) receives its slot number,
 * which simty_session_complete() reports back. After a lost link the
 * session reopens with INFO first. Errors: SIMTY_EINVAL (payload too
 * long), SIMTY_EBUSY, SIMTY_ECLOSED, SIMTY_EIO, or the reopening's.
 */
int simty_session_submit(struct simty_session *s, uint8_t command,
                         const void *payload, uint16_t len, uint32_t resp_max,
                         uint32_t extra_ms, unsigned *ticket);

/*
 * Waits for the oldest request of the window and takes it out: 0 with
 * s->status OK and s->payload/payload_len set; the mapped error of an
 * error status (s->status, s->detail kept); SIMTY_ELINK (link lost, after
 * SIMTY_SESSION_ATTEMPTS copies), SIMTY_EPROTO, SIMTY_EIO, SIMTY_ECLOSED.
 * *ticket (may be NULL) receives the request's slot number. SIMTY_EINVAL
 * when the window is empty.
 */
int simty_session_complete(struct simty_session *s, unsigned *ticket);

/*
 * Waits until the oldest request of the window has its answer (1; it is
 * not taken out: simty_session_complete() does that) or until_ns
 * (CLOCK_MONOTONIC) passes first (0; nothing is retransmitted on that
 * account). 1 as well when the window is empty or has failed.
 */
int simty_session_poll(struct simty_session *s, uint64_t until_ns);

/*
 * One blocking request (the window must be empty): submit, then complete.
 * INFO goes through simty_session_open().
 */
int simty_session_request(struct simty_session *s, uint8_t command,
                          const void *payload, uint16_t len,
                          uint32_t resp_max, uint32_t extra_ms);

/* CLOCK_MONOTONIC now, in nanoseconds: the clock of every deadline. */
uint64_t simty__transport_now_ns(void);

/* Record a one-line detail in t->err and return `code`. */
int simty__transport_fail(struct simty_transport *t, int code,
                          const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The simty_error for a link status code. */
int simty_session_status_error(unsigned status);

#endif /* SIMTY_TRANSPORT_H */
