/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_link.c - cmocka tests of the link layer: CRC check value, COBS
 * reference vectors, round trips of every command at every payload size
 * edge, resynchronisation after garbage, bad CRC, truncation, oversize
 * and inconsistent lengths, byte-at-a-time feeding, and a fixed-seed fuzz
 * loop (run under ASan/UBSan by driver.mk).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "simty_link.h"

#define CAP SIMTY_FRAME_SIZE(SIMTY_MAX_PAYLOAD)

static uint32_t rng_state;
static uint32_t rnd(void)
{
  /* xorshift32: fixed seed, same bytes on every run */
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 17;
  rng_state ^= rng_state << 5;
  return rng_state;
}

static const uint8_t commands[] = {
#define SIMTY_X_(name, code) code,
    SIMTY_COMMAND_MAP(SIMTY_X_)
#undef SIMTY_X_
};

/* Builds a frame with `n` payload bytes of the given pattern. */
static size_t make_frame(uint8_t *frame, uint8_t cmd, uint16_t seq,
                         uint8_t status, size_t n, int pattern)
{
  for (size_t i = 0; i < n; i++) {
    uint8_t b;
    switch (pattern) {
    case 0:
      b = 0x00;
      break;
    case 1:
      b = 0xFF;
      break;
    case 2:
      b = (uint8_t)(i % 255u + 1u);
      break; /* never zero */
    case 3:
      b = (i % 254u == 253u) ? 0 : 0x5A;
      break; /* zero at run end */
    default:
      b = (uint8_t)rnd();
      break;
    }
    frame[SIMTY_HDR_SIZE + i] = b;
  }
  return simty_frame_seal(frame, cmd, seq, status, (uint16_t)n);
}

/* Feeds bytes one at a time; returns the count of each event. */
struct events {
  unsigned frame, runt, bad_length, bad_crc;
  uint8_t last[CAP];
  size_t last_len;
};

static void feed(struct simty_link_decoder *dec, const uint8_t *wire, size_t n,
                 struct events *ev)
{
  for (size_t i = 0; i < n; i++) {
    switch (simty_link_decoder_feed(dec, wire[i])) {
    case SIMTY_LINK_FRAME:
      ev->frame++;
      memcpy(ev->last, dec->buf, dec->len);
      ev->last_len = dec->len;
      break;
    case SIMTY_LINK_RUNT:
      ev->runt++;
      break;
    case SIMTY_LINK_BAD_LENGTH:
      ev->bad_length++;
      break;
    case SIMTY_LINK_BAD_CRC:
      ev->bad_crc++;
      break;
    default:
      break;
    }
  }
}

static void test_crc_check_value(void **state)
{
  (void)state;
  assert_int_equal(simty_crc32(0, "123456789", 9), 0xCBF43926u);
  /* Chaining gives the same result as one pass. */
  uint32_t c = simty_crc32(0, "1234", 4);
  assert_int_equal(simty_crc32(c, "56789", 5), 0xCBF43926u);
  assert_int_equal(simty_crc32(0, "", 0), 0u);
  /* Known value of one zero byte (IEEE CRC-32). */
  uint8_t z = 0;
  assert_int_equal(simty_crc32(0, &z, 1), 0xD202EF8Du);
}

/* Reference COBS vectors (Cheshire & Baker), framed by our delimiters. */
static void check_cobs(const uint8_t *in, size_t n, const uint8_t *want,
                       size_t wn)
{
  uint8_t out[600];
  size_t w = simty_link_encode(in, n, out);
  assert_int_equal(w, wn + 2);
  assert_int_equal(out[0], 0);
  assert_memory_equal(out + 1, want, wn);
  assert_int_equal(out[w - 1], 0);
  assert_true(w <= SIMTY_WIRE_MAX(n));
}

