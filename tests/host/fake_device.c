/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fake_device.c - see fake_device.h. The protocol semantics follow
 * docs/protocol.md (v2) closely enough for the host library: INFO, WRITE,
 * READ, LAUNCH, STATUS, WAIT, ABORT, COUNTERS, RESET and CONSOLE, executed
 * strictly in seq order, with the response cache of the window and
 * SEQUENCE answers to gaps. WAIT runs the model for up to wait_ms of real
 * time.
 */
#include "fake_device.h"

#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "simty_link.h"

#define CONSOLE_CAP 65536u

struct state {
  struct fake_device *d;
  struct simty_link_decoder dec;
  uint8_t rx[SIMTY_FRAME_SIZE(SIMTY_MAX_PAYLOAD)];
  uint8_t out[SIMTY_FRAME_SIZE(SIMTY_MAX_PAYLOAD)];
  uint8_t wire[SIMTY_WIRE_MAX(SIMTY_FRAME_SIZE(SIMTY_MAX_PAYLOAD)) + 64];
  /* The window: the seq of the next request to execute, and the cached
   * response of each of the last SIMTY_MAX_WINDOW executed ones. */
  int synced;
  uint16_t expect;
  struct {
    int valid;
    uint16_t seq;
    size_t len;
    uint8_t wire[SIMTY_WIRE_MAX(SIMTY_FRAME_SIZE(SIMTY_MAX_PAYLOAD)) + 64];
  } cache[SIMTY_MAX_WINDOW];
  unsigned rng;
  /* Launch. */
  uint64_t launch_ms;
  uint32_t launch_id;
  int launched;
  uint32_t nthreads;
  uint32_t launch_op; /* the last launch's operation number */
  uint32_t ops; /* operations accepted (WRITE, LAUNCH): the fake queues
                   nothing, so all but a running launch are done */
  /* Console records. */
  uint32_t con_tid[CONSOLE_CAP];
  uint8_t con_byte[CONSOLE_CAP];
  uint32_t con_head, con_count;
  int closed;
  int muted; /* a LAUNCH was answered (mute_after_launch) */
};

static uint64_t now_ms(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static int take(struct fake_device *d, int *field)
{
  pthread_mutex_lock(&d->lock);
  int v = *field;
  if (v > 0)
    (*field)--;
  pthread_mutex_unlock(&d->lock);
  return v > 0;
}

/* take() for drop_requests / drop_responses: only frames of drop_command
 * count when it is set. */
static int take_drop(struct fake_device *d, int *field, uint8_t cmd)
{
  pthread_mutex_lock(&d->lock);
  int other = d->drop_command != 0 && d->drop_command != cmd;
  pthread_mutex_unlock(&d->lock);
  return !other && take(d, field);
}

/* True with probability permille/1000 (under the lock). */
static int chance(struct state *s, int *permille)
{
  pthread_mutex_lock(&s->d->lock);
  int p = *permille;
  pthread_mutex_unlock(&s->d->lock);
  return p > 0 && (int)(rand_r(&s->rng) % 1000u) < p;
}

void fake_device_set(struct fake_device *d, int *field, int value)
{
  pthread_mutex_lock(&d->lock);
  *field = value;
  pthread_mutex_unlock(&d->lock);
}

static void console_byte(void *user, uint32_t tid, uint8_t byte)
{
  struct state *s = user;
  if (s->con_count == CONSOLE_CAP)
    return; /* the model cannot stall: a test never prints this much */
  uint32_t at = (s->con_head + s->con_count++) % CONSOLE_CAP;
  s->con_tid[at] = tid;
  s->con_byte[at] = byte;
}

static void send_all(struct state *s, const uint8_t *p, size_t n, int split)
{
  while (n && !s->closed) {
    size_t k = split ? 1 : n;
    ssize_t w = send(s->d->fd, p, k, MSG_NOSIGNAL);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0) {
      s->closed = 1;
      return;
    }
    p += w;
    n -= (size_t)w;
  }
}

