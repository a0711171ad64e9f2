/* SPDX-License-Identifier: Apache-2.0 */
/*
 * backend_link.c - the devices reached through the link protocol (sim,
 * tcp, ftdi, usb): one protocol client over any byte transport
 * (driver/transport), mapping each backend entry onto protocol commands
 * (docs/protocol.md section 3). Memory copies are bulk windowed transfers;
 * everything else is one request at a time. Writes and launches go to the
 * device's work queue; a QUEUE_FULL answer waits for the device to
 * complete an operation and sends again.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simty_internal.h"
#include "simty_transport.h"

/* The link backend's state: the session, and what it knows of launches. */
struct link {
  struct simty_session s;
  uint32_t launch_id;  /* the last launch id the device reported */
  int ever_before;     /* dev->ever_launched before an unresolved LAUNCH */
  uint32_t accepted;   /* number of the device's last accepted operation */
  uint32_t unknown_ops; /* operations an unresolved LAUNCH stands for */
  uint32_t done;       /* number of its last completed operation */
  /* Deferred submissions: WRITEs of one small frame and LAUNCHes sent
   * without waiting for their answers (the whole session window while
   * dn > 0), oldest first, kept to be sent again after a QUEUE_FULL. */
  struct deferred {
    uint8_t cmd;
    uint16_t len;
    uint8_t payload[SIMTY_MAX_PAYLOAD];
  } dq[SIMTY_MAX_WINDOW];
  unsigned dn;
};

static int settle(simty_device *dev);

static struct link *link_of(simty_device *dev)
{
  return (struct link *)dev->impl;
}

static struct simty_session *session_of(simty_device *dev)
{
  return &link_of(dev)->s;
}

/* Copies the session's detail into the device's last error. */
static int link_fail(simty_device *dev, int e)
{
  return simty__fail(dev, e, "%s", session_of(dev)->err);
}

static int request(simty_device *dev, uint8_t cmd, const void *payload,
                   uint16_t len, uint32_t resp_max, uint32_t extra_ms)
{
  int e = settle(dev);
  if (e)
    return e;
  e = simty_session_request(session_of(dev), cmd, payload, len, resp_max,
                                extra_ms);
  return e ? link_fail(dev, e) : 0;
}

static void parse_status(simty_device *dev, const uint8_t *p,
                         struct simty__status *st)
{
  struct link *l = link_of(dev);
  uint8_t state = p[SIMTY_SR_STATE];
  st->state = state == SIMTY_STATE_RUNNING ? SIMTY__RUNNING
              : state == SIMTY_STATE_DONE  ? SIMTY__DONE
              : state == SIMTY_STATE_FAULT ? SIMTY__FAULT
                                           : SIMTY__IDLE;
  st->fault.cause = p[SIMTY_SR_CAUSE];
  st->fault.pc = simty_get_u32(p + SIMTY_SR_FAULT_PC);
  st->fault.hart = simty_get_u32(p + SIMTY_SR_FAULT_HART);
  st->fault.tid = simty_get_u32(p + SIMTY_SR_FAULT_TID);
  st->fault.addr = simty_get_u32(p + SIMTY_SR_FAULT_ADDR);
  st->ops_accepted = simty_get_u32(p + SIMTY_SR_OPS_ACCEPTED);
  st->ops_done = simty_get_u32(p + SIMTY_SR_OPS_DONE);
  st->fault_op = simty_get_u32(p + SIMTY_SR_FAULT_OP);
  st->queued = simty_get_u16(p + SIMTY_SR_QUEUED);
  l->done = st->ops_done;
  l->launch_id = simty_get_u32(p + SIMTY_SR_LAUNCH_ID);
  simty__stream_note(dev, st);
}

/* STATUS: the device's state, taken into account. */
static int get_status(simty_device *dev, struct simty__status *st)
{
  struct simty_session *s = session_of(dev);
  uint8_t flags[SIMTY_STATUS_REQ_SIZE] = {0};
  int e = request(dev, SIMTY_CMD_STATUS, flags, sizeof(flags), SIMTY_SR_SIZE,
                  0);
  if (e)
    return e;
  if (s->payload_len < SIMTY_SR_SIZE)
    return simty__fail(dev, SIMTY_EPROTO, "short STATUS answer (%u bytes)",
                       s->payload_len);
  parse_status(dev, s->payload, st);
  return 0;
}

