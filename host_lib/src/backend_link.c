/* SPDX-License-Identifier: Apache-2.0 */
/*
 * backend_link.c - the devices reached through the link protocol (sim,
 * tcp, ftdi, usb): one protocol client over any byte transport
 * (driver/transport), mapping each backend entry onto protocol commands
 * (docs/protocol.md section 3).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simty_internal.h"
#include "simty_transport.h"

static struct simty_session *session_of(simty_device *dev)
{
  return (struct simty_session *)dev->impl;
}

/* Copies the session's detail into the device's last error. */
static int link_fail(simty_device *dev, int e)
{
  return simty__fail(dev, e, "%s", session_of(dev)->err);
}

static int request(simty_device *dev, uint8_t cmd, const void *payload,
                   uint16_t len, uint32_t resp_max, uint32_t extra_ms)
{
  int e = simty_session_request(session_of(dev), cmd, payload, len, resp_max,
                                extra_ms);
  return e ? link_fail(dev, e) : 0;
}

static void parse_status(const uint8_t *p, struct simty__status *st)
{
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

static int drain_console(simty_device *dev, uint32_t pending)
{
  struct simty_session *s = session_of(dev);
  while (pending) {
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
  struct simty_session *s = malloc(sizeof(*s));
  if (!s) {
    simty_transport_close(t);
    return simty__fail(dev, SIMTY_ENOMEM, "out of memory");
  }
  simty_session_init(s, t);
  dev->impl = s;
  int e = request(dev, SIMTY_CMD_INFO, NULL, 0, SIMTY_INFO_SIZE, 0);
  if (e == 0 && s->payload_len < SIMTY_INFO_SIZE)
    e = simty__fail(dev, SIMTY_EPROTO, "INFO answer of %u bytes, expected %u",
                    s->payload_len, SIMTY_INFO_SIZE);
  if (e) {
    if (e == SIMTY_ECLOSED && strcmp(t->kind, "sim") == 0)
      simty__fail(dev, e, "the simulated board exited at start-up (see its "
                          "message above)");
    goto fail;
  }
  const uint8_t *p = s->payload;
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
  if (in->protocol_version != SIMTY_PROTO_VERSION) {
    e = simty__fail(dev, SIMTY_EPROTO,
                    "device speaks protocol version %u, this library %u",
                    in->protocol_version, SIMTY_PROTO_VERSION);
    goto fail;
  }
  if (in->max_payload < SIMTY_MIN_PAYLOAD ||
      in->max_payload > SIMTY_MAX_PAYLOAD ||
      in->counter_count != SIMTY_CTR_COUNT ||
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
  s->max_payload = (uint16_t)in->max_payload;
  /* A launch left running by an earlier session can be waited for or
   * aborted. */
  uint8_t flags[SIMTY_STATUS_REQ_SIZE] = {0};
  e = request(dev, SIMTY_CMD_STATUS, flags, sizeof(flags), SIMTY_SR_SIZE, 0);
  if (e)
    goto fail;
  if (s->payload_len >= SIMTY_SR_SIZE &&
      s->payload[SIMTY_SR_STATE] == SIMTY_STATE_RUNNING)
    dev->launched = dev->ever_launched = 1;
  return 0;
fail:
  simty_session_close(s);
  free(s);
  dev->impl = NULL;
  return e;
}

static void link_close(simty_device *dev)
{
  struct simty_session *s = session_of(dev);
  if (!s)
    return;
  /* Link health for board bring-up. */
  if (getenv("SIMTY_LINK_STATS"))
    fprintf(stderr,
            "simty link (%s): %" PRIu32 " requests, %" PRIu32
            " retransmits, %" PRIu32 " stale and %" PRIu32
            " damaged frames, %" PRIu32 " bytes of noise\n",
            s->t->kind, s->requests, s->retransmits, s->stale_frames,
            s->bad_frames, s->dec.discarded);
  simty_session_close(s);
  free(s);
  dev->impl = NULL;
}

static int link_write(simty_device *dev, uint32_t addr, const void *src,
                      size_t len)
{
  struct simty_session *s = session_of(dev);
  size_t chunk = s->max_payload - SIMTY_WRITE_DATA;
  uint8_t buf[SIMTY_MAX_PAYLOAD];
  const uint8_t *p = src;
  while (len) {
    size_t n = len < chunk ? len : chunk;
    simty_put_u32(buf + SIMTY_WRITE_ADDR, addr);
    memcpy(buf + SIMTY_WRITE_DATA, p, n);
    int e = request(dev, SIMTY_CMD_WRITE, buf,
                    (uint16_t)(n + SIMTY_WRITE_DATA), SIMTY_ERROR_PAYLOAD, 0);
    if (e)
      return e;
    addr += (uint32_t)n;
    p += n;
    len -= n;
  }
  return 0;
}

static int link_read(simty_device *dev, uint32_t addr, void *dst, size_t len)
{
  struct simty_session *s = session_of(dev);
  uint8_t *p = dst;
  while (len) {
    size_t n = len < s->max_payload ? len : s->max_payload;
    uint8_t req[SIMTY_READ_SIZE];
    simty_put_u32(req + SIMTY_READ_ADDR, addr);
    simty_put_u32(req + SIMTY_READ_COUNT, (uint32_t)n);
    int e = request(dev, SIMTY_CMD_READ, req, sizeof(req), (uint32_t)n, 0);
    if (e)
      return e;
    if (s->payload_len != n)
      return simty__fail(dev, SIMTY_EPROTO,
                         "READ of %zu bytes answered with %u", n,
                         s->payload_len);
    memcpy(p, s->payload, n);
    addr += (uint32_t)n;
    p += n;
    len -= n;
  }
  return 0;
}

static int link_launch(simty_device *dev, const struct simty__launch *l)
{
  uint8_t req[SIMTY_LAUNCH_SIZE];
  memset(req, 0, sizeof(req));
  simty_put_u32(req + SIMTY_LAUNCH_ENTRY, l->entry);
  simty_put_u32(req + SIMTY_LAUNCH_NTHREADS, l->nthreads);
  simty_put_u32(req + SIMTY_LAUNCH_ARGS, l->args);
  simty_put_u32(req + SIMTY_LAUNCH_DATA_END, l->data_end);
  simty_put_u64(req + SIMTY_LAUNCH_TIMEOUT, l->timeout_cycles);
  req[SIMTY_LAUNCH_STACK_LOG2] = (uint8_t)l->stack_log2;
  return request(dev, SIMTY_CMD_LAUNCH, req, sizeof(req),
                 SIMTY_LAUNCHED_SIZE, 0);
}

static int link_wait(simty_device *dev, uint64_t deadline_ns,
                     struct simty__status *st)
{
  struct simty_session *s = session_of(dev);
  for (;;) {
    uint64_t now = simty__now_ns();
    uint64_t left_ms = deadline_ns > now ? (deadline_ns - now) / 1000000u : 0;
    uint32_t slice = s->t->wait_slice_ms ? s->t->wait_slice_ms : 100;
    uint32_t ms = left_ms < slice ? (uint32_t)left_ms : slice;
    uint8_t req[SIMTY_WAIT_REQ_SIZE];
    simty_put_u32(req + SIMTY_WAIT_MS, ms);
    simty_put_u32(req + SIMTY_WAIT_FLAGS, SIMTY_WANT_CONSOLE);
    int e = request(dev, SIMTY_CMD_WAIT, req, sizeof(req), s->max_payload,
                    ms);
    if (e)
      return e;
    if (s->payload_len < SIMTY_SR_SIZE)
      return simty__fail(dev, SIMTY_EPROTO, "short WAIT answer (%u bytes)",
                         s->payload_len);
    parse_status(s->payload, st);
    int64_t pending = console_section(dev, s->payload + SIMTY_SR_SIZE,
                                      s->payload_len - SIMTY_SR_SIZE);
    if (pending < 0)
      return simty__fail(dev, SIMTY_EPROTO, "malformed console section");
    if (pending) {
      /* The status record is invalidated by the next request. */
      struct simty__status keep = *st;
      e = drain_console(dev, (uint32_t)pending);
      if (e)
        return e;
      *st = keep;
    }
    if (st->state != SIMTY__RUNNING)
      return 0;
    if (simty__now_ns() >= deadline_ns)
      return 0;
  }
}

static int link_abort(simty_device *dev)
{
  int e = request(dev, SIMTY_CMD_ABORT, NULL, 0, SIMTY_SR_SIZE, 0);
  /* The launch may have ended on its own just before. */
  return e == SIMTY_ENOLAUNCH ? 0 : e;
}

static int link_counters(simty_device *dev, uint64_t out[SIMTY_CTR_COUNT])
{
  struct simty_session *s = session_of(dev);
  uint8_t req[SIMTY_COUNTERS_REQ_SIZE] = {0, 0, 0, 0};
  int e = request(dev, SIMTY_CMD_COUNTERS, req, sizeof(req),
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
  }

LINK_OPEN(sim, simty_transport_sim);
LINK_OPEN(tcp, simty_transport_tcp);
LINK_OPEN(ftdi, simty_transport_ftdi);
LINK_OPEN(usb, simty_transport_usb);