/* Sends an encoded response with whatever misbehaviour is armed. */
static void emit(struct state *s, uint8_t cmd, uint16_t seq,
                 const uint8_t *wire_in, size_t w)
{
  struct fake_device *d = s->d;
  uint8_t wire[sizeof(s->wire)];
  memcpy(wire, wire_in, w);
  pthread_mutex_lock(&d->lock);
  int mute = s->muted && d->mute_after_launch;
  pthread_mutex_unlock(&d->lock);
  if (mute || take_drop(d, &d->drop_responses, cmd) ||
      chance(s, &d->drop_permille)) {
    d->dropped++;
    return;
  }
  if (take(d, &d->garbage_before)) {
    static const uint8_t noise[] = {0x55, 0x00, 0x13, 0x37, 0xff, 0x02,
                                    0x01, 0x00, 0xaa, 0x99, 0x00};
    send_all(s, noise, sizeof(noise), 0);
  }
  if (take(d, &d->stale_before)) {
    /* A late duplicate of the answer before (its cached copy), else an
     * answer to a seq long gone: never a forged answer to a request the
     * host may still have outstanding. */
    uint16_t prev = (uint16_t)(seq - 1);
    unsigned at = prev % SIMTY_MAX_WINDOW;
    if (s->cache[at].valid && s->cache[at].seq == prev) {
      send_all(s, s->cache[at].wire, s->cache[at].len, 0);
    } else {
      uint8_t stale[SIMTY_FRAME_SIZE(0)], sw[SIMTY_WIRE_MAX(12)];
      size_t sn = simty_frame_seal(stale, cmd | SIMTY_RESPONSE_FLAG,
                                   (uint16_t)(seq - 1000), SIMTY_ST_OK, 0);
      send_all(s, sw, simty_link_encode(stale, sn, sw), 0);
    }
  }
  if (take(d, &d->corrupt_responses)) {
    /* Flip a bit near the end of the encoded frame, keeping it zero-free. */
    uint8_t *b = &wire[w - 2];
    *b = (uint8_t)(*b ^ 0x01) ? (uint8_t)(*b ^ 0x01) : (uint8_t)(*b ^ 0x02);
  }
  send_all(s, wire, w, take(d, &d->split_responses));
}

/* Seals s->out (payload already in place) and sends it, with whatever
 * misbehaviour is armed. cache: the answer of an executed request, kept
 * for its retransmissions. */
static void respond(struct state *s, uint8_t cmd, uint16_t seq,
                    uint8_t status, uint16_t len, uint32_t req_crc, int cache)
{
  (void)req_crc;
  size_t n = simty_frame_seal(s->out, cmd | SIMTY_RESPONSE_FLAG, seq, status,
                              len);
  uint8_t version = s->d->proto_version ? s->d->proto_version
                                        : SIMTY_PROTO_VERSION;
  if (version != SIMTY_PROTO_VERSION) {
    /* A device of another version answers in its own format. */
    s->out[SIMTY_HDR_VERSION] = version;
    simty_put_u32(s->out + n - SIMTY_CRC_SIZE,
                  simty_crc32(0, s->out, n - SIMTY_CRC_SIZE));
  }
  size_t w = simty_link_encode(s->out, n, s->wire);
  if (cache) {
    unsigned at = seq % SIMTY_MAX_WINDOW;
    s->cache[at].valid = 1;
    s->cache[at].seq = seq;
    s->cache[at].len = w;
    memcpy(s->cache[at].wire, s->wire, w);
  }
  emit(s, cmd, seq, s->wire, w);
}

static void respond_error(struct state *s, uint8_t cmd, uint16_t seq,
                          uint8_t status, uint32_t detail, uint32_t crc,
                          int cache)
{
  simty_put_u32(s->out + SIMTY_HDR_SIZE, detail);
  respond(s, cmd, seq, status, SIMTY_ERROR_PAYLOAD, crc, cache);
}