static void test_cobs_vectors(void **state)
{
  (void)state;
  check_cobs((const uint8_t[]){0x00}, 1, (const uint8_t[]){0x01, 0x01}, 2);
  check_cobs((const uint8_t[]){0x00, 0x00}, 2,
             (const uint8_t[]){0x01, 0x01, 0x01}, 3);
  check_cobs((const uint8_t[]){0x11, 0x22, 0x00, 0x33}, 4,
             (const uint8_t[]){0x03, 0x11, 0x22, 0x02, 0x33}, 5);
  check_cobs((const uint8_t[]){0x11, 0x22, 0x33, 0x44}, 4,
             (const uint8_t[]){0x05, 0x11, 0x22, 0x33, 0x44}, 5);
  check_cobs((const uint8_t[]){0x11, 0x00, 0x00, 0x00}, 4,
             (const uint8_t[]){0x02, 0x11, 0x01, 0x01, 0x01}, 5);

  uint8_t in[300], want[300];
  /* 01..FE: one full run, no trailing code */
  for (int i = 0; i < 254; i++)
    in[i] = (uint8_t)(i + 1);
  want[0] = 0xFF;
  memcpy(want + 1, in, 254);
  check_cobs(in, 254, want, 255);
  /* 00 01..FE */
  in[0] = 0;
  for (int i = 1; i < 255; i++)
    in[i] = (uint8_t)i;
  want[0] = 0x01;
  want[1] = 0xFF;
  memcpy(want + 2, in + 1, 254);
  check_cobs(in, 255, want, 256);
  /* 01..FF: a full run, then a run of one */
  for (int i = 0; i < 255; i++)
    in[i] = (uint8_t)(i + 1);
  want[0] = 0xFF;
  memcpy(want + 1, in, 254);
  want[255] = 0x02;
  want[256] = 0xFF;
  check_cobs(in, 255, want, 257);
  /* 02..FF 00: a full run, then an empty run and its zero */
  for (int i = 0; i < 254; i++)
    in[i] = (uint8_t)(i + 2);
  in[254] = 0;
  want[0] = 0xFF;
  memcpy(want + 1, in, 254);
  want[255] = 0x01;
  want[256] = 0x01;
  check_cobs(in, 255, want, 257);
}

/* Every command, request and response, every payload size edge, every
 * pattern: encode, feed byte by byte, get the identical frame back. */
static void test_round_trip_sizes(void **state)
{
  (void)state;
  static uint8_t frame[CAP], wire[SIMTY_WIRE_MAX(CAP)], buf[CAP];
  static struct events ev;
  struct simty_link_decoder dec;
  simty_link_decoder_init(&dec, buf, sizeof buf);
  rng_state = 0x1234567u;

  size_t sizes[700];
  size_t ns = 0;
  for (size_t n = 0; n <= 520; n++)
    sizes[ns++] = n; /* covers runs ending at 254, 508 around the header */
  for (size_t n = 1000; n <= 1040; n++)
    sizes[ns++] = n;
  for (size_t n = SIMTY_MAX_PAYLOAD - 20; n <= SIMTY_MAX_PAYLOAD; n++)
    sizes[ns++] = n;

  unsigned frames = 0;
  for (size_t c = 0; c < sizeof commands; c++) {
    for (int resp = 0; resp < 2; resp++) {
      for (size_t s = 0; s < ns; s++) {
        /* All sizes for one command, a sample for the others keeps the
         * run short while every size meets every pattern. */
        if (c != 0 && s % 7 != c % 7)
          continue;
        for (int pattern = 0; pattern < 5; pattern++) {
          uint8_t cmd = (uint8_t)(commands[c] | (resp ? 0x80 : 0));
          uint16_t seq = (uint16_t)rnd();
          size_t n = make_frame(frame, cmd, seq, resp ? (uint8_t)(s % 12) : 0,
                                sizes[s], pattern);
          size_t w = simty_link_encode(frame, n, wire);
          assert_true(w <= SIMTY_WIRE_MAX(n));
          /* COBS output never holds a zero except the two delimiters. */
          assert_null(memchr(wire + 1, 0, w - 2));
          memset(&ev, 0, sizeof ev);
          feed(&dec, wire, w, &ev);
          assert_int_equal(ev.frame, 1);
          assert_int_equal(ev.bad_crc + ev.bad_length + ev.runt, 0);
          assert_int_equal(ev.last_len, n);
          assert_memory_equal(ev.last, frame, n);
          assert_int_equal(simty_frame_command(ev.last), cmd);
          assert_int_equal(simty_frame_seq(ev.last), seq);
          assert_int_equal(simty_frame_length(ev.last), sizes[s]);
          frames++;
        }
      }
    }
  }
  assert_true(frames > 5000);
  assert_int_equal(dec.frames, frames);
}

