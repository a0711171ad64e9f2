/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fw_engine.c - the protocol engine of docs/protocol.md (version 3) on the
 * hardware link engine (docs/soc.md): takes the frames the engine holds
 * in its RX slots, executes requests strictly in seq order, answers each
 * from a TX slot (which keeps the answer as the cache of the window), a
 * retransmission from that cache, a corrupt or out-of-order frame with an
 * error, and parks WAIT until its launch ends, all without waiting on the
 * link. The engine does COBS, CRC-32 and the copies between the link
 * buffer and CODE/DATA; no payload byte of a WRITE or READ passes through
 * the controller, except the data of a WRITE queued behind a launch,
 * which waits in the firmware's stage. The work queue runs WRITEs and
 * LAUNCHes accepted while the device is busy in order, each launch as
 * soon as the one before it ends.
 */
#include "fw.h"

#include "fw_string.h"
#include "hal.h"
#include "simty_mmio.h"

_Static_assert((FW_CONSOLE_RECORDS & (FW_CONSOLE_RECORDS - 1u)) == 0,
               "FW_CONSOLE_RECORDS must be a power of two");
_Static_assert(SIMTY_SR_SIZE + SIMTY_CTR_COUNT * 8u + SIMTY_CS_HEADER +
                       SIMTY_CS_RECORD_SIZE <=
                   SIMTY_MIN_PAYLOAD,
               "a full WAIT response must fit the smallest payload");
_Static_assert(SIMTY_SR_SIZE + SIMTY_CTR_COUNT * 8u + SIMTY_CS_HEADER <=
                   FW_SCRATCH_BYTES,
               "a status record with counters must fit the scratch");
_Static_assert(SIMTY_INFO_SIZE <= FW_SCRATCH_BYTES &&
                   SIMTY_COUNTERS_VALUES + 8u * SIMTY_CTR_COUNT <=
                       FW_SCRATCH_BYTES,
               "INFO and COUNTERS answers must fit the scratch");
_Static_assert(FW_CONSOLE_CHUNK % 4u == 0 &&
                   (SIMTY_SR_SIZE + SIMTY_CTR_COUNT * 8u) % 4u == 0,
               "console records must start word-aligned in the TX slot");

void fw_init(struct fw *fw)
{
  memset(fw, 0, sizeof *fw);
  fw_dispatch_init(fw);
  uint32_t info = hal_reg_read(SIMTY_MMIO_LINK_INFO);
  fw->rx_slots = info & 0xFFu;
  fw->tx_slots = (info >> 8) & 0xFFu;
  if (fw->tx_slots > 16u) /* LINK_TX_SEND names a slot in 4 bits */
    fw->tx_slots = 16u;
  fw->stride = info >> 16;
  if (fw->stride == 0)
    fw->stride = SIMTY_LINK_SLOT_BYTES;
  /* A SoC without the engine reports no TX slot: nothing can be
   * answered, and link_poll() leaves the link alone. */
  fw->window = fw->tx_slots < FW_MAX_WINDOW ? fw->tx_slots : FW_MAX_WINDOW;
  fw->baud = hal_reg_read(SIMTY_MMIO_LINK_BAUD);
  hal_reg_write(SIMTY_MMIO_LINK_CTRL, SIMTY_LINK_CTRL_ENABLE);
}

/* ---- Link buffer ---- */

static uint32_t rx_base(const struct fw *fw, uint32_t i)
{
  return SIMTY_LINKBUF_BASE + i * fw->stride;
}

static uint32_t tx_base(const struct fw *fw, uint32_t j)
{
  return SIMTY_LINKBUF_BASE + (fw->rx_slots + j) * fw->stride;
}

/* n bytes of scratch to the link buffer, a word at a time (addr aligned;
 * the last word may carry up to 3 bytes past n: the engine overwrites
 * them with the CRC, or they lie past the frame). */
static void put_scratch(const struct fw *fw, uint32_t addr, uint32_t n)
{
  for (uint32_t i = 0; i < (n + 3u) / 4u; i++)
    hal_link_write32(addr + 4u * i, fw->scratch.w[i]);
}

static void put_header(uint32_t base, uint8_t command, uint16_t seq,
                       uint8_t status, uint32_t length)
{
  hal_link_write32(base, SIMTY_PROTO_VERSION |
                             (uint32_t)(command | SIMTY_RESPONSE_FLAG) << 8 |
                             (uint32_t)seq << 16);
  hal_link_write32(base + 4u, length | (uint32_t)status << 16);
}

/* The copy engine moves n bytes; the firmware waits for it before handing
 * the slots it touched back to the link engine. Copies happen only while
 * no launch runs (WRITE and READ are BUSY then), so no warp waits. */
static void copy(uint32_t dst, uint32_t src, uint32_t n)
{
  hal_reg_write(SIMTY_MMIO_COPY_SRC, src);
  hal_reg_write(SIMTY_MMIO_COPY_DST, dst);
  hal_reg_write(SIMTY_MMIO_COPY_LEN, n);
  hal_reg_write(SIMTY_MMIO_COPY_GO, 1u);
  while (hal_reg_read(SIMTY_MMIO_COPY_GO) & 1u)
    ;
}

static bool tx_free(uint32_t busy, uint32_t j)
{
  return (busy & (1u << j)) == 0;
}

