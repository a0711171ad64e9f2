/* SPDX-License-Identifier: Apache-2.0 */
/*
 * simty_link.c - CRC-32, COBS framing and the resynchronising decoder of
 * the Simty host link (docs/protocol.md). Freestanding: runs on the RV32I
 * controller as well as on the host.
 */
#include "simty_link.h"

/* Hosted builds take memset from the C library; on the freestanding
 * controller there are no libc headers and the firmware supplies it. */
#if __STDC_HOSTED__
#include <string.h>
#else
void *memset(void *dst, int c, size_t n);
#endif

/* ---- CRC-32, four bits at a time: a 64-byte table suits the
 * controller's small RAM better than the usual 1 KiB one. ---- */

static const uint32_t crc_nibble[16] = {
    0x00000000u, 0x1DB71064u, 0x3B6E20C8u, 0x26D930ACu,
    0x76DC4190u, 0x6B6B51F4u, 0x4DB26158u, 0x5005713Cu,
    0xEDB88320u, 0xF00F9344u, 0xD6D6A3E8u, 0xCB61B38Cu,
    0x9B64C2B0u, 0x86D3D2D4u, 0xA00AE278u, 0xBDBDF21Cu,
};

uint32_t simty_crc32(uint32_t crc, const void *data, size_t n)
{
  const uint8_t *p = data;
  crc = ~crc;
  while (n--) {
    crc ^= *p++;
    crc = (crc >> 4) ^ crc_nibble[crc & 15u];
    crc = (crc >> 4) ^ crc_nibble[crc & 15u];
  }
  return ~crc;
}

size_t simty_frame_seal(uint8_t *frame, uint8_t command, uint16_t seq,
                        uint8_t status, uint16_t length)
{
  frame[SIMTY_HDR_VERSION] = (uint8_t)SIMTY_PROTO_VERSION;
  frame[SIMTY_HDR_COMMAND] = command;
  simty_put_u16(frame + SIMTY_HDR_SEQ, seq);
  simty_put_u16(frame + SIMTY_HDR_LENGTH, length);
  frame[SIMTY_HDR_STATUS] = status;
  frame[SIMTY_HDR_RESERVED] = 0;
  size_t body = SIMTY_HDR_SIZE + (size_t)length;
  simty_put_u32(frame + body, simty_crc32(0, frame, body));
  return body + SIMTY_CRC_SIZE;
}

/* ---- COBS encoder ----
 * A run is up to 254 non-zero bytes; its code byte is run length + 1.
 * A code below 0xFF stands for the run followed by one zero, except for
 * the frame's last run (the decoder drops that trailing zero). */

enum { ENC_LEAD, ENC_CODE, ENC_DATA, ENC_TAIL, ENC_DONE };

void simty_link_encoder_init(struct simty_link_encoder *enc)
{
  memset(enc, 0, sizeof *enc);
  enc->stage = ENC_DONE;
}

void simty_link_encoder_start(struct simty_link_encoder *enc,
                              const uint8_t *frame, size_t n)
{
  enc->src = frame;
  enc->len = n;
  enc->pos = 0;
  enc->run_end = 0;
  enc->stage = ENC_LEAD;
  enc->last_run = false;
  enc->full_run = false;
}

bool simty_link_encoder_busy(const struct simty_link_encoder *enc)
{
  return enc->stage != ENC_DONE;
}

int simty_link_encoder_next(struct simty_link_encoder *enc)
{
  for (;;) {
    switch (enc->stage) {
    case ENC_LEAD:
      enc->stage = ENC_CODE;
      return 0x00;
    case ENC_CODE: {
      size_t end = enc->pos;
      size_t limit = enc->len - enc->pos > 254u ? enc->pos + 254u : enc->len;
      while (end < limit && enc->src[end] != 0)
        end++;
      size_t run = end - enc->pos;
      /* The frame ends with this run if the data ends right after it; a
       * full run (code 0xFF) at the very end needs no extra empty run. */
      enc->last_run = (end == enc->len);
      enc->full_run = (run == 254u);
      enc->run_end = end;
      enc->stage = ENC_DATA;
      return (int)(run + 1u);
    }
    case ENC_DATA:
      if (enc->pos < enc->run_end)
        return enc->src[enc->pos++];
      if (enc->last_run) {
        enc->stage = ENC_TAIL;
        break;
      }
      /* Skip the zero this run's code stands for; a full run stands for
       * none. */
      if (!enc->full_run)
        enc->pos++;
      enc->stage = ENC_CODE;
      break;
    case ENC_TAIL:
      enc->stage = ENC_DONE;
      return 0x00;
    default:
      return -1;
    }
  }
}

