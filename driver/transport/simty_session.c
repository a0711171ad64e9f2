/* SPDX-License-Identifier: Apache-2.0 */
/*
 * simty_session.c - the host side of the Simty link layer: stop-and-wait
 * requests with sequence numbers, deadlines, retransmission and
 * resynchronisation (docs/protocol.md section 2).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "simty.h"
#include "simty_transport.h"

static int fail(struct simty_session *s, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(struct simty_session *s, int code, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(s->err, sizeof(s->err), fmt, ap);
  va_end(ap);
  return code;
}

void simty_transport_close(struct simty_transport *t)
{
  if (t)
    t->ops->close(t);
}

void simty_session_init(struct simty_session *s, struct simty_transport *t)
{
  memset(s, 0, sizeof(*s));
  s->t = t;
  /* A fixed start is fine: INFO opens every session and is never answered
   * from the device's duplicate cache. */
  s->seq = 0;
  s->max_payload = SIMTY_MIN_PAYLOAD;
  simty_link_decoder_init(&s->dec, s->rx_frame, sizeof(s->rx_frame));
}

void simty_session_close(struct simty_session *s)
{
  simty_transport_close(s->t);
  s->t = NULL;
}

int simty_session_status_error(unsigned status)
{
  switch (status) {
  case SIMTY_ST_OK:
    return 0;
  case SIMTY_ST_OUT_OF_RANGE:
  case SIMTY_ST_PROTECTED:
    return SIMTY_ERANGE;
  case SIMTY_ST_BUSY:
    return SIMTY_EBUSY;
  case SIMTY_ST_NO_LAUNCH:
    return SIMTY_ENOLAUNCH;
  case SIMTY_ST_BAD_ARGUMENT:
    return SIMTY_EINVAL;
  case SIMTY_ST_STACK_OVERLAP:
    return SIMTY_ESTACK;
  case SIMTY_ST_UNKNOWN_COMMAND:
    return SIMTY_ENOTSUP;
  case SIMTY_ST_BAD_VERSION:
  case SIMTY_ST_BAD_CRC:
  case SIMTY_ST_BAD_LENGTH:
    return SIMTY_EPROTO;
  default:
    return SIMTY_EDEVICE;
  }
}

/* Response deadline of one attempt: twice the wire time of request and
 * response (ten bit times per byte at the transport's rate), plus the
 * transport's margin and the request's own wait. */
static uint64_t attempt_deadline(const struct simty_session *s, size_t q,
                                 uint32_t r, uint32_t extra_ms)
{
  uint64_t ns = (uint64_t)(s->t->margin_ms + extra_ms) * 1000000u;
  if (s->t->bytes_per_sec)
    ns += 2u * ((uint64_t)q + r + 32u) * 1000000000u / s->t->bytes_per_sec;
  return simty__transport_now_ns() + ns;
}

/* Next event from the received bytes: 1 with a decoder event, 0 when the
 * deadline passed, or an error. */
static int next_event(struct simty_session *s, uint64_t deadline,
                      enum simty_link_event *ev)
{
  for (;;) {
    while (s->rx_pos < s->rx_len) {
      enum simty_link_event e =
          simty_link_decoder_feed(&s->dec, s->rx_bytes[s->rx_pos++]);
      if (e != SIMTY_LINK_NONE) {
        *ev = e;
        return 1;
      }
    }
    s->rx_pos = s->rx_len = 0;
    if (simty__transport_now_ns() >= deadline)
      return 0;
    size_t got = 0;
    int e =
        s->t->ops->recv(s->t, s->rx_bytes, sizeof(s->rx_bytes), &got, deadline);
    if (e) {
      if (e == SIMTY_ECLOSED)
        s->dead = 1;
      return fail(s, e, "%s", s->t->err);
    }
    s->rx_len = got;
  }
}