/* A submission refused with CANCELLED: a fault ended the device's queue
 * and no status record has told us yet. The STATUS that learns it makes
 * the device take new work again. */
static int learn_fault(simty_device *dev)
{
  struct simty__status st;
  int e = get_status(dev, &st);
  if (e)
    return e;
  if (!dev->stream.fault_pending) {
    /* The fault was ours before: report it anyway. */
    dev->last_fault = st.fault;
    dev->stream.fault_pending = 1;
  }
  return simty__fail(dev, SIMTY_EFAULT, "a launch before it faulted");
}

/*
 * A LAUNCH whose every answer was lost (SIMTY_ELINK) may or may not have
 * been accepted: simty_launch() then counts it as running
 * (dev->launch_unknown) and the first call after the link comes back asks
 * the device. A STATUS whose operation count has grown by the LAUNCH (and
 * the argument WRITE sent with it) says it was accepted (running, queued
 * or already ended): it stays launched, so that simty_wait() collects it
 * and simty_abort()/simty_close() abort it. Otherwise the device never
 * took it. Returns 0 (resolved or nothing
 * to resolve), 1 (the launch never started: dev->launched cleared) or a
 * link error (still unknown).
 */
static int resolve_launch(simty_device *dev)
{
  struct link *l = link_of(dev);
  if (!dev->launch_unknown)
    return 0;
  struct simty__status st;
  int e = get_status(dev, &st);
  if (e)
    return e;
  dev->launch_unknown = 0;
  if (st.ops_accepted == l->accepted + l->unknown_ops) {
    /* The LAUNCH was accepted: its number is the device's last. */
    l->accepted = st.ops_accepted;
    dev->stream.last_op = st.ops_accepted;
    return 0;
  }
  l->accepted = st.ops_accepted;
  dev->launched = dev->stream.nops != 0;
  dev->ever_launched = l->ever_before;
  return 1;
}

/* Feeds a console section to the device console; returns its pending
 * count, or -1 if the section is malformed. */
static int64_t console_section(simty_device *dev, const uint8_t *p,
                               size_t len)
{
  if (len < SIMTY_CS_HEADER)
    return -1;
  uint32_t pending = simty_get_u32(p + SIMTY_CS_PENDING);
  uint16_t count = simty_get_u16(p + SIMTY_CS_COUNT);
  if (len < SIMTY_CS_HEADER + (size_t)count * SIMTY_CS_RECORD_SIZE)
    return -1;
  for (uint16_t i = 0; i < count; i++) {
    const uint8_t *r = p + SIMTY_CS_RECORDS + (size_t)i * SIMTY_CS_RECORD_SIZE;
    simty__console_byte(dev, simty_get_u32(r), r[4]);
  }
  return pending;
}

/* Drains console records until none is pending, or, while the launch
 * still runs (`running`), until the deadline: a kernel that prints
 * forever must not hold simty_wait() past its time-out. What is left
 * waits in the device for the next wait. */
static int drain_console(simty_device *dev, uint32_t pending, int running,
                         uint64_t deadline_ns)
{
  struct simty_session *s = session_of(dev);
  while (pending) {
    if (running && simty__now_ns() >= deadline_ns)
      return 0;
    uint8_t req[SIMTY_CONSOLE_REQ_SIZE];
    simty_put_u32(req + SIMTY_CONSOLE_MAX, 0);
    int e = request(dev, SIMTY_CMD_CONSOLE, req, sizeof(req), s->max_payload,
                    0);
    if (e)
      return e;
    int64_t left = console_section(dev, s->payload, s->payload_len);
    if (left < 0)
      return simty__fail(dev, SIMTY_EPROTO, "malformed CONSOLE response");
    if (left >= pending && s->payload_len == SIMTY_CS_HEADER)
      return simty__fail(dev, SIMTY_EPROTO,
                         "device reports %u console records but sends none",
                         (unsigned)pending);
    pending = (uint32_t)left;
  }
  return 0;
}