/* The byte-at-a-time encoder produces exactly the whole-frame encoding. */
static void test_incremental_encoder(void **state)
{
  (void)state;
  static uint8_t frame[CAP], a[SIMTY_WIRE_MAX(CAP)], b[SIMTY_WIRE_MAX(CAP)];
  rng_state = 99u;
  for (size_t n = 0; n <= SIMTY_MAX_PAYLOAD; n += 37) {
    size_t len =
        make_frame(frame, SIMTY_CMD_READ | 0x80, 1, 0, n, (int)(n % 5));
    size_t wa = simty_link_encode(frame, len, a);
    struct simty_link_encoder enc;
    simty_link_encoder_init(&enc);
    assert_false(simty_link_encoder_busy(&enc));
    assert_int_equal(simty_link_encoder_next(&enc), -1);
    simty_link_encoder_start(&enc, frame, len);
    size_t wb = 0;
    int x;
    while ((x = simty_link_encoder_next(&enc)) >= 0) {
      assert_true(simty_link_encoder_busy(&enc) || x == 0);
      b[wb++] = (uint8_t)x;
    }
    assert_false(simty_link_encoder_busy(&enc));
    assert_int_equal(wa, wb);
    assert_memory_equal(a, b, wa);
  }
}

static void test_resync_after_garbage(void **state)
{
  (void)state;
  static uint8_t frame[CAP], wire[SIMTY_WIRE_MAX(CAP)], junk[5000], buf[CAP];
  static struct events ev;
  struct simty_link_decoder dec;
  simty_link_decoder_init(&dec, buf, sizeof buf);
  rng_state = 4242u;

  for (int round = 0; round < 200; round++) {
    /* Garbage of any length and content, zeros included or not. */
    size_t gn = rnd() % 3000u;
    for (size_t i = 0; i < gn; i++)
      junk[i] = (round & 1) ? (uint8_t)(rnd() | 1u) : (uint8_t)rnd();
    size_t n =
        make_frame(frame, SIMTY_CMD_WRITE, (uint16_t)round, 0, rnd() % 600u, 4);
    size_t w = simty_link_encode(frame, n, wire);
    memset(&ev, 0, sizeof ev);
    feed(&dec, junk, gn, &ev);
    unsigned junk_frames = ev.frame;
    feed(&dec, wire, w, &ev);
    /* The leading delimiter of the good frame ends whatever the garbage
     * started; the good frame then decodes. */
    assert_int_equal(ev.frame, junk_frames + 1);
    assert_memory_equal(ev.last, frame, n);
    assert_int_equal(simty_frame_seq(ev.last), (uint16_t)round);
  }
  assert_true(dec.bad_length + dec.bad_crc + dec.runts > 0);
}