static int send_wire(struct simty_session *s, uint64_t deadline)
{
  int e = s->t->ops->send(s->t, s->tx_wire, s->tx_wire_len, deadline);
  if (e) {
    if (e == SIMTY_ECLOSED)
      s->dead = 1;
    return fail(s, e, "%s", s->t->err);
  }
  return 0;
}

int simty_session_request(struct simty_session *s, uint8_t command,
                          const void *payload, uint16_t len, uint32_t resp_max,
                          uint32_t extra_ms)
{
  if (s->dead)
    return fail(s, SIMTY_ECLOSED, "the link to the device is closed");
  if (len > s->max_payload)
    return fail(s, SIMTY_EINVAL, "payload of %u bytes exceeds %u", len,
                s->max_payload);
  s->seq++;
  s->requests++;
  if (len)
    memcpy(s->tx_frame + SIMTY_HDR_SIZE, payload, len);
  size_t n = simty_frame_seal(s->tx_frame, command, s->seq, 0, len);
  s->tx_wire_len = simty_link_encode(s->tx_frame, n, s->tx_wire);
  uint32_t resp_bytes = resp_max + SIMTY_FRAME_OVERHEAD;
  const char *name = simty_link_command_name(command);
  int last_hint = 0; /* why the previous attempt failed, for the message */

  for (int attempt = 0; attempt < SIMTY_SESSION_ATTEMPTS; attempt++) {
    uint64_t deadline =
        attempt_deadline(s, s->tx_wire_len, resp_bytes, extra_ms);
    if (attempt) {
      s->retransmits++;
      /* A lone delimiter ends whatever partial frame the device holds. */
      static const uint8_t zero = 0;
      int e = s->t->ops->send(s->t, &zero, 1, deadline);
      if (e) {
        if (e == SIMTY_ECLOSED)
          s->dead = 1;
        return fail(s, e, "%s", s->t->err);
      }
    }
    int e = send_wire(s, deadline);
    if (e)
      return e;
    for (;;) {
      enum simty_link_event ev = SIMTY_LINK_NONE;
      e = next_event(s, deadline, &ev);
      if (e < 0)
        return e;
      if (e == 0) {
        last_hint = 1;
        break; /* deadline: retransmit */
      }
      if (ev != SIMTY_LINK_FRAME) {
        /* Noise or a frame damaged on the way back: the deadline (or the
         * next good frame) decides. */
        s->bad_frames++;
        continue;
      }
      const uint8_t *f = s->dec.buf;
      if (f[SIMTY_HDR_VERSION] != SIMTY_PROTO_VERSION ||
          simty_frame_seq(f) != s->seq ||
          simty_frame_command(f) != (command | SIMTY_RESPONSE_FLAG)) {
        s->stale_frames++; /* late answer to an earlier request */
        continue;
      }
      uint8_t status = simty_frame_status(f);
      uint16_t plen = simty_frame_length(f);
      if (status == SIMTY_ST_BAD_CRC || status == SIMTY_ST_BAD_LENGTH) {
        /* The device saw our frame damaged: send it again now. */
        last_hint = 2;
        break;
      }
      s->status = status;
      s->payload = simty_frame_payload(f);
      s->payload_len = plen;
      s->detail = 0;
      if (status != SIMTY_ST_OK) {
        if (plen >= SIMTY_ERROR_PAYLOAD)
          s->detail = simty_get_u32(s->payload);
        return fail(s, simty_session_status_error(status),
                    "device refused %s: %s (detail 0x%08x)", name,
                    simty_link_status_name(status), s->detail);
      }
      if (plen > resp_max)
        return fail(s, SIMTY_EPROTO,
                    "%s response of %u bytes, at most %u expected", name, plen,
                    resp_max);
      return 0;
    }
  }
  if (last_hint == 2)
    return fail(s, SIMTY_EPROTO,
                "the device received %s damaged %d times in a row", name,
                SIMTY_SESSION_ATTEMPTS);
  return fail(s, SIMTY_ETIMEDOUT, "no answer to %s after %d attempts (%s link)",
              name, SIMTY_SESSION_ATTEMPTS, s->t->kind);
}
