/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_link.c - libFuzzer target for the link layer (driver/link):
 * arbitrary wire bytes into the frame decoder, at the largest and at the
 * smallest decode buffer a device may have, then every frame it accepts
 * re-encoded (whole-frame and byte-at-a-time encoders) and decoded again.
 *
 * Checked besides what ASan and UBSan catch:
 *   - an accepted frame is exactly header + length + CRC, fits the
 *     buffer, and its CRC verifies;
 *   - BAD_* events leave len within the buffer;
 *   - both encoders give the same bytes, no more than SIMTY_WIRE_MAX,
 *     with zeros only at the two ends, and decoding them gives back the
 *     frame, once, as the only event.
 * Buffers are heap blocks of exactly the decoder's capacity, so one byte
 * written past them is an ASan report.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "simty_link.h"

#define CHECK(cond)                                                          \
  do {                                                                       \
    if (!(cond))                                                             \
      __builtin_trap();                                                      \
  } while (0)

static void round_trip(const uint8_t *frame, size_t n)
{
  size_t wire_max = SIMTY_WIRE_MAX(n);
  uint8_t *wire = malloc(wire_max);
  uint8_t *wire2 = malloc(wire_max);
  CHECK(wire && wire2);
  size_t w = simty_link_encode(frame, n, wire);
  CHECK(w <= wire_max && w >= 2);
  CHECK(wire[0] == 0 && wire[w - 1] == 0);
  for (size_t i = 1; i + 1 < w; i++)
    CHECK(wire[i] != 0);
  struct simty_link_encoder enc;
  simty_link_encoder_init(&enc);
  CHECK(!simty_link_encoder_busy(&enc));
  simty_link_encoder_start(&enc, frame, n);
  size_t w2 = 0;
  int b;
  while ((b = simty_link_encoder_next(&enc)) >= 0) {
    CHECK(w2 < wire_max);
    wire2[w2++] = (uint8_t)b;
  }
  CHECK(w2 == w && memcmp(wire, wire2, w) == 0);

  size_t cap = SIMTY_FRAME_SIZE(SIMTY_MAX_PAYLOAD);
  uint8_t *buf = malloc(cap);
  CHECK(buf);
  struct simty_link_decoder dec;
  simty_link_decoder_init(&dec, buf, cap);
  unsigned frames = 0;
  for (size_t i = 0; i < w; i++) {
    enum simty_link_event ev = simty_link_decoder_feed(&dec, wire[i]);
    if (ev == SIMTY_LINK_FRAME) {
      frames++;
      CHECK(dec.len == n && memcmp(buf, frame, n) == 0);
    } else {
      CHECK(ev == SIMTY_LINK_NONE);
    }
  }
  CHECK(frames == 1);
  free(buf);
  free(wire);
  free(wire2);
}

static void decode(const uint8_t *data, size_t size, size_t cap, int again)
{
  uint8_t *buf = malloc(cap);
  CHECK(buf);
  struct simty_link_decoder dec;
  simty_link_decoder_init(&dec, buf, cap);
  for (size_t i = 0; i < size; i++) {
    /* A byte of the input's first half may restart the hunt. */
    if (i == size / 2 && size && (data[0] & 0x80))
      simty_link_decoder_hunt(&dec);
    enum simty_link_event ev = simty_link_decoder_feed(&dec, data[i]);
    CHECK(dec.len <= cap);
    switch (ev) {
    case SIMTY_LINK_FRAME: {
      CHECK(dec.len >= SIMTY_FRAME_OVERHEAD);
      uint16_t length = simty_frame_length(buf);
      CHECK(dec.len == SIMTY_FRAME_SIZE(length));
      size_t body = SIMTY_HDR_SIZE + (size_t)length;
      CHECK(simty_crc32(0, buf, body) == simty_get_u32(buf + body));
      (void)simty_link_command_name(simty_frame_command(buf));
      (void)simty_link_status_name(simty_frame_status(buf));
      (void)simty_frame_seq(buf);
      (void)simty_frame_payload(buf);
      if (again)
        round_trip(buf, dec.len);
      break;
    }
    case SIMTY_LINK_RUNT:
      CHECK(dec.len < SIMTY_HDR_SIZE);
      break;
    case SIMTY_LINK_BAD_LENGTH:
    case SIMTY_LINK_BAD_CRC:
    case SIMTY_LINK_NONE:
      break;
    default:
      CHECK(0);
    }
  }
  free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  decode(data, size, SIMTY_FRAME_SIZE(SIMTY_MAX_PAYLOAD), 1);
  decode(data, size, SIMTY_FRAME_SIZE(SIMTY_MIN_PAYLOAD), 0);
  /* The input itself as a plain frame: any bytes must survive the
   * encoders and the decoder, up to the largest frame. */
  if (size <= SIMTY_FRAME_SIZE(SIMTY_MAX_PAYLOAD) && size >= 1) {
    uint8_t *frame = malloc(SIMTY_FRAME_SIZE(SIMTY_MAX_PAYLOAD));
    CHECK(frame);
    size_t payload = size > SIMTY_FRAME_OVERHEAD ? size - SIMTY_FRAME_OVERHEAD
                                                 : 0;
    memcpy(frame + SIMTY_HDR_SIZE, data + (size - payload), payload);
    size_t n = simty_frame_seal(frame, data[0], (uint16_t)size, 0,
                                (uint16_t)payload);
    CHECK(n == SIMTY_FRAME_SIZE(payload));
    round_trip(frame, n);
    free(frame);
  }
  return 0;
}