size_t simty_link_encode(const uint8_t *frame, size_t n, uint8_t *out)
{
  struct simty_link_encoder enc;
  size_t w = 0;
  int b;
  simty_link_encoder_start(&enc, frame, n);
  while ((b = simty_link_encoder_next(&enc)) >= 0)
    out[w++] = (uint8_t)b;
  return w;
}

/* ---- Decoder ---- */

enum { DEC_HUNT, DEC_CODE, DEC_DATA };

void simty_link_decoder_init(struct simty_link_decoder *dec, uint8_t *buf,
                             size_t cap)
{
  memset(dec, 0, sizeof *dec);
  dec->buf = buf;
  dec->cap = cap;
  dec->state = DEC_CODE;
}

void simty_link_decoder_hunt(struct simty_link_decoder *dec)
{
  dec->state = DEC_HUNT;
  dec->len = 0;
}

static enum simty_link_event frame_end(struct simty_link_decoder *dec)
{
  /* A run cut short by the delimiter: bytes were lost in transit. */
  if (dec->state == DEC_DATA && dec->left != 0) {
    dec->bad_length++;
    return SIMTY_LINK_BAD_LENGTH;
  }
  if (dec->len < SIMTY_HDR_SIZE) {
    dec->runts++;
    return SIMTY_LINK_RUNT;
  }
  uint16_t length = simty_frame_length(dec->buf);
  if (dec->len != SIMTY_FRAME_SIZE(length)) {
    dec->bad_length++;
    return SIMTY_LINK_BAD_LENGTH;
  }
  size_t body = SIMTY_HDR_SIZE + (size_t)length;
  if (simty_crc32(0, dec->buf, body) != simty_get_u32(dec->buf + body)) {
    dec->bad_crc++;
    return SIMTY_LINK_BAD_CRC;
  }
  dec->frames++;
  return SIMTY_LINK_FRAME;
}

enum simty_link_event simty_link_decoder_feed(struct simty_link_decoder *dec,
                                              uint8_t byte)
{
  if (byte == 0x00) {
    /* Every zero is a frame boundary: that is the whole of resync. */
    enum simty_link_event ev = SIMTY_LINK_NONE;
    if (dec->state == DEC_HUNT) {
      /* The oversize frame was reported when it overflowed. */
    } else if (dec->state == DEC_DATA) {
      ev = frame_end(dec);
    }
    /* DEC_CODE with nothing decoded: an empty frame, i.e. two
     * delimiters in a row, which senders use as padding. */
    dec->state = DEC_CODE;
    if (ev == SIMTY_LINK_NONE)
      dec->len = 0;
    /* else len stays: the caller reads the frame before the next byte */
    return ev;
  }

  switch (dec->state) {
  case DEC_HUNT:
    dec->discarded++;
    return SIMTY_LINK_NONE;
  case DEC_CODE:
    /* First code byte of a new frame: forget the last reported one. */
    dec->len = 0;
    dec->code = byte;
    dec->left = (uint8_t)(byte - 1u);
    dec->state = DEC_DATA;
    return SIMTY_LINK_NONE;
  default:
    break;
  }

  if (dec->left == 0) {
    /* A new code byte: the previous run stood for a zero unless full. */
    if (dec->code != 0xFF) {
      if (dec->len == dec->cap)
        goto overflow;
      dec->buf[dec->len++] = 0x00;
    }
    dec->code = byte;
    dec->left = (uint8_t)(byte - 1u);
    return SIMTY_LINK_NONE;
  }
  if (dec->len == dec->cap)
    goto overflow;
  dec->buf[dec->len++] = byte;
  dec->left--;
  return SIMTY_LINK_NONE;

overflow:
  /* Longer than any frame we accept: report once, drop the rest. */
  dec->state = DEC_HUNT;
  dec->bad_length++;
  return SIMTY_LINK_BAD_LENGTH;
}

const char *simty_link_status_name(unsigned status)
{
  switch (status) {
#define SIMTY_X_(name, code, text)                                             \
  case code:                                                                   \
    return #name;
    SIMTY_LINK_ERROR_MAP(SIMTY_X_)
#undef SIMTY_X_
  default:
    return "?";
  }
}

const char *simty_link_command_name(unsigned command)
{
  switch (command) {
#define SIMTY_X_(name, code)                                                   \
  case code:                                                                   \
    return #name;
    SIMTY_COMMAND_MAP(SIMTY_X_)
#undef SIMTY_X_
  default:
    return "?";
  }
}
