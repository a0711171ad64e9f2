/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_firmware.c - cmocka tests of the controller firmware (protocol
 * engine and grid dispatcher) built for the host against the mock SoC:
 * scripted request frames in (wire bytes into the mocked link engine),
 * response frames and register traffic out. Every test opens a session
 * with INFO, as a host does (protocol v2: the window starts after it).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fw.h"
#include "fw_host.h"
#include "mock_hal.h"
#include "simty_mmio.h"

#define POLLS 20000u
/* The mock engine has 4 TX slots; a build may use fewer (FW_MAX_WINDOW:
 * the suite also runs on the small configuration). */
#define WINDOW (4u < FW_MAX_WINDOW ? 4u : FW_MAX_WINDOW)
/* Largest WRITE data and console answer of this build. */
#define MAX_WRITE (FW_MAX_PAYLOAD - SIMTY_WRITE_DATA)
#define CONSOLE_ROOM ((FW_MAX_PAYLOAD - SIMTY_CS_HEADER) / SIMTY_CS_RECORD_SIZE)
#define ENTRY (SIMTY_CODE_BASE + 0x40u)
#define ARGS (SIMTY_DATA_BASE + 0x100u)
#define DATA_END (SIMTY_DATA_BASE + 0x1000u)

static struct fw fw;
static struct fw_host host;

static int setup_core(uint32_t warps, uint32_t lanes)
{
  mock_reset(warps, lanes);
  fw_init(&fw);
  fw_host_init(&host, &fw);
  assert_int_equal(fw_host_open(&host, POLLS), SIMTY_ST_OK);
  return 0;
}

static int setup(void **state)
{
  (void)state;
  return setup_core(4, 4);
}

static int teardown(void **state)
{
  (void)state;
  if (mock.violations)
    fprintf(stderr, "mock violation: %s\n", mock.violation);
  assert_int_equal(mock.violations, 0);
  return 0;
}

/* ---- request helpers ---- */

static int call(uint8_t cmd, const void *p, size_t n)
{
  return fw_host_call(&host, cmd, p, n, POLLS);
}

static int do_write(uint32_t addr, const void *data, size_t n)
{
  static uint8_t p[SIMTY_MAX_PAYLOAD + 64];
  simty_put_u32(p, addr);
  memcpy(p + 4, data, n);
  return call(SIMTY_CMD_WRITE, p, n + 4);
}

static int do_read(uint32_t addr, uint32_t n)
{
  uint8_t p[8];
  simty_put_u32(p, addr);
  simty_put_u32(p + 4, n);
  return call(SIMTY_CMD_READ, p, 8);
}

static int do_launch(uint32_t entry, uint32_t nthreads, uint32_t data_end,
                     uint64_t timeout, uint8_t stack_log2)
{
  uint8_t p[SIMTY_LAUNCH_SIZE] = {0};
  simty_put_u32(p + SIMTY_LAUNCH_ENTRY, entry);
  simty_put_u32(p + SIMTY_LAUNCH_NTHREADS, nthreads);
  simty_put_u32(p + SIMTY_LAUNCH_ARGS, ARGS);
  simty_put_u32(p + SIMTY_LAUNCH_DATA_END, data_end);
  simty_put_u64(p + SIMTY_LAUNCH_TIMEOUT, timeout);
  p[SIMTY_LAUNCH_STACK_LOG2] = stack_log2;
  return call(SIMTY_CMD_LAUNCH, p, sizeof p);
}

static int launch(uint32_t nthreads, uint64_t timeout)
{
  return do_launch(ENTRY, nthreads, DATA_END, timeout, 8);
}

static int do_wait(uint32_t ms, uint32_t flags)
{
  uint8_t p[8];
  simty_put_u32(p, ms);
  simty_put_u32(p + 4, flags);
  return call(SIMTY_CMD_WAIT, p, 8);
}

static int do_status(uint32_t flags)
{
  uint8_t p[4];
  simty_put_u32(p, flags);
  return call(SIMTY_CMD_STATUS, p, 4);
}

static uint32_t detail(void)
{
  assert_int_equal(host.length, SIMTY_ERROR_PAYLOAD);
  return simty_get_u32(host.payload);
}

static uint8_t sr_state(void)
{
  return host.payload[SIMTY_SR_STATE];
}
static uint8_t sr_cause(void)
{
  return host.payload[SIMTY_SR_CAUSE];
}
static uint32_t sr_u32(unsigned off)
{
  return simty_get_u32(host.payload + off);
}

/* Waits (repeating WAIT) until the launch is no longer running. */
static void wait_end(void)
{
  for (int i = 0; i < 100; i++) {
    assert_int_equal(do_wait(1000, 0), SIMTY_ST_OK);
    if (sr_state() != SIMTY_STATE_RUNNING)
      return;
  }
  fail_msg("launch never ended");
}

/* Every logical id in [0, nthreads) dispatched exactly once, in blocks of
 * LANES consecutive ids in increasing order, with the right masks. */
static void check_dispatches(size_t first, uint32_t nthreads, uint32_t lanes)
{
  uint32_t base = 0;
  size_t i = first;
  for (; base < nthreads; i++) {
    assert_true(i < mock.nlog);
    const struct mock_dispatch *d = &mock.log[i];
    uint32_t n = nthreads - base < lanes ? nthreads - base : lanes;
    assert_int_equal(d->base, base);
    assert_int_equal(d->mask, n == 32 ? 0xFFFFFFFFu : (1u << n) - 1u);
    assert_int_equal(d->pc, ENTRY);
    assert_int_equal(d->nthreads, nthreads);
    assert_int_equal(d->args, ARGS);
    assert_int_equal(d->stack_top, SIMTY_DATA_BASE + MOCK_DATA_SIZE);
    assert_int_equal(d->stack_log2, 8);
    base += n;
  }
  assert_int_equal(i, mock.nlog);
}

/* ---- tests ---- */

static void test_info(void **state)
{
  (void)state;
  setup_core(8, 16);
  assert_int_equal(call(SIMTY_CMD_INFO, NULL, 0), SIMTY_ST_OK);
  assert_int_equal(host.length, SIMTY_INFO_SIZE);
  const uint8_t *p = host.payload;
  assert_int_equal(p[SIMTY_INFO_PROTO_VERSION], SIMTY_PROTO_VERSION);
  assert_int_equal(p[SIMTY_INFO_COUNTER_COUNT], SIMTY_CTR_COUNT);
  assert_int_equal(simty_get_u16(p + SIMTY_INFO_MAX_PAYLOAD), FW_MAX_PAYLOAD);
  assert_int_equal(simty_get_u16(p + SIMTY_INFO_WARPS), 8);
  assert_int_equal(simty_get_u16(p + SIMTY_INFO_LANES), 16);
  assert_int_equal(simty_get_u32(p + SIMTY_INFO_CODE_BASE), SIMTY_CODE_BASE);
  assert_int_equal(simty_get_u32(p + SIMTY_INFO_CODE_SIZE), MOCK_CODE_SIZE);
  assert_int_equal(simty_get_u32(p + SIMTY_INFO_DATA_BASE), SIMTY_DATA_BASE);
  assert_int_equal(simty_get_u32(p + SIMTY_INFO_DATA_SIZE), MOCK_DATA_SIZE);
  assert_int_equal(simty_get_u32(p + SIMTY_INFO_CLOCK_HZ), 1000000u);
  assert_int_equal(simty_get_u32(p + SIMTY_INFO_FW_VERSION), FW_VERSION);
  /* Version 2 fields: the link as the SoC reports it. */
  assert_int_equal(simty_get_u32(p + SIMTY_INFO_BAUD), 3000000u);
  assert_int_equal(simty_get_u16(p + SIMTY_INFO_WINDOW), WINDOW);
  assert_int_equal(simty_get_u16(p + SIMTY_INFO_LINK_FLAGS),
                   SIMTY_LINK_FLAG_ENGINE);
  assert_int_equal(simty_get_u32(p + SIMTY_INFO_HW_VERSION), 0x000C0000u);
  assert_int_equal(simty_get_u32(p + SIMTY_INFO_HW_BUILD), 0x5EED1234u);
  /* Version 3, 0.2: the core's extensions, from the SoC's register. */
  assert_int_equal(simty_get_u16(p + SIMTY_INFO_EXTENSIONS),
                   SIMTY_EXT_M | SIMTY_EXT_ZICNTR);
  assert_true(mock.link_enabled);
  /* The register's bit 8 (the rotate crossbar) reaches INFO unchanged. */
  mock.extensions |= SIMTY_INFO_EXT_XBAR_ROTATE;
  assert_int_equal(call(SIMTY_CMD_INFO, NULL, 0), SIMTY_ST_OK);
  assert_int_equal(simty_get_u16(host.payload + SIMTY_INFO_EXTENSIONS),
                   SIMTY_EXT_M | SIMTY_EXT_ZICNTR | SIMTY_INFO_EXT_XBAR_ROTATE);
  mock.extensions &= ~SIMTY_INFO_EXT_XBAR_ROTATE;
  /* The response carries the request's seq and the response flag. */
  assert_int_equal(host.resp_seq, host.seq - 1);
  assert_int_equal(host.command, SIMTY_CMD_INFO | SIMTY_RESPONSE_FLAG);
}

static void test_write_read_round_trip(void **state)
{
  (void)state;
  static uint8_t buf[SIMTY_MAX_PAYLOAD];
  uint32_t seed = 7;
  for (size_t i = 0; i < sizeof buf; i++) {
    seed = seed * 1103515245u + 12345u;
    buf[i] = (uint8_t)(seed >> 16);
  }
  const size_t max_write = FW_MAX_PAYLOAD - SIMTY_WRITE_DATA;
  /* Largest write, odd address, in DATA; small one at the end of CODE. */
  uint32_t a = SIMTY_DATA_BASE + 0x1003u;
  assert_int_equal(do_write(a, buf, max_write), SIMTY_ST_OK);
  assert_int_equal(host.length, 0);
  assert_memory_equal(mock.data + 0x1003u, buf, max_write);
  uint32_t c = SIMTY_CODE_BASE + MOCK_CODE_SIZE - 5u;
  uint64_t writes0 = mock.link_writes;
  assert_int_equal(do_write(c, buf + 11, 5), SIMTY_ST_OK);
  assert_memory_equal(mock.code + MOCK_CODE_SIZE - 5u, buf + 11, 5);

  assert_int_equal(do_read(a, FW_MAX_PAYLOAD), SIMTY_ST_OK);
  assert_int_equal(host.length, FW_MAX_PAYLOAD);
  assert_memory_equal(host.payload, buf, max_write);
  assert_int_equal(do_read(c, 5), SIMTY_ST_OK);
  assert_memory_equal(host.payload, buf + 11, 5);
  /* Last byte of DATA. */
  assert_int_equal(do_read(SIMTY_DATA_BASE + MOCK_DATA_SIZE - 1u, 1),
                   SIMTY_ST_OK);
  assert_int_equal(host.length, 1);
  /* Data moved by the copy engine only: the firmware read no payload
   * word of a WRITE (header and address only) and wrote none of a READ
   * answer's data. */
  assert_int_equal(mock.copies, 5);
  assert_int_equal(mock.rx_payload_reads, 0);
  assert_int_equal(mock.link_writes - writes0, 4 * 2); /* 4 headers */
}

