/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_transport.c - the host link layer (driver/transport/simty_session.c)
 * and the socket transports, against the fake device (fake_device.c):
 * retransmission after lost or corrupted responses without executing a
 * request twice, resynchronisation after garbage, stale frames, split
 * transfers, damaged-request hints, time-outs, unplugging; then the whole
 * public API over tcp:// and sim (a fake simulated board binary).
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "fake_device.h"
#include "simty.h"
#include "simty_transport.h"

#define KPATH(name) TEST_KERNEL_DIR "/" name ".elf"

static double now_s(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- Session over a socket pair ---- */

struct fixture {
  struct fake_device dev;
  struct simty_session s;
};

static int setup(void **state)
{
  struct fixture *f = calloc(1, sizeof(*f));
  int fd;
  if (!f || fake_device_start_fd(&f->dev, &fd))
    return -1;
  struct simty_transport *t;
  char err[256];
  if (simty_transport_fd(fd, 0, "test", &t, err, sizeof(err)))
    return -1;
  t->margin_ms = 100; /* a lost frame costs 0.1 s */
  simty_session_init(&f->s, t);
  *state = f;
  return 0;
}

static int teardown(void **state)
{
  struct fixture *f = *state;
  simty_session_close(&f->s);
  fake_device_stop(&f->dev);
  free(f);
  return 0;
}

static int write_word(struct simty_session *s, uint32_t addr, uint32_t v)
{
  uint8_t p[8];
  simty_put_u32(p, addr);
  simty_put_u32(p + 4, v);
  return simty_session_request(s, SIMTY_CMD_WRITE, p, 8, 4, 0);
}

static uint32_t read_word(struct simty_session *s, uint32_t addr)
{
  uint8_t p[8];
  simty_put_u32(p, addr);
  simty_put_u32(p + 4, 4);
  assert_int_equal(simty_session_request(s, SIMTY_CMD_READ, p, 8, 4, 0), 0);
  assert_int_equal(s->payload_len, 4);
  return simty_get_u32(s->payload);
}

static void test_info_and_roundtrip(void **state)
{
  struct fixture *f = *state;
  assert_int_equal(simty_session_request(&f->s, SIMTY_CMD_INFO, NULL, 0,
                                         SIMTY_INFO_SIZE, 0),
                   0);
  assert_int_equal(f->s.payload_len, SIMTY_INFO_SIZE);
  assert_int_equal(f->s.payload[SIMTY_INFO_PROTO_VERSION], SIMTY_PROTO_VERSION);
  assert_int_equal(simty_get_u16(f->s.payload + SIMTY_INFO_WINDOW), 4);
  assert_int_equal(simty_get_u32(f->s.payload + SIMTY_INFO_BAUD), 3000000);
  assert_int_equal(f->s.window, 4);
  assert_int_equal(f->s.max_payload, SIMTY_MAX_PAYLOAD);
  assert_int_equal(write_word(&f->s, SIMTY_DATA_BASE + 8, 0xCAFEF00D), 0);
  assert_int_equal(read_word(&f->s, SIMTY_DATA_BASE + 8), 0xCAFEF00D);
  assert_int_equal(f->s.retransmits, 0);
  assert_int_equal(f->dev.executed[SIMTY_CMD_WRITE], 1);
}

/* A lost response: the host retransmits the same frame, the device
 * recognises it (same seq and CRC) and answers from its cache without
 * writing a second time. */
static void test_lost_response(void **state)
{
  struct fixture *f = *state;
  fake_device_set(&f->dev, &f->dev.drop_responses, 1);
  double t0 = now_s();
  assert_int_equal(write_word(&f->s, SIMTY_DATA_BASE, 7), 0);
  assert_true(now_s() - t0 >= 0.09); /* waited for the deadline */
  assert_int_equal(f->s.retransmits, 1);
  assert_int_equal(f->dev.executed[SIMTY_CMD_WRITE], 1);
  assert_int_equal(f->dev.duplicates, 1);
  assert_int_equal(read_word(&f->s, SIMTY_DATA_BASE), 7);
}

/* A response damaged on the way back is dropped by its CRC. */
static void test_corrupt_response(void **state)
{
  struct fixture *f = *state;
  fake_device_set(&f->dev, &f->dev.corrupt_responses, 2);
  assert_int_equal(write_word(&f->s, SIMTY_DATA_BASE, 9), 0);
  assert_int_equal(f->s.retransmits, 2);
  assert_true(f->s.bad_frames >= 2);
  assert_int_equal(f->dev.executed[SIMTY_CMD_WRITE], 1);
  assert_int_equal(read_word(&f->s, SIMTY_DATA_BASE), 9);
}

/* Garbage before a response: the decoder resynchronises at the next
 * delimiter, no retransmission needed. */
static void test_garbage_resync(void **state)
{
  struct fixture *f = *state;
  fake_device_set(&f->dev, &f->dev.garbage_before, 3);
  for (int i = 0; i < 3; i++)
    assert_int_equal(write_word(&f->s, SIMTY_DATA_BASE + 4 * (uint32_t)i,
                                (uint32_t)i + 100),
                     0);
  assert_int_equal(f->s.retransmits, 0);
  for (int i = 0; i < 3; i++)
    assert_int_equal(read_word(&f->s, SIMTY_DATA_BASE + 4 * (uint32_t)i),
                     (uint32_t)i + 100);
}

/* An answer with the wrong sequence number is not ours. */
static void test_wrong_sequence(void **state)
{
  struct fixture *f = *state;
  fake_device_set(&f->dev, &f->dev.stale_before, 1);
  assert_int_equal(write_word(&f->s, SIMTY_DATA_BASE, 1234), 0);
  assert_int_equal(f->s.stale_frames, 1);
  assert_int_equal(f->s.retransmits, 0);
  assert_int_equal(read_word(&f->s, SIMTY_DATA_BASE), 1234);
}

/* The device says our request arrived damaged: retransmit at once. */
static void test_bad_crc_hint(void **state)
{
  struct fixture *f = *state;
  fake_device_set(&f->dev, &f->dev.hint_bad_crc, 2);
  double t0 = now_s();
  assert_int_equal(write_word(&f->s, SIMTY_DATA_BASE, 55), 0);
  assert_true(now_s() - t0 < 0.09); /* no deadline waited */
  assert_int_equal(f->s.retransmits, 2);
  assert_int_equal(f->dev.executed[SIMTY_CMD_WRITE], 1);
  /* Hints on every attempt: the exchange gives up with a protocol error. */
  fake_device_set(&f->dev, &f->dev.hint_bad_crc, SIMTY_SESSION_ATTEMPTS);
  assert_int_equal(write_word(&f->s, SIMTY_DATA_BASE, 56), SIMTY_EPROTO);
  assert_non_null(strstr(f->s.err, "damaged"));
}

/* A response arriving one byte per read (a partial transfer each time). */
static void test_split_response(void **state)
{
  struct fixture *f = *state;
  assert_int_equal(write_word(&f->s, SIMTY_DATA_BASE + 64, 0x01020304), 0);
  fake_device_set(&f->dev, &f->dev.split_responses, 1);
  assert_int_equal(read_word(&f->s, SIMTY_DATA_BASE + 64), 0x01020304);
  assert_int_equal(f->s.retransmits, 0);
}

/* A device that never answers: 5 attempts with the margin doubling each
 * time (0.1 + 0.2 + 0.4 + 0.8 + 0.8 s), then SIMTY_ELINK, not a time-out.
 * The next request reopens the session (INFO) and works. */
static void test_link_lost(void **state)
{
  struct fixture *f = *state;
  fake_device_set(&f->dev, &f->dev.drop_responses, 100);
  double t0 = now_s();
  assert_int_equal(write_word(&f->s, SIMTY_DATA_BASE, 1), SIMTY_ELINK);
  double dt = now_s() - t0;
  assert_true(dt >= 2.2 && dt < 5.0);
  assert_int_equal(f->s.retransmits, SIMTY_SESSION_ATTEMPTS - 1);
  assert_non_null(strstr(f->s.err, "after 5 attempts"));
  assert_non_null(strstr(f->s.err, "link is lost"));
  assert_int_equal(f->s.need_sync, 1);
  fake_device_set(&f->dev, &f->dev.drop_responses, 0);
  unsigned infos = f->dev.executed[SIMTY_CMD_INFO];
  assert_int_equal(write_word(&f->s, SIMTY_DATA_BASE, 2), 0);
  assert_int_equal(f->dev.executed[SIMTY_CMD_INFO], infos + 1);
  assert_int_equal(read_word(&f->s, SIMTY_DATA_BASE), 2);
}

/* Back-off: each retransmission of the same request waits twice as long
 * as the one before (the device logs when each copy arrives). */
static void test_backoff(void **state)
{
  struct fixture *f = *state;
  fake_device_set(&f->dev, &f->dev.drop_responses, 3);
  unsigned first = f->dev.nlog;
  assert_int_equal(write_word(&f->s, SIMTY_DATA_BASE, 3), 0);
  assert_int_equal(f->dev.nlog - first, 4); /* 4 copies of one request */
  double gap[3];
  for (int i = 0; i < 3; i++) {
    assert_int_equal(f->dev.log_seq[first + i], f->dev.log_seq[first + 3]);
    gap[i] = (double)(f->dev.log_ns[first + i + 1] - f->dev.log_ns[first + i]) *
             1e-9;
  }
  assert_true(gap[0] >= 0.09);
  assert_true(gap[1] >= 0.19 && gap[1] > 1.4 * gap[0]);
  assert_true(gap[2] >= 0.39 && gap[2] > 1.4 * gap[1]);
  assert_int_equal(f->s.timeouts, 3);
  assert_int_equal(f->dev.executed[SIMTY_CMD_WRITE], 1);
  assert_int_equal(f->dev.duplicates, 3);
}

static void test_unplug(void **state)
{
  struct fixture *f = *state;
  fake_device_set(&f->dev, &f->dev.close_after, 1);
  assert_int_equal(write_word(&f->s, SIMTY_DATA_BASE, 1), SIMTY_ECLOSED);
  assert_int_equal(f->s.dead, 1);
  double t0 = now_s();
  assert_int_equal(write_word(&f->s, SIMTY_DATA_BASE, 1), SIMTY_ECLOSED);
  assert_true(now_s() - t0 < 0.05);
}

static void test_error_status(void **state)
{
  struct fixture *f = *state;
  assert_int_equal(write_word(&f->s, 0x100, 1), SIMTY_ERANGE);
  assert_int_equal(f->s.status, SIMTY_ST_PROTECTED);
  assert_int_equal(f->s.detail, 0x100);
  assert_int_equal(write_word(&f->s, SIMTY_DATA_BASE - 4, 1), SIMTY_ERANGE);
  assert_int_equal(f->s.status, SIMTY_ST_OUT_OF_RANGE);
  assert_non_null(strstr(f->s.err, "OUT_OF_RANGE"));
  assert_int_equal(simty_session_request(&f->s, SIMTY_CMD_ABORT, NULL, 0, 64,
                                         0),
                   SIMTY_ENOLAUNCH);
  assert_int_equal(simty_session_request(&f->s, 0x7e, NULL, 0, 64, 0),
                   SIMTY_ENOTSUP);
  assert_int_equal(f->s.retransmits, 0);
  assert_int_equal(simty_session_status_error(SIMTY_ST_BUSY), SIMTY_EBUSY);
  assert_int_equal(simty_session_status_error(SIMTY_ST_STACK_OVERLAP),
                   SIMTY_ESTACK);
  assert_int_equal(simty_session_status_error(SIMTY_ST_INTERNAL),
                   SIMTY_EDEVICE);
}

/* ---- The window ---- */

/* A session with a device that takes 8 requests in flight. */
static int setup_window(void **state)
{
  struct fixture *f = calloc(1, sizeof(*f));
  int fd;
  if (!f)
    return -1;
  f->dev.window = 8;
  if (fake_device_start_fd(&f->dev, &fd))
    return -1;
  struct simty_transport *t;
  char err[256];
  if (simty_transport_fd(fd, 0, "test", &t, err, sizeof(err)))
    return -1;
  t->margin_ms = 100;
  simty_session_init(&f->s, t);
  if (simty_session_open(&f->s))
    return -1;
  *state = f;
  return 0;
}

static void submit_write(struct simty_session *s, uint32_t addr, uint32_t v,
                         unsigned *ticket)
{
  uint8_t p[8];
  simty_put_u32(p, addr);
  simty_put_u32(p + 4, v);
  assert_int_equal(simty_session_submit(s, SIMTY_CMD_WRITE, p, 8, 4, 0,
                                        ticket),
                   0);
}

static void submit_read(struct simty_session *s, uint32_t addr,
                        unsigned *ticket)
{
  uint8_t p[8];
  simty_put_u32(p, addr);
  simty_put_u32(p + 4, 4);
  assert_int_equal(simty_session_submit(s, SIMTY_CMD_READ, p, 8, 4, 0,
                                        ticket),
                   0);
}

/* Writes a window of 8 words, then reads them back 8 in flight. */
static void window_roundtrip(struct fixture *f, uint32_t salt)
{
  unsigned tickets[8], t;
  for (uint32_t i = 0; i < 8; i++)
    submit_write(&f->s, SIMTY_DATA_BASE + 4 * i, salt + i, &tickets[i]);
  assert_int_equal(simty_session_room(&f->s), 0);
  for (int i = 0; i < 8; i++) {
    assert_int_equal(simty_session_complete(&f->s, &t), 0);
    assert_int_equal(t, tickets[i]); /* oldest first */
  }
  for (uint32_t i = 0; i < 8; i++)
    submit_read(&f->s, SIMTY_DATA_BASE + 4 * i, &tickets[i]);
  for (uint32_t i = 0; i < 8; i++) {
    assert_int_equal(simty_session_complete(&f->s, &t), 0);
    assert_int_equal(t, tickets[i]);
    assert_int_equal(f->s.payload_len, 4);
    assert_int_equal(simty_get_u32(f->s.payload), salt + i);
  }
}

static void test_window_in_order(void **state)
{
  struct fixture *f = *state;
  assert_int_equal(f->s.window, 8);
  assert_int_equal(simty_session_room(&f->s), 8);
  window_roundtrip(f, 1000);
  assert_int_equal(f->s.max_outstanding, 8);
  assert_int_equal(f->s.retransmits, 0);
  assert_int_equal(f->dev.executed[SIMTY_CMD_WRITE], 8);
  assert_int_equal(f->dev.sequence_answers, 0);
  /* A full window takes no more; an empty one completes nothing. */
  unsigned t;
  for (int i = 0; i < 8; i++)
    submit_write(&f->s, SIMTY_DATA_BASE, 1, &t);
  uint8_t p[8] = {0};
  assert_int_equal(
      simty_session_submit(&f->s, SIMTY_CMD_WRITE, p, 8, 4, 0, NULL),
      SIMTY_EBUSY);
  assert_int_equal(simty_session_request(&f->s, SIMTY_CMD_STATUS, p, 4, 48,
                                         0),
                   SIMTY_EBUSY);
  for (int i = 0; i < 8; i++)
    assert_int_equal(simty_session_complete(&f->s, NULL), 0);
  assert_int_equal(simty_session_complete(&f->s, NULL), SIMTY_EINVAL);
}

/* The first request of a window is lost on the way: the device answers
 * SEQUENCE to the next ones without executing them, the host goes back
 * to the lost one at once (no deadline waited), and every request runs
 * exactly once. */
static void test_lost_request_go_back_n(void **state)
{
  struct fixture *f = *state;
  fake_device_set(&f->dev, &f->dev.drop_requests, 1);
  double t0 = now_s();
  window_roundtrip(f, 2000);
  assert_true(now_s() - t0 < 0.5);
  assert_int_equal(f->dev.dropped, 1);
  assert_int_equal(f->dev.sequence_answers, 7);
  assert_int_equal(f->s.sequence_naks, 1); /* once per expected seq */
  assert_int_equal(f->s.timeouts, 0);
  assert_int_equal(f->s.retransmits, 8);
  assert_int_equal(f->dev.executed[SIMTY_CMD_WRITE], 8);
  assert_int_equal(f->dev.duplicates, 0);
}

/* A lost answer: the device executed the request; the later ones are
 * answered; the oldest passes its deadline and only it goes again, to be
 * answered from the device's cache. */
static void test_lost_answer_from_cache(void **state)
{
  struct fixture *f = *state;
  fake_device_set(&f->dev, &f->dev.drop_responses, 1);
  window_roundtrip(f, 3000);
  assert_int_equal(f->s.timeouts, 1);
  assert_int_equal(f->s.retransmits, 1);
  assert_int_equal(f->dev.duplicates, 1);
  assert_int_equal(f->dev.executed[SIMTY_CMD_WRITE], 8);
}

/* The device got a request damaged (BAD_CRC nak): go back to it at once;
 * the requests behind it, answered SEQUENCE, go again too. */
static void test_bad_crc_nak_window(void **state)
{
  struct fixture *f = *state;
  fake_device_set(&f->dev, &f->dev.hint_bad_crc, 1);
  double t0 = now_s();
  window_roundtrip(f, 4000);
  assert_true(now_s() - t0 < 0.5);
  assert_int_equal(f->s.naks, 1);
  assert_int_equal(f->s.timeouts, 0);
  assert_int_equal(f->dev.executed[SIMTY_CMD_WRITE], 8);
  assert_int_equal(f->dev.duplicates, 0);
}

/* No pile-up: over a link the host believes slow (20 KB/s), a window of
 * 8 frames of 2 KB takes 0.8 s to leave its buffers. The first answer is
 * lost; the retransmission waits until every queued byte has had time to
 * leave (not just the first frame's margin), and only that request goes
 * again. */
static void test_no_pile_up(void **state)
{
  struct fixture *f = *state;
  f->s.t->bytes_per_sec = 20000;
  f->s.t->margin_ms = 50;
  static uint8_t p[4 + 2044];
  unsigned first = f->dev.nlog;
  fake_device_set(&f->dev, &f->dev.drop_responses, 1);
  double t0 = now_s();
  for (uint32_t i = 0; i < 8; i++) {
    simty_put_u32(p, SIMTY_DATA_BASE + 2044 * i);
    assert_int_equal(simty_session_submit(&f->s, SIMTY_CMD_WRITE, p,
                                          sizeof(p), 4, 0, NULL),
                     0);
  }
  for (int i = 0; i < 8; i++)
    assert_int_equal(simty_session_complete(&f->s, NULL), 0);
  assert_true(now_s() - t0 >= 0.8);
  assert_int_equal(f->dev.nlog - first, 9);
  assert_int_equal(f->dev.log_seq[first + 8], f->dev.log_seq[first]);
  double gap = (double)(f->dev.log_ns[first + 8] - f->dev.log_ns[first]) * 1e-9;
  assert_true(gap >= 0.8);
  assert_int_equal(f->dev.duplicates, 1);
  assert_int_equal(f->dev.executed[SIMTY_CMD_WRITE], 8);
}

/* The same slow link, the first request lost: the device answers SEQUENCE
 * to the 7 behind it; each goes again only once the device has answered
 * its first copy. Every request is executed once, 16 frames in all. */
static void test_go_back_n_slow_link(void **state)
{
  struct fixture *f = *state;
  f->s.t->bytes_per_sec = 20000;
  f->s.t->margin_ms = 50;
  static uint8_t p[4 + 2044];
  unsigned first = f->dev.nlog;
  fake_device_set(&f->dev, &f->dev.drop_requests, 1);
  for (uint32_t i = 0; i < 8; i++) {
    simty_put_u32(p, SIMTY_DATA_BASE + 2044 * i);
    assert_int_equal(simty_session_submit(&f->s, SIMTY_CMD_WRITE, p,
                                          sizeof(p), 4, 0, NULL),
                     0);
  }
  for (int i = 0; i < 8; i++)
    assert_int_equal(simty_session_complete(&f->s, NULL), 0);
  assert_int_equal(f->dev.nlog - first, 16);
  assert_int_equal(f->dev.sequence_answers, 7);
  assert_int_equal(f->dev.duplicates, 0);
  assert_int_equal(f->s.timeouts, 0);
  assert_int_equal(f->dev.executed[SIMTY_CMD_WRITE], 8);
}

/* Repeated naks make the advised bulk frame halve, down to 256 bytes;
 * a run of clean answers makes it grow back. */
static void test_noisy_link_shrinks_frames(void **state)
{
  struct fixture *f = *state;
  assert_int_equal(f->s.bulk_payload, SIMTY_MAX_PAYLOAD);
  fake_device_set(&f->dev, &f->dev.hint_bad_crc, 4);
  assert_int_equal(write_word(&f->s, SIMTY_DATA_BASE, 5), 0);
  assert_int_equal(f->s.bulk_payload, SIMTY_MAX_PAYLOAD / 4);
  fake_device_set(&f->dev, &f->dev.hint_bad_crc, 4);
  assert_int_equal(write_word(&f->s, SIMTY_DATA_BASE, 6), 0);
  fake_device_set(&f->dev, &f->dev.hint_bad_crc, 4);
  assert_int_equal(write_word(&f->s, SIMTY_DATA_BASE, 7), 0);
  assert_int_equal(f->s.bulk_payload, SIMTY_MIN_PAYLOAD);
  assert_int_equal(f->s.shrinks, 4);
  for (unsigned i = 0; i < SIMTY_SESSION_CLEAN_RUN; i++)
    assert_int_equal(write_word(&f->s, SIMTY_DATA_BASE, i), 0);
  assert_int_equal(f->s.bulk_payload, 2 * SIMTY_MIN_PAYLOAD);
  for (unsigned i = 0; i < 3 * SIMTY_SESSION_CLEAN_RUN; i++)
    assert_int_equal(write_word(&f->s, SIMTY_DATA_BASE, i), 0);
  assert_int_equal(f->s.bulk_payload, SIMTY_MAX_PAYLOAD);
}

/* ---- The public API over tcp:// ---- */

struct axpb_args {
  uint32_t n;
  int32_t a, b;
  uint32_t in, out;
};

static simty_device *open_tcp(struct fake_device *d)
{
  char uri[64];
  assert_int_equal(fake_device_start_tcp(d), 0);
  snprintf(uri, sizeof(uri), "tcp://127.0.0.1:%d?margin_ms=200", d->port);
  simty_device *dev = NULL;
  int e = simty_open(uri, &dev);
  if (e)
    fprintf(stderr, "open %s: %s\n", uri, simty_last_error(NULL));
  assert_int_equal(e, 0);
  simty_set_console(dev, NULL, NULL);
  return dev;
}

static void run_axpb(simty_device *dev, uint32_t n, struct simty_counters *c)
{
  simty_kernel *k;
  assert_int_equal(simty_kernel_load(dev, KPATH("axpb"), &k), 0);
  int32_t *in = malloc(n * 4), *out = malloc(n * 4);
  for (uint32_t i = 0; i < n; i++)
    in[i] = (int32_t)(i * 2654435761u);
  struct axpb_args args = {n, -3, 11, 0, 0};
  assert_int_equal(simty_malloc(dev, n * 4, &args.in), 0);
  assert_int_equal(simty_malloc(dev, n * 4, &args.out), 0);
  assert_int_equal(simty_write(dev, args.in, in, n * 4), 0);
  struct simty_launch_config cfg = {
      .nthreads = n, .args = &args, .args_size = sizeof(args)};
  int e = simty_run(k, &cfg, 20000);
  if (e)
    fprintf(stderr, "run: %s\n", simty_last_error(dev));
  assert_int_equal(e, 0);
  assert_int_equal(simty_read(dev, args.out, out, n * 4), 0);
  for (uint32_t i = 0; i < n; i++)
    assert_int_equal(out[i], (int32_t)(-3 * (uint32_t)in[i] + 11));
  assert_int_equal(simty_get_counters(dev, c), 0);
  simty_free(dev, args.in);
  simty_free(dev, args.out);
  simty_kernel_free(k);
  free(in);
  free(out);
}

static void test_api_tcp(void **state)
{
  (void)state;
  struct fake_device d = {.warps = 4, .lanes = 4};
  simty_device *dev = open_tcp(&d);
  struct simty_device_info in;
  simty_device_info(dev, &in);
  assert_string_equal(in.backend, "tcp");
  assert_int_equal(in.extensions, 0); /* INFO's field 0: RV32I */
  assert_int_equal(in.xbar, 0);       /* and the full crossbar */
  assert_int_equal(in.protocol_version, SIMTY_PROTO_VERSION);
  assert_int_equal(in.max_payload, SIMTY_MAX_PAYLOAD);
  assert_int_equal(in.clock_hz, 12000000);
  assert_int_equal(in.warps * in.lanes, 16);
  /* A multi-frame transfer. */
  size_t len = 100000;
  uint8_t *buf = malloc(len), *back = malloc(len);
  for (size_t i = 0; i < len; i++)
    buf[i] = (uint8_t)(i * 13 + (i >> 8));
  assert_int_equal(simty_write(dev, SIMTY_DATA_BASE + 1, buf, len), 0);
  assert_int_equal(simty_read(dev, SIMTY_DATA_BASE + 1, back, len), 0);
  assert_memory_equal(buf, back, len);
  assert_int_equal(simty_read(dev, 0x100, back, 4), SIMTY_ERANGE);
  /* The same kernel on the model backend counts the same. */
  struct simty_counters over_link, in_process;
  run_axpb(dev, 1000, &over_link);
  simty_device *model;
  assert_int_equal(simty_open("model", &model), 0);
  run_axpb(model, 1000, &in_process);
  simty_close(model);
  for (unsigned i = 0; i < SIMTY_CTR_COUNT; i++)
    assert_int_equal(simty_counter_value(&over_link, i),
                     simty_counter_value(&in_process, i));
  free(buf);
  free(back);
  simty_close(dev);
  fake_device_stop(&d);
}

/* Misbehaviour during a long transfer and a launch: the data arrive
 * intact and no request runs twice. */
static void test_api_tcp_noisy(void **state)
{
  (void)state;
  struct fake_device d = {.warps = 2, .lanes = 8, .max_payload = 256,
                         .extensions = SIMTY_EXT_M | SIMTY_EXT_ZICNTR |
                                       SIMTY_INFO_EXT_XBAR_ROTATE};
  simty_device *dev = open_tcp(&d);
  struct simty_device_info in;
  simty_device_info(dev, &in);
  assert_int_equal(in.max_payload, 256);
  /* INFO's extensions field reaches the device info */
  assert_int_equal(in.extensions, SIMTY_EXT_M | SIMTY_EXT_ZICNTR);
  /* its bit 8, the rotate crossbar, is the crossbar kind, not an ISA bit */
  assert_int_equal(in.xbar, 1);
  size_t len = 20000;
  uint8_t *buf = malloc(len), *back = malloc(len);
  for (size_t i = 0; i < len; i++)
    buf[i] = (uint8_t)(i * 7);
  unsigned writes_before = d.executed[SIMTY_CMD_WRITE];
  fake_device_set(&d, &d.drop_responses, 1);
  fake_device_set(&d, &d.garbage_before, 5);
  fake_device_set(&d, &d.hint_bad_crc, 3);
  fake_device_set(&d, &d.stale_before, 2);
  assert_int_equal(simty_write(dev, SIMTY_DATA_BASE, buf, len), 0);
  unsigned chunks = (unsigned)((len + 251) / 252);
  assert_int_equal(d.executed[SIMTY_CMD_WRITE] - writes_before, chunks);
  fake_device_set(&d, &d.corrupt_responses, 2);
  assert_int_equal(simty_read(dev, SIMTY_DATA_BASE, back, len), 0);
  assert_memory_equal(buf, back, len);
  unsigned launches = d.executed[SIMTY_CMD_LAUNCH];
  fake_device_set(&d, &d.drop_responses, 2);
  struct simty_counters c;
  run_axpb(dev, 300, &c);
  assert_int_equal(d.executed[SIMTY_CMD_LAUNCH] - launches, 1);
  free(buf);
  free(back);
  simty_close(dev);
  fake_device_stop(&d);
}

struct lines {
  int n;
  char text[16][40];
};

static void collect(void *user, uint32_t tid, const char *line, size_t len)
{
  struct lines *l = user;
  (void)tid;
  if (l->n < 16 && len < 40)
    memcpy(l->text[l->n++], line, len + 1);
}

static void test_api_tcp_launches(void **state)
{
  (void)state;
  struct fake_device d = {.warps = 4, .lanes = 4};
  simty_device *dev = open_tcp(&d);
  simty_kernel *k;
  /* Console lines travel in WAIT answers. */
  assert_int_equal(simty_kernel_load(dev, KPATH("hello"), &k), 0);
  struct lines l = {0};
  simty_set_console(dev, collect, &l);
  struct simty_launch_config cfg = {.nthreads = 3};
  assert_int_equal(simty_run(k, &cfg, 10000), 0);
  assert_int_equal(l.n, 4);
  assert_string_equal(l.text[0], "hello from 0 of 3");
  assert_string_equal(l.text[3], "tail 1");
  simty_set_console(dev, NULL, NULL);
  simty_kernel_free(k);
  /* Faults arrive with their details. */
  assert_int_equal(simty_kernel_load(dev, KPATH("fault"), &k), 0);
  uint32_t out;
  assert_int_equal(simty_malloc(dev, 256, &out), 0);
  uint32_t fa[2] = {21, out};
  cfg = (struct simty_launch_config){
      .nthreads = 40, .args = fa, .args_size = sizeof(fa)};
  assert_int_equal(simty_run(k, &cfg, 10000), SIMTY_EFAULT);
  struct simty_fault f;
  simty_get_fault(dev, &f);
  assert_int_equal(f.cause, SIMTY_FAULT_STORE_OUT_OF_RANGE);
  assert_int_equal(f.tid, 21);
  simty_kernel_free(k);
  /* Wait time-out, abort, and the device works afterwards. */
  assert_int_equal(simty_kernel_load(dev, KPATH("spin"), &k), 0);
  cfg = (struct simty_launch_config){.nthreads = 16};
  assert_int_equal(simty_launch(k, &cfg), 0);
  double t0 = now_s();
  assert_int_equal(simty_wait(dev, 150), SIMTY_ETIMEDOUT);
  double dt = now_s() - t0;
  assert_true(dt >= 0.14 && dt < 2.0);
  assert_int_equal(simty_write(dev, SIMTY_DATA_BASE, fa, 4), SIMTY_EBUSY);
  assert_int_equal(simty_abort(dev), 0);
  assert_int_equal(simty_wait(dev, 1000), SIMTY_EFAULT);
  simty_get_fault(dev, &f);
  assert_int_equal(f.cause, SIMTY_FAULT_ABORTED);
  simty_kernel_free(k);
  struct simty_counters c;
  run_axpb(dev, 50, &c);
  simty_close(dev);
  fake_device_stop(&d);
}

static void test_api_tcp_unplug(void **state)
{
  (void)state;
  struct fake_device d = {.warps = 4, .lanes = 4};
  simty_device *dev = open_tcp(&d);
  fake_device_set(&d, &d.close_after, 1);
  uint32_t w = 5;
  assert_int_equal(simty_write(dev, SIMTY_DATA_BASE, &w, 4), SIMTY_ECLOSED);
  assert_non_null(strstr(simty_last_error(dev), "closed"));
  assert_int_equal(simty_read(dev, SIMTY_DATA_BASE, &w, 4), SIMTY_ECLOSED);
  simty_kernel *k = NULL;
  assert_int_equal(simty_kernel_load(dev, KPATH("axpb"), &k), SIMTY_ECLOSED);
  simty_close(dev);
  fake_device_stop(&d);
}

static simty_device *open_tcp_margin(struct fake_device *d, int margin_ms)
{
  char uri[80];
  assert_int_equal(fake_device_start_tcp(d), 0);
  snprintf(uri, sizeof(uri), "tcp://127.0.0.1:%d?margin_ms=%d", d->port,
           margin_ms);
  simty_device *dev = NULL;
  int e = simty_open(uri, &dev);
  if (e)
    fprintf(stderr, "open %s: %s\n", uri, simty_last_error(NULL));
  assert_int_equal(e, 0);
  simty_set_console(dev, NULL, NULL);
  return dev;
}

static void count_progress(void *user, uint64_t done, uint64_t total)
{
  uint64_t *p = user;
  assert_true(done > p[1] && done <= total);
  p[0]++;
  p[1] = done;
}

/* 1 MiB out and back through a link that loses requests and answers and
 * damages requests at random: byte-exact, in bulk windowed transfers,
 * with progress every 64 KiB. */
static void test_api_bulk_random_losses(void **state)
{
  (void)state;
  struct fake_device d = {.warps = 4, .lanes = 4, .window = 8, .seed = 7};
  simty_device *dev = open_tcp_margin(&d, 100);
  size_t len = 1u << 20;
  uint8_t *buf = malloc(len), *back = malloc(len);
  unsigned x = 99;
  for (size_t i = 0; i < len; i++)
    buf[i] = (uint8_t)(rand_r(&x) >> 7);
  fake_device_set(&d, &d.drop_permille, 5);
  fake_device_set(&d, &d.nak_permille, 5);
  unsigned requests = d.requests;
  uint64_t prog[2] = {0, 0};
  simty_set_progress(dev, count_progress, prog);
  assert_int_equal(simty_write(dev, SIMTY_DATA_BASE, buf, len), 0);
  assert_true(prog[0] >= 15 && prog[0] <= 17);
  assert_int_equal(prog[1], len);
  simty_set_progress(dev, NULL, NULL);
  assert_int_equal(simty_read(dev, SIMTY_DATA_BASE, back, len), 0);
  assert_memory_equal(buf, back, len);
  assert_true(d.dropped > 0);
  /* 257 frames each way, far fewer than one request per word. */
  assert_true(d.requests - requests < 800);
  fake_device_set(&d, &d.drop_permille, 0);
  fake_device_set(&d, &d.nak_permille, 0);
  memset(back, 0, len);
  assert_int_equal(simty_read(dev, SIMTY_DATA_BASE, back, len), 0);
  assert_memory_equal(buf, back, len);
  free(buf);
  free(back);
  simty_close(dev);
  fake_device_stop(&d);
}

/* Naks in a bulk write (the first copies of the 4 frames in flight, then
 * the second copy of the first: two naks the host acts on): the frames
 * that follow are smaller, until a run of clean answers. */
static void test_api_bulk_shrinks(void **state)
{
  (void)state;
  struct fake_device d = {.warps = 4, .lanes = 4, .window = 4};
  simty_device *dev = open_tcp_margin(&d, 100);
  size_t len = 64u * 1024u;
  uint8_t *buf = calloc(len, 1);
  fake_device_set(&d, &d.hint_bad_crc, 5);
  unsigned writes = d.executed[SIMTY_CMD_WRITE];
  assert_int_equal(simty_write(dev, SIMTY_DATA_BASE, buf, len), 0);
  assert_true(d.short_writes >= 8);
  assert_true(d.executed[SIMTY_CMD_WRITE] - writes > (len + 4091) / 4092);
  free(buf);
  simty_close(dev);
  fake_device_stop(&d);
}

/* Every answer to a LAUNCH lost: SIMTY_ELINK, and whether it started is
 * unknown. When the link is back, simty_abort() asks the device (STATUS),
 * finds our launch running and aborts it. */
static void test_api_launch_answer_lost(void **state)
{
  (void)state;
  struct fake_device d = {.warps = 4, .lanes = 4};
  simty_device *dev = open_tcp_margin(&d, 50);
  simty_kernel *k;
  assert_int_equal(simty_kernel_load(dev, KPATH("spin"), &k), 0);
  struct simty_launch_config cfg = {.nthreads = 16};
  /* The LAUNCH's own answers: the argument WRITE sent in the same window
   * must not take some of the drops, or a LAUNCH copy gets through. */
  fake_device_set(&d, &d.drop_command, SIMTY_CMD_LAUNCH);
  fake_device_set(&d, &d.drop_responses, SIMTY_SESSION_ATTEMPTS);
  assert_int_equal(simty_launch(k, &cfg), SIMTY_ELINK);
  assert_non_null(strstr(simty_last_error(dev), "link is lost"));
  assert_non_null(strstr(simty_last_error(dev), "unknown"));
  assert_int_equal(d.executed[SIMTY_CMD_LAUNCH], 1);
  assert_int_equal(simty_abort(dev), 0);
  assert_int_equal(d.executed[SIMTY_CMD_ABORT], 1);
  assert_int_equal(simty_wait(dev, 2000), SIMTY_EFAULT);
  struct simty_fault f;
  simty_get_fault(dev, &f);
  assert_int_equal(f.cause, SIMTY_FAULT_ABORTED);
  /* Again, and this time simty_close() finds it and aborts it. */
  fake_device_set(&d, &d.drop_responses, SIMTY_SESSION_ATTEMPTS);
  assert_int_equal(simty_launch(k, &cfg), SIMTY_ELINK);
  assert_int_equal(d.executed[SIMTY_CMD_LAUNCH], 2);
  simty_kernel_free(k);
  simty_close(dev);
  assert_int_equal(d.executed[SIMTY_CMD_ABORT], 2);
  fake_device_stop(&d);
}

/* The LAUNCH itself lost every time: SIMTY_ELINK; asked later, the device
 * has no such launch, so there is nothing to wait for and the device
 * takes the next launch. */
static void test_api_launch_request_lost(void **state)
{
  (void)state;
  struct fake_device d = {.warps = 4, .lanes = 4};
  simty_device *dev = open_tcp_margin(&d, 50);
  simty_kernel *k;
  assert_int_equal(simty_kernel_load(dev, KPATH("spin"), &k), 0);
  struct simty_launch_config cfg = {.nthreads = 16};
  fake_device_set(&d, &d.drop_command, SIMTY_CMD_LAUNCH); /* not its WRITE */
  fake_device_set(&d, &d.drop_requests, SIMTY_SESSION_ATTEMPTS);
  assert_int_equal(simty_launch(k, &cfg), SIMTY_ELINK);
  assert_int_equal(d.executed[SIMTY_CMD_LAUNCH], 0);
  assert_int_equal(simty_wait(dev, 100), SIMTY_ENOLAUNCH);
  assert_non_null(strstr(simty_last_error(dev), "never reached"));
  assert_int_equal(simty_abort(dev), 0);
  assert_int_equal(d.executed[SIMTY_CMD_ABORT], 0);
  simty_kernel_free(k);
  struct simty_counters c;
  run_axpb(dev, 64, &c);
  simty_close(dev);
  fake_device_stop(&d);
}

/* The link lost while waiting: SIMTY_ELINK, never a launch time-out
 * (simty_run does not turn it into one either). */
static void test_api_wait_link_lost(void **state)
{
  (void)state;
  struct fake_device d = {.warps = 4, .lanes = 4};
  simty_device *dev = open_tcp_margin(&d, 50);
  simty_kernel *k;
  assert_int_equal(simty_kernel_load(dev, KPATH("spin"), &k), 0);
  struct simty_launch_config cfg = {.nthreads = 16};
  fake_device_set(&d, &d.mute_after_launch, 1);
  double t0 = now_s();
  assert_int_equal(simty_run(k, &cfg, 60000), SIMTY_ELINK);
  assert_true(now_s() - t0 < 10.0);
  assert_non_null(strstr(simty_last_error(dev), "link is lost"));
  /* The link comes back: the launch is still ours to abort. */
  fake_device_set(&d, &d.mute_after_launch, 0);
  assert_int_equal(simty_abort(dev), 0);
  assert_int_equal(simty_wait(dev, 2000), SIMTY_EFAULT);
  simty_kernel_free(k);
  simty_close(dev);
  fake_device_stop(&d);
}

/* Regression (issue 15): a kernel that prints forever must not make
 * simty_wait() drain the console past its time-out. The device runs the
 * kernel between requests, faster than CONSOLE requests drain it, for 4 s
 * after the launch. */
static void test_api_wait_chatty_kernel(void **state)
{
  (void)state;
  struct fake_device d = {.warps = 4, .lanes = 4, .run_between = 200000,
                          .run_between_ms = 4000};
  simty_device *dev = open_tcp_margin(&d, 1000);
  simty_kernel *k;
  assert_int_equal(simty_kernel_load(dev, KPATH("chatter"), &k), 0);
  struct simty_launch_config cfg = {.nthreads = 16};
  assert_int_equal(simty_launch(k, &cfg), 0);
  double t0 = now_s();
  assert_int_equal(simty_wait(dev, 300), SIMTY_ETIMEDOUT);
  double dt = now_s() - t0;
  assert_true(dt >= 0.29 && dt < 1.5);
  assert_true(d.executed[SIMTY_CMD_CONSOLE] > 0);
  assert_int_equal(simty_run(k, &cfg, 1), SIMTY_EBUSY);
  assert_int_equal(simty_abort(dev), 0);
  assert_int_equal(simty_wait(dev, 5000), SIMTY_EFAULT);
  simty_kernel_free(k);
  simty_close(dev);
  fake_device_stop(&d);
}

/* `simty run` on a link lost during the wait: an error naming the lost
 * link (exit 1), no "fault: none (cause 0)" line. */
static void test_cli_link_lost(void **state)
{
  (void)state;
  struct fake_device d = {.warps = 4, .lanes = 4};
  d.mute_after_launch = 1;
  assert_int_equal(fake_device_start_tcp(&d), 0);
  char cmd[768];
  snprintf(cmd, sizeof(cmd),
           "%s --device 'tcp://127.0.0.1:%d?margin_ms=50' run %s 2>&1",
           SIMTY_CLI_PATH, d.port, KPATH("spin"));
  FILE *p = popen(cmd, "r");
  assert_non_null(p);
  char out[8192];
  size_t n = fread(out, 1, sizeof(out) - 1, p);
  out[n] = '\0';
  int status = pclose(p);
  fake_device_stop(&d);
  if (!strstr(out, "link is lost"))
    fprintf(stderr, "%s", out);
  assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 1);
  assert_non_null(strstr(out, "link is lost"));
  assert_null(strstr(out, "fault:"));
}