static int open_common(simty_device *dev, struct simty_transport *t)
{
  struct link *l = calloc(1, sizeof(*l));
  if (!l) {
    simty_transport_close(t);
    return simty__fail(dev, SIMTY_ENOMEM, "out of memory");
  }
  struct simty_session *s = &l->s;
  simty_session_init(s, t);
  dev->impl = l;
  int e = simty_session_open(s);
  if (e) {
    link_fail(dev, e);
    if (e == SIMTY_ECLOSED && strcmp(t->kind, "sim") == 0)
      simty__fail(dev, e,
                  "the simulated board exited at start-up (see its "
                  "message above)%s%s",
                  t->start_hint[0] ? ": " : "", t->start_hint);
    /* No session yet: a silent device at open is simty_open()'s
     * documented SIMTY_ETIMEDOUT. */
    if (e == SIMTY_ELINK)
      e = simty__fail(dev, SIMTY_ETIMEDOUT, "the device does not answer: %s",
                      s->err);
    goto fail;
  }
  const uint8_t *p = s->info;
  struct simty_device_info *in = &dev->info;
  in->protocol_version = p[SIMTY_INFO_PROTO_VERSION];
  in->counter_count = p[SIMTY_INFO_COUNTER_COUNT];
  in->max_payload = simty_get_u16(p + SIMTY_INFO_MAX_PAYLOAD);
  in->warps = simty_get_u16(p + SIMTY_INFO_WARPS);
  in->lanes = simty_get_u16(p + SIMTY_INFO_LANES);
  in->code_base = simty_get_u32(p + SIMTY_INFO_CODE_BASE);
  in->code_size = simty_get_u32(p + SIMTY_INFO_CODE_SIZE);
  in->data_base = simty_get_u32(p + SIMTY_INFO_DATA_BASE);
  in->data_size = simty_get_u32(p + SIMTY_INFO_DATA_SIZE);
  in->clock_hz = simty_get_u32(p + SIMTY_INFO_CLOCK_HZ);
  in->firmware_version = simty_get_u32(p + SIMTY_INFO_FW_VERSION);
  in->link_baud = simty_get_u32(p + SIMTY_INFO_BAUD);
  in->link_window = simty_get_u16(p + SIMTY_INFO_WINDOW);
  in->link_flags = simty_get_u16(p + SIMTY_INFO_LINK_FLAGS);
  in->hw_version = simty_get_u32(p + SIMTY_INFO_HW_VERSION);
  in->hw_build = simty_get_u32(p + SIMTY_INFO_HW_BUILD);
  /* 0 from firmware that predates the field: RV32I */
  in->extensions = simty_get_u16(p + SIMTY_INFO_EXTENSIONS) &
                   (SIMTY_EXT_M | SIMTY_EXT_A | SIMTY_EXT_ZICNTR);
  /* bit 8 of the same field: the crossbar kind (0 from older devices) */
  in->xbar = (simty_get_u16(p + SIMTY_INFO_EXTENSIONS) &
              SIMTY_INFO_EXT_XBAR_ROTATE) ? 1u : 0u;
  if (in->counter_count != SIMTY_CTR_COUNT ||
      in->code_base != SIMTY_CODE_BASE || in->data_base != SIMTY_DATA_BASE ||
      in->code_size > SIMTY_CODE_WINDOW || in->data_size > SIMTY_DATA_WINDOW) {
    e = simty__fail(dev, SIMTY_EPROTO,
                    "implausible INFO: payload %u, %u counters, code "
                    "0x%08" PRIx32 "+%" PRIu32 ", data 0x%08" PRIx32
                    "+%" PRIu32,
                    in->max_payload, in->counter_count, in->code_base,
                    in->code_size, in->data_base, in->data_size);
    goto fail;
  }
  /* sim?xbar=K: a board of another kind (a $SIMTY_SIM that ignores --xbar)
   * is not the device asked for. */
  if (t->want_xbar[0] &&
      strcmp(t->want_xbar, in->xbar ? "rotate" : "full") != 0) {
    e = simty__fail(dev, SIMTY_ENODEV,
                    "%s?xbar=%s: the board reports the %s crossbar", t->kind,
                    t->want_xbar, in->xbar ? "rotate" : "full");
    goto fail;
  }
  /* A launch left running by an earlier session can be waited for or
   * aborted. */
  struct simty__status st;
  e = get_status(dev, &st);
  if (e)
    goto fail;
  /* Earlier sessions' faults are theirs. */
  dev->stream.fault_pending = 0;
  memset(&dev->last_fault, 0, sizeof(dev->last_fault));
  l->accepted = st.ops_accepted;
  dev->stream.last_op = st.ops_accepted;
  if (st.state == SIMTY__RUNNING || st.queued)
    dev->launched = dev->ever_launched = 1;
  return 0;
fail:
  simty_session_close(s);
  free(l);
  dev->impl = NULL;
  return e;
}