static void test_protected_and_out_of_range(void **state)
{
  (void)state;
  static uint8_t code0[MOCK_CODE_SIZE], data0[MOCK_DATA_SIZE];
  memcpy(code0, mock.code, sizeof code0);
  memcpy(data0, mock.data, sizeof data0);
  uint8_t junk[64];
  memset(junk, 0xA5, sizeof junk);
  static const struct {
    uint32_t addr, n;
    int want;
  } cases[] = {
      {SIMTY_FW_BASE, 4, SIMTY_ST_PROTECTED},
      {SIMTY_FW_BASE + 0x1234u, 1, SIMTY_ST_PROTECTED},
      {SIMTY_CODE_BASE - 8u, 16, SIMTY_ST_PROTECTED}, /* FW into CODE */
      {SIMTY_MMIO_BASE, 4, SIMTY_ST_PROTECTED},
      {SIMTY_MMIO_BASE + SIMTY_MMIO_UART_DATA, 1, SIMTY_ST_PROTECTED},
      {SIMTY_MMIO_BASE - 4u, 8, SIMTY_ST_PROTECTED}, /* into MMIO */
      {SIMTY_CODE_BASE + MOCK_CODE_SIZE - 4u, 8, SIMTY_ST_OUT_OF_RANGE},
      {SIMTY_CODE_BASE + MOCK_CODE_SIZE, 1, SIMTY_ST_OUT_OF_RANGE},
      {SIMTY_DATA_BASE + MOCK_DATA_SIZE - 2u, 4, SIMTY_ST_OUT_OF_RANGE},
      {SIMTY_DATA_BASE - 1u, 2, SIMTY_ST_OUT_OF_RANGE},
      {SIMTY_CONSOLE_ADDR, 4, SIMTY_ST_OUT_OF_RANGE},
      {0xFFFFFFF0u, 32, SIMTY_ST_OUT_OF_RANGE}, /* wraps */
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    assert_int_equal(do_write(cases[i].addr, junk, cases[i].n), cases[i].want);
    assert_int_equal(detail(), cases[i].addr);
    assert_int_equal(do_read(cases[i].addr, cases[i].n), cases[i].want);
    assert_int_equal(detail(), cases[i].addr);
  }
  assert_int_equal(mock.copies, 0);
  assert_memory_equal(mock.code, code0, sizeof code0);
  assert_memory_equal(mock.data, data0, sizeof data0);
}

static void test_bad_requests(void **state)
{
  (void)state;
  uint8_t p[16] = {0};
  assert_int_equal(call(SIMTY_CMD_INFO, p, 1), SIMTY_ST_BAD_LENGTH);
  assert_int_equal(call(SIMTY_CMD_WRITE, p, 4), SIMTY_ST_BAD_LENGTH);
  assert_int_equal(call(SIMTY_CMD_READ, p, 7), SIMTY_ST_BAD_LENGTH);
  assert_int_equal(do_read(SIMTY_DATA_BASE, 0), SIMTY_ST_BAD_LENGTH);
  assert_int_equal(do_read(SIMTY_DATA_BASE, FW_MAX_PAYLOAD + 1u),
                   SIMTY_ST_BAD_LENGTH);
  assert_int_equal(detail(), FW_MAX_PAYLOAD);
  assert_int_equal(call(SIMTY_CMD_LAUNCH, p, 16), SIMTY_ST_BAD_LENGTH);
  assert_int_equal(detail(), SIMTY_LAUNCH_SIZE);
  assert_int_equal(call(SIMTY_CMD_WAIT, p, 4), SIMTY_ST_BAD_LENGTH);
  assert_int_equal(call(SIMTY_CMD_ABORT, p, 4), SIMTY_ST_BAD_LENGTH);
  assert_int_equal(call(0x55, p, 0), SIMTY_ST_UNKNOWN_COMMAND);
  assert_int_equal(detail(), 0x55);
  /* A response-typed frame is not a request. */
  assert_int_equal(call(SIMTY_CMD_INFO | 0x80, NULL, 0),
                   SIMTY_ST_UNKNOWN_COMMAND);
  /* Unknown flag bits. */
  assert_int_equal(do_status(0x4), SIMTY_ST_BAD_ARGUMENT);
  assert_int_equal(do_wait(1, 0x100), SIMTY_ST_BAD_ARGUMENT);
  /* Another protocol version (a v1 host): the device answers in its own,
   * executes nothing and keeps its window. */
  static uint8_t frame[64], wire[80];
  uint32_t requests = fw.requests;
  size_t n = simty_frame_seal(frame, SIMTY_CMD_INFO, 77, 0, 0);
  frame[SIMTY_HDR_VERSION] = 1;
  simty_put_u32(frame + SIMTY_HDR_SIZE, simty_crc32(0, frame, SIMTY_HDR_SIZE));
  mock_uart_push(wire, simty_link_encode(frame, n, wire));
  assert_true(fw_host_receive(&host, POLLS));
  assert_int_equal(host.status, SIMTY_ST_BAD_VERSION);
  assert_int_equal(host.resp_seq, 77);
  assert_int_equal(host.command, SIMTY_CMD_INFO | SIMTY_RESPONSE_FLAG);
  assert_int_equal(host.dec.buf[SIMTY_HDR_VERSION], SIMTY_PROTO_VERSION);
  assert_int_equal(detail(), SIMTY_PROTO_VERSION);
  assert_int_equal(fw.requests, requests);
  assert_int_equal(call(SIMTY_CMD_STATUS, (uint8_t[4]){0}, 4), SIMTY_ST_OK);
}

/* More threads than the hardware holds, with blocks that take different
 * times: the firmware programs the sequencer once (every logical id
 * exactly once, continuous, right masks and launch inputs), ends the
 * launch at the first check that shows DONE, and reports the sequencer's
 * counts. */
static void check_waves(uint32_t warps, uint32_t lanes, uint32_t nthreads,
                        uint32_t go_delay)
{
  setup_core(warps, lanes);
  mock.run_polls = 2;
  mock.run_jitter = 9;
  mock.go_delay = go_delay;
  uint32_t starts = mock.seq_starts, stops = mock.seq_stops;
  uint64_t done_reads = mock.done_reads;
  assert_int_equal(launch(nthreads, 0), SIMTY_ST_OK);
  assert_int_equal(mock.seq_starts, starts + 1);
  assert_int_equal(simty_get_u32(host.payload + SIMTY_LAUNCHED_ID), 1);
  assert_int_equal(simty_get_u32(host.payload + SIMTY_LAUNCHED_STACK_TOP),
                   SIMTY_DATA_BASE + MOCK_DATA_SIZE);
  wait_end();
  assert_int_equal(sr_state(), SIMTY_STATE_DONE);
  assert_int_equal(sr_cause(), SIMTY_FAULT_NONE);
  assert_int_equal(sr_u32(SIMTY_SR_NTHREADS), nthreads);
  assert_int_equal(sr_u32(SIMTY_SR_DISPATCHED), nthreads);
  assert_int_equal(sr_u32(SIMTY_SR_DONE), nthreads);
  assert_true(simty_get_u64(host.payload + SIMTY_SR_ELAPSED) > 0);
  check_dispatches(0, nthreads, lanes);
  assert_int_equal(mock.nlog, (nthreads + lanes - 1) / lanes);
  assert_int_equal(mock.ctr[SIMTY_CTR_thread_insts], nthreads);
  assert_false(mock.active);
  /* Ended at the first check that showed DONE, without a STOP. */
  assert_int_equal(mock.done_reads, done_reads + 1);
  assert_int_equal(mock.seq_stops, stops);
  assert_int_equal(mock.seq_first, 0);

  /* Waves: more blocks than warps, so warps were reused, and the order
   * in which warps were refilled depended on when they freed. */
  if (mock.nlog > warps && warps > 1) {
    unsigned reused_out_of_order = 0;
    for (size_t i = warps; i < mock.nlog; i++)
      if (mock.log[i].warp != i % warps)
        reused_out_of_order++;
    assert_true(reused_out_of_order > 0);
  }
}

static void test_launch_waves(void **state)
{
  (void)state;
  check_waves(4, 4, 1001, 0);    /* partial last block of 1 */
  check_waves(4, 4, 1003, 3);    /* slow handshake, last block of 3 */
  check_waves(3, 8, 5, 0);       /* fewer threads than one warp */
  check_waves(1, 1, 50, 0);      /* 1 x 1 core */
  check_waves(32, 32, 70000, 0); /* widest core, 2188 blocks */
  check_waves(2, 32, 63, 1);
  assert_int_equal(mock.violations, 0);
}

/* A core slow to take blocks (the sequencer's offers wait): the firmware
 * still waits for the sequencer's DONE, whatever the order of ends. */
static void test_refill_with_slow_handshake(void **state)
{
  (void)state;
  setup_core(4, 4);
  mock.run_polls = 5;
  mock.run_jitter = 7;
  mock.go_delay = 6u;
  assert_int_equal(launch(4 * 4 * 40, 0), SIMTY_ST_OK);
  wait_end();
  assert_int_equal(sr_state(), SIMTY_STATE_DONE);
  check_dispatches(0, 640, 4);
  unsigned lagged = 0;
  for (size_t i = 0; i < mock.nlog; i++) {
    /* Each offer waits go_delay steps; a warp may queue behind the
     * offers of the others freed in the same step. */
    assert_true(mock.log[i].lag <= 4u * (mock.go_delay + 1u));
    lagged += mock.log[i].lag != 0;
  }
  assert_true(lagged > 0);
}

/* Frames handled while warps run do not hold up their refills: a long
 * CONSOLE answer is written to its TX slot in chunks with a refill check
 * between them, and the blocks stay in order and continuous. */
static void test_refill_during_link_traffic(void **state)
{
  (void)state;
  setup_core(4, 4);
  mock.run_polls = 0; /* a block ends by the next WARP_BUSY read */
  const uint32_t nthreads = 4u * 1000u + 3u;
  assert_int_equal(launch(nthreads, 0), SIMTY_ST_OK);
  for (uint32_t t = 0; t < 800; t++)
    mock_console_push(t, (uint8_t)t);
  static uint8_t big[MAX_WRITE < 2000 ? MAX_WRITE : 2000];
  memset(big, 0xA5, sizeof big);
  simty_put_u32(big, SIMTY_DATA_BASE);
  uint16_t w = fw_host_send(&host, SIMTY_CMD_WRITE, big, sizeof big);
  uint16_t c = fw_host_send(&host, SIMTY_CMD_CONSOLE, (uint8_t[4]){0}, 4);
  uint64_t writes0 = mock.link_writes;
  assert_true(fw_host_receive(&host, POLLS)); /* queued behind the launch */
  assert_int_equal(host.resp_seq, w);
  assert_int_equal(host.status, SIMTY_ST_OK);
  assert_true(fw_host_receive(&host, POLLS));
  assert_int_equal(host.resp_seq, c);
  uint16_t count = simty_get_u16(host.payload + SIMTY_CS_COUNT);
  assert_int_equal(count, CONSOLE_ROOM < 800 ? CONSOLE_ROOM : 800);
  uint64_t writes1 = mock.link_writes;
  /* Refills between the chunks of the answer, not only before or after. */
  unsigned inside = 0;
  for (size_t i = 0; i < mock.nlog; i++)
    if (mock.log[i].link_at > writes0 + 8u && mock.log[i].link_at < writes1)
      inside++;
  assert_true(inside >= count / FW_CONSOLE_CHUNK - 1u);
  wait_end();
  assert_int_equal(sr_state(), SIMTY_STATE_DONE);
  assert_int_equal(sr_u32(SIMTY_SR_DONE), nthreads);
  check_dispatches(0, nthreads, 4);
  /* The queued WRITE ran once the launch had ended. */
  for (size_t i = 4; i < sizeof big; i++)
    assert_int_equal(mock.data[i - 4], 0xA5);
  /* The entry is written once per launch and kept by the register. */
  for (size_t i = 0; i < mock.nlog; i++)
    assert_int_equal(mock.log[i].pc, ENTRY);
  assert_int_equal(mock.violations, 0);
}

