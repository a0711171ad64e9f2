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

static void test_timeout(void **state)
{
  struct fixture *f = *state;
  fake_device_set(&f->dev, &f->dev.drop_responses, 100);
  double t0 = now_s();
  assert_int_equal(write_word(&f->s, SIMTY_DATA_BASE, 1), SIMTY_ETIMEDOUT);
  double dt = now_s() - t0;
  assert_true(dt >= 0.45 && dt < 3.0); /* 5 attempts of 0.1 s */
  assert_int_equal(f->s.retransmits, SIMTY_SESSION_ATTEMPTS - 1);
  assert_non_null(strstr(f->s.err, "after 5 attempts"));
  fake_device_set(&f->dev, &f->dev.drop_responses, 0);
  assert_int_equal(write_word(&f->s, SIMTY_DATA_BASE, 2), 0);
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
  struct fake_device d = {.warps = 2, .lanes = 8, .max_payload = 256};
  simty_device *dev = open_tcp(&d);
  struct simty_device_info in;
  simty_device_info(dev, &in);
  assert_int_equal(in.max_payload, 256);
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
  /* A device with another protocol version. */
  struct fake_device v2 = {.warps = 4, .lanes = 4, .proto_version = 2};
  assert_int_equal(fake_device_start_tcp(&v2), 0);
  snprintf(uri, sizeof(uri), "tcp://127.0.0.1:%d", v2.port);
  assert_int_equal(simty_open(uri, &dev), SIMTY_EPROTO);
  assert_non_null(strstr(simty_last_error(NULL), "version 2"));
  fake_device_stop(&v2);
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
      cmocka_unit_test_setup_teardown(test_timeout, setup, teardown),
      cmocka_unit_test_setup_teardown(test_unplug, setup, teardown),
      cmocka_unit_test_setup_teardown(test_error_status, setup, teardown),
  };
  const struct CMUnitTest api_tests[] = {
      cmocka_unit_test(test_api_tcp),
      cmocka_unit_test(test_api_tcp_noisy),
      cmocka_unit_test(test_api_tcp_launches),
      cmocka_unit_test(test_api_tcp_unplug),
      cmocka_unit_test(test_api_open_errors),
      cmocka_unit_test(test_api_sim),
      cmocka_unit_test(test_selftest_reports_failure),
  };
  int failed = cmocka_run_group_tests_name("link-session", session_tests,
                                           NULL, NULL);
  failed += cmocka_run_group_tests_name("link-api", api_tests, NULL, NULL);
  return failed;
}