static void send(uint32_t *busy, uint32_t j, uint32_t len)
{
  hal_reg_write(SIMTY_MMIO_LINK_TX_SEND,
                j | len << SIMTY_LINK_TX_LEN_SHIFT);
  *busy |= 1u << j;
}

/* ---- Uncached answers from the nak slot ---- */

static uint32_t nak_slot(const struct fw *fw)
{
  return fw->tx_slots - 1u;
}

/* A new response is about to be written into slot j: whatever a nak
 * borrowed there is gone for good. */
static void claim(struct fw *fw, uint32_t j)
{
  if (j == nak_slot(fw)) {
    fw->nak_borrowed = false;
    fw->nak_saved_valid = false;
  }
}

/* Slot j's cached response is about to be sent again: put back the head
 * a nak borrowed. */
static void restore(struct fw *fw, uint32_t j)
{
  if (j != nak_slot(fw) || !fw->nak_borrowed)
    return;
  if (fw->nak_saved_valid) {
    uint32_t base = tx_base(fw, j);
    for (uint32_t i = 0; i < 4u; i++)
      hal_link_write32(base + 4u * i, fw->nak_saved[i]);
  }
  fw->nak_borrowed = false;
  fw->nak_saved_valid = false;
}

/* An answer that is not cached: corrupt frames (unverified header),
 * foreign versions, out-of-order seqs. False if the slot is still busy
 * (the frame stays held and is tried again). */
static bool nak(struct fw *fw, uint32_t *busy, uint8_t command, uint16_t seq,
                uint8_t status, uint32_t detail)
{
  uint32_t j = nak_slot(fw);
  if (!tx_free(*busy, j))
    return false;
  uint32_t base = tx_base(fw, j);
  if (!fw->nak_borrowed) {
    if (j < fw->window && fw->slot[j].state == FW_SLOT_CACHED) {
      for (uint32_t i = 0; i < 4u; i++)
        fw->nak_saved[i] = hal_link_read32(base + 4u * i);
      fw->nak_saved_valid = true;
    }
    fw->nak_borrowed = true;
  }
  put_header(base, command, seq, status, SIMTY_ERROR_PAYLOAD);
  hal_link_write32(base + SIMTY_HDR_SIZE, detail);
  send(busy, j, SIMTY_HDR_SIZE + SIMTY_ERROR_PAYLOAD);
  if (status == SIMTY_ST_SEQUENCE)
    fw->sequence++;
  else
    fw->naks++;
  return true;
}

/* ---- The work queue ---- */

static bool queue_busy(const struct fw *fw)
{
  return fw->launch.state == SIMTY_STATE_RUNNING || fw->queue.count != 0;
}

/* Counter i of the sequence: the earlier launches' sum (cct_peak: their
 * maximum) plus the running or last launch's. */
static uint64_t seq_counter(const struct fw *fw, uint32_t i)
{
  uint64_t v = fw_counter(i);
  uint64_t a = fw->queue.acc[i];
  if (i == SIMTY_CTR_cct_peak)
    return v > a ? v : a;
  return v + a;
}

static uint32_t stage_words(uint32_t n)
{
  return (n + 3u) / 4u;
}

/* First stage word of a k-word block, or -1 when the stage has no room. */
static int32_t stage_alloc(const struct fw_queue *q, uint32_t k)
{
  const uint32_t size = FW_STAGE_BYTES / 4u;
  if (k == 0 || k > size)
    return -1;
  if (q->staged == 0)
    return 0;
  uint32_t h = q->stage_head, t = q->stage_tail;
  if (t > h) {
    if (k <= size - t)
      return (int32_t)t;
    return k <= h ? 0 : -1;
  }
  if (t < h)
    return k <= h - t ? (int32_t)t : -1;
  return -1; /* t == h with data staged: full */
}

/* Empties the queue: the operations left never run. */
static void queue_cancel(struct fw *fw)
{
  struct fw_queue *q = &fw->queue;
  q->cancelled = q->count;
  q->count = 0;
  q->head = 0;
  q->staged = 0;
  q->stage_head = q->stage_tail = 0;
}

/* The sequence ends with the launch that faulted (or was aborted or timed
 * out): the rest of the queue is cancelled. */
static void queue_fault(struct fw *fw, uint32_t op)
{
  fw->queue.fault_op = op;
  fw->queue.running_op = 0;
  fw->queue.failed = true;
  queue_cancel(fw);
}

/* The controller's stores: the stage's bytes to memory. */
static void mem_put(uint32_t addr, const uint8_t *src, uint32_t n)
{
  uint32_t i = 0;
  while (i < n && ((addr + i) & 3u) != 0)
    hal_mem_write8(addr + i, src[i]), i++;
  if (((uintptr_t)(src + i) & 3u) == 0)
    for (; i + 4u <= n; i += 4u)
      hal_mem_write32(addr + i, *(const uint32_t *)(const void *)(src + i));
  for (; i < n; i++)
    hal_mem_write8(addr + i, src[i]);
}

/* Runs the queue: notices the end of its running launch, then runs
 * WRITEs and starts the next launch when nothing runs. Cheap when there
 * is nothing to do. */