static void test_largest_launch_accepted(void **state)
{
  (void)state;
  setup_core(4, 32);
  mock.run_polls = 0;
  assert_int_equal(launch(SIMTY_MAX_THREADS + 1u, 0), SIMTY_ST_BAD_ARGUMENT);
  assert_int_equal(detail(), SIMTY_LAUNCH_NTHREADS);
  assert_int_equal(launch(0, 0), SIMTY_ST_BAD_ARGUMENT);
  assert_int_equal(launch(SIMTY_MAX_THREADS, 0), SIMTY_ST_OK);
  /* Let it run a while, check the ids so far, then abort: the sequencer
   * is stopped and hands out nothing more. */
  for (int i = 0; i < 3000; i++)
    fw_poll(&fw);
  assert_int_equal(do_status(0), SIMTY_ST_OK);
  assert_int_equal(sr_state(), SIMTY_STATE_RUNNING);
  assert_true(sr_u32(SIMTY_SR_DONE) <= sr_u32(SIMTY_SR_DISPATCHED));
  assert_true(sr_u32(SIMTY_SR_DONE) > 0);
  uint32_t stops = mock.seq_stops;
  assert_int_equal(call(SIMTY_CMD_ABORT, NULL, 0), SIMTY_ST_OK);
  assert_int_equal(sr_state(), SIMTY_STATE_FAULT);
  assert_int_equal(sr_cause(), SIMTY_FAULT_ABORTED);
  assert_int_equal(mock.seq_stops, stops + 1);
  assert_true(mock.halt);
  size_t n = mock.nlog;
  for (int i = 0; i < 100; i++)
    fw_poll(&fw);
  assert_int_equal(mock.nlog, n);
  assert_true(mock.nlog > 1000);
  assert_int_equal(sr_u32(SIMTY_SR_DONE), mock.seq_threads_done);
  for (size_t i = 0; i < mock.nlog; i++) {
    assert_int_equal(mock.log[i].base, 32u * i);
    assert_int_equal(mock.log[i].mask, 0xFFFFFFFFu);
    assert_int_equal(mock.log[i].nthreads, SIMTY_MAX_THREADS);
  }
  assert_int_equal(sr_u32(SIMTY_SR_DISPATCHED), 32u * mock.nlog);
}

static void test_launch_checks(void **state)
{
  (void)state;
  const uint32_t top = SIMTY_DATA_BASE + MOCK_DATA_SIZE;
  /* 16 threads with 2^12-byte stacks need 64 KiB under the top. */
  const uint32_t lowest = top - (16u << 12);
  assert_int_equal(do_launch(ENTRY, 1, lowest + 1u, 0, 12),
                   SIMTY_ST_STACK_OVERLAP);
  assert_int_equal(detail(), lowest);
  assert_int_equal(do_launch(ENTRY, 1, SIMTY_DATA_BASE + 0x20000u, 0, 20),
                   SIMTY_ST_STACK_OVERLAP);
  assert_int_equal(do_launch(ENTRY, 1, lowest, 0, 12), SIMTY_ST_OK);
  wait_end();
  assert_int_equal(sr_state(), SIMTY_STATE_DONE);
  assert_int_equal(do_launch(ENTRY, 1, DATA_END, 0, 5), SIMTY_ST_BAD_ARGUMENT);
  assert_int_equal(detail(), SIMTY_LAUNCH_STACK_LOG2);
  assert_int_equal(do_launch(ENTRY, 1, DATA_END, 0, 21), SIMTY_ST_BAD_ARGUMENT);
  assert_int_equal(do_launch(ENTRY + 2u, 1, DATA_END, 0, 8),
                   SIMTY_ST_BAD_ARGUMENT);
  assert_int_equal(detail(), SIMTY_LAUNCH_ENTRY);
  assert_int_equal(
      do_launch(SIMTY_CODE_BASE + MOCK_CODE_SIZE, 1, DATA_END, 0, 8),
      SIMTY_ST_BAD_ARGUMENT);
  assert_int_equal(do_launch(SIMTY_FW_BASE, 1, DATA_END, 0, 8),
                   SIMTY_ST_BAD_ARGUMENT);
  assert_int_equal(do_launch(ENTRY, 1, SIMTY_DATA_BASE - 4u, 0, 8),
                   SIMTY_ST_BAD_ARGUMENT);
  assert_int_equal(detail(), SIMTY_LAUNCH_DATA_END);
  assert_int_equal(do_launch(ENTRY, 1, top + 4u, 0, 8), SIMTY_ST_BAD_ARGUMENT);
  /* None of the refused launches dispatched anything. */
  assert_int_equal(mock.nlog, 1);
}

static void check_next_launch_works(uint32_t expected_id)
{
  size_t first = mock.nlog;
  uint32_t resets = mock.resets;
  assert_int_equal(launch(77, 0), SIMTY_ST_OK);
  assert_int_equal(simty_get_u32(host.payload + SIMTY_LAUNCHED_ID),
                   expected_id);
  assert_int_equal(mock.resets, resets + 1);
  assert_false(mock.halt);
  wait_end();
  assert_int_equal(sr_state(), SIMTY_STATE_DONE);
  assert_int_equal(sr_u32(SIMTY_SR_LAUNCH_ID), expected_id);
  assert_int_equal(sr_u32(SIMTY_SR_DONE), 77);
  /* the fault fields of a clean launch are zero */
  assert_int_equal(sr_u32(SIMTY_SR_FAULT_PC), 0);
  check_dispatches(first, 77, mock.lanes);
}

static void test_fault(void **state)
{
  (void)state;
  mock.run_polls = 4;
  mock.fault_at = 10;
  mock.fault_cause = SIMTY_FAULT_MISALIGNED_LOAD;
  mock.fault_pc = ENTRY + 0x24u;
  mock.fault_hart = 6;
  mock.fault_tid = 42;
  mock.fault_addr = SIMTY_DATA_BASE + 0x31u;
  assert_int_equal(launch(1000, 0), SIMTY_ST_OK);
  wait_end();
  assert_int_equal(sr_state(), SIMTY_STATE_FAULT);
  assert_int_equal(sr_cause(), SIMTY_FAULT_MISALIGNED_LOAD);
  assert_int_equal(sr_u32(SIMTY_SR_FAULT_PC), ENTRY + 0x24u);
  assert_int_equal(sr_u32(SIMTY_SR_FAULT_HART), 6);
  assert_int_equal(sr_u32(SIMTY_SR_FAULT_TID), 42);
  assert_int_equal(sr_u32(SIMTY_SR_FAULT_ADDR), SIMTY_DATA_BASE + 0x31u);
  assert_true(mock.halt);
  assert_false(mock.active);
  assert_true(mock.seq_stops > 0);
  /* Nothing dispatched after the fault was seen. */
  size_t n = mock.nlog;
  for (int i = 0; i < 100; i++)
    fw_poll(&fw);
  assert_int_equal(mock.nlog, n);
  assert_true(n <= 12);
  /* The record stays readable; memory access works again. */
  assert_int_equal(do_status(0), SIMTY_ST_OK);
  assert_int_equal(sr_cause(), SIMTY_FAULT_MISALIGNED_LOAD);
  assert_int_equal(do_write(SIMTY_DATA_BASE, "x", 1), SIMTY_ST_OK);
  mock.fault_at = -1;
  check_next_launch_works(2);
}

static void test_abort(void **state)
{
  (void)state;
  assert_int_equal(call(SIMTY_CMD_ABORT, NULL, 0), SIMTY_ST_NO_LAUNCH);
  mock.run_polls = 1000000; /* never ends by itself */
  assert_int_equal(launch(100, 0), SIMTY_ST_OK);
  assert_int_equal(do_wait(2, 0), SIMTY_ST_OK);
  assert_int_equal(sr_state(), SIMTY_STATE_RUNNING);
  assert_int_equal(sr_u32(SIMTY_SR_DISPATCHED), 16);
  assert_int_equal(call(SIMTY_CMD_ABORT, NULL, 0), SIMTY_ST_OK);
  assert_int_equal(sr_state(), SIMTY_STATE_FAULT);
  assert_int_equal(sr_cause(), SIMTY_FAULT_ABORTED);
  assert_int_equal(sr_u32(SIMTY_SR_FAULT_HART), SIMTY_NO_THREAD);
  assert_int_equal(sr_u32(SIMTY_SR_FAULT_TID), SIMTY_NO_THREAD);
  assert_true(mock.halt);
  assert_int_equal(call(SIMTY_CMD_ABORT, NULL, 0), SIMTY_ST_NO_LAUNCH);
  assert_int_equal(detail(), SIMTY_STATE_FAULT);
  mock.run_polls = 2;
  check_next_launch_works(2);
}

static void test_timeout(void **state)
{
  (void)state;
  mock.run_polls = 1000000;
  mock.timer_step = 10;
  assert_int_equal(launch(100, 5000), SIMTY_ST_OK);
  wait_end();
  assert_int_equal(sr_state(), SIMTY_STATE_FAULT);
  assert_int_equal(sr_cause(), SIMTY_FAULT_TIMEOUT);
  uint64_t elapsed = simty_get_u64(host.payload + SIMTY_SR_ELAPSED);
  assert_true(elapsed >= 5000 && elapsed < 5200);
  assert_int_equal(sr_u32(SIMTY_SR_FAULT_TID), SIMTY_NO_THREAD);
  assert_true(mock.halt);
  mock.run_polls = 2;
  check_next_launch_works(2);
  /* A generous time-out does not fire. */
  assert_int_equal(launch(64, 1000000), SIMTY_ST_OK);
  wait_end();
  assert_int_equal(sr_state(), SIMTY_STATE_DONE);
}

/* Retransmissions of executed requests are answered from the cache,
 * without executing anything again. */
static void test_duplicate_answered_from_cache(void **state)
{
  (void)state;
  uint8_t p[8];
  simty_put_u32(p, SIMTY_DATA_BASE + 0x40u);
  memcpy(p + 4, "abcd", 4);
  uint16_t s = fw_host_send(&host, SIMTY_CMD_WRITE, p, 8);
  assert_true(fw_host_receive(&host, POLLS));
  assert_int_equal(host.status, SIMTY_ST_OK);
  uint8_t first[64];
  size_t first_len = host.frame_len;
  memcpy(first, host.dec.buf, first_len);
  assert_int_equal(mock.copies, 1);
  /* The kernel (or anyone) changes the bytes; a retransmitted WRITE must
   * not write them again. */
  mock.data[0x40] = 'Z';
  fw_host_send_seq(&host, SIMTY_CMD_WRITE, s, p, 8);
  assert_true(fw_host_receive(&host, POLLS));
  assert_int_equal(host.frame_len, first_len);
  assert_memory_equal(host.dec.buf, first, first_len);
  assert_int_equal(mock.copies, 1);
  assert_int_equal(mock.data[0x40], 'Z');
  assert_int_equal(fw.duplicates, 1);

  /* Same seq, another command: not a retransmission, not executed. */
  fw_host_send_seq(&host, SIMTY_CMD_READ, s, p, 8);
  assert_true(fw_host_receive(&host, POLLS));
  assert_int_equal(host.status, SIMTY_ST_SEQUENCE);
  assert_int_equal(detail(), host.seq);
  assert_int_equal(mock.copies, 1);

  /* A duplicated LAUNCH does not launch twice. */
  mock.run_polls = 1000000;
  uint8_t l[SIMTY_LAUNCH_SIZE] = {0};
  simty_put_u32(l + SIMTY_LAUNCH_ENTRY, ENTRY);
  simty_put_u32(l + SIMTY_LAUNCH_NTHREADS, 8);
  simty_put_u32(l + SIMTY_LAUNCH_DATA_END, DATA_END);
  l[SIMTY_LAUNCH_STACK_LOG2] = 8;
  uint16_t ls = fw_host_send(&host, SIMTY_CMD_LAUNCH, l, sizeof l);
  assert_true(fw_host_receive(&host, POLLS));
  assert_int_equal(host.status, SIMTY_ST_OK);
  uint32_t resets = mock.resets;
  fw_host_send_seq(&host, SIMTY_CMD_LAUNCH, ls, l, sizeof l);
  assert_true(fw_host_receive(&host, POLLS));
  assert_int_equal(host.status, SIMTY_ST_OK); /* not BUSY: the cached OK */
  assert_int_equal(simty_get_u32(host.payload + SIMTY_LAUNCHED_ID), 1);
  assert_int_equal(mock.resets, resets);
  assert_int_equal(mock.nlog, 2);
  assert_int_equal(fw.launch.id, 1);
  assert_int_equal(call(SIMTY_CMD_ABORT, NULL, 0), SIMTY_ST_OK);

  /* INFO is always executed (it opens a session). */
  unsigned req = fw.requests;
  uint16_t is = fw_host_send(&host, SIMTY_CMD_INFO, NULL, 0);
  assert_true(fw_host_receive(&host, POLLS));
  fw_host_send_seq(&host, SIMTY_CMD_INFO, is, NULL, 0);
  assert_true(fw_host_receive(&host, POLLS));
  assert_int_equal(host.status, SIMTY_ST_OK);
  assert_int_equal(fw.requests, req + 2);
}