/* `simty run --dump SYMBOL:COUNT` reads the array in one bulk transfer:
 * 32768 words are 32 READ frames, not 32768 requests. */
static void test_cli_dump_bulk(void **state)
{
  (void)state;
  struct fake_device d = {.warps = 4, .lanes = 4};
  assert_int_equal(fake_device_start_tcp(&d), 0);
  char cmd[768];
  snprintf(cmd, sizeof(cmd),
           "%s --device 'tcp://127.0.0.1:%d' run %s --threads 32 "
           "--dump big:32768 2>&1",
           SIMTY_CLI_PATH, d.port, KPATH("big_data"));
  FILE *p = popen(cmd, "r");
  assert_non_null(p);
  size_t cap = 1u << 20, n = 0, got;
  char *out = malloc(cap + 1);
  while ((got = fread(out + n, 1, cap - n, p)) > 0)
    n += got;
  out[n] = '\0';
  int status = pclose(p);
  unsigned reads = d.executed[SIMTY_CMD_READ];
  fake_device_stop(&d);
  assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  assert_non_null(strstr(out, "big[1024] = 1\n"));
  assert_non_null(strstr(out, "big[31744] = 31\n"));
  assert_non_null(strstr(out, "big[32767] = 0\n"));
  assert_int_equal(reads, 32);
  free(out);
}