/* Range rule of WRITE/READ: PROTECTED, then OUT_OF_RANGE. */
static int check_range(struct state *s, uint32_t addr, uint32_t n)
{
  uint64_t end = (uint64_t)addr + n;
  if (addr < SIMTY_FW_WINDOW || end > SIMTY_MMIO_BASE)
    return SIMTY_ST_PROTECTED;
  struct simty_model_config c;
  simty_model_get_config(s->d->model, &c);
  if ((addr >= SIMTY_CODE_BASE && end <= SIMTY_CODE_BASE + c.code_size) ||
      (addr >= SIMTY_DATA_BASE && end <= (uint64_t)SIMTY_DATA_BASE + c.data_size))
    return SIMTY_ST_OK;
  return SIMTY_ST_OUT_OF_RANGE;
}

static uint8_t state_of(struct state *s)
{
  if (!s->launched)
    return SIMTY_STATE_IDLE;
  switch (simty_model_status(s->d->model)) {
  case SIMTY_MODEL_RUNNING:
    return SIMTY_STATE_RUNNING;
  case SIMTY_MODEL_DONE:
    return SIMTY_STATE_DONE;
  case SIMTY_MODEL_FAULTED:
    return SIMTY_STATE_FAULT;
  default:
    return SIMTY_STATE_IDLE;
  }
}

/* Appends a console section at p (room bytes at most); returns its size. */
static size_t console_section(struct state *s, uint8_t *p, size_t room,
                              uint32_t max)
{
  uint32_t fit = (uint32_t)((room - SIMTY_CS_HEADER) / SIMTY_CS_RECORD_SIZE);
  uint32_t n = s->con_count < fit ? s->con_count : fit;
  if (max && n > max)
    n = max;
  for (uint32_t i = 0; i < n; i++) {
    uint8_t *r = p + SIMTY_CS_RECORDS + i * SIMTY_CS_RECORD_SIZE;
    simty_put_u32(r, s->con_tid[s->con_head]);
    r[4] = s->con_byte[s->con_head];
    s->con_head = (s->con_head + 1) % CONSOLE_CAP;
    s->con_count--;
  }
  simty_put_u32(p + SIMTY_CS_PENDING, s->con_count);
  simty_put_u16(p + SIMTY_CS_COUNT, (uint16_t)n);
  simty_put_u16(p + 6, 0);
  return SIMTY_CS_HEADER + n * SIMTY_CS_RECORD_SIZE;
}

static uint16_t status_record(struct state *s, uint8_t *p, uint32_t flags,
                              size_t room)
{
  memset(p, 0, SIMTY_SR_SIZE);
  uint8_t st = state_of(s);
  p[SIMTY_SR_STATE] = st;
  simty_put_u32(p + SIMTY_SR_LAUNCH_ID, s->launch_id);
  simty_put_u32(p + SIMTY_SR_NTHREADS, s->nthreads);
  uint64_t ctr[SIMTY_CTR_COUNT];
  simty_model_counters(s->d->model, ctr);
  if (st == SIMTY_STATE_FAULT) {
    struct simty_model_fault f;
    simty_model_get_fault(s->d->model, &f);
    p[SIMTY_SR_CAUSE] = (uint8_t)f.cause;
    simty_put_u32(p + SIMTY_SR_FAULT_OP, s->launch_op);
    simty_put_u32(p + SIMTY_SR_FAULT_PC, f.pc);
    simty_put_u32(p + SIMTY_SR_FAULT_HART, f.hart);
    simty_put_u32(p + SIMTY_SR_FAULT_TID, f.tid);
    simty_put_u32(p + SIMTY_SR_FAULT_ADDR, f.addr);
  }
  simty_put_u64(p + SIMTY_SR_ELAPSED, ctr[SIMTY_CTR_cycles]);
  simty_put_u32(p + SIMTY_SR_OPS_ACCEPTED, s->ops);
  simty_put_u32(p + SIMTY_SR_OPS_DONE,
                st == SIMTY_STATE_RUNNING ? s->ops - 1u : s->ops);
  size_t n = SIMTY_SR_SIZE;
  if (flags & SIMTY_WANT_COUNTERS) {
    for (unsigned i = 0; i < SIMTY_CTR_COUNT; i++)
      simty_put_u64(p + n + 8 * i, ctr[i]);
    n += 8u * SIMTY_CTR_COUNT;
  }
  if (flags & SIMTY_WANT_CONSOLE)
    n += console_section(s, p + n, room - n, 0);
  simty_put_u32(p + SIMTY_SR_CONSOLE_PENDING, s->con_count);
  return (uint16_t)n;
}