static void queue_step(struct fw *fw)
{
  struct fw_queue *q = &fw->queue;
  if (fw->launch.state == SIMTY_STATE_RUNNING)
    return;
  if (q->running_op) {
    if (fw->launch.state == SIMTY_STATE_DONE) {
      q->done = q->running_op;
      q->running_op = 0;
    } else {
      queue_fault(fw, q->running_op);
      return;
    }
  }
  while (q->count) {
    struct fw_op *o = &q->op[q->head];
    if (o->kind == FW_OP_WRITE) {
      mem_put(o->addr, (const uint8_t *)(q->stage + o->at), o->len);
      q->stage_head = o->at + stage_words(o->len);
      if (--q->staged == 0)
        q->stage_head = q->stage_tail = 0;
    } else {
      bool keep = (o->flags & SIMTY_LAUNCH_F_CONTINUE) != 0;
      if (keep) {
        /* The console keeps its records across the start: the core's FIFO
         * (which a core reset empties) must have been taken first. */
        fw_console_poll(fw);
        if ((hal_reg_read(SIMTY_MMIO_CONSOLE_STATUS) & 0xFFFFu) != 0)
          return; /* the host drains the console first */
        for (uint32_t i = 0; i < SIMTY_CTR_COUNT; i++)
          q->acc[i] = seq_counter(fw, i);
      } else {
        memset(q->acc, 0, sizeof q->acc);
      }
      uint32_t head = fw->console.head, count = fw->console.count;
      uint32_t detail = 0;
      int st = fw_launch_start(fw, o->addr, o->len, o->at, o->data_end,
                               o->timeout, o->stack_log2, &detail);
      if (keep) {
        fw->console.head = head;
        fw->console.count = count;
      }
      uint32_t number = o->number;
      q->head = q->head + 1u == FW_QUEUE_DEPTH ? 0 : q->head + 1u;
      q->count--;
      if (st != SIMTY_ST_OK) {
        /* Checked when queued: only a core that does not reset gets
         * here. */
        queue_fault(fw, number);
        return;
      }
      q->running_op = number;
      return;
    }
    q->done = o->number;
    q->head = q->head + 1u == FW_QUEUE_DEPTH ? 0 : q->head + 1u;
    q->count--;
  }
}

static struct fw_op *queue_push(struct fw *fw)
{
  struct fw_queue *q = &fw->queue;
  uint32_t i = q->head + q->count;
  if (i >= FW_QUEUE_DEPTH)
    i -= FW_QUEUE_DEPTH;
  q->count++;
  struct fw_op *o = &q->op[i];
  memset(o, 0, sizeof *o);
  o->number = ++q->accepted;
  return o;
}

/* LAUNCH's checks (docs/protocol.md), made when it is accepted so that a
 * queued launch is refused at once, not when its turn comes. */
static int check_launch(const struct fw *fw, uint32_t entry, uint32_t nthreads,
                        uint32_t data_end, uint32_t stack_log2, uint32_t flags,
                        uint32_t *detail)
{
  int st = fw_launch_check(fw, entry, nthreads, data_end, stack_log2, detail);
  if (st == SIMTY_ST_OK && (flags & ~SIMTY_LAUNCH_F_MASK) != 0) {
    *detail = SIMTY_LAUNCH_FLAGS;
    st = SIMTY_ST_BAD_ARGUMENT;
  }
  return st;
}

/* ---- Responses ---- */

/* A request being executed: where it is and where its answer goes. */
struct req {
  uint32_t rx;  /* RX slot address */
  uint32_t tx;  /* TX slot address */
  uint32_t j;   /* TX slot index = window position */
  uint16_t seq;
  uint16_t len; /* request payload bytes */
  uint8_t cmd;
  union {
    uint32_t w[SIMTY_LAUNCH_SIZE / 4u];
    uint8_t b[SIMTY_LAUNCH_SIZE];
  } p; /* the first bytes of the request payload */
};

/* The response (payload already in the slot) becomes slot j's cached
 * answer and is queued. */
static void reply(struct fw *fw, uint32_t *busy, const struct req *r,
                  uint8_t status, uint32_t length)
{
  put_header(r->tx, r->cmd, r->seq, status, length);
  struct fw_slot *s = &fw->slot[r->j];
  s->seq = r->seq;
  s->command = r->cmd;
  s->state = FW_SLOT_CACHED;
  s->len = (uint16_t)(SIMTY_HDR_SIZE + length);
  send(busy, r->j, s->len);
}

static void reply_error(struct fw *fw, uint32_t *busy, const struct req *r,
                        uint8_t status, uint32_t detail)
{
  hal_link_write32(r->tx + SIMTY_HDR_SIZE, detail);
  reply(fw, busy, r, status, SIMTY_ERROR_PAYLOAD);
}

/* Up to `room` console records as a console section at addr, written in
 * chunks with a refill check between them; returns the section's size. */
static uint32_t put_console(struct fw *fw, uint32_t addr, uint32_t room)
{
  uint32_t count = 0;
  while (count < room) {
    uint32_t k = room - count < FW_CONSOLE_CHUNK ? room - count
                                                 : FW_CONSOLE_CHUNK;
    uint32_t got = fw_console_take(fw, fw->scratch.b, k);
    put_scratch(fw, addr + SIMTY_CS_RECORDS + SIMTY_CS_RECORD_SIZE * count,
                got * SIMTY_CS_RECORD_SIZE);
    count += got;
    if (got < k)
      break;
    fw_dispatch_refill(fw);
  }
  hal_link_write32(addr + SIMTY_CS_PENDING, fw_console_pending(fw));
  hal_link_write32(addr + SIMTY_CS_COUNT, count);
  return SIMTY_CS_HEADER + count * SIMTY_CS_RECORD_SIZE;
}

