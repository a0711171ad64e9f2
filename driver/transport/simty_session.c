/* SPDX-License-Identifier: Apache-2.0 */
/*
 * simty_session.c - the host side of the Simty link layer, protocol v2: a
 * window of requests in flight with sequence numbers, per-request
 * deadlines with back-off, go-back-N retransmission and resynchronisation
 * (docs/protocol.md section 2; the design is in simty_transport.h).
 */
#include <stdarg.h>
#include <stddef.h>
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
  /* A fixed start is fine: INFO opens every session, is always executed
   * and resets the device's window to the seq after it. */
  s->seq = 0;
  s->max_payload = SIMTY_MIN_PAYLOAD;
  s->window = 1;
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
  case SIMTY_ST_QUEUE_FULL:
    return SIMTY_EBUSY;
  case SIMTY_ST_CANCELLED:
    return SIMTY_EFAULT;
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
  case SIMTY_ST_SEQUENCE:
    return SIMTY_EPROTO;
  default:
    return SIMTY_EDEVICE;
  }
}

/* ---- Wire time and deadlines ---- */

static uint64_t wire_ns(const struct simty_session *s, uint64_t bytes)
{
  if (!s->t->bytes_per_sec)
    return 0;
  return bytes * 1000000000u / s->t->bytes_per_sec;
}

/* Wire bytes of an answer of up to r payload bytes. */
static uint64_t answer_bytes(uint32_t r)
{
  return SIMTY_WIRE_MAX(SIMTY_FRAME_SIZE(r));
}

static struct simty_session_slot *slot_at(struct simty_session *s, unsigned i)
{
  return &s->slot[(s->head + i) % SIMTY_MAX_WINDOW];
}

/* Deadline of the i-th request of the window, just (re)sent: the wire
 * time of every request byte queued so far (s->tx_free_ns) and of the
 * answers to it and to every outstanding request ahead of it, plus the
 * transport's margin (doubled per retransmission of this request, capped
 * at SIMTY_SESSION_BACKOFF_MAX) and its own extra time. */
static void arm_deadline(struct simty_session *s, unsigned i)
{
  struct simty_session_slot *q = slot_at(s, i);
  uint64_t answers = 0;
  for (unsigned k = 0; k <= i; k++) {
    const struct simty_session_slot *a = slot_at(s, k);
    if (a->state == SIMTY_SLOT_SENT)
      answers += answer_bytes(a->resp_max);
  }
  uint32_t mult = 1u << (q->attempts > 4 ? 3 : q->attempts - 1);
  if (mult > SIMTY_SESSION_BACKOFF_MAX)
    mult = SIMTY_SESSION_BACKOFF_MAX;
  q->deadline = s->tx_free_ns + wire_ns(s, answers) +
                ((uint64_t)s->t->margin_ms * mult + q->extra_ms) * 1000000u;
}

/* ---- Transport ---- */

static int transport_error(struct simty_session *s, int e)
{
  if (e == SIMTY_ECLOSED)
    s->dead = 1;
  return fail(s, e, "%s", s->t->err);
}

/* Queues bytes on the transport; the wire-time estimate grows with them. */
static int send_bytes(struct simty_session *s, const uint8_t *p, size_t n)
{
  uint64_t now = simty__transport_now_ns();
  if (s->tx_free_ns < now)
    s->tx_free_ns = now;
  s->tx_free_ns += wire_ns(s, n);
  uint64_t limit = s->tx_free_ns +
                   (uint64_t)s->t->margin_ms * SIMTY_SESSION_BACKOFF_MAX *
                       1000000u;
  int e = s->t->ops->send(s->t, p, n, limit);
  /* A send that timed out is a lost copy: the deadline recovers it. */
  if (e && e != SIMTY_ETIMEDOUT)
    return transport_error(s, e);
  return 0;
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
    if (e)
      return transport_error(s, e);
    s->rx_len = got;
  }
}

/* ---- Bulk frame size on a noisy link ---- */

static void noise_event(struct simty_session *s)
{
  s->clean_run = 0;
  if (++s->noise >= 2) {
    s->noise = 0;
    if (s->bulk_payload > SIMTY_MIN_PAYLOAD) {
      s->bulk_payload = (uint16_t)(s->bulk_payload / 2 < SIMTY_MIN_PAYLOAD
                                       ? SIMTY_MIN_PAYLOAD
                                       : s->bulk_payload / 2);
      s->shrinks++;
    }
  }
}

