/* SPDX-License-Identifier: Apache-2.0 */
/*
 * simty_link.h - the Simty link layer: CRC-32, frame header packing,
 * COBS wire encoding (whole-frame and byte-at-a-time) and an incremental
 * decoder that resynchronises after garbage. Shared by the controller
 * firmware and the host library; docs/protocol.md describes the format.
 *
 * Freestanding C11: no allocation, no stdio; only memcpy/memset, stdint,
 * stddef and stdbool. Every buffer belongs to the caller.
 */
#ifndef SIMTY_LINK_H
#define SIMTY_LINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "simty_proto.h"

/* ---- Little-endian field access ---- */

static inline void simty_put_u16(uint8_t *p, uint16_t v)
{
  p[0] = (uint8_t)v;
  p[1] = (uint8_t)(v >> 8);
}

static inline void simty_put_u32(uint8_t *p, uint32_t v)
{
  p[0] = (uint8_t)v;
  p[1] = (uint8_t)(v >> 8);
  p[2] = (uint8_t)(v >> 16);
  p[3] = (uint8_t)(v >> 24);
}

static inline void simty_put_u64(uint8_t *p, uint64_t v)
{
  simty_put_u32(p, (uint32_t)v);
  simty_put_u32(p + 4, (uint32_t)(v >> 32));
}

static inline uint16_t simty_get_u16(const uint8_t *p)
{
  return (uint16_t)(p[0] | (p[1] << 8));
}

static inline uint32_t simty_get_u32(const uint8_t *p)
{
  return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
         ((uint32_t)p[3] << 24);
}

static inline uint64_t simty_get_u64(const uint8_t *p)
{
  return (uint64_t)simty_get_u32(p) | ((uint64_t)simty_get_u32(p + 4) << 32);
}

/* ---- CRC-32 (IEEE 802.3: reflected polynomial 0xEDB88320, initial and
 * final value 0xFFFFFFFF; check value of "123456789" is 0xCBF43926).
 * Chainable: crc = simty_crc32(crc, part, n) starting from crc = 0. ---- */
uint32_t simty_crc32(uint32_t crc, const void *data, size_t n);

/* ---- Frames ---- */

/* Bytes of a plain (un-encoded) frame with `payload` payload bytes. */
#define SIMTY_FRAME_SIZE(payload) ((size_t)(payload) + SIMTY_FRAME_OVERHEAD)

/* Wire bytes of a plain frame of n bytes at most: two delimiters plus one
 * COBS code byte per started 254-byte run. */
#define SIMTY_WIRE_MAX(n) ((size_t)(n) + (size_t)(n) / 254u + 3u)

/* Completes a frame whose payload (`length` bytes) is already at
 * frame + SIMTY_HDR_SIZE: writes the header and the CRC. Returns the
 * plain frame size, SIMTY_FRAME_SIZE(length). */
size_t simty_frame_seal(uint8_t *frame, uint8_t command, uint16_t seq,
                        uint8_t status, uint16_t length);

/* Header fields of a frame the decoder accepted (or at least 8 bytes of
 * one it rejected). */
static inline uint8_t simty_frame_command(const uint8_t *f)
{
  return f[SIMTY_HDR_COMMAND];
}
static inline uint16_t simty_frame_seq(const uint8_t *f)
{
  return simty_get_u16(f + SIMTY_HDR_SEQ);
}
static inline uint16_t simty_frame_length(const uint8_t *f)
{
  return simty_get_u16(f + SIMTY_HDR_LENGTH);
}
static inline uint8_t simty_frame_status(const uint8_t *f)
{
  return f[SIMTY_HDR_STATUS];
}
static inline const uint8_t *simty_frame_payload(const uint8_t *f)
{
  return f + SIMTY_HDR_SIZE;
}

/* ---- COBS wire encoding ---- */

/* Encodes a plain frame of n bytes as 0x00, COBS(frame), 0x00 into out
 * (at least SIMTY_WIRE_MAX(n) bytes). Returns the bytes written. */
size_t simty_link_encode(const uint8_t *frame, size_t n, uint8_t *out);

/* The same encoding one wire byte at a time, for a sender that must not
 * wait on a full UART: the frame must stay unchanged until done. */
struct simty_link_encoder {
  const uint8_t *src;
  size_t len;
  size_t pos;     /* next source byte */
  size_t run_end; /* end of the current COBS run */
  uint8_t stage;  /* internal */
  bool last_run;  /* the current run ends the frame */
  bool full_run;  /* the current run is 254 bytes: no zero follows */
};

/* An idle encoder: nothing to send. */
void simty_link_encoder_init(struct simty_link_encoder *enc);
void simty_link_encoder_start(struct simty_link_encoder *enc,
                              const uint8_t *frame, size_t n);
/* Next wire byte, or -1 when the whole frame has been produced. */
int simty_link_encoder_next(struct simty_link_encoder *enc);
bool simty_link_encoder_busy(const struct simty_link_encoder *enc);

/* ---- Incremental decoder ---- */

enum simty_link_event {
  SIMTY_LINK_NONE = 0,   /* byte consumed, no frame boundary */
  SIMTY_LINK_FRAME,      /* a valid frame is in buf[0 .. len) */
  SIMTY_LINK_RUNT,       /* 1..7 bytes between delimiters: line noise */
  SIMTY_LINK_BAD_LENGTH, /* oversize, truncated or inconsistent length */
  SIMTY_LINK_BAD_CRC,    /* well formed, CRC mismatch */
};

struct simty_link_decoder {
  uint8_t *buf;  /* decoded frame */
  size_t cap;    /* buf size: SIMTY_FRAME_SIZE(max payload) */
  size_t len;    /* decoded bytes so far / of the frame just reported */
  uint8_t state; /* internal */
  uint8_t code;  /* current COBS code byte */
  uint8_t left;  /* data bytes left in the current COBS run */
  /* Statistics since init (wrap silently). */
  uint32_t frames;
  uint32_t bad_crc;
  uint32_t bad_length;
  uint32_t runts;
  uint32_t discarded; /* bytes dropped while hunting for a delimiter */
};

/* cap must be at least SIMTY_FRAME_SIZE(SIMTY_MIN_PAYLOAD). Starts as if
 * a delimiter had just been seen. */
void simty_link_decoder_init(struct simty_link_decoder *dec, uint8_t *buf,
                             size_t cap);
/* Drops any partial frame and waits for the next delimiter. */
void simty_link_decoder_hunt(struct simty_link_decoder *dec);
/* Feeds one wire byte. After an event other than NONE, buf[0 .. len)
 * stays valid until the next call (for BAD_* it holds what was decoded,
 * at least the header when len >= SIMTY_HDR_SIZE). */
enum simty_link_event simty_link_decoder_feed(struct simty_link_decoder *dec,
                                              uint8_t byte);

/* Name of a status code ("BAD_CRC"), or "?" for an unknown one. */
const char *simty_link_status_name(unsigned status);
/* Name of a command ("WRITE"), or "?" for an unknown one. */
const char *simty_link_command_name(unsigned command);

#endif /* SIMTY_LINK_H */