/* Status record plus the sections `flags` asks for, at addr; returns its
 * size. */
static uint32_t put_status(struct fw *fw, uint32_t addr, uint32_t flags)
{
  const struct fw_launch *l = &fw->launch;
  queue_step(fw); /* a launch that just ended is accounted for */
  uint8_t *out = fw->scratch.b;
  fw_console_poll(fw);
  memset(out, 0, SIMTY_SR_SIZE);
  out[SIMTY_SR_STATE] = l->state;
  out[SIMTY_SR_CAUSE] = l->cause;
  simty_put_u32(out + SIMTY_SR_LAUNCH_ID, l->id);
  simty_put_u32(out + SIMTY_SR_NTHREADS, l->nthreads);
  simty_put_u32(out + SIMTY_SR_DISPATCHED, l->next_base);
  simty_put_u32(out + SIMTY_SR_DONE, fw_launch_done(fw));
  if (l->state == SIMTY_STATE_FAULT) {
    simty_put_u32(out + SIMTY_SR_FAULT_PC, l->fault_pc);
    simty_put_u32(out + SIMTY_SR_FAULT_HART, l->fault_hart);
    simty_put_u32(out + SIMTY_SR_FAULT_TID, l->fault_tid);
    simty_put_u32(out + SIMTY_SR_FAULT_ADDR, l->fault_addr);
  }
  simty_put_u64(out + SIMTY_SR_ELAPSED, fw_launch_elapsed(fw));
  const struct fw_queue *q = &fw->queue;
  simty_put_u32(out + SIMTY_SR_OPS_ACCEPTED, q->accepted);
  simty_put_u32(out + SIMTY_SR_OPS_DONE, q->done);
  simty_put_u32(out + SIMTY_SR_FAULT_OP, q->fault_op);
  simty_put_u16(out + SIMTY_SR_QUEUED, (uint16_t)q->count);
  simty_put_u16(out + SIMTY_SR_CANCELLED, (uint16_t)q->cancelled);
  /* The host now knows: new work is taken again. */
  fw->queue.failed = false;
  uint32_t n = SIMTY_SR_SIZE;
  if (flags & SIMTY_WANT_COUNTERS) {
    for (uint32_t i = 0; i < SIMTY_CTR_COUNT; i++, n += 8u)
      simty_put_u64(out + n, seq_counter(fw, i));
  }
  put_scratch(fw, addr, n);
  if (flags & SIMTY_WANT_CONSOLE)
    n += put_console(fw, addr + n,
                     (FW_MAX_PAYLOAD - n - SIMTY_CS_HEADER) /
                         SIMTY_CS_RECORD_SIZE);
  /* Taken last so it counts what the console section left behind. */
  hal_link_write32(addr + SIMTY_SR_CONSOLE_PENDING, fw_console_pending(fw));
  return n;
}

/* Answers the parked WAIT; false while its slot is still busy. */
static bool answer_wait(struct fw *fw, uint32_t *busy)
{
  struct fw_slot *s = fw->slot;
  uint32_t j = 0;
  while (j + 1u < fw->window && s[j].state != FW_SLOT_PARKED)
    j++;
  if (!tx_free(*busy, j))
    return false;
  claim(fw, j);
  struct req r = {.tx = tx_base(fw, j),
                  .j = j,
                  .seq = fw->wait_seq,
                  .cmd = SIMTY_CMD_WAIT};
  fw->wait_parked = false;
  uint32_t n = put_status(fw, r.tx + SIMTY_HDR_SIZE, fw->wait_flags);
  reply(fw, busy, &r, SIMTY_ST_OK, n);
  return true;
}

static bool wait_due(struct fw *fw);

/* ---- Memory access checks ---- */

static bool overlaps(uint32_t addr, uint64_t end, uint32_t base, uint32_t size)
{
  return addr < (uint64_t)base + size && end > base;
}

/* OK if [addr, addr + n) lies inside populated CODE or DATA. */
static int check_range(const struct fw *fw, uint32_t addr, uint32_t n)
{
  uint64_t end = (uint64_t)addr + n;
  if (overlaps(addr, end, SIMTY_FW_BASE, SIMTY_FW_WINDOW) ||
      overlaps(addr, end, SIMTY_MMIO_BASE, SIMTY_MMIO_WINDOW))
    return SIMTY_ST_PROTECTED;
  if (addr >= SIMTY_CODE_BASE &&
      end <= (uint64_t)SIMTY_CODE_BASE + fw->core.code_size)
    return SIMTY_ST_OK;
  if (addr >= SIMTY_DATA_BASE &&
      end <= (uint64_t)SIMTY_DATA_BASE + fw->core.data_size)
    return SIMTY_ST_OK;
  return SIMTY_ST_OUT_OF_RANGE;
}

/* ---- Requests ---- */

/* Executes request r (in sequence, its TX slot free); the answer is
 * cached in slot r->j, or the slot is parked for a WAIT. */