static void clean_event(struct simty_session *s)
{
  if (++s->clean_run < SIMTY_SESSION_CLEAN_RUN)
    return;
  s->clean_run = 0;
  s->noise = 0;
  if (s->bulk_payload < s->max_payload)
    s->bulk_payload = (uint16_t)(2u * s->bulk_payload > s->max_payload
                                     ? s->max_payload
                                     : 2u * s->bulk_payload);
}

/* ---- The window ---- */

/* Every outstanding request fails with `code` (s->err already says why);
 * answers already received stay valid. */
static int fail_window(struct simty_session *s, int code)
{
  snprintf(s->lost, sizeof(s->lost), "%s", s->err);
  for (unsigned i = 0; i < s->count; i++) {
    struct simty_session_slot *q = slot_at(s, i);
    if (q->state == SIMTY_SLOT_SENT) {
      q->state = SIMTY_SLOT_FAILED;
      q->error = code;
    }
  }
  /* The device's expected seq is unknown now. */
  s->need_sync = 1;
  return code;
}

/* Index in the window of the outstanding request with this seq, or -1. */
static int find_sent(struct simty_session *s, uint16_t seq)
{
  for (unsigned i = 0; i < s->count; i++) {
    const struct simty_session_slot *q = slot_at(s, i);
    if (q->seq == seq && q->state == SIMTY_SLOT_SENT)
      return (int)i;
  }
  return -1;
}

/* Queues one more copy of the k-th request of the window. */
static int send_copy(struct simty_session *s, unsigned k)
{
  struct simty_session_slot *q = slot_at(s, k);
  q->pending = 0;
  q->inflight++;
  s->retransmits++;
  int e = send_bytes(s, q->wire, q->wire_len);
  q->gone_ns = s->tx_free_ns;
  arm_deadline(s, k);
  return e;
}

/* Go-back-N from the i-th request: a lone delimiter ends whatever partial
 * frame the device holds, then every outstanding request from i on goes
 * out again, in order. `why`: 0 deadline, 1 SEQUENCE, 2 damaged. */
static int retransmit_from(struct simty_session *s, unsigned i, int why)
{
  struct simty_session_slot *x = slot_at(s, i);
  const char *name = simty_link_command_name(x->command);
  x->damaged = why == 2 && x->damaged;
  if (x->attempts >= SIMTY_SESSION_ATTEMPTS) {
    if (x->damaged) {
      fail(s, SIMTY_EPROTO,
           "the device received %s (seq %u) damaged %d times in a row (%s "
           "link)",
           name, x->seq, SIMTY_SESSION_ATTEMPTS, s->t->kind);
      return fail_window(s, SIMTY_EPROTO);
    }
    fail(s, SIMTY_ELINK,
         "no answer from the device to %s (seq %u) after %d attempts (%s "
         "link): the link is lost",
         name, x->seq, SIMTY_SESSION_ATTEMPTS, s->t->kind);
    return fail_window(s, SIMTY_ELINK);
  }
  x->attempts++;
  s->react_valid = 1;
  s->react_seq = x->seq;
  noise_event(s);
  static const uint8_t zero = 0;
  int e = send_bytes(s, &zero, 1);
  uint64_t now = simty__transport_now_ns();
  for (unsigned k = i; !e && k < s->count; k++) {
    struct simty_session_slot *q = slot_at(s, k);
    if (q->state != SIMTY_SLOT_SENT)
      continue;
    /* The copies of the request that caused this are accounted for (lost
     * or answered damaged); after a deadline every copy is presumed lost. */
    if (k == i || why == 0)
      q->inflight = 0;
    /* A later request whose last copy may still sit in the transport's
     * buffers is not queued again now: it goes when the device has
     * answered that copy (or this one, behind it), see flush_pending. */
    if (k == i || q->gone_ns <= now)
      e = send_copy(s, k);
    else
      q->pending = 1;
  }
  if (e)
    return fail_window(s, e);
  return 0;
}

/* The device answered the r-th request of the window (any answer: its
 * copy, and every copy queued before it, has left the transport): the
 * go-back-N copies held back up to it go out now, in order. */