static void link_close(simty_device *dev)
{
  struct link *l = link_of(dev);
  if (!l)
    return;
  settle(dev);
  struct simty_session *s = &l->s;
  /* Link health for board bring-up. */
  if (getenv("SIMTY_LINK_STATS"))
    fprintf(stderr,
            "simty link (%s): %" PRIu32 " requests, %" PRIu32
            " retransmits (%" PRIu32 " time-outs, %" PRIu32
            " SEQUENCE and %" PRIu32 " damaged-request answers), %" PRIu32
            " stale and %" PRIu32 " damaged frames, %" PRIu32
            " bytes of noise; window %u (up to %" PRIu32
            " outstanding), bulk frames %u bytes (%" PRIu32 " shrinks)\n",
            s->t->kind, s->requests, s->retransmits, s->timeouts,
            s->sequence_naks, s->naks, s->stale_frames, s->bad_frames,
            s->dec.discarded, s->window, s->max_outstanding, s->bulk_payload,
            s->shrinks);
  simty_session_close(s);
  free(l);
  dev->impl = NULL;
}

/*
 * One WAIT with console: the device answers when operation until_op has
 * completed (0: when nothing runs or is queued), when a fault ended its
 * queue, when its console needs draining, or after ms of device time.
 * If the host deadline passes first (device time runs slower than the
 * host's on a simulated board), a STATUS behind the WAIT makes the device
 * answer it at once. Fills *st; drains pending console records.
 */
static int wait_once(simty_device *dev, uint32_t until_op, uint32_t ms,
                     uint64_t deadline_ns, struct simty__status *st)
{
  struct simty_session *s = session_of(dev);
  int e = settle(dev);
  if (e)
    return e;
  uint8_t req[SIMTY_WAIT_REQ_SIZE_UNTIL];
  simty_put_u32(req + SIMTY_WAIT_MS, ms);
  simty_put_u32(req + SIMTY_WAIT_FLAGS, SIMTY_WANT_CONSOLE);
  simty_put_u32(req + SIMTY_WAIT_UNTIL, until_op);
  e = simty_session_submit(s, SIMTY_CMD_WAIT, req, sizeof(req),
                               s->max_payload, ms, NULL);
  if (e)
    return link_fail(dev, e);
  int nudged = 0;
  if (ms && deadline_ns != UINT64_MAX &&
      simty_session_poll(s, deadline_ns) == 0) {
    uint8_t flags[SIMTY_STATUS_REQ_SIZE] = {0};
    e = simty_session_submit(s, SIMTY_CMD_STATUS, flags, sizeof(flags),
                             SIMTY_SR_SIZE, 0, NULL);
    if (e)
      return link_fail(dev, e);
    nudged = 1;
  }
  e = simty_session_complete(s, NULL);
  if (e) {
    if (nudged)
      simty_session_complete(s, NULL);
    return link_fail(dev, e);
  }
  if (s->payload_len < SIMTY_SR_SIZE) {
    if (nudged)
      simty_session_complete(s, NULL);
    return simty__fail(dev, SIMTY_EPROTO, "short WAIT answer (%u bytes)",
                       s->payload_len);
  }
  /* The answer is invalidated by the next completion: use it first. */
  parse_status(dev, s->payload, st);
  int64_t pending = console_section(dev, s->payload + SIMTY_SR_SIZE,
                                    s->payload_len - SIMTY_SR_SIZE);
  if (nudged) {
    e = simty_session_complete(s, NULL);
    if (e)
      return link_fail(dev, e);
  }
  if (pending < 0)
    return simty__fail(dev, SIMTY_EPROTO, "malformed console section");
  if (pending) {
    struct simty__status keep = *st;
    e = drain_console(dev, (uint32_t)pending, keep.state == SIMTY__RUNNING,
                      deadline_ns);
    if (e)
      return e;
    *st = keep;
  }
  return 0;
}