static uint8_t launch_req[SIMTY_LAUNCH_SIZE];

static const uint8_t *launch_payload(uint32_t nthreads, uint32_t args,
                                     uint8_t flags)
{
  memset(launch_req, 0, sizeof launch_req);
  simty_put_u32(launch_req + SIMTY_LAUNCH_ENTRY, ENTRY);
  simty_put_u32(launch_req + SIMTY_LAUNCH_NTHREADS, nthreads);
  simty_put_u32(launch_req + SIMTY_LAUNCH_ARGS, args);
  simty_put_u32(launch_req + SIMTY_LAUNCH_DATA_END, DATA_END);
  launch_req[SIMTY_LAUNCH_STACK_LOG2] = 8;
  launch_req[SIMTY_LAUNCH_FLAGS] = flags;
  return launch_req;
}

static int queue_launch(uint32_t nthreads, uint32_t args, uint8_t flags)
{
  return call(SIMTY_CMD_LAUNCH, launch_payload(nthreads, args, flags),
              SIMTY_LAUNCH_SIZE);
}

/* While a launch runs, WRITE and LAUNCH are queued; READ is BUSY; ABORT
 * cancels the queue. */
static void test_busy_while_running(void **state)
{
  (void)state;
  mock.run_polls = 1000000;
  assert_int_equal(launch(40, 0), SIMTY_ST_OK);
  assert_int_equal(simty_get_u32(host.payload + SIMTY_LAUNCHED_OP), 1);
  assert_int_equal(simty_get_u32(host.payload + SIMTY_LAUNCHED_QUEUED), 0);
  static uint8_t data0[MOCK_DATA_SIZE];
  memcpy(data0, mock.data, sizeof data0);
  uint8_t code0 = mock.code[0];
  assert_int_equal(do_write(SIMTY_DATA_BASE, "q", 1), SIMTY_ST_OK);
  assert_int_equal(do_write(SIMTY_CODE_BASE, "q", 1), SIMTY_ST_OK);
  assert_int_equal(do_read(SIMTY_DATA_BASE, 4), SIMTY_ST_BUSY);
  assert_int_equal(launch(40, 0), SIMTY_ST_OK);
  assert_int_equal(simty_get_u32(host.payload + SIMTY_LAUNCHED_ID), 2);
  assert_int_equal(simty_get_u32(host.payload + SIMTY_LAUNCHED_OP), 4);
  assert_int_equal(simty_get_u32(host.payload + SIMTY_LAUNCHED_QUEUED), 2);
  /* protection errors still win */
  assert_int_equal(do_write(SIMTY_FW_BASE, "q", 1), SIMTY_ST_PROTECTED);
  assert_memory_equal(mock.data, data0, sizeof data0);
  assert_int_equal(mock.code[0], code0);
  assert_int_equal(mock.copies, 0);
  assert_int_equal(mock.nlog, 4);
  /* STATUS, COUNTERS, INFO work while running */
  assert_int_equal(do_status(SIMTY_WANT_COUNTERS), SIMTY_ST_OK);
  assert_int_equal(sr_state(), SIMTY_STATE_RUNNING);
  assert_int_equal(host.length, SIMTY_SR_SIZE + 8u * SIMTY_CTR_COUNT);
  assert_int_equal(sr_u32(SIMTY_SR_OPS_ACCEPTED), 4);
  assert_int_equal(sr_u32(SIMTY_SR_OPS_DONE), 0);
  assert_int_equal(simty_get_u16(host.payload + SIMTY_SR_QUEUED), 3);
  assert_int_equal(call(SIMTY_CMD_INFO, NULL, 0), SIMTY_ST_OK);
  assert_int_equal(simty_get_u16(host.payload + SIMTY_INFO_QUEUE_DEPTH),
                   FW_QUEUE_DEPTH);
  assert_int_equal(call(SIMTY_CMD_ABORT, NULL, 0), SIMTY_ST_OK);
  assert_int_equal(sr_u32(SIMTY_SR_FAULT_OP), 1);
  assert_int_equal(simty_get_u16(host.payload + SIMTY_SR_CANCELLED), 3);
  assert_int_equal(simty_get_u16(host.payload + SIMTY_SR_QUEUED), 0);
  for (int i = 0; i < 100; i++)
    fw_poll(&fw);
  /* the cancelled operations never ran */
  assert_memory_equal(mock.data, data0, sizeof data0);
  assert_int_equal(mock.code[0], code0);
  assert_int_equal(mock.nlog, 4);
  assert_int_equal(do_write(SIMTY_DATA_BASE, "q", 1), SIMTY_ST_OK);
  assert_int_equal(mock.copies, 1);
  assert_int_equal(mock.data[0], 'q');
}

/* write, launch, write, launch, launch in one go: run in order, each
 * launch as soon as the one before ends; the counters of CONTINUE
 * launches add up. */
static void test_queue_in_order(void **state)
{
  (void)state;
  mock.run_polls = 30;
  uint8_t w[8];
  simty_put_u32(w, SIMTY_DATA_BASE + 0x200u);
  memcpy(w + 4, "\x11\x22\x33\x44", 4);
  /* All sent before any answer is read: the window holds 4. */
  fw_host_send(&host, SIMTY_CMD_LAUNCH, launch_payload(5, ARGS, 0),
               SIMTY_LAUNCH_SIZE);
  fw_host_send(&host, SIMTY_CMD_WRITE, w, sizeof w);
  fw_host_send(&host, SIMTY_CMD_LAUNCH,
               launch_payload(6, ARGS, SIMTY_LAUNCH_F_CONTINUE),
               SIMTY_LAUNCH_SIZE);
  for (int i = 0; i < 3; i++) {
    assert_true(fw_host_receive(&host, POLLS));
    assert_int_equal(host.status, SIMTY_ST_OK);
  }
  assert_int_equal(simty_get_u32(host.payload + SIMTY_LAUNCHED_ID), 2);
  assert_int_equal(simty_get_u32(host.payload + SIMTY_LAUNCHED_OP), 3);
  /* the write has not run: the first launch still runs */
  assert_int_equal(mock.data[0x200], 0);
  assert_int_equal(queue_launch(7, ARGS, SIMTY_LAUNCH_F_CONTINUE),
                   SIMTY_ST_OK);
  wait_end();
  assert_int_equal(sr_state(), SIMTY_STATE_DONE);
  assert_int_equal(sr_u32(SIMTY_SR_LAUNCH_ID), 3);
  assert_int_equal(sr_u32(SIMTY_SR_OPS_DONE), 4);
  assert_int_equal(sr_u32(SIMTY_SR_FAULT_OP), 0);
  assert_int_equal(simty_get_u16(host.payload + SIMTY_SR_QUEUED), 0);
  assert_memory_equal(mock.data + 0x200, "\x11\x22\x33\x44", 4);
  /* 3 launches of 5, 6, 7 threads on 4 lanes: 2 blocks each, in order */
  assert_int_equal(mock.nlog, 6);
  assert_int_equal(mock.log[0].nthreads, 5);
  assert_int_equal(mock.log[2].nthreads, 6);
  assert_int_equal(mock.log[4].nthreads, 7);
  /* counters cover the sequence: 6 warp instructions in the mock */
  uint8_t c[4] = {SIMTY_CTR_warp_insts, 1, 0, 0};
  assert_int_equal(call(SIMTY_CMD_COUNTERS, c, 4), SIMTY_ST_OK);
  assert_int_equal(simty_get_u64(host.payload + SIMTY_COUNTERS_VALUES), 6);
  /* a launch without CONTINUE starts a new sequence */
  assert_int_equal(queue_launch(3, ARGS, 0), SIMTY_ST_OK);
  wait_end();
  assert_int_equal(call(SIMTY_CMD_COUNTERS, c, 4), SIMTY_ST_OK);
  assert_int_equal(simty_get_u64(host.payload + SIMTY_COUNTERS_VALUES), 1);
}

/* WAIT with `until` answers once that operation is done, while the
 * launches after it still run. */
static void test_wait_until(void **state)
{
  (void)state;
  mock.run_polls = 200;
  assert_int_equal(queue_launch(4, ARGS, 0), SIMTY_ST_OK);
  assert_int_equal(queue_launch(4, ARGS, SIMTY_LAUNCH_F_CONTINUE),
                   SIMTY_ST_OK);
  mock.run_polls = 1000000; /* the second never ends by itself */
  uint8_t p[12];
  simty_put_u32(p, 100000);
  simty_put_u32(p + 4, 0);
  simty_put_u32(p + 8, 1);
  assert_int_equal(call(SIMTY_CMD_WAIT, p, 12), SIMTY_ST_OK);
  assert_true(sr_u32(SIMTY_SR_OPS_DONE) >= 1);
  assert_int_equal(sr_state(), SIMTY_STATE_RUNNING);
  assert_int_equal(sr_u32(SIMTY_SR_LAUNCH_ID), 2);
  /* a WAIT of another length is refused */
  assert_int_equal(call(SIMTY_CMD_WAIT, p, 10), SIMTY_ST_BAD_LENGTH);
  assert_int_equal(call(SIMTY_CMD_ABORT, NULL, 0), SIMTY_ST_OK);
}

/* The third of five queued launches faults: the record names it, the
 * fourth and fifth never run, the device takes new work. */
static void test_queue_fault_cancels(void **state)
{
  (void)state;
  mock.run_polls = 3000;
  mock.fault_at = 2; /* the third dispatch: the third launch's only block */
  mock.fault_cause = SIMTY_FAULT_EBREAK;
  mock.fault_pc = ENTRY + 8u;
  mock.fault_tid = 1;
  for (uint32_t i = 0; i < 5; i++)
    assert_int_equal(queue_launch(4, ARGS + 16u * i,
                                  i ? SIMTY_LAUNCH_F_CONTINUE : 0),
                     SIMTY_ST_OK);
  for (int i = 0; i < 1000000 && fw.launch.state != SIMTY_STATE_FAULT; i++)
    fw_poll(&fw);
  /* Until a status record has reported the fault, new work is refused. */
  assert_int_equal(do_write(SIMTY_DATA_BASE, "n", 1), SIMTY_ST_CANCELLED);
  assert_int_equal(detail(), 3);
  assert_int_equal(queue_launch(4, ARGS, 0), SIMTY_ST_CANCELLED);
  assert_int_equal(mock.data[0], 0);
  wait_end();
  assert_int_equal(sr_state(), SIMTY_STATE_FAULT);
  assert_int_equal(sr_cause(), SIMTY_FAULT_EBREAK);
  assert_int_equal(sr_u32(SIMTY_SR_LAUNCH_ID), 3);
  assert_int_equal(sr_u32(SIMTY_SR_FAULT_OP), 3);
  assert_int_equal(sr_u32(SIMTY_SR_OPS_DONE), 2);
  assert_int_equal(sr_u32(SIMTY_SR_OPS_ACCEPTED), 5);
  assert_int_equal(simty_get_u16(host.payload + SIMTY_SR_CANCELLED), 2);
  assert_int_equal(simty_get_u16(host.payload + SIMTY_SR_QUEUED), 0);
  for (int i = 0; i < 200; i++)
    fw_poll(&fw);
  assert_int_equal(mock.nlog, 3);
  assert_int_equal(mock.log[2].args, ARGS + 32u);
  mock.fault_at = -1;
  mock.run_polls = 2;
  check_next_launch_works(4);
  assert_int_equal(queue_launch(4, ARGS, SIMTY_LAUNCH_F_CONTINUE),
                   SIMTY_ST_OK);
}