static int flush_pending(struct simty_session *s, unsigned r)
{
  for (unsigned k = 0; k <= r && k < s->count; k++) {
    struct simty_session_slot *q = slot_at(s, k);
    if (q->state == SIMTY_SLOT_SENT && q->pending) {
      int e = send_copy(s, k);
      if (e)
        return fail_window(s, e);
    }
  }
  return 0;
}

static int handle_frame(struct simty_session *s, int *answered);

/* Handles one good frame from the device. */
static int on_frame(struct simty_session *s)
{
  int r = -1;
  int e = handle_frame(s, &r);
  if (!e && r >= 0)
    e = flush_pending(s, (unsigned)r);
  return e;
}

/* Handles one good frame; *answered: the window index of the request it
 * answers (whatever the answer), -1 if none. */
static int handle_frame(struct simty_session *s, int *answered)
{
  const uint8_t *f = s->dec.buf;
  uint8_t cmd = simty_frame_command(f);
  uint8_t status = simty_frame_status(f);
  uint16_t plen = simty_frame_length(f);
  int i = find_sent(s, simty_frame_seq(f));
  struct simty_session_slot *q = i >= 0 ? slot_at(s, (unsigned)i) : NULL;
  if (q && cmd != (q->command | SIMTY_RESPONSE_FLAG))
    q = NULL;
  if (q)
    *answered = i;
  if (f[SIMTY_HDR_VERSION] != SIMTY_PROTO_VERSION &&
      !(q && q->command == SIMTY_CMD_INFO)) {
    /* Only an INFO answer tells us about another version. */
    s->stale_frames++;
    return 0;
  }
  if (status == SIMTY_ST_SEQUENCE && plen >= SIMTY_ERROR_PAYLOAD) {
    /* The device skipped the frame: it still expects seq X. */
    uint16_t x = (uint16_t)simty_get_u32(simty_frame_payload(f));
    if (q && q->inflight)
      q->inflight--;
    int xi = find_sent(s, x);
    if (xi < 0 || (s->react_valid && s->react_seq == x)) {
      s->stale_frames++;
      return 0;
    }
    s->sequence_naks++;
    return retransmit_from(s, (unsigned)xi, 1);
  }
  if (status == SIMTY_ST_BAD_CRC || status == SIMTY_ST_BAD_LENGTH) {
    /* Our request arrived damaged (unverified seq and command): send it
     * again once every copy of it has been accounted for, so that no
     * second copy joins one still on its way. */
    if (!q) {
      s->stale_frames++;
      return 0;
    }
    s->naks++;
    if (q->inflight)
      q->inflight--;
    if (q->inflight)
      return 0;
    if (q->attempts == 1 || q->damaged)
      q->damaged = 1;
    return retransmit_from(s, (unsigned)i, 2);
  }
  if (!q) {
    s->stale_frames++; /* a late answer to an earlier copy */
    return 0;
  }
  q->state = SIMTY_SLOT_ANSWERED;
  q->status = status;
  q->detail = 0;
  q->payload_len = plen;
  memcpy(q->payload, simty_frame_payload(f),
         plen <= sizeof(q->payload) ? plen : sizeof(q->payload));
  if (status != SIMTY_ST_OK && plen >= SIMTY_ERROR_PAYLOAD)
    q->detail = simty_get_u32(q->payload);
  q->error = status == SIMTY_ST_OK ? 0 : simty_session_status_error(status);
  if (s->react_valid && s->react_seq == q->seq)
    s->react_valid = 0;
  clean_event(s);
  return 0;
}

/* Waits for one event until the oldest outstanding request's deadline
 * (or `cap`, if earlier: then nothing is retransmitted) and handles it. */
static int step_cap(struct simty_session *s, uint64_t cap);

static int step(struct simty_session *s)
{
  return step_cap(s, UINT64_MAX);
}