/* The device's queue is full: wait until it completes one more
 * operation (or a fault ends it). */
static int wait_room(simty_device *dev)
{
  struct simty_session *s = session_of(dev);
  struct link *l = link_of(dev);
  uint32_t slice = s->t->wait_slice_ms ? s->t->wait_slice_ms : 100;
  struct simty__status st;
  return wait_once(dev, l->done + 1u, slice, UINT64_MAX, &st);
}

/* ---- Deferred submissions ---- */

static uint32_t resp_max_of(uint8_t cmd)
{
  return cmd == SIMTY_CMD_LAUNCH ? SIMTY_LAUNCHED_SIZE : SIMTY_ERROR_PAYLOAD;
}

static void drop_oldest(struct link *l)
{
  l->dn--;
  memmove(l->dq, l->dq + 1, l->dn * sizeof(*l->dq));
}

/*
 * Collects the answers of deferred submissions: the oldest only while it
 * is OK (all = 0), or every one (all = 1). A QUEUE_FULL refuses the
 * submissions behind it too (the device refuses every WRITE and LAUNCH
 * after one until another command): they are all sent again, in order,
 * once the device has completed an operation. CANCELLED (a fault ended
 * the queue) learns the fault; a lost link leaves whether they were
 * taken to resolve_launch().
 */
static int collect(simty_device *dev, int all)
{
  struct link *l = link_of(dev);
  struct simty_session *s = &l->s;
  while (l->dn) {
    uint8_t cmd = l->dq[0].cmd;
    int e = simty_session_complete(s, NULL);
    if (e == 0) {
      if (cmd == SIMTY_CMD_LAUNCH && s->payload_len >= SIMTY_LAUNCHED_SIZE)
        l->accepted = simty_get_u32(s->payload + SIMTY_LAUNCHED_OP);
      else
        l->accepted++;
      drop_oldest(l);
      if (!all)
        return 0;
      continue;
    }
    uint8_t st = s->status;
    char why[sizeof(s->err)];
    snprintf(why, sizeof(why), "%s", s->err);
    unsigned n = l->dn, launches = cmd == SIMTY_CMD_LAUNCH, ok = 0;
    for (unsigned i = 1; i < n; i++) {
      launches += l->dq[i].cmd == SIMTY_CMD_LAUNCH;
      if (simty_session_complete(s, NULL) == 0)
        ok++;
    }
    if (st == SIMTY_ST_QUEUE_FULL && e != SIMTY_ELINK && ok == 0) {
      /* Nothing is in flight now: wait (the WAIT also ends the device's
       * refusals), then send them again. */
      unsigned keep = l->dn;
      l->dn = 0;
      int we = wait_room(dev);
      if (we)
        return we;
      l->dn = keep;
      for (unsigned i = 0; i < l->dn; i++) {
        struct deferred *d = &l->dq[i];
        int se = simty_session_submit(s, d->cmd, d->payload, d->len,
                                      resp_max_of(d->cmd), 0, NULL);
        if (se) {
          l->dn = 0;
          return link_fail(dev, se);
        }
      }
      continue;
    }
    l->dn = 0;
    if (st == SIMTY_ST_CANCELLED && e != SIMTY_ELINK)
      return learn_fault(dev);
    if (e == SIMTY_ELINK && launches) {
      /* Whether the device took them is unknown until it answers again. */
      dev->launch_unknown = 1;
      l->unknown_ops = n;
      l->ever_before = dev->ever_launched;
      return simty__fail(dev, e,
                         "%s; whether the device started the launch is "
                         "unknown until it answers again (simty_wait() or "
                         "simty_abort() asks it)",
                         why);
    }
    return simty__fail(dev, e, "%s", why);
  }
  return 0;
}

static int settle(simty_device *dev)
{
  struct link *l = link_of(dev);
  return l && l->dn ? collect(dev, 1) : 0;
}

