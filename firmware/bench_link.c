/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bench_link.c - how much of the UART's rate bulk WRITE and READ get, and
 * how many round trips a launch and its collection take.
 *
 * Part 1 frames payloads with the real encoder (random data and COBS's
 * worst case, data without zeros) and works out the share of the wire's
 * character rate (baud / 10 for 8N1) left for payload, counting request
 * and response frames, delimiters and COBS code bytes, at 115200 and
 * 3,000,000 baud, with and without a per-round-trip turnaround, for
 * stop-and-wait and for a window of WINDOW requests in flight (protocol
 * version 2).
 *
 * Part 2 runs the real firmware engine against the mock SoC (which
 * emulates the hardware link engine): bulk WRITE and READ of 256 KiB with
 * the device's window kept full, then LAUNCH + WAIT, and counts every
 * wire byte, round trip and copy.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fw.h"
#include "fw_host.h"
#include "mock_hal.h"

static uint32_t rng = 0x2545F491u;
static uint8_t rnd8(void)
{
  rng ^= rng << 13;
  rng ^= rng >> 17;
  rng ^= rng << 5;
  return (uint8_t)rng;
}

/* Wire bytes of a frame with this payload. */
static size_t wire_bytes(const uint8_t *payload, size_t n)
{
  static uint8_t frame[SIMTY_FRAME_SIZE(SIMTY_MAX_PAYLOAD)];
  static uint8_t wire[SIMTY_WIRE_MAX(sizeof frame)];
  memcpy(frame + SIMTY_HDR_SIZE, payload, n);
  size_t len = simty_frame_seal(frame, SIMTY_CMD_WRITE, 0x1234, 0, (uint16_t)n);
  return simty_link_encode(frame, len, wire);
}

struct cost {
  size_t data; /* payload data bytes moved per request */
  size_t req;  /* wire bytes host -> device */
  size_t resp; /* wire bytes device -> host */
};

static struct cost write_cost(size_t chunk, int worst)
{
  static uint8_t p[SIMTY_MAX_PAYLOAD];
  simty_put_u32(p, SIMTY_DATA_BASE + 0x10101u); /* no zero bytes either */
  for (size_t i = 0; i < chunk; i++)
    p[4 + i] = worst ? (uint8_t)(1u + rnd8() % 255u) : rnd8();
  struct cost c = {chunk, wire_bytes(p, chunk + 4), wire_bytes(NULL, 0)};
  return c;
}

static struct cost read_cost(size_t chunk, int worst)
{
  static uint8_t p[SIMTY_MAX_PAYLOAD];
  uint8_t req[8];
  simty_put_u32(req, SIMTY_DATA_BASE + 0x10101u);
  simty_put_u32(req + 4, (uint32_t)chunk);
  for (size_t i = 0; i < chunk; i++)
    p[i] = worst ? (uint8_t)(1u + rnd8() % 255u) : rnd8();
  struct cost c = {chunk, wire_bytes(req, 8), wire_bytes(p, chunk)};
  return c;
}

/* Share of the character rate, stop-and-wait: each request waits for its
 * response, so both frames and the turnaround take wire time. */
static double share(const struct cost *c, double baud, double turnaround_s)
{
  double char_rate = baud / 10.0; /* 8N1: start + 8 data + stop */
  double t = (double)(c->req + c->resp) / char_rate + turnaround_s;
  return (double)c->data / t / char_rate;
}

/* The reference engine's window (TX slots). */
#define WINDOW 4u

/* The same with WINDOW requests in flight: both directions of the wire
 * run at once, and a request's round trip is shared by WINDOW of them. */
static double share_window(const struct cost *c, double baud,
                           double turnaround_s)
{
  double char_rate = baud / 10.0;
  double one = (double)(c->req > c->resp ? c->req : c->resp) / char_rate;
  double trip =
      ((double)(c->req + c->resp) / char_rate + turnaround_s) / WINDOW;
  return (double)c->data / (one > trip ? one : trip) / char_rate;
}