/* The queue's bounds: QUEUE_FULL, nothing queued, until it drains. */
static void test_queue_full(void **state)
{
  (void)state;
  mock.run_polls = 1000000;
  assert_int_equal(queue_launch(4, ARGS, 0), SIMTY_ST_OK);
  for (uint32_t i = 0; i < FW_QUEUE_DEPTH; i++)
    assert_int_equal(queue_launch(4, ARGS, SIMTY_LAUNCH_F_CONTINUE),
                     SIMTY_ST_OK);
  assert_int_equal(queue_launch(4, ARGS, SIMTY_LAUNCH_F_CONTINUE),
                   SIMTY_ST_QUEUE_FULL);
  assert_int_equal(detail(), FW_QUEUE_DEPTH);
  assert_int_equal(do_write(SIMTY_DATA_BASE, "z", 1), SIMTY_ST_QUEUE_FULL);
  assert_int_equal(call(SIMTY_CMD_ABORT, NULL, 0), SIMTY_ST_OK);
  assert_int_equal(simty_get_u16(host.payload + SIMTY_SR_CANCELLED),
                   FW_QUEUE_DEPTH);
  /* The stage: one largest WRITE fits, a second does not. */
  assert_int_equal(queue_launch(4, ARGS, 0), SIMTY_ST_OK);
  static uint8_t big[MAX_WRITE];
  memset(big, 0x5A, sizeof big);
  assert_int_equal(do_write(SIMTY_DATA_BASE + 1u, big, sizeof big),
                   SIMTY_ST_OK);
  assert_int_equal(do_write(SIMTY_DATA_BASE, big, sizeof big),
                   SIMTY_ST_QUEUE_FULL);
  /* After a QUEUE_FULL, WRITEs and LAUNCHes are refused until another
   * command: one pipelined behind the refused one never overtakes it. */
  assert_int_equal(do_write(SIMTY_DATA_BASE + 0x3000u, "z", 1),
                   SIMTY_ST_QUEUE_FULL);
  assert_int_equal(queue_launch(4, ARGS, SIMTY_LAUNCH_F_CONTINUE),
                   SIMTY_ST_QUEUE_FULL);
  assert_int_equal(do_status(0), SIMTY_ST_OK);
  assert_int_equal(do_write(SIMTY_DATA_BASE + 0x3000u, "z", 1), SIMTY_ST_OK);
  assert_int_equal(mock.data[1], 0);
  mock.run_polls = 2;
  for (uint32_t b = 0; b < 32; b++)
    mock.busy_left[b] = 0;
  wait_end();
  assert_int_equal(sr_state(), SIMTY_STATE_DONE);
  /* the unaligned staged WRITE ran, byte for byte */
  assert_int_equal(mock.data[0], 0);
  for (size_t i = 0; i < sizeof big; i++)
    assert_int_equal(mock.data[1 + i], 0x5A);
  assert_int_equal(mock.data[1 + sizeof big], 0);
  assert_int_equal(mock.data[0x3000], 'z');
  assert_int_equal(do_write(SIMTY_DATA_BASE, big, sizeof big), SIMTY_ST_OK);
}

/* A CONTINUE launch keeps the console records of the launch before it:
 * the next launch waits for the core's FIFO to be taken, and the host
 * gets every record. */
static void test_queue_keeps_console(void **state)
{
  (void)state;
  mock.run_polls = 40;
  assert_int_equal(queue_launch(4, ARGS, 0), SIMTY_ST_OK);
  for (uint32_t t = 0; t < 10; t++)
    assert_true(mock_console_push(t, (uint8_t)('a' + t)));
  assert_int_equal(queue_launch(4, ARGS, SIMTY_LAUNCH_F_CONTINUE),
                   SIMTY_ST_OK);
  wait_end();
  assert_int_equal(sr_state(), SIMTY_STATE_DONE);
  assert_int_equal(sr_u32(SIMTY_SR_LAUNCH_ID), 2);
  assert_int_equal(mock.resets, 2);
  assert_int_equal(call(SIMTY_CMD_CONSOLE, (uint8_t[4]){0}, 4), SIMTY_ST_OK);
  assert_int_equal(simty_get_u16(host.payload + SIMTY_CS_COUNT), 10);
  for (uint32_t t = 0; t < 10; t++)
    assert_int_equal(host.payload[SIMTY_CS_RECORDS + 5u * t + 4u], 'a' + t);
}

static void test_wait_parks_until_end(void **state)
{
  (void)state;
  /* Blocks outlast 300 fw_poll() calls, each of which reads WARP_BUSY
   * once per refill check. */
  mock.run_polls = 300u * (FW_REFILL_SPINS + 2u);
  assert_int_equal(launch(40, 0), SIMTY_ST_OK);
  uint16_t ws = fw_host_send(&host, SIMTY_CMD_WAIT,
                              (const uint8_t[]){0x10, 0x27, 0, 0, 0, 0, 0, 0},
                              8); /* 10 s */
  /* No answer while the warps run... */
  assert_false(fw_host_receive(&host, 200));
  assert_int_equal(fw.launch.state, SIMTY_STATE_RUNNING);
  assert_true(fw.wait_parked);
  /* ...a retransmission of the same WAIT is absorbed... */
  fw_host_send_seq(&host, SIMTY_CMD_WAIT, ws,
                   (const uint8_t[]){0x10, 0x27, 0, 0, 0, 0, 0, 0}, 8);
  assert_false(fw_host_receive(&host, 100));
  /* ...and the answer comes when the launch ends. */
  assert_true(fw_host_receive(&host, POLLS));
  assert_int_equal(host.resp_seq, ws);
  assert_int_equal(sr_state(), SIMTY_STATE_DONE);
  assert_int_equal(sr_u32(SIMTY_SR_DONE), 40);
  assert_false(fw_host_receive(&host, 100)); /* exactly one answer */

  /* A WAIT bounded at 3 ms returns RUNNING. */
  mock.run_polls = 1000000;
  assert_int_equal(launch(40, 0), SIMTY_ST_OK);
  uint64_t t0 = mock.timer;
  assert_int_equal(do_wait(3, 0), SIMTY_ST_OK);
  assert_int_equal(sr_state(), SIMTY_STATE_RUNNING);
  assert_true(mock.timer - t0 >= 3000);

  /* ABORT during a parked WAIT: the WAIT is answered first, then ABORT. */
  uint16_t w2 = fw_host_send(&host, SIMTY_CMD_WAIT,
                              (const uint8_t[]){0x10, 0x27, 0, 0, 0, 0, 0, 0},
                              8);
  assert_false(fw_host_receive(&host, 50));
  uint16_t as = fw_host_send(&host, SIMTY_CMD_ABORT, NULL, 0);
  assert_true(fw_host_receive(&host, POLLS));
  assert_int_equal(host.resp_seq, w2);
  assert_int_equal(sr_state(), SIMTY_STATE_RUNNING);
  assert_true(fw_host_receive(&host, POLLS));
  assert_int_equal(host.resp_seq, as);
  assert_int_equal(host.status, SIMTY_ST_OK);
  assert_int_equal(sr_cause(), SIMTY_FAULT_ABORTED);

  /* WAIT with nothing running answers at once. */
  assert_int_equal(do_wait(10000, 0), SIMTY_ST_OK);
  assert_int_equal(sr_state(), SIMTY_STATE_FAULT);
}

/* LAUNCH, then one WAIT collecting status, counters and console. */
static void test_one_request_to_launch_one_to_collect(void **state)
{
  (void)state;
  mock.run_polls = 20;
  unsigned before = host.round_trips;
  assert_int_equal(launch(64, 0), SIMTY_ST_OK);
  for (uint32_t t = 0; t < 64; t++) {
    mock_console_push(t, (uint8_t)('A' + t % 26));
  }
  assert_int_equal(do_wait(10000, SIMTY_WANT_COUNTERS | SIMTY_WANT_CONSOLE),
                   SIMTY_ST_OK);
  assert_int_equal(host.round_trips - before, 2);
  assert_int_equal(sr_state(), SIMTY_STATE_DONE);
  assert_int_equal(sr_u32(SIMTY_SR_CONSOLE_PENDING), 0);
  const uint8_t *ctr = host.payload + SIMTY_SR_SIZE;
  assert_int_equal(simty_get_u64(ctr + 8 * SIMTY_CTR_thread_insts), 64);
  assert_int_equal(simty_get_u64(ctr + 8 * SIMTY_CTR_warp_insts), 16);
  assert_true(simty_get_u64(ctr + 8 * SIMTY_CTR_cycles) > 0);
  const uint8_t *cs = ctr + 8 * SIMTY_CTR_COUNT;
  assert_int_equal(simty_get_u32(cs + SIMTY_CS_PENDING), 0);
  assert_int_equal(simty_get_u16(cs + SIMTY_CS_COUNT), 64);
  for (uint32_t t = 0; t < 64; t++) {
    const uint8_t *r = cs + SIMTY_CS_RECORDS + 5 * t;
    assert_int_equal(simty_get_u32(r), t);
    assert_int_equal(r[4], 'A' + t % 26);
  }
  assert_int_equal(host.length, SIMTY_SR_SIZE + 8 * SIMTY_CTR_COUNT +
                                    SIMTY_CS_HEADER +
                                    64 * SIMTY_CS_RECORD_SIZE);
}

static void test_console_backpressure(void **state)
{
  (void)state;
  /* More output than the firmware buffers: the FIFO stalls, the host
   * drains in several CONSOLE calls, nothing is lost or reordered. */
  mock.run_polls = 1000000;
  assert_int_equal(launch(16, 0), SIMTY_ST_OK);
  const uint32_t total = FW_CONSOLE_RECORDS + 3000u;
  uint32_t pushed = 0, got = 0;
  while (pushed < total && mock_console_push(pushed, (uint8_t)(pushed * 7u)))
    pushed++;
  for (int i = 0; i < 2000; i++)
    fw_poll(&fw);
  assert_int_equal(fw.console.count, FW_CONSOLE_RECORDS);
  int calls = 0;
  for (;;) {
    uint8_t p[4];
    simty_put_u32(p, 0);
    assert_int_equal(call(SIMTY_CMD_CONSOLE, p, 4), SIMTY_ST_OK);
    calls++;
    uint16_t count = simty_get_u16(host.payload + SIMTY_CS_COUNT);
    assert_true(host.length == SIMTY_CS_HEADER + 5u * count);
    assert_true(host.length <= FW_MAX_PAYLOAD);
    for (uint16_t i = 0; i < count; i++, got++) {
      const uint8_t *r = host.payload + SIMTY_CS_RECORDS + 5u * i;
      assert_int_equal(simty_get_u32(r), got);
      assert_int_equal(r[4], (uint8_t)(got * 7u));
    }
    while (pushed < total && mock_console_push(pushed, (uint8_t)(pushed * 7u)))
      pushed++;
    if (simty_get_u32(host.payload + SIMTY_CS_PENDING) == 0 && pushed == total)
      break;
    assert_true(calls < 100);
  }
  assert_int_equal(got, total);
  assert_true(calls >= 2);
  /* A limit on records is honoured. */
  mock_console_push(1, 'x');
  mock_console_push(2, 'y');
  uint8_t p[4];
  simty_put_u32(p, 1);
  assert_int_equal(call(SIMTY_CMD_CONSOLE, p, 4), SIMTY_ST_OK);
  assert_int_equal(simty_get_u16(host.payload + SIMTY_CS_COUNT), 1);
  assert_int_equal(simty_get_u32(host.payload + SIMTY_CS_PENDING), 1);
}