static int link_flush(simty_device *dev)
{
  return settle(dev);
}

/* Sends a WRITE of one frame or a LAUNCH without waiting for its answer;
 * dev->stream.last_op gets the number it will have. */
static int defer(simty_device *dev, uint8_t cmd, const uint8_t *payload,
                 uint16_t len)
{
  struct link *l = link_of(dev);
  struct simty_session *s = &l->s;
  if (l->dn && simty_session_room(s) == 0) {
    int e = collect(dev, 0);
    if (e)
      return e;
  }
  struct deferred *d = &l->dq[l->dn];
  d->cmd = cmd;
  d->len = len;
  memcpy(d->payload, payload, len);
  int e = simty_session_submit(s, cmd, payload, len, resp_max_of(cmd), 0,
                               NULL);
  if (e)
    return link_fail(dev, e);
  l->dn++;
  dev->stream.last_op = l->accepted + l->dn;
  return 0;
}


/*
 * simty_write/simty_read of any size: frames of the session's bulk
 * payload (max_payload, less on a noisy link; WRITE carries 4 bytes of
 * address) with the window kept full. The first error stops sending; the
 * requests already in flight are collected, and that error is returned.
 * A WRITE answered QUEUE_FULL is sent again once the device has
 * completed an operation. Progress is reported every
 * SIMTY__PROGRESS_CHUNK bytes of transfers of at least that size.
 */
static int bulk(simty_device *dev, int write, uint32_t addr, uint8_t *p,
                size_t len)
{
  struct simty_session *s = session_of(dev);
  struct link *l = link_of(dev);
  struct piece {
    size_t off;
    uint16_t n;
  } piece[SIMTY_MAX_WINDOW], retry[2 * SIMTY_MAX_WINDOW];
  size_t nretry = 0, rpos = 0;
  int e = settle(dev);
  if (e)
    return e;
  e = resolve_launch(dev);
  if (e < 0)
    return e;
  e = 0;
  int cancelled = 0;
  char why[sizeof(dev->error)] = "";
  size_t sent = 0, done = 0, reported = 0;
  uint8_t buf[SIMTY_MAX_PAYLOAD];
  while (((sent < len || rpos < nretry) && !e) || s->count) {
    if (!e && !s->count && rpos == 0 && nretry && sent == len) {
      /* Everything else was accepted: wait for room, then resend. */
      e = wait_room(dev);
      if (e) {
        snprintf(why, sizeof(why), "%s", dev->error);
        break;
      }
    } else if (!e && !s->count && rpos == 0 && nretry) {
      e = wait_room(dev);
      if (e) {
        snprintf(why, sizeof(why), "%s", dev->error);
        break;
      }
    }
    while (!e && (sent < len || rpos < nretry) && simty_session_room(s)) {
      size_t off, n;
      if (rpos < nretry) {
        off = retry[rpos].off;
        n = retry[rpos].n;
        rpos++;
        if (rpos == nretry)
          rpos = nretry = 0;
      } else if (nretry) {
        break; /* resend the refused pieces first */
      } else {
        size_t chunk = write ? (size_t)s->bulk_payload - SIMTY_WRITE_DATA
                             : s->bulk_payload;
        off = sent;
        n = len - sent < chunk ? len - sent : chunk;
        sent += n;
      }
      unsigned ticket = 0;
      int se;
      if (write) {
        simty_put_u32(buf + SIMTY_WRITE_ADDR, addr + (uint32_t)off);
        memcpy(buf + SIMTY_WRITE_DATA, p + off, n);
        se = simty_session_submit(s, SIMTY_CMD_WRITE, buf,
                                  (uint16_t)(n + SIMTY_WRITE_DATA),
                                  SIMTY_ERROR_PAYLOAD, 0, &ticket);
      } else {
        simty_put_u32(buf + SIMTY_READ_ADDR, addr + (uint32_t)off);
        simty_put_u32(buf + SIMTY_READ_COUNT, (uint32_t)n);
        se = simty_session_submit(s, SIMTY_CMD_READ, buf, SIMTY_READ_SIZE,
                                  (uint32_t)n, 0, &ticket);
      }
      if (se) {
        e = se;
        snprintf(why, sizeof(why), "%s", s->err);
        break;
      }
      piece[ticket].off = off;
      piece[ticket].n = (uint16_t)n;
    }
    if (!s->count)
      continue;
    unsigned ticket = 0;
    int ce = simty_session_complete(s, &ticket);
    if (ce && write && s->status == SIMTY_ST_QUEUE_FULL && !e &&
        nretry < 2 * SIMTY_MAX_WINDOW) {
      retry[nretry++] = piece[ticket];
      continue;
    }
    if (ce && s->status == SIMTY_ST_CANCELLED)
      cancelled = 1;
    if (!ce && !write && s->payload_len != piece[ticket].n) {
      ce = SIMTY_EPROTO;
      snprintf(s->err, sizeof(s->err), "READ of %u bytes answered with %u",
               piece[ticket].n, s->payload_len);
    }
    if (ce) {
      if (!e) {
        e = ce;
        snprintf(why, sizeof(why), "%s", s->err);
      }
      continue;
    }
    if (write) {
      l->accepted++;
      dev->stream.last_op = l->accepted;
    } else {
      memcpy(p + piece[ticket].off, s->payload, piece[ticket].n);
    }
    done += piece[ticket].n;
    if (len >= SIMTY__PROGRESS_CHUNK &&
        (done - reported >= SIMTY__PROGRESS_CHUNK || done == len)) {
      reported = done;
      simty__progress(dev, done, len);
    }
  }
  if (cancelled)
    return learn_fault(dev);
  if (e)
    return simty__fail(dev, e, "%s", why);
  return 0;
}