static void execute(struct fw *fw, uint32_t *busy, struct req *r)
{
  const uint8_t *p = r->p.b;
  uint32_t pay = r->tx + SIMTY_HDR_SIZE;
  uint8_t *out = fw->scratch.b;
  uint16_t len = r->len;
  bool running = fw->launch.state == SIMTY_STATE_RUNNING;
  bool busy_q = queue_busy(fw);
  uint32_t detail = 0;
  int st;

  claim(fw, r->j);
  /* The payload words the command reads: a WRITE's address only, its
   * data goes from the RX slot to memory by the copy engine. */
  uint32_t nb = r->cmd == SIMTY_CMD_WRITE ? 4u : len;
  if (nb > sizeof r->p)
    nb = sizeof r->p;
  for (uint32_t i = 0; i < (nb + 3u) / 4u; i++)
    r->p.w[i] = hal_link_read32(r->rx + SIMTY_HDR_SIZE + 4u * i);
  fw->requests++;
  /* After a QUEUE_FULL, the WRITEs and LAUNCHes the host had pipelined
   * behind the refused one are refused too (so that none of them runs
   * before it); any other command ends that. */
  if (r->cmd != SIMTY_CMD_WRITE && r->cmd != SIMTY_CMD_LAUNCH)
    fw->queue.full = false;

#define EXPECT_LENGTH(ok, want)                                                \
  do {                                                                         \
    if (!(ok)) {                                                               \
      reply_error(fw, busy, r, SIMTY_ST_BAD_LENGTH, (want));                   \
      return;                                                                  \
    }                                                                          \
  } while (0)

  switch (r->cmd) {
  case SIMTY_CMD_INFO: {
    EXPECT_LENGTH(len == 0, 0);
    const struct fw_core *c = &fw->core;
    memset(out, 0, SIMTY_INFO_SIZE);
    out[SIMTY_INFO_PROTO_VERSION] = SIMTY_PROTO_VERSION;
    out[SIMTY_INFO_COUNTER_COUNT] = SIMTY_CTR_COUNT;
    simty_put_u16(out + SIMTY_INFO_MAX_PAYLOAD, FW_MAX_PAYLOAD);
    simty_put_u16(out + SIMTY_INFO_WARPS, (uint16_t)c->warps);
    simty_put_u16(out + SIMTY_INFO_LANES, (uint16_t)c->lanes);
    simty_put_u32(out + SIMTY_INFO_CODE_BASE, SIMTY_CODE_BASE);
    simty_put_u32(out + SIMTY_INFO_CODE_SIZE, c->code_size);
    simty_put_u32(out + SIMTY_INFO_DATA_BASE, SIMTY_DATA_BASE);
    simty_put_u32(out + SIMTY_INFO_DATA_SIZE, c->data_size);
    simty_put_u32(out + SIMTY_INFO_CLOCK_HZ, c->clock_hz);
    simty_put_u32(out + SIMTY_INFO_FW_VERSION, FW_VERSION);
    simty_put_u32(out + SIMTY_INFO_BAUD, fw->baud);
    simty_put_u16(out + SIMTY_INFO_WINDOW, (uint16_t)fw->window);
    simty_put_u16(out + SIMTY_INFO_LINK_FLAGS, SIMTY_LINK_FLAG_ENGINE);
    simty_put_u32(out + SIMTY_INFO_HW_VERSION,
                  hal_reg_read(SIMTY_MMIO_HW_VERSION));
    simty_put_u32(out + SIMTY_INFO_HW_BUILD, hal_reg_read(SIMTY_MMIO_HW_BUILD));
    simty_put_u16(out + SIMTY_INFO_QUEUE_DEPTH, FW_QUEUE_DEPTH);
    simty_put_u16(out + SIMTY_INFO_EXTENSIONS,
                  (uint16_t)hal_reg_read(SIMTY_MMIO_EXTENSIONS));
    simty_put_u32(out + SIMTY_INFO_STAGE_BYTES, FW_STAGE_BYTES);
    put_scratch(fw, pay, SIMTY_INFO_SIZE);
    reply(fw, busy, r, SIMTY_ST_OK, SIMTY_INFO_SIZE);
    return;
  }
  case SIMTY_CMD_WRITE: {
    EXPECT_LENGTH(len > SIMTY_WRITE_DATA,
                  SIMTY_WRITE_DATA + 1u); /* data bytes: at least 1 */
    EXPECT_LENGTH(len <= FW_MAX_PAYLOAD, FW_MAX_PAYLOAD);
    uint32_t addr = simty_get_u32(p + SIMTY_WRITE_ADDR);
    uint32_t n = len - SIMTY_WRITE_DATA;
    st = check_range(fw, addr, n);
    if (st != SIMTY_ST_OK || fw->queue.failed) {
      /* A fault ended the queue behind which the host sent this: until a
       * status record has told it so, its later work is refused. */
      reply_error(fw, busy, r, st ? (uint8_t)st : SIMTY_ST_CANCELLED,
                  st ? addr : fw->queue.fault_op);
      return;
    }
    if (!busy_q && !fw->queue.full) {
      copy(addr, r->rx + SIMTY_HDR_SIZE + SIMTY_WRITE_DATA, n);
      fw->queue.done = ++fw->queue.accepted;
      reply(fw, busy, r, SIMTY_ST_OK, 0);
      return;
    }
    /* Behind a launch: the data waits in the stage until its turn. */
    struct fw_queue *q = &fw->queue;
    int32_t at = stage_alloc(q, stage_words(n));
    if (q->count == FW_QUEUE_DEPTH || at < 0 || q->full) {
      q->full = true;
      reply_error(fw, busy, r, SIMTY_ST_QUEUE_FULL, q->count);
      return;
    }
    uint32_t src = r->rx + SIMTY_HDR_SIZE + SIMTY_WRITE_DATA;
    for (uint32_t i = 0; i < stage_words(n); i++)
      q->stage[(uint32_t)at + i] = hal_link_read32(src + 4u * i);
    q->stage_tail = (uint32_t)at + stage_words(n);
    if (q->stage_tail == FW_STAGE_BYTES / 4u)
      q->stage_tail = 0;
    q->staged++;
    struct fw_op *o = queue_push(fw);
    o->kind = FW_OP_WRITE;
    o->addr = addr;
    o->len = n;
    o->at = (uint32_t)at;
    reply(fw, busy, r, SIMTY_ST_OK, 0);
    return;
  }
  case SIMTY_CMD_READ: {
    EXPECT_LENGTH(len == SIMTY_READ_SIZE, SIMTY_READ_SIZE);
    uint32_t addr = simty_get_u32(p + SIMTY_READ_ADDR);
    uint32_t n = simty_get_u32(p + SIMTY_READ_COUNT);
    if (n == 0 || n > FW_MAX_PAYLOAD) {
      reply_error(fw, busy, r, SIMTY_ST_BAD_LENGTH, FW_MAX_PAYLOAD);
      return;
    }
    st = check_range(fw, addr, n);
    if (st == SIMTY_ST_OK && busy_q)
      st = SIMTY_ST_BUSY;
    if (st != SIMTY_ST_OK) {
      reply_error(fw, busy, r, (uint8_t)st, addr);
      return;
    }
    copy(pay, addr, n);
    reply(fw, busy, r, SIMTY_ST_OK, n);
    return;
  }
  case SIMTY_CMD_LAUNCH: {
    EXPECT_LENGTH(len == SIMTY_LAUNCH_SIZE, SIMTY_LAUNCH_SIZE);
    uint32_t flags = p[SIMTY_LAUNCH_FLAGS];
    st = check_launch(fw, simty_get_u32(p + SIMTY_LAUNCH_ENTRY),
                      simty_get_u32(p + SIMTY_LAUNCH_NTHREADS),
                      simty_get_u32(p + SIMTY_LAUNCH_DATA_END),
                      p[SIMTY_LAUNCH_STACK_LOG2], flags, &detail);
    struct fw_queue *q = &fw->queue;
    if (st == SIMTY_ST_OK && q->failed) {
      st = SIMTY_ST_CANCELLED;
      detail = q->fault_op;
    } else if (st == SIMTY_ST_OK && (q->count == FW_QUEUE_DEPTH || q->full)) {
      q->full = true;
      st = SIMTY_ST_QUEUE_FULL;
      detail = q->count;
    }
    if (st != SIMTY_ST_OK) {
      reply_error(fw, busy, r, (uint8_t)st, detail);
      return;
    }
    /* Its id: one past the running launch's and those queued ahead. */
    uint32_t ahead = q->count, id = fw->launch.id + 1u;
    for (uint32_t i = 0, k = q->head; i < q->count; i++) {
      id += q->op[k].kind == FW_OP_LAUNCH;
      k = k + 1u == FW_QUEUE_DEPTH ? 0 : k + 1u;
    }
    struct fw_op *o = queue_push(fw);
    o->kind = FW_OP_LAUNCH;
    o->flags = (uint8_t)flags;
    o->stack_log2 = p[SIMTY_LAUNCH_STACK_LOG2];
    o->addr = simty_get_u32(p + SIMTY_LAUNCH_ENTRY);
    o->len = simty_get_u32(p + SIMTY_LAUNCH_NTHREADS);
    o->at = simty_get_u32(p + SIMTY_LAUNCH_ARGS);
    o->data_end = simty_get_u32(p + SIMTY_LAUNCH_DATA_END);
    o->timeout = simty_get_u64(p + SIMTY_LAUNCH_TIMEOUT);
    uint32_t number = o->number;
    if (!running)
      queue_step(fw); /* nothing ahead of it runs: it may start now */
    if (ahead == 0 && q->fault_op == number) {
      /* It could not start (a core that does not reset). */
      reply_error(fw, busy, r, SIMTY_ST_INTERNAL, 0);
      return;
    }
    hal_link_write32(pay + SIMTY_LAUNCHED_ID, id);
    hal_link_write32(pay + SIMTY_LAUNCHED_STACK_TOP,
                     SIMTY_DATA_BASE + fw->core.data_size);
    hal_link_write32(pay + SIMTY_LAUNCHED_OP, number);
    hal_link_write32(pay + SIMTY_LAUNCHED_QUEUED, ahead);
    reply(fw, busy, r, SIMTY_ST_OK, SIMTY_LAUNCHED_SIZE);
    return;
  }
  case SIMTY_CMD_STATUS: {
    EXPECT_LENGTH(len == SIMTY_STATUS_REQ_SIZE, SIMTY_STATUS_REQ_SIZE);
    uint32_t flags = simty_get_u32(p + SIMTY_STATUS_FLAGS);
    if (flags & ~SIMTY_WANT_MASK) {
      reply_error(fw, busy, r, SIMTY_ST_BAD_ARGUMENT, SIMTY_STATUS_FLAGS);
      return;
    }
    reply(fw, busy, r, SIMTY_ST_OK, put_status(fw, pay, flags));
    return;
  }
  case SIMTY_CMD_WAIT: {
    EXPECT_LENGTH(len == SIMTY_WAIT_REQ_SIZE ||
                      len == SIMTY_WAIT_REQ_SIZE_UNTIL,
                  SIMTY_WAIT_REQ_SIZE);
    uint32_t ms = simty_get_u32(p + SIMTY_WAIT_MS);
    fw->wait_until =
        len == SIMTY_WAIT_REQ_SIZE_UNTIL ? simty_get_u32(p + SIMTY_WAIT_UNTIL)
                                         : 0;
    uint32_t flags = simty_get_u32(p + SIMTY_WAIT_FLAGS);
    if (flags & ~SIMTY_WANT_MASK) {
      reply_error(fw, busy, r, SIMTY_ST_BAD_ARGUMENT, SIMTY_WAIT_FLAGS);
      return;
    }
    fw->wait_deadline = fw_timer() + (uint64_t)ms * fw->core.cycles_per_ms;
    fw_console_poll(fw);
    if (busy_q && ms != 0 && !wait_due(fw)) {
      /* Answered by link_poll() (or by the next request). */
      struct fw_slot *s = &fw->slot[r->j];
      s->seq = r->seq;
      s->command = r->cmd;
      s->state = FW_SLOT_PARKED;
      fw->wait_parked = true;
      fw->wait_seq = r->seq;
      fw->wait_flags = flags;
      return;
    }
    reply(fw, busy, r, SIMTY_ST_OK, put_status(fw, pay, flags));
    return;
  }
  case SIMTY_CMD_ABORT:
    EXPECT_LENGTH(len == 0, 0);
    if (!busy_q) {
      reply_error(fw, busy, r, SIMTY_ST_NO_LAUNCH, fw->launch.state);
      return;
    }
    /* The running launch ends ABORTED; whatever is queued is cancelled
     * (the sequence ends with the running launch, or with the first
     * queued operation when none runs). */
    if (running) {
      fw_launch_abort(fw);
      queue_fault(fw, fw->queue.running_op);
    } else {
      queue_fault(fw, fw->queue.op[fw->queue.head].number);
    }
    reply(fw, busy, r, SIMTY_ST_OK, put_status(fw, pay, 0));
    return;
  case SIMTY_CMD_COUNTERS: {
    EXPECT_LENGTH(len == SIMTY_COUNTERS_REQ_SIZE, SIMTY_COUNTERS_REQ_SIZE);
    uint32_t first = p[SIMTY_COUNTERS_FIRST];
    uint32_t count = p[SIMTY_COUNTERS_COUNT];
    if (first >= SIMTY_CTR_COUNT) {
      reply_error(fw, busy, r, SIMTY_ST_BAD_ARGUMENT, SIMTY_COUNTERS_FIRST);
      return;
    }
    if (count == 0)
      count = SIMTY_CTR_COUNT - first;
    if (first + count > SIMTY_CTR_COUNT) {
      reply_error(fw, busy, r, SIMTY_ST_BAD_ARGUMENT, SIMTY_COUNTERS_COUNT);
      return;
    }
    out[SIMTY_COUNTERS_FIRST] = (uint8_t)first;
    out[SIMTY_COUNTERS_COUNT] = (uint8_t)count;
    out[2] = 0;
    out[3] = 0;
    for (uint32_t i = 0; i < count; i++)
      simty_put_u64(out + SIMTY_COUNTERS_VALUES + 8u * i,
                    seq_counter(fw, first + i));
    put_scratch(fw, pay, SIMTY_COUNTERS_VALUES + 8u * count);
    reply(fw, busy, r, SIMTY_ST_OK, SIMTY_COUNTERS_VALUES + 8u * count);
    return;
  }
  case SIMTY_CMD_RESET:
    EXPECT_LENGTH(len == 0, 0);
    fw->queue.running_op = 0;
    fw->queue.failed = false;
    queue_cancel(fw);
    memset(fw->queue.acc, 0, sizeof fw->queue.acc);
    st = fw_core_reset(fw);
    if (st != SIMTY_ST_OK) {
      reply_error(fw, busy, r, (uint8_t)st, 0);
      return;
    }
    reply(fw, busy, r, SIMTY_ST_OK, 0);
    return;
  case SIMTY_CMD_CONSOLE: {
    EXPECT_LENGTH(len == SIMTY_CONSOLE_REQ_SIZE, SIMTY_CONSOLE_REQ_SIZE);
    uint32_t max = simty_get_u32(p + SIMTY_CONSOLE_MAX);
    uint32_t room = (FW_MAX_PAYLOAD - SIMTY_CS_HEADER) / SIMTY_CS_RECORD_SIZE;
    if (max == 0 || max > room)
      max = room;
    reply(fw, busy, r, SIMTY_ST_OK, put_console(fw, pay, max));
    return;
  }
  default:
    reply_error(fw, busy, r, SIMTY_ST_UNKNOWN_COMMAND, r->cmd);
    return;
  }
#undef EXPECT_LENGTH
}