static void test_counters(void **state)
{
  (void)state;
  mock.run_polls = 1;
  assert_int_equal(launch(10, 0), SIMTY_ST_OK);
  wait_end();
  mock.ctr[SIMTY_CTR_affine_vectors] = 0x123456789ABCull;
  uint8_t p[4] = {SIMTY_CTR_thread_insts, 1, 0, 0};
  assert_int_equal(call(SIMTY_CMD_COUNTERS, p, 4), SIMTY_ST_OK);
  assert_int_equal(host.length, 4 + 8);
  assert_int_equal(host.payload[0], SIMTY_CTR_thread_insts);
  assert_int_equal(host.payload[1], 1);
  assert_int_equal(simty_get_u64(host.payload + 4), 10);
  p[0] = 0;
  p[1] = 0; /* all */
  assert_int_equal(call(SIMTY_CMD_COUNTERS, p, 4), SIMTY_ST_OK);
  assert_int_equal(host.payload[1], SIMTY_CTR_COUNT);
  assert_int_equal(
      simty_get_u64(host.payload + 4 + 8 * SIMTY_CTR_affine_vectors),
      0x123456789ABCull);
  p[0] = SIMTY_CTR_COUNT;
  assert_int_equal(call(SIMTY_CMD_COUNTERS, p, 4), SIMTY_ST_BAD_ARGUMENT);
  p[0] = 10;
  p[1] = 4;
  assert_int_equal(call(SIMTY_CMD_COUNTERS, p, 4), SIMTY_ST_BAD_ARGUMENT);
  assert_int_equal(detail(), SIMTY_COUNTERS_COUNT);
}

static void test_reset(void **state)
{
  (void)state;
  mock.run_polls = 1000000;
  assert_int_equal(launch(100, 0), SIMTY_ST_OK);
  mock_console_push(3, 'z');
  uint32_t resets = mock.resets;
  assert_int_equal(call(SIMTY_CMD_RESET, NULL, 0), SIMTY_ST_OK);
  assert_int_equal(mock.resets, resets + 1);
  assert_false(mock.halt);
  assert_int_equal(do_status(0), SIMTY_ST_OK);
  assert_int_equal(sr_state(), SIMTY_STATE_IDLE);
  assert_int_equal(sr_u32(SIMTY_SR_LAUNCH_ID), 1);
  assert_int_equal(sr_u32(SIMTY_SR_CONSOLE_PENDING), 0);
  /* A retransmitted RESET is not executed again. */
  uint16_t rs = fw_host_send(&host, SIMTY_CMD_RESET, NULL, 0);
  assert_true(fw_host_receive(&host, POLLS));
  fw_host_send_seq(&host, SIMTY_CMD_RESET, rs, NULL, 0);
  assert_true(fw_host_receive(&host, POLLS));
  assert_int_equal(mock.resets, resets + 2);
  mock.run_polls = 2;
  check_next_launch_works(2);
}

/* Corrupt and garbled frames get typed errors, are never executed, and
 * leave the window and its cache as they were. */
static void test_corrupt_frames(void **state)
{
  (void)state;
  static uint8_t frame[64], wire[80];
  /* A good WRITE to fill the cache. */
  uint8_t p[5];
  simty_put_u32(p, SIMTY_DATA_BASE);
  p[4] = 'k';
  uint16_t s = fw_host_send(&host, SIMTY_CMD_WRITE, p, 5);
  assert_true(fw_host_receive(&host, POLLS));
  assert_int_equal(host.status, SIMTY_ST_OK);
  assert_int_equal(mock.data[0], 'k');

  /* A CRC error in a WRITE's payload: BAD_CRC naming the seq, nothing
   * written. */
  uint16_t s1 = host.seq;
  memcpy(frame + SIMTY_HDR_SIZE, p, 5);
  frame[SIMTY_HDR_SIZE + 4] = 'j';
  size_t n = simty_frame_seal(frame, SIMTY_CMD_WRITE, s1, 0, 5);
  frame[SIMTY_HDR_SIZE + 4] ^= 0x40;
  mock_uart_push(wire, simty_link_encode(frame, n, wire));
  assert_true(fw_host_receive(&host, POLLS));
  assert_int_equal(host.status, SIMTY_ST_BAD_CRC);
  assert_int_equal(host.resp_seq, s1);
  assert_int_equal(host.command, SIMTY_CMD_WRITE | SIMTY_RESPONSE_FLAG);
  assert_int_equal(detail(), n);
  assert_int_equal(mock.data[0], 'k');
  assert_int_equal(mock.copies, 1);
  assert_int_equal(fw.naks, 1);

  /* Truncated frame: BAD_LENGTH. */
  n = simty_frame_seal(frame, SIMTY_CMD_READ, s1, 0, 0);
  size_t w = simty_link_encode(frame, n, wire);
  wire[w - 3] = 0; /* cut the last bytes off */
  mock_uart_push(wire, w - 2);
  assert_true(fw_host_receive(&host, POLLS));
  assert_int_equal(host.status, SIMTY_ST_BAD_LENGTH);
  assert_int_equal(host.resp_seq, s1);

  /* Garbage and a runt (no answer), then the retransmitted WRITE s:
   * answered from the cache. */
  static const uint8_t junk[] = {0x13, 0x37, 0x00, 0x05, 0xFF, 0xFF, 0x00,
                                 0x42, 0x42, 0x42, 0x00, 0x03, 0x01, 0x02};
  mock_uart_push(junk, sizeof junk);
  fw_host_send_seq(&host, SIMTY_CMD_WRITE, s, p, 5);
  assert_true(fw_host_receive(&host, POLLS));
  assert_int_equal(host.resp_seq, s);
  assert_int_equal(host.status, SIMTY_ST_OK);
  assert_int_equal(mock.copies, 1);
  assert_int_equal(fw.duplicates, 1);
  assert_true(mock.dec.runts >= 1);
  assert_false(fw_host_receive(&host, 50)); /* nothing else was said */

  /* The window did not move: the WRITE s1 runs now, once. */
  p[4] = 'j';
  assert_int_equal(call(SIMTY_CMD_WRITE, p, 5), SIMTY_ST_OK);
  assert_int_equal(host.resp_seq, s1);
  assert_int_equal(mock.data[0], 'j');
  assert_int_equal(mock.copies, 2);

  /* A frame longer than an RX slot: BAD_LENGTH once, header kept. */
  static uint8_t huge[SIMTY_FRAME_SIZE(SIMTY_MAX_PAYLOAD + 40)];
  static uint8_t hwire[SIMTY_WIRE_MAX(sizeof huge)];
  memset(huge + SIMTY_HDR_SIZE, 0x11, SIMTY_MAX_PAYLOAD + 40);
  n = simty_frame_seal(huge, SIMTY_CMD_WRITE, host.seq, 0,
                       SIMTY_MAX_PAYLOAD + 40);
  mock_uart_push(hwire, simty_link_encode(huge, n, hwire));
  assert_true(fw_host_receive(&host, POLLS));
  assert_int_equal(host.status, SIMTY_ST_BAD_LENGTH);
  assert_int_equal(host.resp_seq, host.seq);
  assert_int_equal(call(SIMTY_CMD_STATUS, (uint8_t[4]){0}, 4), SIMTY_ST_OK);
  assert_int_equal(mock.copies, 2);
}

/* The firmware never waits on the link: with the transmitter stalled the
 * window fills (each request answered into its own TX slot), the request
 * whose slot is still being sent waits, no busy slot is rewritten, and
 * the dispatcher goes on refilling warps; the answers follow later, in
 * order. */
static void test_tx_never_blocks(void **state)
{
  (void)state;
  mock.run_polls = 20;
  mock.tx_stall = 1; /* nothing leaves the send queue */
  uint8_t l[SIMTY_LAUNCH_SIZE] = {0};
  simty_put_u32(l + SIMTY_LAUNCH_ENTRY, ENTRY);
  simty_put_u32(l + SIMTY_LAUNCH_NTHREADS, 4000);
  simty_put_u32(l + SIMTY_LAUNCH_DATA_END, DATA_END);
  l[SIMTY_LAUNCH_STACK_LOG2] = 8;
  unsigned req = fw.requests;
  uint16_t s[6];
  s[0] = fw_host_send(&host, SIMTY_CMD_LAUNCH, (uint8_t[SIMTY_LAUNCH_SIZE]){0},
                      SIMTY_LAUNCH_SIZE); /* refused: BAD_ARGUMENT */
  s[1] = fw_host_send(&host, SIMTY_CMD_LAUNCH, l, sizeof l);
  for (int i = 2; i < 6; i++)
    s[i] = fw_host_send(&host, SIMTY_CMD_STATUS, (uint8_t[4]){0}, 4);
  assert_false(fw_host_receive(&host, 100));
  /* A window of 4: INFO's answer (slot 0) left long ago, so the first
   * four take slots 1, 2, 3 and 0 and run; the fifth and sixth wait for
   * slots 1 and 2 to be sent. */
  assert_int_equal(fw.requests, req + WINDOW);
  size_t before = mock.nlog;
  for (int i = 0; i < 3000; i++)
    fw_poll(&fw);
  /* The launch made progress, with no byte sent. */
  assert_true(mock.nlog > before + 100);
  assert_int_equal(fw.requests, req + WINDOW);
  assert_int_equal(mock.tx_len, host.tx_read);
  mock.tx_stall = 0;
  for (int i = 0; i < 6; i++) {
    assert_true(fw_host_receive(&host, POLLS));
    assert_int_equal(host.resp_seq, s[i]);
    assert_int_equal(host.status,
                     i == 0 ? SIMTY_ST_BAD_ARGUMENT : SIMTY_ST_OK);
  }
  assert_int_equal(fw.requests, req + 6);
  wait_end();
  assert_int_equal(sr_state(), SIMTY_STATE_DONE);
  assert_int_equal(sr_u32(SIMTY_SR_DONE), 4000);
}

static void test_slow_reset(void **state)
{
  (void)state;
  mock.reset_reads = 500;
  assert_int_equal(launch(20, 0), SIMTY_ST_OK);
  wait_end();
  assert_int_equal(sr_state(), SIMTY_STATE_DONE);
  mock.reset_reads = FW_RESET_POLLS + 10u;
  assert_int_equal(launch(20, 0), SIMTY_ST_INTERNAL);
}

/* ---- Protocol v2: the window ---- */

static uint16_t send_write(uint32_t addr, const void *data, size_t n)
{
  static uint8_t p[SIMTY_MAX_PAYLOAD + 64];
  simty_put_u32(p, addr);
  memcpy(p + 4, data, n);
  return fw_host_send(&host, SIMTY_CMD_WRITE, p, n + 4);
}

static uint16_t send_read(uint32_t addr, uint32_t n)
{
  uint8_t p[8];
  simty_put_u32(p, addr);
  simty_put_u32(p + 4, n);
  return fw_host_send(&host, SIMTY_CMD_READ, p, 8);
}

/* The next answer must be for (seq, cmd) with this status. */
static void expect_answer(uint16_t seq, uint8_t cmd, int status)
{
  assert_true(fw_host_receive(&host, POLLS));
  assert_int_equal(host.resp_seq, seq);
  assert_int_equal(host.command, cmd | SIMTY_RESPONSE_FLAG);
  assert_int_equal(host.status, status);
}