static int step_cap(struct simty_session *s, uint64_t cap)
{
  int oldest = -1;
  for (unsigned i = 0; i < s->count && oldest < 0; i++)
    if (slot_at(s, i)->state == SIMTY_SLOT_SENT)
      oldest = (int)i;
  if (oldest < 0)
    return 0;
  struct simty_session_slot *x = slot_at(s, (unsigned)oldest);
  /* No retransmission while bytes we queued may still be in the
   * transport's buffers: they would be sent twice. */
  uint64_t deadline = x->deadline > s->tx_free_ns ? x->deadline : s->tx_free_ns;
  enum simty_link_event ev = SIMTY_LINK_NONE;
  int e = next_event(s, deadline < cap ? deadline : cap, &ev);
  if (e < 0)
    return fail_window(s, e);
  if (e == 0 && cap < deadline)
    return 0;
  if (e == 0) {
    s->timeouts++;
    return retransmit_from(s, (unsigned)oldest, 0);
  }
  if (ev != SIMTY_LINK_FRAME) {
    /* Noise or a frame damaged on the way back: the deadline (or the next
     * good frame) decides. */
    if (ev != SIMTY_LINK_RUNT)
      s->bad_frames++;
    return 0;
  }
  return on_frame(s);
}

static int submit(struct simty_session *s, uint8_t command,
                  const void *payload, uint16_t len, uint32_t resp_max,
                  uint32_t extra_ms, unsigned *ticket)
{
  if (s->dead)
    return fail(s, SIMTY_ECLOSED, "%s",
                s->lost[0] ? s->lost : "the link to the device is closed");
  if (len > s->max_payload)
    return fail(s, SIMTY_EINVAL, "payload of %u bytes exceeds %u", len,
                s->max_payload);
  if (s->count >= s->window || (command == SIMTY_CMD_INFO && s->count))
    return fail(s, SIMTY_EBUSY, "the request window is full (%u of %u)",
                s->count, s->window);
  unsigned idx = (s->head + s->count) % SIMTY_MAX_WINDOW;
  struct simty_session_slot *q = &s->slot[idx];
  memset(q, 0, offsetof(struct simty_session_slot, wire));
  q->seq = ++s->seq;
  q->command = command;
  q->state = SIMTY_SLOT_SENT;
  q->attempts = 1;
  q->inflight = 1;
  q->resp_max = resp_max;
  q->extra_ms = extra_ms;
  if (len)
    memcpy(s->tx_frame + SIMTY_HDR_SIZE, payload, len);
  size_t n = simty_frame_seal(s->tx_frame, command, q->seq, 0, len);
  q->wire_len = simty_link_encode(s->tx_frame, n, q->wire);
  s->count++;
  if (s->count > s->max_outstanding)
    s->max_outstanding = s->count;
  s->requests++;
  if (ticket)
    *ticket = idx;
  int e = send_bytes(s, q->wire, q->wire_len);
  q->gone_ns = s->tx_free_ns;
  arm_deadline(s, s->count - 1);
  if (e)
    fail_window(s, e);
  return 0;
}

/* Takes the oldest request out of the window: its outcome. */
static int complete(struct simty_session *s, unsigned *ticket)
{
  if (!s->count)
    return fail(s, SIMTY_EINVAL, "no request to complete");
  struct simty_session_slot *q = &s->slot[s->head];
  while (q->state == SIMTY_SLOT_SENT)
    step(s);
  if (ticket)
    *ticket = s->head;
  s->head = (s->head + 1) % SIMTY_MAX_WINDOW;
  s->count--;
  int failed = q->state == SIMTY_SLOT_FAILED;
  q->state = SIMTY_SLOT_FREE;
  s->status = q->status;
  s->detail = q->detail;
  s->payload = q->payload;
  s->payload_len = q->payload_len;
  if (failed) {
    /* The window failed: every request in it reports why. */
    s->payload_len = 0;
    snprintf(s->err, sizeof(s->err), "%s", s->lost);
    return q->error;
  }
  const char *name = simty_link_command_name(q->command);
  if (q->status != SIMTY_ST_OK)
    return fail(s, q->error, "device refused %s: %s (detail 0x%08x)", name,
                simty_link_status_name(q->status), q->detail);
  if (q->payload_len > q->resp_max)
    return fail(s, SIMTY_EPROTO,
                "%s response of %u bytes, at most %u expected", name,
                q->payload_len, q->resp_max);
  return 0;
}

/* The INFO exchange: opens the session, or resynchronises it after a
 * failed window. */