static void test_api_open_errors(void **state)
{
  (void)state;
  simty_device *dev = NULL;
  /* Nobody listens on the port the fake device had. */
  struct fake_device d = {.warps = 1, .lanes = 1};
  assert_int_equal(fake_device_start_tcp(&d), 0);
  char uri[64];
  snprintf(uri, sizeof(uri), "tcp://127.0.0.1:%d", d.port);
  fake_device_stop(&d);
  assert_int_equal(simty_open(uri, &dev), SIMTY_ENODEV);
  assert_non_null(strstr(simty_last_error(NULL), "connect"));
  /* A device of protocol 2 (no work queue) answers our INFO with
   * BAD_VERSION. */
  struct fake_device v1 = {.warps = 4, .lanes = 4, .proto_version = 2};
  assert_int_equal(fake_device_start_tcp(&v1), 0);
  snprintf(uri, sizeof(uri), "tcp://127.0.0.1:%d", v1.port);
  assert_int_equal(simty_open(uri, &dev), SIMTY_EPROTO);
  const char *msg = simty_last_error(NULL);
  assert_non_null(strstr(msg, "the device speaks protocol 2, this library "
                              "protocol 3"));
  assert_non_null(strstr(msg, "reprogram the board"));
  assert_int_equal(v1.executed[SIMTY_CMD_INFO], 0);
  fake_device_stop(&v1);
  assert_null(dev);
  /* A device that never answers INFO. */
  struct fake_device mute = {.warps = 4, .lanes = 4, .drop_responses = 100};
  assert_int_equal(fake_device_start_tcp(&mute), 0);
  snprintf(uri, sizeof(uri), "tcp://127.0.0.1:%d?margin_ms=20", mute.port);
  assert_int_equal(simty_open(uri, &dev), SIMTY_ETIMEDOUT);
  assert_non_null(strstr(simty_last_error(NULL), "does not answer"));
  assert_int_equal(mute.executed[SIMTY_CMD_INFO], 5);
  fake_device_stop(&mute);
  assert_null(dev);
  /* A device whose INFO names another version. */
  struct fake_device v3 = {.warps = 4, .lanes = 4, .info_version = 4};
  assert_int_equal(fake_device_start_tcp(&v3), 0);
  snprintf(uri, sizeof(uri), "tcp://127.0.0.1:%d", v3.port);
  assert_int_equal(simty_open(uri, &dev), SIMTY_EPROTO);
  assert_non_null(strstr(simty_last_error(NULL),
                         "protocol 4, this library protocol 3"));
  fake_device_stop(&v3);
  assert_null(dev);
}