/* A full window in flight: answered in order, executed in order (the
 * READs see what the WRITEs before them wrote). */
static void test_window_in_order(void **state)
{
  (void)state;
  static uint8_t a[MAX_WRITE < 3000 ? MAX_WRITE : 3000], b[1000];
  for (size_t i = 0; i < sizeof a; i++)
    a[i] = (uint8_t)(i * 7u + 1u);
  for (size_t i = 0; i < sizeof b; i++)
    b[i] = (uint8_t)(i * 13u + 5u);
  uint16_t s0 = send_write(SIMTY_DATA_BASE + 0x101u, a, sizeof a);
  uint16_t s1 = send_write(SIMTY_DATA_BASE + 0x101u + sizeof a, b, sizeof b);
  if (WINDOW < 4) {
    expect_answer(s0, SIMTY_CMD_WRITE, SIMTY_ST_OK);
    expect_answer(s1, SIMTY_CMD_WRITE, SIMTY_ST_OK);
  }
  uint16_t s2 = send_read(SIMTY_DATA_BASE + 0x101u, sizeof a);
  uint16_t s3 = send_read(SIMTY_DATA_BASE + 0x101u + sizeof a, sizeof b);
  if (WINDOW >= 4) {
    expect_answer(s0, SIMTY_CMD_WRITE, SIMTY_ST_OK);
    expect_answer(s1, SIMTY_CMD_WRITE, SIMTY_ST_OK);
  }
  expect_answer(s2, SIMTY_CMD_READ, SIMTY_ST_OK);
  assert_int_equal(host.length, sizeof a);
  assert_memory_equal(host.payload, a, sizeof a);
  expect_answer(s3, SIMTY_CMD_READ, SIMTY_ST_OK);
  assert_memory_equal(host.payload, b, sizeof b);
  assert_int_equal(mock.copies, 4);
  assert_int_equal(mock.rx_payload_reads, 0);

  /* A long stream with the window kept full: 100 max-size WRITEs, a new
   * one sent as each answer arrives. */
  static uint8_t src[100u * MAX_WRITE];
  for (size_t i = 0; i < sizeof src; i++)
    src[i] = (uint8_t)(i * 2654435761u >> 13);
  const size_t chunk = FW_MAX_PAYLOAD - SIMTY_WRITE_DATA;
  const unsigned total = (unsigned)((sizeof src + chunk - 1) / chunk);
  unsigned sent = 0, done = 0;
  uint16_t first = host.seq;
  while (done < total) {
    while (sent < total && sent - done < WINDOW) {
      size_t off = sent * chunk;
      size_t n = sizeof src - off < chunk ? sizeof src - off : chunk;
      send_write(SIMTY_DATA_BASE + 0x8000u + (uint32_t)off, src + off, n);
      sent++;
    }
    expect_answer((uint16_t)(first + done), SIMTY_CMD_WRITE, SIMTY_ST_OK);
    done++;
  }
  assert_memory_equal(mock.data + 0x8000u, src, sizeof src);
  assert_int_equal(fw.duplicates, 0);
  assert_int_equal(fw.sequence, 0);
}

/* A retransmission within the window is answered from its slot without
 * executing: a WRITE is not written twice, a LAUNCH not launched twice;
 * one older than the window is out of order. */
static void test_duplicate_within_window(void **state)
{
  (void)state;
  if (WINDOW < 4)
    skip(); /* the window arithmetic below is for 4 */
  mock.run_polls = 1000000;
  uint8_t l[SIMTY_LAUNCH_SIZE] = {0};
  simty_put_u32(l + SIMTY_LAUNCH_ENTRY, ENTRY);
  simty_put_u32(l + SIMTY_LAUNCH_NTHREADS, 8);
  simty_put_u32(l + SIMTY_LAUNCH_DATA_END, DATA_END);
  l[SIMTY_LAUNCH_STACK_LOG2] = 8;
  uint16_t w = send_write(SIMTY_DATA_BASE + 0x20u, "wxyz", 4);
  uint16_t ls = fw_host_send(&host, SIMTY_CMD_LAUNCH, l, sizeof l);
  uint16_t st = fw_host_send(&host, SIMTY_CMD_STATUS, (uint8_t[4]){0}, 4);
  expect_answer(w, SIMTY_CMD_WRITE, SIMTY_ST_OK);
  expect_answer(ls, SIMTY_CMD_LAUNCH, SIMTY_ST_OK);
  expect_answer(st, SIMTY_CMD_STATUS, SIMTY_ST_OK);
  assert_int_equal(sr_state(), SIMTY_STATE_RUNNING);
  mock.data[0x20] = 'K'; /* the kernel writes there */
  size_t nlog = mock.nlog;
  uint32_t resets = mock.resets;
  unsigned req = fw.requests;

  /* The host lost the answers to w and ls: it sends them again, in
   * order, while STATUS st is answered too. */
  uint8_t p[8];
  simty_put_u32(p, SIMTY_DATA_BASE + 0x20u);
  memcpy(p + 4, "wxyz", 4);
  fw_host_send_seq(&host, SIMTY_CMD_WRITE, w, p, 8);
  fw_host_send_seq(&host, SIMTY_CMD_LAUNCH, ls, l, sizeof l);
  expect_answer(w, SIMTY_CMD_WRITE, SIMTY_ST_OK); /* not BUSY */
  expect_answer(ls, SIMTY_CMD_LAUNCH, SIMTY_ST_OK);
  assert_int_equal(simty_get_u32(host.payload + SIMTY_LAUNCHED_ID), 1);
  assert_int_equal(fw.requests, req);
  assert_int_equal(fw.duplicates, 2);
  assert_int_equal(mock.data[0x20], 'K');
  assert_int_equal(mock.copies, 1);
  assert_int_equal(mock.resets, resets);
  assert_int_equal(fw.launch.id, 1);
  assert_true(mock.nlog >= nlog && mock.nlog <= 2);

  /* Two more requests: w (5 back) falls out of the window of 4. */
  for (int i = 0; i < 2; i++)
    assert_int_equal(call(SIMTY_CMD_STATUS, (uint8_t[4]){0}, 4), SIMTY_ST_OK);
  fw_host_send_seq(&host, SIMTY_CMD_WRITE, w, p, 8);
  expect_answer(w, SIMTY_CMD_WRITE, SIMTY_ST_SEQUENCE);
  assert_int_equal(detail(), host.seq);
  assert_int_equal(mock.copies, 1);
  /* ls is still in it (4 back). */
  fw_host_send_seq(&host, SIMTY_CMD_LAUNCH, ls, l, sizeof l);
  expect_answer(ls, SIMTY_CMD_LAUNCH, SIMTY_ST_OK);
  assert_int_equal(fw.launch.id, 1);
  assert_int_equal(call(SIMTY_CMD_ABORT, NULL, 0), SIMTY_ST_OK);
}

/* A lost request: what follows it is answered SEQUENCE with the seq the
 * device expects, and nothing runs until the gap is filled. */
static void test_gap_answered_with_sequence(void **state)
{
  (void)state;
  uint16_t s0 = send_write(SIMTY_DATA_BASE, "A", 1);
  uint16_t s1 = host.seq++; /* lost on the way */
  uint8_t p[5];
  simty_put_u32(p, SIMTY_DATA_BASE + 1u);
  p[4] = 'C';
  uint16_t s2 = fw_host_send(&host, SIMTY_CMD_WRITE, p, 5);
  expect_answer(s0, SIMTY_CMD_WRITE, SIMTY_ST_OK);
  expect_answer(s2, SIMTY_CMD_WRITE, SIMTY_ST_SEQUENCE);
  assert_int_equal(detail(), s1);
  assert_int_equal(mock.data[1], 0);
  assert_int_equal(mock.copies, 1);
  assert_int_equal(fw.sequence, 1);
  /* Go-back-N: the host sends again from s1. */
  uint8_t q[5];
  simty_put_u32(q, SIMTY_DATA_BASE + 1u);
  q[4] = 'B';
  fw_host_send_seq(&host, SIMTY_CMD_WRITE, s1, q, 5);
  fw_host_send_seq(&host, SIMTY_CMD_WRITE, s2, p, 5);
  expect_answer(s1, SIMTY_CMD_WRITE, SIMTY_ST_OK);
  expect_answer(s2, SIMTY_CMD_WRITE, SIMTY_ST_OK);
  assert_int_equal(mock.data[1], 'C');
  assert_int_equal(mock.copies, 3);
  /* A seq from nowhere. */
  fw_host_send_seq(&host, SIMTY_CMD_STATUS, (uint16_t)(host.seq + 1000u),
                   (uint8_t[4]){0}, 4);
  expect_answer((uint16_t)(host.seq + 1000u), SIMTY_CMD_STATUS,
                SIMTY_ST_SEQUENCE);
  assert_int_equal(detail(), host.seq);
  assert_int_equal(call(SIMTY_CMD_STATUS, (uint8_t[4]){0}, 4), SIMTY_ST_OK);
}

/* INFO is always executed and starts a new window after its seq: the
 * cache of the old one is forgotten. */
static void test_info_resets_window(void **state)
{
  (void)state;
  uint16_t w = send_write(SIMTY_DATA_BASE, "1", 1);
  expect_answer(w, SIMTY_CMD_WRITE, SIMTY_ST_OK);
  unsigned req = fw.requests;
  /* A new session with an unrelated seq. */
  host.seq = 0x0123;
  assert_int_equal(fw_host_open(&host, POLLS), SIMTY_ST_OK);
  assert_int_equal(fw.requests, req + 1);
  assert_int_equal(fw.expect, 0x0124);
  /* The old WRITE is not answered from the forgotten cache, nor run. */
  uint8_t p[5];
  simty_put_u32(p, SIMTY_DATA_BASE);
  p[4] = '1';
  fw_host_send_seq(&host, SIMTY_CMD_WRITE, w, p, 5);
  expect_answer(w, SIMTY_CMD_WRITE, SIMTY_ST_SEQUENCE);
  assert_int_equal(detail(), 0x0124);
  /* Nor is the INFO's predecessor in the new numbering. */
  fw_host_send_seq(&host, SIMTY_CMD_WRITE, 0x0121, p, 5);
  expect_answer(0x0121, SIMTY_CMD_WRITE, SIMTY_ST_SEQUENCE);
  assert_int_equal(mock.copies, 1);
  assert_int_equal(call(SIMTY_CMD_WRITE, p, 5), SIMTY_ST_OK);
  assert_int_equal(host.resp_seq, 0x0124);
  assert_int_equal(mock.copies, 2);
  /* An INFO in the middle of a window in flight: the requests before it
   * run, it resets, the ones after it follow it. */
  uint16_t a = send_write(SIMTY_DATA_BASE, "2", 1);
  uint16_t i = fw_host_send(&host, SIMTY_CMD_INFO, NULL, 0);
  uint16_t b = send_write(SIMTY_DATA_BASE, "3", 1);
  expect_answer(a, SIMTY_CMD_WRITE, SIMTY_ST_OK);
  expect_answer(i, SIMTY_CMD_INFO, SIMTY_ST_OK);
  expect_answer(b, SIMTY_CMD_WRITE, SIMTY_ST_OK);
  assert_int_equal(mock.data[0], '3');
}

/* A CRC error in a WRITE's payload within a window in flight: BAD_CRC,
 * nothing written, and the requests behind it are out of order until the
 * host sends it again. */
