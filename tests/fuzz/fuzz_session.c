/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_session.c - libFuzzer target for the host session
 * (driver/transport/simty_session.c) against a scripted device: a fake
 * struct simty_transport whose recv hands out the fuzz input (garbage,
 * frames, partial frames) in chunks, and whose send accepts everything.
 *
 * Time is virtual: the session's clock (simty__transport_now_ns, wrapped
 * at link time with -Wl,--wrap) advances 50 us per recv that returns
 * bytes, 10 us per send, and jumps to the deadline when the script is
 * exhausted, so every time-out and retransmission path runs in
 * microseconds of real time.
 *
 * Input: byte 0 seeds the chunk sizes; the rest is what the device
 * "sends". The session opens (INFO), makes a STATUS request, submits two
 * READs to the window's room and completes them, then a WAIT, then
 * closes. Errors are expected; ASan/UBSan/LeakSanitizer and libFuzzer's
 * time-out catch the rest. Checked besides: a completed request's payload
 * lies within the session and is no longer than the protocol allows.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simty_link.h"
#include "simty_proto.h"
#include "simty_transport.h"

#define CHECK(cond)                                                          \
  do {                                                                       \
    if (!(cond)) {                                                           \
      fprintf(stderr, "fuzz_session: check failed: %s\n", #cond);            \
      abort();                                                               \
    }                                                                        \
  } while (0)

static uint64_t vclock;
static const uint8_t *script;
static size_t script_len, script_pos;
static uint32_t rng;
static unsigned closes;

uint64_t __wrap_simty__transport_now_ns(void);
uint64_t __wrap_simty__transport_now_ns(void)
{
  return vclock;
}

static int fake_send(struct simty_transport *t, const uint8_t *buf, size_t n,
                     uint64_t deadline_ns)
{
  (void)t;
  (void)deadline_ns;
  CHECK(buf != NULL && n > 0);
  vclock += 10000u;
  return 0;
}

static int fake_recv(struct simty_transport *t, uint8_t *buf, size_t cap,
                     size_t *got, uint64_t deadline_ns)
{
  (void)t;
  CHECK(cap > 0);
  if (script_pos >= script_len) {
    if (deadline_ns > vclock)
      vclock = deadline_ns;
    else
      vclock += 1000u;
    *got = 0;
    return 0;
  }
  rng = rng * 1103515245u + 12345u;
  size_t n = 1 + ((rng >> 16) % 96u);
  if (n > cap)
    n = cap;
  if (n > script_len - script_pos)
    n = script_len - script_pos;
  memcpy(buf, script + script_pos, n);
  script_pos += n;
  *got = n;
  vclock += 50000u;
  return 0;
}

static void fake_close(struct simty_transport *t)
{
  (void)t;
  closes++;
}

static const struct simty_transport_ops fake_ops = {
    .send = fake_send, .recv = fake_recv, .close = fake_close};

static void check_answer(const struct simty_session *s, int e)
{
  if (e == 0 && s->payload_len) {
    CHECK(s->payload_len <= SIMTY_MAX_PAYLOAD);
    CHECK(s->payload != NULL);
    const uint8_t *lo = (const uint8_t *)s, *hi = lo + sizeof *s;
    CHECK(s->payload >= lo && s->payload + s->payload_len <= hi);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  if (size == 0)
    return 0;
  rng = data[0] * 2654435761u + 7u;
  script = data + 1;
  script_len = size - 1;
  script_pos = 0;
  vclock = 1000000000u;
  closes = 0;

  struct simty_transport *t = calloc(1, sizeof *t);
  struct simty_session *s = malloc(sizeof *s);
  CHECK(t && s);
  t->ops = &fake_ops;
  t->kind = "test";
  t->bytes_per_sec = 11520;
  t->margin_ms = 2;
  t->wait_slice_ms = 5;
  simty_session_init(s, t);

  int e = simty_session_open(s);
  check_answer(s, e);
  e = simty_session_request(s, SIMTY_CMD_STATUS, NULL, 0, 64, 0);
  check_answer(s, e);
  uint8_t rd[SIMTY_READ_SIZE];
  simty_put_u32(rd + SIMTY_READ_ADDR, 0x20000000u);
  simty_put_u32(rd + SIMTY_READ_COUNT, 16);
  unsigned submitted = 0;
  for (unsigned i = 0; i < 2 && simty_session_room(s) > 0; i++)
    if (simty_session_submit(s, SIMTY_CMD_READ, rd, sizeof rd, 16, 0, NULL) == 0)
      submitted++;
  for (unsigned i = 0; i < submitted + 1; i++) {
    unsigned ticket;
    e = simty_session_complete(s, &ticket);
    check_answer(s, e);
  }
  uint8_t wt[SIMTY_WAIT_REQ_SIZE];
  simty_put_u32(wt + SIMTY_WAIT_MS, 5);
  simty_put_u32(wt + SIMTY_WAIT_FLAGS, 0);
  e = simty_session_request(s, SIMTY_CMD_WAIT, wt, sizeof wt, 64, 5);
  check_answer(s, e);

  simty_session_close(s);
  CHECK(closes == 1);
  free(s);
  free(t);
  return 0;
}