static void execute(struct state *s, const uint8_t *f, size_t flen)
{
  struct fake_device *d = s->d;
  uint8_t cmd = simty_frame_command(f);
  uint16_t seq = simty_frame_seq(f);
  uint16_t len = simty_frame_length(f);
  uint32_t crc = simty_get_u32(f + flen - SIMTY_CRC_SIZE);
  const uint8_t *p = simty_frame_payload(f);
  uint8_t *out = s->out + SIMTY_HDR_SIZE;
  uint16_t maxp = d->max_payload ? d->max_payload : SIMTY_MAX_PAYLOAD;
  d->requests++;
  if (d->nlog < FAKE_LOG) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    d->log_seq[d->nlog] = seq;
    d->log_ns[d->nlog++] = (uint64_t)ts.tv_sec * 1000000000u +
                           (uint64_t)ts.tv_nsec;
  }
  if (len > d->max_frame)
    d->max_frame = len;
  if (d->close_after > 0 && --d->close_after == 0) {
    s->closed = 1;
    return;
  }
  uint8_t version = d->proto_version ? d->proto_version : SIMTY_PROTO_VERSION;
  if (f[SIMTY_HDR_VERSION] != version) {
    respond_error(s, cmd, seq, SIMTY_ST_BAD_VERSION, version, crc, 0);
    return;
  }
  if (take_drop(d, &d->drop_requests, cmd) || chance(s, &d->drop_permille)) {
    d->dropped++; /* lost on the wire */
    return;
  }
  if (take(d, &d->hint_bad_crc) || chance(s, &d->nak_permille)) {
    respond_error(s, cmd, seq, SIMTY_ST_BAD_CRC, (uint32_t)flen, crc, 0);
    return;
  }
  uint16_t window = d->window ? d->window : 4;
  if (cmd == SIMTY_CMD_INFO) {
    /* Always executed; resets the window. */
    s->synced = 1;
    s->expect = (uint16_t)(seq + 1);
    for (unsigned i = 0; i < SIMTY_MAX_WINDOW; i++)
      s->cache[i].valid = 0;
  } else {
    if (!s->synced) {
      s->synced = 1;
      s->expect = seq;
    }
    uint16_t behind = (uint16_t)(s->expect - seq);
    if (behind >= 1 && behind <= window) {
      /* A retransmission of an executed request: its cached answer. */
      unsigned at = seq % SIMTY_MAX_WINDOW;
      if (s->cache[at].valid && s->cache[at].seq == seq) {
        d->duplicates++;
        emit(s, cmd, seq, s->cache[at].wire, s->cache[at].len);
        return;
      }
    }
    if (seq != s->expect) {
      d->sequence_answers++;
      respond_error(s, cmd, seq, SIMTY_ST_SEQUENCE, s->expect, crc, 0);
      return;
    }
    s->expect++;
  }
  if (cmd < 16)
    d->executed[cmd]++;
  if (s->launched && d->run_between &&
      state_of(s) == SIMTY_STATE_RUNNING &&
      (!d->run_between_ms || now_ms() - s->launch_ms < d->run_between_ms))
    simty_model_run(d->model, d->run_between);
  uint8_t running = state_of(s) == SIMTY_STATE_RUNNING;
  switch (cmd) {
  case SIMTY_CMD_INFO: {
    struct simty_model_config c;
    simty_model_get_config(d->model, &c);
    memset(out, 0, SIMTY_INFO_SIZE);
    out[SIMTY_INFO_PROTO_VERSION] = d->info_version ? d->info_version
                                     : d->proto_version ? d->proto_version
                                                        : SIMTY_PROTO_VERSION;
    out[SIMTY_INFO_COUNTER_COUNT] = SIMTY_CTR_COUNT;
    simty_put_u16(out + SIMTY_INFO_MAX_PAYLOAD, maxp);
    simty_put_u16(out + SIMTY_INFO_WARPS, (uint16_t)c.warps);
    simty_put_u16(out + SIMTY_INFO_LANES, (uint16_t)c.lanes);
    simty_put_u32(out + SIMTY_INFO_CODE_BASE, SIMTY_CODE_BASE);
    simty_put_u32(out + SIMTY_INFO_CODE_SIZE, c.code_size);
    simty_put_u32(out + SIMTY_INFO_DATA_BASE, SIMTY_DATA_BASE);
    simty_put_u32(out + SIMTY_INFO_DATA_SIZE, c.data_size);
    simty_put_u32(out + SIMTY_INFO_CLOCK_HZ, 12000000);
    simty_put_u32(out + SIMTY_INFO_FW_VERSION, 0x000200);
    simty_put_u32(out + SIMTY_INFO_BAUD, d->baud ? d->baud : 3000000u);
    simty_put_u16(out + SIMTY_INFO_WINDOW, window);
    simty_put_u16(out + SIMTY_INFO_LINK_FLAGS, 0);
    simty_put_u32(out + SIMTY_INFO_HW_VERSION, 0x000200);
    simty_put_u32(out + SIMTY_INFO_HW_BUILD, 0x5eed);
    simty_put_u16(out + SIMTY_INFO_EXTENSIONS,
                  (uint16_t)(d->extensions |
                             (d->xbar ? SIMTY_INFO_EXT_XBAR_ROTATE : 0u)));
    respond(s, cmd, seq, SIMTY_ST_OK, SIMTY_INFO_SIZE, crc, 1);
    return;
  }
  case SIMTY_CMD_WRITE:
  case SIMTY_CMD_READ: {
    int w = cmd == SIMTY_CMD_WRITE;
    if (w ? (len <= SIMTY_WRITE_DATA) : (len != SIMTY_READ_SIZE)) {
      respond_error(s, cmd, seq, SIMTY_ST_BAD_LENGTH, SIMTY_READ_SIZE, crc, 1);
      return;
    }
    uint32_t addr = simty_get_u32(p);
    uint32_t n = w ? (uint32_t)(len - SIMTY_WRITE_DATA) : simty_get_u32(p + 4);
    if (!w && (n == 0 || n > maxp)) {
      respond_error(s, cmd, seq, SIMTY_ST_BAD_LENGTH, maxp, crc, 1);
      return;
    }
    int st = check_range(s, addr, n);
    if (st == SIMTY_ST_OK && running)
      st = SIMTY_ST_BUSY;
    if (st != SIMTY_ST_OK) {
      respond_error(s, cmd, seq, (uint8_t)st, addr, crc, 1);
      return;
    }
    if (w) {
      s->ops++;
      if (n < (uint32_t)maxp - SIMTY_WRITE_DATA)
        d->short_writes++;
      simty_model_write(d->model, addr, p + SIMTY_WRITE_DATA, n);
      uint32_t stuck = d->stuck_addr & ~3u;
      if (d->stuck_addr && stuck + 4 > addr && stuck < addr + n) {
        uint8_t word[4];
        simty_model_read(d->model, stuck, word, 4);
        for (int k = 0; k < 4; k++)
          word[k] &= (uint8_t)~(d->stuck_mask >> (8 * k));
        simty_model_write(d->model, stuck, word, 4);
      }
    }
    else
      simty_model_read(d->model, addr, out, n);
    respond(s, cmd, seq, SIMTY_ST_OK, w ? 0 : (uint16_t)n, crc, 1);
    return;
  }
  case SIMTY_CMD_LAUNCH: {
    if (len != SIMTY_LAUNCH_SIZE) {
      respond_error(s, cmd, seq, SIMTY_ST_BAD_LENGTH, SIMTY_LAUNCH_SIZE, crc,
                    1);
      return;
    }
    if (running) {
      respond_error(s, cmd, seq, SIMTY_ST_BUSY, 0, crc, 1);
      return;
    }
    struct simty_model_launch_params lp = {
        .entry = simty_get_u32(p + SIMTY_LAUNCH_ENTRY),
        .nthreads = simty_get_u32(p + SIMTY_LAUNCH_NTHREADS),
        .args = simty_get_u32(p + SIMTY_LAUNCH_ARGS),
        .data_end = simty_get_u32(p + SIMTY_LAUNCH_DATA_END),
        .max_cycles = simty_get_u64(p + SIMTY_LAUNCH_TIMEOUT),
        .stack_log2 = p[SIMTY_LAUNCH_STACK_LOG2],
    };
    int e = simty_model_launch(d->model, &lp);
    if (e) {
      respond_error(s, cmd, seq,
                    e == SIMTY_MODEL_STACK_OVERLAP ? SIMTY_ST_STACK_OVERLAP
                                                   : SIMTY_ST_BAD_ARGUMENT,
                    0, crc, 1);
      return;
    }
    s->launched = 1;
    s->launch_ms = now_ms();
    s->launch_id++;
    s->nthreads = lp.nthreads;
    s->con_count = 0;
    s->ops++;
    s->launch_op = s->ops;
    simty_put_u32(out + SIMTY_LAUNCHED_ID, s->launch_id);
    simty_put_u32(out + SIMTY_LAUNCHED_STACK_TOP, 0);
    simty_put_u32(out + SIMTY_LAUNCHED_OP, s->ops);
    simty_put_u32(out + SIMTY_LAUNCHED_QUEUED, 0);
    respond(s, cmd, seq, SIMTY_ST_OK, SIMTY_LAUNCHED_SIZE, crc, 1);
    s->muted = 1;
    return;
  }
  case SIMTY_CMD_STATUS:
  case SIMTY_CMD_WAIT: {
    uint32_t ms = cmd == SIMTY_CMD_WAIT ? simty_get_u32(p + SIMTY_WAIT_MS) : 0;
    uint32_t flags = simty_get_u32(p + (cmd == SIMTY_CMD_WAIT ? 4 : 0));
    uint64_t until = now_ms() + ms;
    while (state_of(s) == SIMTY_STATE_RUNNING &&
           s->con_count < CONSOLE_CAP / 2) {
      simty_model_run(d->model, 20000);
      if (now_ms() >= until)
        break;
    }
    respond(s, cmd, seq, SIMTY_ST_OK, status_record(s, out, flags, maxp), crc,
            1);
    return;
  }
  case SIMTY_CMD_ABORT:
    if (!running) {
      respond_error(s, cmd, seq, SIMTY_ST_NO_LAUNCH, state_of(s), crc, 1);
      return;
    }
    simty_model_abort(d->model);
    respond(s, cmd, seq, SIMTY_ST_OK, status_record(s, out, 0, maxp), crc, 1);
    return;
  case SIMTY_CMD_COUNTERS: {
    uint64_t ctr[SIMTY_CTR_COUNT];
    simty_model_counters(d->model, ctr);
    out[0] = 0;
    out[1] = SIMTY_CTR_COUNT;
    simty_put_u16(out + 2, 0);
    for (unsigned i = 0; i < SIMTY_CTR_COUNT; i++)
      simty_put_u64(out + 4 + 8 * i, ctr[i]);
    respond(s, cmd, seq, SIMTY_ST_OK, 4 + 8 * SIMTY_CTR_COUNT, crc, 1);
    return;
  }
  case SIMTY_CMD_CONSOLE:
    respond(s, cmd, seq, SIMTY_ST_OK,
            (uint16_t)console_section(s, out, maxp, simty_get_u32(p)), crc, 1);
    return;
  default:
    respond_error(s, cmd, seq, SIMTY_ST_UNKNOWN_COMMAND, cmd, crc, 1);
    return;
  }
}