/* sim: spawns $SIMTY_SIM --fd N; here a fake board binary. */
static void test_api_sim(void **state)
{
  (void)state;
  setenv("SIMTY_SIM", FAKE_SIM, 1);
  simty_device *dev = NULL;
  int e = simty_open("sim", &dev);
  if (e)
    fprintf(stderr, "sim: %s\n", simty_last_error(NULL));
  assert_int_equal(e, 0);
  simty_set_console(dev, NULL, NULL);
  struct simty_device_info in;
  simty_device_info(dev, &in);
  assert_string_equal(in.backend, "sim");
  assert_int_equal(in.warps, 4);
  struct simty_counters c;
  run_axpb(dev, 100, &c);
  simty_close(dev); /* reaps the child */
  /* Options reach the board. */
  assert_int_equal(simty_open("sim?warps=2&lanes=8", &dev), 0);
  simty_device_info(dev, &in);
  assert_int_equal(in.warps, 2);
  assert_int_equal(in.lanes, 8);
  simty_close(dev);
  assert_int_equal(simty_open("sim?cores=2", &dev), SIMTY_EURI);
  setenv("SIMTY_SIM", "/nonexistent/simty-sim", 1);
  assert_int_equal(simty_open("sim", &dev), SIMTY_ENODEV);
  assert_non_null(strstr(simty_last_error(NULL), "/nonexistent/simty-sim"));
  /* A board that exits at once. */
  setenv("SIMTY_SIM", "/bin/false", 1);
  assert_int_equal(simty_open("sim", &dev), SIMTY_ECLOSED);
  assert_non_null(strstr(simty_last_error(NULL), "exited"));
  unsetenv("SIMTY_SIM");
}

