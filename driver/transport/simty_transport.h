/* SPDX-License-Identifier: Apache-2.0 */
/*
 * simty_transport.h - byte-stream transports to a Simty device, and the
 * host side of the link layer (simty_session) that runs over any of them.
 *
 * A transport moves raw bytes with deadlines: a connected socket (tcp://,
 * and sim, which spawns the simulated board on one end of a socket pair),
 * an FTDI UART through libftdi1 (ftdi://) or raw USB bulk endpoints
 * through libusb-1.0 (usb://). The session frames requests
 * (driver/link/simty_link.h), matches responses by sequence number and
 * command, retransmits on deadline or on a corrupt-frame answer, and
 * resynchronises after garbage (docs/protocol.md section 2).
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

/* sim[?warps=W&lanes=L]: spawns the simulated board with one end of a
 * socket pair (--fd). The program is $SIMTY_SIM, else simty-sim next to
 * the running executable or in a bin/ directory above it, else on PATH. */
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

/* ---- The host link layer ---- */

#define SIMTY_SESSION_ATTEMPTS 5

struct simty_session {
  struct simty_transport *t;
  uint16_t seq;         /* of the outstanding (or last) request */
  uint16_t max_payload; /* the device's, after INFO; SIMTY_MIN_PAYLOAD before */
  int dead;             /* the transport failed for good (ECLOSED) */
  struct simty_link_decoder dec;
  uint8_t rx_frame[SIMTY_FRAME_SIZE(SIMTY_MAX_PAYLOAD)];
  uint8_t tx_frame[SIMTY_FRAME_SIZE(SIMTY_MAX_PAYLOAD)];
  uint8_t tx_wire[SIMTY_WIRE_MAX(SIMTY_FRAME_SIZE(SIMTY_MAX_PAYLOAD)) + 1];
  size_t tx_wire_len;
  uint8_t rx_bytes[4096]; /* received, not yet fed to the decoder */
  size_t rx_len, rx_pos;
  /* Response of the last request: status, payload. */
  uint8_t status;
  uint32_t detail; /* u32 detail of an error response */
  const uint8_t *payload;
  uint16_t payload_len;
  /* Statistics since open. */
  uint32_t requests, retransmits, stale_frames, bad_frames;
  char err[256];
};

/* Starts a session over t (taken over: closed by simty_session_close). */
void simty_session_init(struct simty_session *s, struct simty_transport *t);
void simty_session_close(struct simty_session *s);

/*
 * One request/response exchange with retransmission: sends `command` with
 * `len` payload bytes, waits for the matching response up to a deadline
 * per attempt (wire time of request and `resp_max` response bytes, the
 * transport's margin and `extra_ms`), retransmits the same frame (same
 * seq) after a deadline or a BAD_CRC/BAD_LENGTH answer to it, at most
 * SIMTY_SESSION_ATTEMPTS times.
 * Returns 0 with s->status OK and s->payload/payload_len set; a mapped
 * error for an error status (s->status, s->detail kept); SIMTY_ETIMEDOUT
 * after the last attempt; SIMTY_EIO / SIMTY_ECLOSED from the transport.
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