static int link_write(simty_device *dev, uint32_t addr, const void *src,
                      size_t len)
{
  struct simty_session *s = session_of(dev);
  if (len + SIMTY_WRITE_DATA <= s->bulk_payload && len < 256 &&
      !dev->launch_unknown) {
    uint8_t buf[SIMTY_WRITE_DATA + 256];
    simty_put_u32(buf + SIMTY_WRITE_ADDR, addr);
    memcpy(buf + SIMTY_WRITE_DATA, src, len);
    return defer(dev, SIMTY_CMD_WRITE, buf, (uint16_t)(len + SIMTY_WRITE_DATA));
  }
  return bulk(dev, 1, addr, (uint8_t *)(uintptr_t)src, len);
}

static int link_read(simty_device *dev, uint32_t addr, void *dst, size_t len)
{
  return bulk(dev, 0, addr, dst, len);
}

static int link_launch(simty_device *dev, const struct simty__launch *la)
{
  int e = resolve_launch(dev);
  if (e < 0)
    return e;
  uint8_t req[SIMTY_LAUNCH_SIZE];
  memset(req, 0, sizeof(req));
  simty_put_u32(req + SIMTY_LAUNCH_ENTRY, la->entry);
  simty_put_u32(req + SIMTY_LAUNCH_NTHREADS, la->nthreads);
  simty_put_u32(req + SIMTY_LAUNCH_ARGS, la->args);
  simty_put_u32(req + SIMTY_LAUNCH_DATA_END, la->data_end);
  simty_put_u64(req + SIMTY_LAUNCH_TIMEOUT, la->timeout_cycles);
  req[SIMTY_LAUNCH_STACK_LOG2] = (uint8_t)la->stack_log2;
  req[SIMTY_LAUNCH_FLAGS] =
      la->flags & SIMTY__LAUNCH_CONTINUE ? SIMTY_LAUNCH_F_CONTINUE : 0;
  /* The argument block just before it, deferred like the LAUNCH when it
   * is small: both go in the same round trip as the work before them
   * (after a QUEUE_FULL the device refuses everything behind it too, so
   * a launch never overtakes its arguments). */
  if (la->args_data) {
    e = link_write(dev, la->args, la->args_data, la->args_size);
    if (e)
      return e;
  }
  return defer(dev, SIMTY_CMD_LAUNCH, req, sizeof(req));
}