static void *serve(void *arg)
{
  struct fake_device *d = arg;
  struct state *s = calloc(1, sizeof(*s));
  if (!s)
    return NULL;
  s->d = d;
  s->rng = d->seed ? d->seed : 12345u;
  simty_model_set_console(d->model, console_byte, s);
  if (d->fd < 0) {
    struct pollfd pfd = {d->listen_fd, POLLIN, 0};
    while (d->running && poll(&pfd, 1, 50) == 0)
      ;
    if (d->running)
      d->fd = accept(d->listen_fd, NULL, NULL);
  }
  simty_link_decoder_init(&s->dec, s->rx, sizeof(s->rx));
  uint8_t buf[4096];
  while (d->running && !s->closed && d->fd >= 0) {
    struct pollfd pfd = {d->fd, POLLIN, 0};
    if (poll(&pfd, 1, 50) <= 0)
      continue;
    ssize_t n = recv(d->fd, buf, sizeof(buf), 0);
    if (n <= 0)
      break;
    for (ssize_t i = 0; i < n && !s->closed; i++) {
      enum simty_link_event ev = simty_link_decoder_feed(&s->dec, buf[i]);
      if (ev == SIMTY_LINK_FRAME) {
        execute(s, s->dec.buf, s->dec.len);
      } else if ((ev == SIMTY_LINK_BAD_CRC || ev == SIMTY_LINK_BAD_LENGTH) &&
                 s->dec.len >= SIMTY_HDR_SIZE) {
        respond_error(s, simty_frame_command(s->dec.buf),
                      simty_frame_seq(s->dec.buf),
                      ev == SIMTY_LINK_BAD_CRC ? SIMTY_ST_BAD_CRC
                                               : SIMTY_ST_BAD_LENGTH,
                      (uint32_t)s->dec.len, 0, 0);
      }
    }
  }
  if (d->fd >= 0) {
    shutdown(d->fd, SHUT_RDWR);
    close(d->fd);
    d->fd = -1;
  }
  simty_model_set_console(d->model, NULL, NULL);
  free(s);
  return NULL;
}

