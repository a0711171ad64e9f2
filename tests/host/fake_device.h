/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fake_device.h - a Simty device for tests: speaks link protocol v2
 * (docs/protocol.md; window, in-order execution, response cache, SEQUENCE
 * answers) on a socket, executes kernels on the reference model, and
 * misbehaves on request (lost requests; dropped, corrupted, split, stale
 * or garbled responses; damaged-request answers; random losses; an
 * unplugged link) or speaks another protocol version.
 *
 * It serves one connection in a thread of its own: either one end of a
 * socket pair (fake_device_start_fd) or a TCP listener on 127.0.0.1
 * (fake_device_start_tcp; the port is in fd->port).
 */
#ifndef FAKE_DEVICE_H
#define FAKE_DEVICE_H

#include <pthread.h>
#include <stdint.h>

#include "simty_model.h"

struct fake_device {
  /* Configuration, before start. */
  unsigned warps, lanes;
  uint16_t max_payload; /* 0: SIMTY_MAX_PAYLOAD */
  uint8_t proto_version; /* frames it speaks; 0: SIMTY_PROTO_VERSION */
  uint8_t info_version;  /* what INFO says; 0: proto_version */
  uint16_t window;       /* 0: 4 */
  uint32_t baud;         /* INFO's link rate; 0: 3,000,000 */
  uint16_t extensions;   /* INFO's SIMTY_EXT_* bits (the model stays RV32I) */
  unsigned xbar;         /* the model's crossbar kind (SIMTY_XBAR_*), which
                            INFO reports too (extensions bit 8) */
  unsigned seed;         /* random misbehaviour */
  /* While a launch runs, the model runs this many cycles before each
   * request (a real device runs the kernel meanwhile), for the first
   * run_between_ms after the launch (0: always). 0: only WAIT runs it. */
  unsigned run_between, run_between_ms;

  /* Misbehaviour, changed under `lock` while running. Each counts down. */
  pthread_mutex_t lock;
  int drop_requests;     /* lose the request on the wire: not executed */
  int drop_responses;    /* execute, but send no response */
  int drop_command;      /* nonzero: drop_requests and drop_responses
                            count only frames of this command */
  int drop_permille;     /* lose requests and responses at random */
  int nak_permille;      /* answer BAD_CRC at random, as if damaged */
  int corrupt_responses; /* flip a bit of the response's CRC */
  int garbage_before;    /* send noise bytes (with zeros) first */
  int stale_before;      /* send an answer to seq - 1 first */
  int hint_bad_crc;      /* answer BAD_CRC as if the request was damaged */
  int split_responses;   /* send the response one byte per write */
  int close_after;       /* >0: close the link after that many requests */
  int mute_after_launch; /* once a LAUNCH is answered, answer nothing */
  /* A broken memory: bits of stuck_mask read 0 in the word at stuck_addr
   * (0: none). Set before start. */
  uint32_t stuck_addr, stuck_mask;

  /* What happened. */
  unsigned requests;           /* frames decoded */
  unsigned executed[16];       /* per command code, duplicates excluded */
  unsigned duplicates;         /* retransmissions answered from the cache */
  unsigned sequence_answers;   /* SEQUENCE answers (a gap in the seqs) */
  unsigned dropped;            /* requests and responses lost on purpose */
  unsigned max_frame;          /* largest request payload seen */
  unsigned short_writes;       /* executed WRITEs shorter than max_payload */
  /* Arrival of every request frame: seq and CLOCK_MONOTONIC ns (the
   * first FAKE_LOG of them). */
#define FAKE_LOG 4096
  unsigned nlog;
  uint16_t log_seq[FAKE_LOG];
  uint64_t log_ns[FAKE_LOG];

  /* Internal. */
  int fd, listen_fd, port;
  pthread_t thread;
  int running;
  simty_model *model;
};

/* Starts serving on one end of a socket pair; *host_fd gets the other. */
int fake_device_start_fd(struct fake_device *d, int *host_fd);
/* Starts listening on 127.0.0.1 (d->port). Serves the first connection. */
int fake_device_start_tcp(struct fake_device *d);
/* Serves the connected socket fd in the calling thread until the peer
 * closes it (the fake simulated board). */
int fake_device_run_fd(struct fake_device *d, int fd);
/* Stops the thread, frees everything. */
void fake_device_stop(struct fake_device *d);
/* Sets a misbehaviour counter under the lock. */
void fake_device_set(struct fake_device *d, int *field, int value);

#endif /* FAKE_DEVICE_H */