/* sim?xbar=full|rotate: the option reaches the board as --xbar, whose
 * INFO must report that kind; bad values and a board that is missing or
 * of the other kind are clear errors. */
static void test_api_sim_xbar(void **state)
{
  (void)state;
  setenv("SIMTY_SIM", FAKE_SIM, 1);
  simty_device *dev = NULL;
  struct simty_device_info in;
  int e = simty_open("sim?xbar=rotate", &dev);
  if (e)
    fprintf(stderr, "sim?xbar=rotate: %s\n", simty_last_error(NULL));
  assert_int_equal(e, 0);
  simty_set_console(dev, NULL, NULL);
  simty_device_info(dev, &in);
  assert_int_equal(in.xbar, 1);
  assert_int_equal(in.warps, 4);
  struct simty_counters c;
  run_axpb(dev, 100, &c); /* the same results on the rotate crossbar */
  simty_close(dev);
  /* with the other options, in any order */
  assert_int_equal(simty_open("sim?warps=2&xbar=rotate&lanes=8", &dev), 0);
  simty_device_info(dev, &in);
  assert_int_equal(in.xbar, 1);
  assert_int_equal(in.warps, 2);
  assert_int_equal(in.lanes, 8);
  simty_close(dev);
  assert_int_equal(simty_open("sim?xbar=full", &dev), 0);
  simty_device_info(dev, &in);
  assert_int_equal(in.xbar, 0);
  simty_close(dev);
  /* bad values: nothing is spawned */
  const char *bad[] = {"sim?xbar=",       "sim?xbar=diagonal",
                       "sim?xbar=Rotate", "sim?xbar=rotatex",
                       "sim?xbar=ful",    "sim?xbar"};
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
    dev = NULL;
    assert_int_equal(simty_open(bad[i], &dev), SIMTY_EURI);
    assert_null(dev);
  }
  assert_int_equal(simty_open("sim?xbar=diagonal", &dev), SIMTY_EURI);
  assert_string_equal(simty_last_error(NULL),
                      "sim?xbar=diagonal: bad value 'diagonal' for sim "
                      "option 'xbar': full or rotate");
  /* a board of the other kind (one that ignores --xbar) */
  setenv("FAKE_SIM_IGNORE_XBAR", "1", 1);
  assert_int_equal(simty_open("sim?xbar=rotate", &dev), SIMTY_ENODEV);
  assert_non_null(
      strstr(simty_last_error(NULL),
             "sim?xbar=rotate: the board reports the full crossbar"));
  assert_null(dev);
  unsetenv("FAKE_SIM_IGNORE_XBAR");
  /* a board that exits at start-up, as the launcher does when the rotate
   * board is not built: the error says how to build it */
  setenv("SIMTY_SIM", "/bin/false", 1);
  assert_int_equal(simty_open("sim?xbar=rotate&warps=8&lanes=8", &dev),
                   SIMTY_ECLOSED);
  assert_non_null(strstr(simty_last_error(NULL), "exited"));
  assert_non_null(
      strstr(simty_last_error(NULL), "'make simty-sim-8x8_rotate'"));
  assert_int_equal(simty_open("sim?xbar=rotate", &dev), SIMTY_ECLOSED);
  assert_non_null(
      strstr(simty_last_error(NULL), "'make simty-sim-4x4_rotate'"));
  /* no such hint for the full board */
  assert_int_equal(simty_open("sim?xbar=full", &dev), SIMTY_ECLOSED);
  assert_null(strstr(simty_last_error(NULL), "make"));
  unsetenv("SIMTY_SIM");
}