static int start(struct fake_device *d)
{
  struct simty_model_config c = {d->warps ? d->warps : 4,
                                 d->lanes ? d->lanes : 4, 0, 0, d->xbar};
  if (simty_model_create(&c, &d->model))
    return -1;
  pthread_mutex_init(&d->lock, NULL);
  d->running = 1;
  return pthread_create(&d->thread, NULL, serve, d) ? -1 : 0;
}

int fake_device_start_fd(struct fake_device *d, int *host_fd)
{
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
    return -1;
  d->fd = sv[1];
  d->listen_fd = -1;
  *host_fd = sv[0];
  return start(d);
}

int fake_device_start_tcp(struct fake_device *d)
{
  d->fd = -1;
  d->listen_fd = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in a;
  memset(&a, 0, sizeof(a));
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t alen = sizeof(a);
  if (d->listen_fd < 0 || bind(d->listen_fd, (struct sockaddr *)&a, alen) ||
      listen(d->listen_fd, 1) ||
      getsockname(d->listen_fd, (struct sockaddr *)&a, &alen))
    return -1;
  d->port = ntohs(a.sin_port);
  return start(d);
}

void fake_device_stop(struct fake_device *d)
{
  d->running = 0;
  pthread_join(d->thread, NULL);
  if (d->listen_fd >= 0)
    close(d->listen_fd);
  simty_model_destroy(d->model);
  pthread_mutex_destroy(&d->lock);
}

int fake_device_run_fd(struct fake_device *d, int fd)
{
  struct simty_model_config c = {d->warps ? d->warps : 4,
                                 d->lanes ? d->lanes : 4, 0, 0, d->xbar};
  if (simty_model_create(&c, &d->model))
    return -1;
  pthread_mutex_init(&d->lock, NULL);
  d->fd = fd;
  d->listen_fd = -1;
  d->running = 1;
  serve(d);
  simty_model_destroy(d->model);
  pthread_mutex_destroy(&d->lock);
  return 0;
}