static void test_garbage_inside_frame(void **state)
{
  (void)state;
  static uint8_t frame[CAP], wire[SIMTY_WIRE_MAX(CAP)], buf[CAP];
  static struct events ev;
  struct simty_link_decoder dec;
  simty_link_decoder_init(&dec, buf, sizeof buf);
  rng_state = 777u;
  for (int round = 0; round < 500; round++) {
    size_t n =
        make_frame(frame, SIMTY_CMD_READ | 0x80, 5, 0, 1 + rnd() % 1000u, 4);
    size_t w = simty_link_encode(frame, n, wire);
    /* Corrupt one byte strictly inside the frame (any value). */
    size_t at = 1 + rnd() % (w - 2);
    uint8_t was = wire[at];
    do {
      wire[at] = (uint8_t)rnd();
    } while (wire[at] == was);
    memset(&ev, 0, sizeof ev);
    feed(&dec, wire, w, &ev);
    assert_int_equal(ev.frame, 0);
    /* The next frame is unaffected. */
    n = make_frame(frame, SIMTY_CMD_INFO, 6, 0, 0, 0);
    w = simty_link_encode(frame, n, wire);
    feed(&dec, wire, w, &ev);
    assert_int_equal(ev.frame, 1);
    assert_memory_equal(ev.last, frame, n);
  }
}

static void test_bad_crc(void **state)
{
  (void)state;
  static uint8_t frame[CAP], wire[SIMTY_WIRE_MAX(CAP)], buf[CAP];
  static struct events ev;
  struct simty_link_decoder dec;
  simty_link_decoder_init(&dec, buf, sizeof buf);
  size_t n = make_frame(frame, SIMTY_CMD_WRITE, 0x1234, 0, 100, 2);
  for (size_t bit = 0; bit < n * 8; bit++) {
    frame[bit / 8] ^= (uint8_t)(1u << (bit % 8));
    size_t w = simty_link_encode(frame, n, wire);
    memset(&ev, 0, sizeof ev);
    feed(&dec, wire, w, &ev);
    frame[bit / 8] ^= (uint8_t)(1u << (bit % 8));
    /* A flipped length field shows as a length error, anything else as
     * a CRC error: never as a frame. */
    assert_int_equal(ev.frame, 0);
    if (bit / 8 == SIMTY_HDR_LENGTH || bit / 8 == SIMTY_HDR_LENGTH + 1)
      assert_int_equal(ev.bad_length, 1);
    else
      assert_int_equal(ev.bad_crc, 1);
  }
}

static void test_truncated(void **state)
{
  (void)state;
  static uint8_t frame[CAP], wire[SIMTY_WIRE_MAX(CAP)], buf[CAP];
  static struct events ev;
  struct simty_link_decoder dec;
  simty_link_decoder_init(&dec, buf, sizeof buf);
  size_t n = make_frame(frame, SIMTY_CMD_READ | 0x80, 9, 0, 700, 4);
  size_t w = simty_link_encode(frame, n, wire);
  /* Cut after every possible byte, then a delimiter and a good frame. */
  for (size_t cut = 1; cut < w - 1; cut++) {
    static const uint8_t zero = 0;
    memset(&ev, 0, sizeof ev);
    feed(&dec, wire, cut, &ev);
    feed(&dec, &zero, 1, &ev);
    assert_int_equal(ev.frame, 0);
    /* Short cuts are runts; longer ones a length (or CRC) error. */
    assert_int_equal(ev.runt + ev.bad_length + ev.bad_crc, cut > 1 ? 1 : 0);
    feed(&dec, wire, w, &ev);
    assert_int_equal(ev.frame, 1);
    assert_memory_equal(ev.last, frame, n);
  }
}