static int link_wait(simty_device *dev, uint32_t until_op,
                     uint64_t deadline_ns, struct simty__status *st)
{
  struct link *l = link_of(dev);
  struct simty_session *s = &l->s;
  int e = resolve_launch(dev);
  if (e < 0)
    return e;
  if (e == 1 && !dev->stream.nops)
    return simty__fail(dev, SIMTY_ENOLAUNCH,
                       "the LAUNCH lost with the link never reached the "
                       "device: nothing runs");
  for (;;) {
    uint64_t now = simty__now_ns();
    uint64_t left_ms = deadline_ns > now ? (deadline_ns - now) / 1000000u : 0;
    uint32_t slice = s->t->wait_slice_ms ? s->t->wait_slice_ms : 100;
    uint32_t ms = left_ms < slice ? (uint32_t)left_ms : slice;
    if (ms == 0 && deadline_ns > now)
      ms = 1;
    e = wait_once(dev, until_op, ms, deadline_ns, st);
    if (e)
      return e;
    int idle = st->state != SIMTY__RUNNING && st->queued == 0;
    if (idle || (until_op && (int32_t)(st->ops_done - until_op) >= 0) ||
        (st->fault_op && (int32_t)(st->fault_op - until_op) <= 0 && until_op))
      return 0;
    if (simty__now_ns() >= deadline_ns)
      return 0;
  }
}

static int link_abort(simty_device *dev)
{
  int e = resolve_launch(dev);
  if (e)
    return e < 0 ? e : 0; /* never started: nothing to abort */
  struct simty_session *s = session_of(dev);
  e = request(dev, SIMTY_CMD_ABORT, NULL, 0, SIMTY_SR_SIZE, 0);
  /* The launch may have ended on its own just before. */
  if (e == SIMTY_ENOLAUNCH)
    return 0;
  if (e)
    return e;
  if (s->payload_len < SIMTY_SR_SIZE)
    return simty__fail(dev, SIMTY_EPROTO, "short ABORT answer (%u bytes)",
                       s->payload_len);
  struct simty__status st;
  parse_status(dev, s->payload, &st);
  return 0;
}

static int link_counters(simty_device *dev, uint64_t out[SIMTY_CTR_COUNT])
{
  struct simty_session *s = session_of(dev);
  int e = resolve_launch(dev);
  if (e < 0)
    return e;
  uint8_t req[SIMTY_COUNTERS_REQ_SIZE] = {0, 0, 0, 0};
  e = request(dev, SIMTY_CMD_COUNTERS, req, sizeof(req),
              SIMTY_COUNTERS_VALUES + 8u * SIMTY_CTR_COUNT, 0);
  if (e)
    return e;
  if (s->payload_len < SIMTY_COUNTERS_VALUES + 8u * SIMTY_CTR_COUNT ||
      s->payload[SIMTY_COUNTERS_FIRST] != 0 ||
      s->payload[SIMTY_COUNTERS_COUNT] != SIMTY_CTR_COUNT)
    return simty__fail(dev, SIMTY_EPROTO, "malformed COUNTERS answer");
  for (unsigned i = 0; i < SIMTY_CTR_COUNT; i++)
    out[i] = simty_get_u64(s->payload + SIMTY_COUNTERS_VALUES + 8 * i);
  return 0;
}

/* ---- One open function per transport ---- */

#define LINK_OPEN(name, ctor)                                                \
  static int name##_open(simty_device *dev, const char *rest)                \
  {                                                                          \
    struct simty_transport *t = NULL;                                        \
    char err[256] = "";                                                      \
    int e = ctor(rest, &t, err, sizeof(err));                                \
    if (e)                                                                   \
      return simty__fail(dev, e, "%s", err);                                 \
    return open_common(dev, t);                                              \
  }                                                                          \
  const struct simty__backend simty__backend_##name = {                      \
      .scheme = #name,                                                       \
      .open = name##_open,                                                   \
      .close = link_close,                                                   \
      .write = link_write,                                                   \
      .read = link_read,                                                     \
      .launch = link_launch,                                                 \
      .wait = link_wait,                                                     \
      .abort = link_abort,                                                   \
      .counters = link_counters,                                             \
      .flush = link_flush,                                                   \
      .own_progress = 1,                                                     \
  }

LINK_OPEN(sim, simty_transport_sim);
LINK_OPEN(tcp, simty_transport_tcp);
LINK_OPEN(ftdi, simty_transport_ftdi);
LINK_OPEN(usb, simty_transport_usb);