static void test_crc_error_in_write_payload(void **state)
{
  (void)state;
  static uint8_t frame[600], wire[700];
  uint8_t data[500];
  memset(data, 0x5A, sizeof data);
  uint16_t s = host.seq++;
  simty_put_u32(frame + SIMTY_HDR_SIZE, SIMTY_DATA_BASE + 0x300u);
  memcpy(frame + SIMTY_HDR_SIZE + 4, data, sizeof data);
  size_t n = simty_frame_seal(frame, SIMTY_CMD_WRITE, s, 0, 4 + sizeof data);
  frame[SIMTY_HDR_SIZE + 4 + 250] ^= 0x01; /* one bit flips on the wire */
  mock_uart_push(wire, simty_link_encode(frame, n, wire));
  uint16_t r = send_read(SIMTY_DATA_BASE + 0x300u, sizeof data);
  expect_answer(s, SIMTY_CMD_WRITE, SIMTY_ST_BAD_CRC);
  assert_int_equal(detail(), n);
  expect_answer(r, SIMTY_CMD_READ, SIMTY_ST_SEQUENCE);
  assert_int_equal(detail(), s);
  assert_int_equal(mock.copies, 0);
  static const uint8_t zero[500];
  assert_memory_equal(mock.data + 0x300u, zero, sizeof zero);
  /* The host sends both again (go-back-N from s). */
  frame[SIMTY_HDR_SIZE + 4 + 250] ^= 0x01;
  mock_uart_push(wire, simty_link_encode(frame, n, wire));
  uint8_t rp[8];
  simty_put_u32(rp, SIMTY_DATA_BASE + 0x300u);
  simty_put_u32(rp + 4, sizeof data);
  fw_host_send_seq(&host, SIMTY_CMD_READ, r, rp, 8);
  expect_answer(s, SIMTY_CMD_WRITE, SIMTY_ST_OK);
  expect_answer(r, SIMTY_CMD_READ, SIMTY_ST_OK);
  assert_memory_equal(host.payload, data, sizeof data);
  assert_int_equal(mock.copies, 2);
}

/* Naks go out of the last TX slot; when it caches a response, the head
 * they overwrite is put back before that response is sent again. */
static void test_nak_keeps_cache(void **state)
{
  (void)state;
  if (WINDOW < 4)
    skip(); /* the nak slot is a spare one: nothing to put back */
  /* Fill the window so that every slot caches an answer; note the one
   * in the last slot (3). */
  uint16_t s[4];
  uint8_t saved[64];
  size_t saved_len = 0;
  for (int i = 0; i < 4; i++) {
    s[i] = send_read(SIMTY_DATA_BASE + 0x10u * (uint32_t)i, 9);
    mock.data[0x10 * i] = (uint8_t)(0xA0 + i);
  }
  for (int i = 0; i < 4; i++) {
    expect_answer(s[i], SIMTY_CMD_READ, SIMTY_ST_OK);
    if (fw.slot[WINDOW - 1u].state == FW_SLOT_CACHED && fw.slot[WINDOW - 1u].seq == s[i]) {
      saved_len = host.frame_len;
      memcpy(saved, host.dec.buf, saved_len);
    }
  }
  assert_true(saved_len > 0);
  uint16_t s3 = fw.slot[WINDOW - 1u].seq;
  /* Two corrupt frames and a gap: three uncached answers. */
  static uint8_t frame[64], wire[80];
  size_t n = simty_frame_seal(frame, SIMTY_CMD_STATUS, host.seq, 0, 0);
  frame[2] ^= 0x10;
  mock_uart_push(wire, simty_link_encode(frame, n, wire));
  assert_true(fw_host_receive(&host, POLLS));
  assert_int_equal(host.status, SIMTY_ST_BAD_CRC);
  mock_uart_push(wire, simty_link_encode(frame, n, wire));
  assert_true(fw_host_receive(&host, POLLS));
  assert_int_equal(host.status, SIMTY_ST_BAD_CRC);
  fw_host_send_seq(&host, SIMTY_CMD_STATUS, (uint16_t)(host.seq + 7u),
                   (uint8_t[4]){0}, 4);
  assert_true(fw_host_receive(&host, POLLS));
  assert_int_equal(host.status, SIMTY_ST_SEQUENCE);
  /* The response cached in slot 3 comes back byte for byte. */
  uint8_t rp[8];
  simty_put_u32(rp, SIMTY_DATA_BASE + 0x10u * (uint32_t)(uint16_t)(s3 - s[0]));
  simty_put_u32(rp + 4, 9);
  fw_host_send_seq(&host, SIMTY_CMD_READ, s3, rp, 8);
  assert_true(fw_host_receive(&host, POLLS));
  assert_int_equal(host.frame_len, saved_len);
  assert_memory_equal(host.dec.buf, saved, saved_len);
  assert_int_equal(mock.copies, 4);
  /* And the next request takes its slot over normally. */
  for (int i = 0; i < 5; i++)
    assert_int_equal(call(SIMTY_CMD_STATUS, (uint8_t[4]){0}, 4), SIMTY_ST_OK);
}

/* While a WAIT is parked: a retransmission of an earlier request is
 * answered from the cache and a gap with SEQUENCE, the WAIT staying
 * parked; the next request in order answers it first. */
static void test_wait_parked_in_window(void **state)
{
  (void)state;
  mock.run_polls = 1000000;
  uint8_t l[SIMTY_LAUNCH_SIZE] = {0};
  simty_put_u32(l + SIMTY_LAUNCH_ENTRY, ENTRY);
  simty_put_u32(l + SIMTY_LAUNCH_NTHREADS, 40);
  simty_put_u32(l + SIMTY_LAUNCH_DATA_END, DATA_END);
  l[SIMTY_LAUNCH_STACK_LOG2] = 8;
  uint16_t ls = fw_host_send(&host, SIMTY_CMD_LAUNCH, l, sizeof l);
  expect_answer(ls, SIMTY_CMD_LAUNCH, SIMTY_ST_OK);
  uint8_t wp[8];
  simty_put_u32(wp, 10000);
  simty_put_u32(wp + 4, 0);
  uint16_t ws = fw_host_send(&host, SIMTY_CMD_WAIT, wp, 8);
  assert_false(fw_host_receive(&host, 100));
  assert_true(fw.wait_parked);
  fw_host_send_seq(&host, SIMTY_CMD_LAUNCH, ls, l, sizeof l);
  expect_answer(ls, SIMTY_CMD_LAUNCH, SIMTY_ST_OK); /* not BUSY: cached */
  assert_int_equal(simty_get_u32(host.payload + SIMTY_LAUNCHED_ID), 1);
  fw_host_send_seq(&host, SIMTY_CMD_STATUS, (uint16_t)(host.seq + 1u),
                   (uint8_t[4]){0}, 4);
  expect_answer((uint16_t)(host.seq + 1u), SIMTY_CMD_STATUS,
                SIMTY_ST_SEQUENCE);
  assert_int_equal(detail(), host.seq);
  fw_host_send_seq(&host, SIMTY_CMD_WAIT, ws, wp, 8); /* absorbed */
  assert_false(fw_host_receive(&host, 100));
  assert_true(fw.wait_parked);
  uint16_t a = fw_host_send(&host, SIMTY_CMD_ABORT, NULL, 0);
  expect_answer(ws, SIMTY_CMD_WAIT, SIMTY_ST_OK);
  assert_int_equal(sr_state(), SIMTY_STATE_RUNNING);
  expect_answer(a, SIMTY_CMD_ABORT, SIMTY_ST_OK);
  assert_int_equal(sr_cause(), SIMTY_FAULT_ABORTED);
  /* The WAIT's answer is now cached like any other. */
  fw_host_send_seq(&host, SIMTY_CMD_WAIT, ws, wp, 8);
  expect_answer(ws, SIMTY_CMD_WAIT, SIMTY_ST_OK);
  assert_int_equal(sr_state(), SIMTY_STATE_RUNNING);
}

/* Other engine shapes: a window of 3 (not a power of two) across the seq
 * wrap, and a window of 1 (stop-and-wait, the nak slot is the only
 * slot). */
static void check_window(uint32_t tx_slots)
{
  const uint32_t win = tx_slots < FW_MAX_WINDOW ? tx_slots : FW_MAX_WINDOW;
  mock_reset(4, 4);
  mock.tx_slots = tx_slots;
  fw_init(&fw);
  fw_host_init(&host, &fw);
  host.seq = 0xFFFC;
  assert_int_equal(fw_host_open(&host, POLLS), SIMTY_ST_OK);
  assert_int_equal(simty_get_u16(host.payload + SIMTY_INFO_WINDOW), win);
  unsigned sent = 0, done = 0;
  uint16_t first = host.seq;
  uint8_t v[12];
  while (done < 12) {
    while (sent < 12 && sent - done < win) {
      v[sent] = (uint8_t)(0x30 + sent);
      send_write(SIMTY_DATA_BASE + sent, &v[sent], 1);
      sent++;
    }
    expect_answer((uint16_t)(first + done), SIMTY_CMD_WRITE, SIMTY_ST_OK);
    done++;
  }
  assert_memory_equal(mock.data, v, 12);
  /* The last window's requests again: from the cache. */
  for (unsigned i = 12 - win; i < 12; i++) {
    uint8_t p[5];
    simty_put_u32(p, SIMTY_DATA_BASE + i);
    p[4] = v[i];
    fw_host_send_seq(&host, SIMTY_CMD_WRITE, (uint16_t)(first + i), p, 5);
    expect_answer((uint16_t)(first + i), SIMTY_CMD_WRITE, SIMTY_ST_OK);
  }
  assert_int_equal(mock.copies, 12);
  /* A corrupt frame, then the newest request again: cache intact. */
  static uint8_t frame[64], wire[80];
  size_t n = simty_frame_seal(frame, SIMTY_CMD_STATUS, host.seq, 0, 0);
  frame[n - 1] ^= 1;
  mock_uart_push(wire, simty_link_encode(frame, n, wire));
  assert_true(fw_host_receive(&host, POLLS));
  assert_int_equal(host.status, SIMTY_ST_BAD_CRC);
  uint8_t p[5];
  simty_put_u32(p, SIMTY_DATA_BASE + 11u);
  p[4] = v[11];
  fw_host_send_seq(&host, SIMTY_CMD_WRITE, (uint16_t)(first + 11u), p, 5);
  expect_answer((uint16_t)(first + 11u), SIMTY_CMD_WRITE, SIMTY_ST_OK);
  assert_int_equal(host.length, 0);
  assert_int_equal(mock.copies, 12);
  assert_int_equal(call(SIMTY_CMD_STATUS, (uint8_t[4]){0}, 4), SIMTY_ST_OK);
}

static void test_other_windows(void **state)
{
  (void)state;
  check_window(3);
  check_window(1);
  check_window(8);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
      T(test_info),
      T(test_write_read_round_trip),
      T(test_protected_and_out_of_range),
      T(test_bad_requests),
      T(test_launch_waves),
      T(test_refill_with_slow_handshake),
      T(test_refill_during_link_traffic),
      T(test_largest_launch_accepted),
      T(test_launch_checks),
      T(test_fault),
      T(test_abort),
      T(test_timeout),
      T(test_duplicate_answered_from_cache),
      T(test_busy_while_running),
      T(test_queue_in_order),
      T(test_queue_fault_cancels),
      T(test_queue_full),
      T(test_queue_keeps_console),
      T(test_wait_until),
      T(test_wait_parks_until_end),
      T(test_one_request_to_launch_one_to_collect),
      T(test_console_backpressure),
      T(test_counters),
      T(test_reset),
      T(test_corrupt_frames),
      T(test_tx_never_blocks),
      T(test_slow_reset),
      T(test_window_in_order),
      T(test_duplicate_within_window),
      T(test_gap_answered_with_sequence),
      T(test_info_resets_window),
      T(test_crc_error_in_write_payload),
      T(test_nak_keeps_cache),
      T(test_wait_parked_in_window),
      T(test_other_windows),
#undef T
  };
  return cmocka_run_group_tests_name("firmware", tests, NULL, NULL);
}