/* ---- The window ---- */

/* Handles the oldest held frame (RX_STATUS value st). Returns true when
 * it is done with (the RX slot may be released), false when a TX slot it
 * needs is still being sent: the frame stays held for the next poll. */
static bool take_frame(struct fw *fw, uint32_t st, uint32_t *busy)
{
  uint32_t kind = (st >> SIMTY_LINK_RX_KIND_SHIFT) & 3u;
  uint32_t n = st >> SIMTY_LINK_RX_LEN_SHIFT;
  uint32_t rx = rx_base(fw, (st >> SIMTY_LINK_RX_SLOT_SHIFT) & 7u);

  /* Without a header there is nobody to answer. */
  if (n < SIMTY_HDR_SIZE)
    return true;
  uint32_t h0 = hal_link_read32(rx);
  uint8_t cmd = (uint8_t)(h0 >> 8);
  uint16_t seq = (uint16_t)(h0 >> 16);
  if (kind != SIMTY_LINK_KIND_FRAME)
    return nak(fw, busy, cmd, seq,
               kind == SIMTY_LINK_KIND_BAD_CRC ? SIMTY_ST_BAD_CRC
                                               : SIMTY_ST_BAD_LENGTH,
               n);
  if ((h0 & 0xFFu) != SIMTY_PROTO_VERSION)
    return nak(fw, busy, cmd, seq, SIMTY_ST_BAD_VERSION, SIMTY_PROTO_VERSION);

  uint16_t back = (uint16_t)(fw->expect - seq);
  if (cmd == SIMTY_CMD_INFO || back == 0) {
    /* A new request (or a new session): the parked WAIT is answered
     * first, then this request runs. */
    if (fw->wait_parked && !answer_wait(fw, busy))
      return false;
    uint32_t j = fw->pos;
    if (!tx_free(*busy, j))
      return false;
    if (cmd == SIMTY_CMD_INFO) {
      /* INFO opens a session: it is always executed and forgets the
       * window; the next request expected is the one after it. */
      for (uint32_t i = 0; i < fw->window; i++)
        fw->slot[i].state = FW_SLOT_EMPTY;
      fw->nak_saved_valid = false;
    }
    struct req r = {.rx = rx,
                    .tx = tx_base(fw, j),
                    .j = j,
                    .seq = seq,
                    .len = (uint16_t)hal_link_read32(rx + 4u),
                    .cmd = cmd};
    execute(fw, busy, &r);
    fw->expect = (uint16_t)(seq + 1u);
    fw->pos = j + 1u == fw->window ? 0 : j + 1u;
    return true;
  }
  if (back <= fw->window) {
    /* A retransmission of a request already executed. */
    uint32_t j = fw->pos >= back ? fw->pos - back : fw->pos + fw->window - back;
    struct fw_slot *s = &fw->slot[j];
    if (s->seq == seq && s->command == cmd) {
      if (s->state == FW_SLOT_PARKED) {
        /* The WAIT the host is still waiting on: absorbed. */
        fw->duplicates++;
        return true;
      }
      if (s->state == FW_SLOT_CACHED) {
        if (!tx_free(*busy, j))
          return false;
        restore(fw, j);
        send(busy, j, s->len);
        fw->duplicates++;
        return true;
      }
    }
  }
  /* A gap (an earlier request was lost) or a seq from nowhere. */
  return nak(fw, busy, cmd, seq, SIMTY_ST_SEQUENCE, fw->expect);
}