static void part1(void)
{
  static const size_t payloads[] = {256, 1024, 2048, SIMTY_MAX_PAYLOAD};
  static const double bauds[] = {115200.0, 3000000.0};
  printf("Part 1: framing cost of bulk transfers (real encoder)\n");
  printf("  share = payload bytes / UART characters (baud/10, 8N1), "
         "request + response\n"
         "  frames; 'stream' = the data's direction alone; stop-and-wait "
         "(s&w) and a\n"
         "  window of %u in flight (win), 1 ms turnaround per round trip\n\n",
         WINDOW);
  printf("  %-5s %-7s %-6s %6s %6s %5s %8s | %-21s | %-21s\n", "op", "payload",
         "data", "req B", "resp B", "bytes", "stream", "115200: s&w / win",
         "3M: s&w / win");
  for (int op = 0; op < 2; op++) {
    for (size_t i = 0; i < sizeof payloads / sizeof payloads[0]; i++) {
      for (int worst = 0; worst < 2; worst++) {
        size_t max = payloads[i];
        size_t chunk = op == 0 ? max - SIMTY_WRITE_DATA : max;
        struct cost c =
            op == 0 ? write_cost(chunk, worst) : read_cost(chunk, worst);
        double stream = (double)c.data / (double)(op == 0 ? c.req : c.resp);
        printf(
            "  %-5s %-7zu %-6zu %6zu %6zu %5s %7.2f%% | %9.2f%% %9.2f%% | "
            "%9.2f%% %9.2f%%\n",
            op == 0 ? "WRITE" : "READ", max, c.data, c.req, c.resp,
            worst ? "worst" : "rand", 100.0 * stream,
            100.0 * share(&c, bauds[0], 1e-3),
            100.0 * share_window(&c, bauds[0], 1e-3),
            100.0 * share(&c, bauds[1], 1e-3),
            100.0 * share_window(&c, bauds[1], 1e-3));
      }
    }
  }
  printf("\n  (8N1 itself carries 8 data bits in 10: multiply by 0.8 for the "
         "share of\n"
         "   the raw bit rate)\n\n");
}

static struct fw fw;
static struct fw_host host;