/* `simty selftest` says what failed: a data word with a stuck bit. */
static void test_selftest_reports_failure(void **state)
{
  (void)state;
  struct fake_device d = {.warps = 4, .lanes = 4};
  d.stuck_addr = SIMTY_DATA_BASE + 0x40;
  d.stuck_mask = 0x00000100;
  assert_int_equal(fake_device_start_tcp(&d), 0);
  char cmd[512];
  snprintf(cmd, sizeof(cmd),
           "%s --device 'tcp://127.0.0.1:%d?margin_ms=500' selftest 2>&1",
           SIMTY_CLI_PATH, d.port);
  FILE *p = popen(cmd, "r");
  assert_non_null(p);
  char out[8192];
  size_t n = fread(out, 1, sizeof(out) - 1, p);
  out[n] = '\0';
  int status = pclose(p);
  fake_device_stop(&d);
  if (!strstr(out, "memory       FAIL: pattern"))
    fprintf(stderr, "%s", out);
  assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 1);
  assert_non_null(strstr(out, "link         ok"));
  assert_non_null(strstr(out, "memory       FAIL: pattern"));
  assert_non_null(strstr(out, "at 0x10000040"));
  assert_non_null(strstr(out, "selftest: FAIL (1 of 9 steps failed)"));
}