static void test_oversize_and_inconsistent_length(void **state)
{
  (void)state;
  /* A decoder for 256-byte payloads meets a 1000-byte one. */
  static uint8_t frame[CAP], wire[SIMTY_WIRE_MAX(CAP)];
  uint8_t small[SIMTY_FRAME_SIZE(SIMTY_MIN_PAYLOAD)];
  static struct events ev;
  struct simty_link_decoder dec;
  simty_link_decoder_init(&dec, small, sizeof small);
  size_t n = make_frame(frame, SIMTY_CMD_WRITE, 1, 0, 1000, 2);
  size_t w = simty_link_encode(frame, n, wire);
  memset(&ev, 0, sizeof ev);
  feed(&dec, wire, w, &ev);
  assert_int_equal(ev.frame, 0);
  assert_int_equal(ev.bad_length, 1); /* reported once, the rest dropped */
  assert_true(dec.discarded > 0);
  /* Largest that fits still works, and right after the oversize one. */
  n = make_frame(frame, SIMTY_CMD_WRITE, 2, 0, SIMTY_MIN_PAYLOAD, 4);
  w = simty_link_encode(frame, n, wire);
  feed(&dec, wire, w, &ev);
  assert_int_equal(ev.frame, 1);
  assert_memory_equal(ev.last, frame, n);
  /* One byte more is refused. */
  n = make_frame(frame, SIMTY_CMD_WRITE, 3, 0, SIMTY_MIN_PAYLOAD + 1, 4);
  w = simty_link_encode(frame, n, wire);
  feed(&dec, wire, w, &ev);
  assert_int_equal(ev.frame, 1);
  assert_int_equal(ev.bad_length, 2);

  /* Length field disagreeing with the bytes received, CRC right. */
  n = make_frame(frame, SIMTY_CMD_WRITE, 4, 0, 20, 2);
  simty_put_u16(frame + SIMTY_HDR_LENGTH, 19);
  simty_put_u32(frame + SIMTY_HDR_SIZE + 19,
                simty_crc32(0, frame, SIMTY_HDR_SIZE + 19));
  w = simty_link_encode(frame, n, wire);
  memset(&ev, 0, sizeof ev);
  feed(&dec, wire, w, &ev);
  assert_int_equal(ev.frame, 0);
  assert_int_equal(ev.bad_length, 1);
}

static void test_runts_and_padding(void **state)
{
  (void)state;
  uint8_t buf[CAP];
  static struct events ev;
  struct simty_link_decoder dec;
  simty_link_decoder_init(&dec, buf, sizeof buf);
  static const uint8_t pad[] = {0, 0, 0, 0};
  memset(&ev, 0, sizeof ev);
  feed(&dec, pad, sizeof pad, &ev); /* empty frames: silence */
  assert_int_equal(ev.frame + ev.runt + ev.bad_length + ev.bad_crc, 0);
  static const uint8_t runt[] = {0, 3, 0x11, 0x22, 0};
  feed(&dec, runt, sizeof runt, &ev);
  assert_int_equal(ev.runt, 1);
  assert_int_equal(dec.len, 2);
}

/* The worked example of docs/protocol.md, byte for byte. */
static void test_protocol_doc_example(void **state)
{
  (void)state;
  uint8_t frame[32], wire[40];
  static const uint8_t data[] = {0x00, 0x00, 0x00, 0x10,
                                 0xDE, 0xAD, 0xBE, 0xEF};
  memcpy(frame + SIMTY_HDR_SIZE, data, sizeof data);
  size_t n = simty_frame_seal(frame, SIMTY_CMD_WRITE, 2, 0, sizeof data);
  static const uint8_t want_frame[] = {0x03, 0x02, 0x02, 0x00, 0x08, 0x00, 0x00,
                                       0x00, 0x00, 0x00, 0x00, 0x10, 0xDE, 0xAD,
                                       0xBE, 0xEF, 0xA1, 0x17, 0xAF, 0xB7};
  assert_int_equal(n, sizeof want_frame);
  assert_memory_equal(frame, want_frame, n);
  static const uint8_t want_wire[] = {
      0x00, 0x04, 0x03, 0x02, 0x02, 0x02, 0x08, 0x01, 0x01, 0x01, 0x01, 0x01,
      0x0A, 0x10, 0xDE, 0xAD, 0xBE, 0xEF, 0xA1, 0x17, 0xAF, 0xB7, 0x00};
  size_t w = simty_link_encode(frame, n, wire);
  assert_int_equal(w, sizeof want_wire);
  assert_memory_equal(wire, want_wire, w);
  /* and the response: OK, no payload */
  n = simty_frame_seal(frame, SIMTY_CMD_WRITE | SIMTY_RESPONSE_FLAG, 2, 0, 0);
  static const uint8_t want_resp[] = {0x00, 0x04, 0x03, 0x82, 0x02,
                                      0x01, 0x01, 0x01, 0x01, 0x05,
                                      0x5A, 0x82, 0xEC, 0xB9, 0x00};
  w = simty_link_encode(frame, n, wire);
  assert_int_equal(w, sizeof want_resp);
  assert_memory_equal(wire, want_resp, w);
}