static void part2(void)
{
  mock_reset(4, 4);
  mock.run_polls = 50;
  fw_init(&fw);
  fw_host_init(&host, &fw);
  if (fw_host_open(&host, 100000) != SIMTY_ST_OK) {
    fprintf(stderr, "bench: INFO failed\n");
    exit(1);
  }
  const unsigned window = simty_get_u16(host.payload + SIMTY_INFO_WINDOW);
  printf("Part 2: the firmware engine against the mock SoC (link engine with "
         "%u TX slots:\n  window %u, requests sent as answers arrive)\n",
         mock.tx_slots, window);

  const size_t total = 256u * 1024u;
  static uint8_t src[256u * 1024u];
  for (size_t i = 0; i < total; i++)
    src[i] = rnd8();
  static uint8_t p[SIMTY_MAX_PAYLOAD];
  const size_t wchunk = FW_MAX_PAYLOAD - SIMTY_WRITE_DATA;

  uint64_t to_dev0 = host.wire_to_dev, to_host0 = host.wire_to_host;
  uint64_t copies0 = mock.copies, words0 = mock.link_writes;
  unsigned nreq = 0, done = 0, most = 0;
  uint16_t first = host.seq;
  const unsigned wreqs = (unsigned)((total + wchunk - 1) / wchunk);
  while (done < wreqs) {
    while (nreq < wreqs && nreq - done < window) {
      size_t off = nreq * wchunk;
      size_t n = total - off < wchunk ? total - off : wchunk;
      simty_put_u32(p, SIMTY_DATA_BASE + (uint32_t)off);
      memcpy(p + 4, src + off, n);
      fw_host_send(&host, SIMTY_CMD_WRITE, p, n + 4);
      nreq++;
    }
    if (nreq - done > most)
      most = nreq - done;
    if (!fw_host_receive(&host, 100000) || host.status != SIMTY_ST_OK ||
        host.resp_seq != (uint16_t)(first + done)) {
      fprintf(stderr, "bench: WRITE failed\n");
      exit(1);
    }
    done++;
  }
  uint64_t wd = host.wire_to_dev - to_dev0, wh = host.wire_to_host - to_host0;
  printf(
      "  WRITE %zu bytes: %u requests (up to %u in flight), %llu wire bytes "
      "to device,\n    %llu back: %.2f%% of the request direction, %.2f%% "
      "counting both;\n    %llu copies by the engine, %llu words written "
      "by the firmware\n",
      total, wreqs, most, (unsigned long long)wd, (unsigned long long)wh,
      100.0 * (double)total / (double)wd,
      100.0 * (double)total / (double)(wd + wh),
      (unsigned long long)(mock.copies - copies0),
      (unsigned long long)(mock.link_writes - words0));
  if (memcmp(mock.data, src, total) != 0) {
    fprintf(stderr, "bench: written data differs\n");
    exit(1);
  }

  to_dev0 = host.wire_to_dev;
  to_host0 = host.wire_to_host;
  const unsigned rreqs = (unsigned)((total + FW_MAX_PAYLOAD - 1) / FW_MAX_PAYLOAD);
  nreq = done = most = 0;
  first = host.seq;
  while (done < rreqs) {
    while (nreq < rreqs && nreq - done < window) {
      size_t off = (size_t)nreq * FW_MAX_PAYLOAD;
      size_t n = total - off < FW_MAX_PAYLOAD ? total - off : FW_MAX_PAYLOAD;
      uint8_t r[8];
      simty_put_u32(r, SIMTY_DATA_BASE + (uint32_t)off);
      simty_put_u32(r + 4, (uint32_t)n);
      fw_host_send(&host, SIMTY_CMD_READ, r, 8);
      nreq++;
    }
    if (nreq - done > most)
      most = nreq - done;
    size_t off = (size_t)done * FW_MAX_PAYLOAD;
    size_t n = total - off < FW_MAX_PAYLOAD ? total - off : FW_MAX_PAYLOAD;
    if (!fw_host_receive(&host, 100000) || host.status != SIMTY_ST_OK ||
        host.resp_seq != (uint16_t)(first + done) ||
        memcmp(host.payload, src + off, n) != 0) {
      fprintf(stderr, "bench: READ failed\n");
      exit(1);
    }
    done++;
  }
  wd = host.wire_to_dev - to_dev0;
  wh = host.wire_to_host - to_host0;
  printf(
      "  READ  %zu bytes: %u requests (up to %u in flight), %llu wire bytes "
      "to device,\n    %llu back: %.2f%% of the response direction, %.2f%% "
      "counting both\n",
      total, rreqs, most, (unsigned long long)wd, (unsigned long long)wh,
      100.0 * (double)total / (double)wh,
      100.0 * (double)total / (double)(wd + wh));
  unsigned rt0;

  /* Launch 10,000 threads that print one byte each, collect everything. */
  uint8_t l[SIMTY_LAUNCH_SIZE] = {0};
  simty_put_u32(l + SIMTY_LAUNCH_ENTRY, SIMTY_CODE_BASE);
  simty_put_u32(l + SIMTY_LAUNCH_NTHREADS, 10000);
  simty_put_u32(l + SIMTY_LAUNCH_DATA_END, SIMTY_DATA_BASE + (uint32_t)total);
  l[SIMTY_LAUNCH_STACK_LOG2] = 10;
  rt0 = host.round_trips;
  to_dev0 = host.wire_to_dev;
  to_host0 = host.wire_to_host;
  if (fw_host_call(&host, SIMTY_CMD_LAUNCH, l, sizeof l, 100000) !=
      SIMTY_ST_OK) {
    fprintf(stderr, "bench: LAUNCH failed\n");
    exit(1);
  }
  uint8_t w[8];
  simty_put_u32(w, 60000);
  simty_put_u32(w + 4, SIMTY_WANT_COUNTERS | SIMTY_WANT_CONSOLE);
  if (fw_host_call(&host, SIMTY_CMD_WAIT, w, 8, 10000000) != SIMTY_ST_OK ||
      host.payload[SIMTY_SR_STATE] != SIMTY_STATE_DONE) {
    fprintf(stderr, "bench: WAIT failed\n");
    exit(1);
  }
  printf(
      "  LAUNCH 10000 threads + WAIT(counters, console), no output: %u round "
      "trips, %llu + %llu wire bytes, %zu blocks dispatched\n",
      host.round_trips - rt0, (unsigned long long)(host.wire_to_dev - to_dev0),
      (unsigned long long)(host.wire_to_host - to_host0), mock.nlog);

  /* The same with 64 threads printing 10 bytes each. */
  rt0 = host.round_trips;
  if (fw_host_call(&host, SIMTY_CMD_LAUNCH, l, sizeof l, 100000) !=
      SIMTY_ST_OK) {
    fprintf(stderr, "bench: LAUNCH failed\n");
    exit(1);
  }
  for (uint32_t t = 0; t < 640; t++)
    mock_console_push(t % 64u, (uint8_t)('a' + t / 64u));
  if (fw_host_call(&host, SIMTY_CMD_WAIT, w, 8, 10000000) != SIMTY_ST_OK) {
    fprintf(stderr, "bench: WAIT failed\n");
    exit(1);
  }
  const uint8_t *cs = host.payload + SIMTY_SR_SIZE + 8u * SIMTY_CTR_COUNT;
  unsigned got = simty_get_u16(cs + SIMTY_CS_COUNT);
  unsigned extra = 0;
  uint32_t pending = simty_get_u32(host.payload + SIMTY_SR_CONSOLE_PENDING);
  while (pending != 0) {
    uint8_t c[4] = {0};
    if (fw_host_call(&host, SIMTY_CMD_CONSOLE, c, 4, 100000) != SIMTY_ST_OK) {
      fprintf(stderr, "bench: CONSOLE failed\n");
      exit(1);
    }
    got += simty_get_u16(host.payload + SIMTY_CS_COUNT);
    pending = simty_get_u32(host.payload + SIMTY_CS_PENDING);
    extra++;
  }
  printf("  LAUNCH + WAIT with 640 console bytes: %u round trips (%u CONSOLE), "
         "%u bytes collected\n",
         host.round_trips - rt0, extra, got);
}

int main(void)
{
  part1();
  part2();
  return 0;
}