static int info_exchange(struct simty_session *s)
{
  if (s->count)
    return fail(s, SIMTY_EBUSY,
                "INFO needs an empty window (%u requests in it)", s->count);
  uint16_t window = s->window;
  s->window = 1;
  s->react_valid = 0;
  int e = submit(s, SIMTY_CMD_INFO, NULL, 0, SIMTY_MAX_PAYLOAD, 0, NULL);
  if (e == 0)
    e = complete(s, NULL);
  s->window = window;
  unsigned dev_version = 0;
  if (e == SIMTY_EPROTO && s->status == SIMTY_ST_BAD_VERSION)
    dev_version = s->detail;
  else if (e)
    return e;
  else if (s->payload_len >= 1 &&
           s->payload[SIMTY_INFO_PROTO_VERSION] != SIMTY_PROTO_VERSION)
    dev_version = s->payload[SIMTY_INFO_PROTO_VERSION];
  if (dev_version) {
    s->need_sync = 1;
    return fail(s, SIMTY_EPROTO,
                "the device speaks protocol %u, this library protocol %u: "
                "reprogram the board with a bitstream of this release, or "
                "use a host library of the device's release",
                dev_version, SIMTY_PROTO_VERSION);
  }
  if (s->payload_len < SIMTY_INFO_SIZE) {
    s->need_sync = 1;
    return fail(s, SIMTY_EPROTO, "INFO answer of %u bytes, expected %u",
                s->payload_len, SIMTY_INFO_SIZE);
  }
  const uint8_t *p = s->payload;
  uint16_t maxp = simty_get_u16(p + SIMTY_INFO_MAX_PAYLOAD);
  uint16_t win = simty_get_u16(p + SIMTY_INFO_WINDOW);
  if (maxp < SIMTY_MIN_PAYLOAD || maxp > SIMTY_MAX_PAYLOAD || win < 1 ||
      win > SIMTY_MAX_WINDOW) {
    s->need_sync = 1;
    return fail(s, SIMTY_EPROTO,
                "implausible INFO: max payload %u, window %u", maxp, win);
  }
  memcpy(s->info, p, SIMTY_INFO_SIZE);
  s->max_payload = maxp;
  s->window = win;
  s->baud = simty_get_u32(p + SIMTY_INFO_BAUD);
  s->link_flags = simty_get_u16(p + SIMTY_INFO_LINK_FLAGS);
  if (!s->bulk_payload || s->bulk_payload > maxp)
    s->bulk_payload = maxp;
  s->need_sync = 0;
  return 0;
}

int simty_session_open(struct simty_session *s)
{
  return info_exchange(s);
}

unsigned simty_session_room(const struct simty_session *s)
{
  return s->count < s->window ? s->window - s->count : 0;
}

int simty_session_submit(struct simty_session *s, uint8_t command,
                         const void *payload, uint16_t len, uint32_t resp_max,
                         uint32_t extra_ms, unsigned *ticket)
{
  if (command == SIMTY_CMD_INFO)
    return fail(s, SIMTY_EINVAL, "INFO goes through simty_session_open");
  if (s->need_sync && !s->dead) {
    if (s->count)
      return fail(s, SIMTY_EBUSY,
                  "collect the failed requests before submitting more");
    /* The link was lost: whatever the device expects now, INFO resets its
     * window. */
    int e = info_exchange(s);
    if (e)
      return e;
  }
  return submit(s, command, payload, len, resp_max, extra_ms, ticket);
}

int simty_session_poll(struct simty_session *s, uint64_t until_ns)
{
  while (s->count && s->slot[s->head].state == SIMTY_SLOT_SENT) {
    if (simty__transport_now_ns() >= until_ns)
      return 0;
    step_cap(s, until_ns);
  }
  return 1;
}

int simty_session_complete(struct simty_session *s, unsigned *ticket)
{
  return complete(s, ticket);
}

int simty_session_request(struct simty_session *s, uint8_t command,
                          const void *payload, uint16_t len, uint32_t resp_max,
                          uint32_t extra_ms)
{
  if (command == SIMTY_CMD_INFO)
    return simty_session_open(s);
  if (s->count)
    return fail(s, SIMTY_EBUSY, "%u requests are in the window",
                s->count);
  int e = simty_session_submit(s, command, payload, len, resp_max, extra_ms,
                               NULL);
  return e ? e : complete(s, NULL);
}