static void test_names(void **state)
{
  (void)state;
  assert_string_equal(simty_link_status_name(SIMTY_ST_BAD_CRC), "BAD_CRC");
  assert_string_equal(simty_link_status_name(SIMTY_ST_STACK_OVERLAP),
                      "STACK_OVERLAP");
  assert_string_equal(simty_link_status_name(200), "?");
  assert_string_equal(simty_link_command_name(SIMTY_CMD_CONSOLE), "CONSOLE");
  assert_string_equal(simty_link_command_name(0), "?");
}

/* Random bytes, and random mutations of valid frames: the decoder never
 * crashes, never overruns, and never reports a frame whose CRC or length
 * is wrong. */
static void test_fuzz(void **state)
{
  (void)state;
  static uint8_t frame[CAP], wire[SIMTY_WIRE_MAX(CAP)],
      buf[SIMTY_FRAME_SIZE(512)];
  struct simty_link_decoder dec;
  simty_link_decoder_init(&dec, buf, sizeof buf);
  rng_state = 0xC0FFEEu;
  unsigned frames = 0, good_sent = 0;
  for (int round = 0; round < 20000; round++) {
    size_t w;
    if (round % 3 == 0) {
      /* pure noise, zero-heavy so delimiters and runts are common */
      w = rnd() % 700u;
      for (size_t i = 0; i < w; i++)
        wire[i] = (rnd() % 8u == 0) ? 0 : (uint8_t)rnd();
    } else {
      size_t n = make_frame(frame, (uint8_t)rnd(), (uint16_t)rnd(), 0,
                            rnd() % 600u, 4);
      w = simty_link_encode(frame, n, wire);
      int flips = round % 3 == 1 ? 0 : 1 + (int)(rnd() % 3u);
      for (int k = 0; k < flips; k++)
        wire[rnd() % w] ^= (uint8_t)(1u << (rnd() % 8u));
      if (flips == 0 && n <= sizeof buf)
        good_sent++;
    }
    for (size_t i = 0; i < w; i++) {
      enum simty_link_event e = simty_link_decoder_feed(&dec, wire[i]);
      assert_true(dec.len <= dec.cap);
      if (e == SIMTY_LINK_FRAME) {
        uint16_t len = simty_frame_length(dec.buf);
        assert_int_equal(dec.len, SIMTY_FRAME_SIZE(len));
        assert_int_equal(simty_crc32(0, dec.buf, SIMTY_HDR_SIZE + len),
                         simty_get_u32(dec.buf + SIMTY_HDR_SIZE + len));
        frames++;
      }
    }
  }
  /* Every untouched frame that fits got through, whatever came before. */
  assert_true(frames >= good_sent);
  printf("fuzz: %u frames decoded, %u clean sent, %u bad CRC, %u bad length, "
         "%u runts\n",
         frames, good_sent, dec.bad_crc, dec.bad_length, dec.runts);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_crc_check_value),
      cmocka_unit_test(test_cobs_vectors),
      cmocka_unit_test(test_round_trip_sizes),
      cmocka_unit_test(test_incremental_encoder),
      cmocka_unit_test(test_resync_after_garbage),
      cmocka_unit_test(test_garbage_inside_frame),
      cmocka_unit_test(test_bad_crc),
      cmocka_unit_test(test_truncated),
      cmocka_unit_test(test_oversize_and_inconsistent_length),
      cmocka_unit_test(test_runts_and_padding),
      cmocka_unit_test(test_protocol_doc_example),
      cmocka_unit_test(test_names),
      cmocka_unit_test(test_fuzz),
  };
  return cmocka_run_group_tests_name("link", tests, NULL, NULL);
}