static bool wait_due(struct fw *fw)
{
  /* A console buffer half full returns early so that the host drains it
   * before printing threads stall on it. */
  if (fw->console.count >= FW_CONSOLE_RECORDS / 2u ||
      fw_timer() >= fw->wait_deadline)
    return true;
  if (fw->wait_until && (int32_t)(fw->queue.done - fw->wait_until) >= 0)
    return true;
  if (fw->launch.state == SIMTY_STATE_RUNNING)
    return false;
  /* Nothing runs: the queue is empty, or its next launch waits for the
   * host to take the console records of the launches before it. */
  return fw->queue.count == 0 || fw->console.count != 0;
}

/* ---- The poll loop ---- */

static void link_poll(struct fw *fw)
{
  if (fw->window == 0)
    return;
  uint32_t st = hal_reg_read(SIMTY_MMIO_LINK_RX_STATUS);
  bool ready = (st & SIMTY_LINK_RX_READY) != 0;
  bool due = fw->wait_parked && wait_due(fw);
  if (!ready && !due)
    return;
  uint32_t busy = hal_reg_read(SIMTY_MMIO_LINK_TX_BUSY);
  if (due && !answer_wait(fw, &busy))
    return;
  if (ready && take_frame(fw, st, &busy))
    hal_reg_write(SIMTY_MMIO_LINK_RX_RELEASE, 1u);
}

void fw_poll(struct fw *fw)
{
  fw_dispatch_poll(fw);
  if (fw->launch.state != SIMTY_STATE_RUNNING)
    queue_step(fw);
  /* A warp waits for its refill until the firmware looks: look often,
   * cheaply, and only now and then at everything else. */
  for (uint32_t i = 0;
       i < FW_REFILL_SPINS && fw->launch.state == SIMTY_STATE_RUNNING; i++)
    fw_dispatch_refill(fw);
  /* The next queued launch starts in the poll that sees the last end. */
  if (fw->launch.state != SIMTY_STATE_RUNNING)
    queue_step(fw);
  link_poll(fw);
}