int main(void)
{
  const struct CMUnitTest session_tests[] = {
      cmocka_unit_test_setup_teardown(test_info_and_roundtrip, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_lost_response, setup, teardown),
      cmocka_unit_test_setup_teardown(test_corrupt_response, setup, teardown),
      cmocka_unit_test_setup_teardown(test_garbage_resync, setup, teardown),
      cmocka_unit_test_setup_teardown(test_wrong_sequence, setup, teardown),
      cmocka_unit_test_setup_teardown(test_bad_crc_hint, setup, teardown),
      cmocka_unit_test_setup_teardown(test_split_response, setup, teardown),
      cmocka_unit_test_setup_teardown(test_link_lost, setup, teardown),
      cmocka_unit_test_setup_teardown(test_backoff, setup, teardown),
      cmocka_unit_test_setup_teardown(test_window_in_order, setup_window,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_lost_request_go_back_n,
                                      setup_window, teardown),
      cmocka_unit_test_setup_teardown(test_lost_answer_from_cache,
                                      setup_window, teardown),
      cmocka_unit_test_setup_teardown(test_bad_crc_nak_window, setup_window,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_no_pile_up, setup_window,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_go_back_n_slow_link, setup_window,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_noisy_link_shrinks_frames,
                                      setup_window, teardown),
      cmocka_unit_test_setup_teardown(test_unplug, setup, teardown),
      cmocka_unit_test_setup_teardown(test_error_status, setup, teardown),
  };
  const struct CMUnitTest api_tests[] = {
      cmocka_unit_test(test_api_tcp),
      cmocka_unit_test(test_api_tcp_noisy),
      cmocka_unit_test(test_api_tcp_launches),
      cmocka_unit_test(test_api_tcp_unplug),
      cmocka_unit_test(test_api_bulk_random_losses),
      cmocka_unit_test(test_api_bulk_shrinks),
      cmocka_unit_test(test_api_launch_answer_lost),
      cmocka_unit_test(test_api_launch_request_lost),
      cmocka_unit_test(test_api_wait_link_lost),
      cmocka_unit_test(test_api_wait_chatty_kernel),
      cmocka_unit_test(test_cli_link_lost),
      cmocka_unit_test(test_cli_dump_bulk),
      cmocka_unit_test(test_api_open_errors),
      cmocka_unit_test(test_api_sim),
      cmocka_unit_test(test_api_sim_xbar),
      cmocka_unit_test(test_selftest_reports_failure),
  };
  int failed = cmocka_run_group_tests_name("link-session", session_tests,
                                           NULL, NULL);
  failed += cmocka_run_group_tests_name("link-api", api_tests, NULL, NULL);
  return failed;
}
