/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fw_engine.c - the protocol engine of docs/protocol.md: takes frames
 * from the link decoder, executes each request once, answers every one
 * (a retransmitted request from the cache, a corrupt one with an error),
 * and parks WAIT until its launch ends, all without waiting on the UART.
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

void fw_init(struct fw *fw)
{
  memset(fw, 0, sizeof *fw);
  fw_dispatch_init(fw);
  simty_link_decoder_init(&fw->dec, fw->rx, sizeof fw->rx);
  fw->held = SIMTY_LINK_NONE;
  simty_link_encoder_init(&fw->enc);
}

/* ---- Responses ---- */

static uint8_t *reply_payload(struct fw *fw)
{
  return fw->tx + SIMTY_HDR_SIZE;
}

/* Seals the response in tx for the request (command, seq, crc), makes it
 * the cached answer and starts sending it. */
static void reply(struct fw *fw, uint8_t command, uint16_t seq, uint32_t crc,
                  uint8_t status, uint32_t length)
{
  fw->tx_len =
      simty_frame_seal(fw->tx, (uint8_t)(command | SIMTY_RESPONSE_FLAG), seq,
                       status, (uint16_t)length);
  fw->cache_valid = true;
  fw->cache_seq = seq;
  fw->cache_crc = crc;
  simty_link_encoder_start(&fw->enc, fw->tx, fw->tx_len);
}

static void reply_error(struct fw *fw, uint8_t command, uint16_t seq,
                        uint32_t crc, uint8_t status, uint32_t detail)
{
  simty_put_u32(reply_payload(fw), detail);
  reply(fw, command, seq, crc, status, SIMTY_ERROR_PAYLOAD);
}

/* Corrupt frames are answered from a separate buffer: the cached answer
 * to the last good request must survive line noise. */
static void nak(struct fw *fw, enum simty_link_event ev)
{
  const uint8_t *f = fw->dec.buf;
  uint8_t status =
      ev == SIMTY_LINK_BAD_CRC ? SIMTY_ST_BAD_CRC : SIMTY_ST_BAD_LENGTH;
  simty_put_u32(fw->nak + SIMTY_HDR_SIZE, (uint32_t)fw->dec.len);
  size_t n = simty_frame_seal(
      fw->nak, (uint8_t)(simty_frame_command(f) | SIMTY_RESPONSE_FLAG),
      simty_frame_seq(f), status, SIMTY_ERROR_PAYLOAD);
  simty_link_encoder_start(&fw->enc, fw->nak, n);
  fw->naks++;
}

/* Status record plus the sections `flags` asks for; returns its size. */
static uint32_t build_status(struct fw *fw, uint8_t *out, uint32_t flags)
{
  const struct fw_launch *l = &fw->launch;
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
  uint32_t n = SIMTY_SR_SIZE;
  if (flags & SIMTY_WANT_COUNTERS) {
    for (uint32_t i = 0; i < SIMTY_CTR_COUNT; i++, n += 8u)
      simty_put_u64(out + n, fw_counter(i));
  }
  if (flags & SIMTY_WANT_CONSOLE) {
    uint8_t *cs = out + n;
    uint32_t room =
        (FW_MAX_PAYLOAD - n - SIMTY_CS_HEADER) / SIMTY_CS_RECORD_SIZE;
    uint32_t count = fw_console_take(fw, cs + SIMTY_CS_RECORDS, room);
    simty_put_u32(cs + SIMTY_CS_PENDING, fw_console_pending(fw));
    simty_put_u16(cs + SIMTY_CS_COUNT, (uint16_t)count);
    simty_put_u16(cs + SIMTY_CS_COUNT + 2, 0);
    n += SIMTY_CS_HEADER + count * SIMTY_CS_RECORD_SIZE;
  }
  /* Taken last so it counts what the console section left behind. */
  simty_put_u32(out + SIMTY_SR_CONSOLE_PENDING, fw_console_pending(fw));
  return n;
}

static void answer_wait(struct fw *fw)
{
  fw->wait_parked = false;
  uint32_t n = build_status(fw, reply_payload(fw), fw->wait_flags);
  reply(fw, SIMTY_CMD_WAIT, fw->wait_seq, fw->wait_crc, SIMTY_ST_OK, n);
}

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

/* Executes one good request; the response goes to tx. */
static void execute(struct fw *fw)
{
  const uint8_t *f = fw->rx;
  uint8_t cmd = simty_frame_command(f);
  uint16_t seq = simty_frame_seq(f);
  uint16_t len = simty_frame_length(f);
  const uint8_t *p = simty_frame_payload(f);
  uint32_t crc = simty_get_u32(f + SIMTY_HDR_SIZE + len);
  uint8_t *out = reply_payload(fw);
  bool running = fw->launch.state == SIMTY_STATE_RUNNING;
  uint32_t detail = 0;
  int st;

  if (f[SIMTY_HDR_VERSION] != SIMTY_PROTO_VERSION) {
    reply_error(fw, cmd, seq, crc, SIMTY_ST_BAD_VERSION, SIMTY_PROTO_VERSION);
    return;
  }
  /* INFO is how a host opens a session, and harmless to repeat: it is
   * always executed, so a restarted host never gets a stale answer. */
  if (cmd != SIMTY_CMD_INFO && fw->cache_valid && seq == fw->cache_seq &&
      crc == fw->cache_crc) {
    fw->duplicates++;
    simty_link_encoder_start(&fw->enc, fw->tx, fw->tx_len);
    return;
  }
  fw->requests++;

#define EXPECT_LENGTH(ok, want)                                                \
  do {                                                                         \
    if (!(ok)) {                                                               \
      reply_error(fw, cmd, seq, crc, SIMTY_ST_BAD_LENGTH, (want));             \
      return;                                                                  \
    }                                                                          \
  } while (0)

  switch (cmd) {
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
    reply(fw, cmd, seq, crc, SIMTY_ST_OK, SIMTY_INFO_SIZE);
    return;
  }
  case SIMTY_CMD_WRITE: {
    EXPECT_LENGTH(len > SIMTY_WRITE_DATA, SIMTY_WRITE_DATA + 1u);
    uint32_t addr = simty_get_u32(p + SIMTY_WRITE_ADDR);
    uint32_t n = len - SIMTY_WRITE_DATA;
    st = check_range(fw, addr, n);
    if (st == SIMTY_ST_OK && running)
      st = SIMTY_ST_BUSY;
    if (st != SIMTY_ST_OK) {
      reply_error(fw, cmd, seq, crc, (uint8_t)st, addr);
      return;
    }
    hal_mem_write(addr, p + SIMTY_WRITE_DATA, n);
    reply(fw, cmd, seq, crc, SIMTY_ST_OK, 0);
    return;
  }
  case SIMTY_CMD_READ: {
    EXPECT_LENGTH(len == SIMTY_READ_SIZE, SIMTY_READ_SIZE);
    uint32_t addr = simty_get_u32(p + SIMTY_READ_ADDR);
    uint32_t n = simty_get_u32(p + SIMTY_READ_COUNT);
    if (n == 0 || n > FW_MAX_PAYLOAD) {
      reply_error(fw, cmd, seq, crc, SIMTY_ST_BAD_LENGTH, FW_MAX_PAYLOAD);
      return;
    }
    st = check_range(fw, addr, n);
    if (st == SIMTY_ST_OK && running)
      st = SIMTY_ST_BUSY;
    if (st != SIMTY_ST_OK) {
      reply_error(fw, cmd, seq, crc, (uint8_t)st, addr);
      return;
    }
    hal_mem_read(addr, out, n);
    reply(fw, cmd, seq, crc, SIMTY_ST_OK, n);
    return;
  }
  case SIMTY_CMD_LAUNCH: {
    EXPECT_LENGTH(len == SIMTY_LAUNCH_SIZE, SIMTY_LAUNCH_SIZE);
    st = fw_launch_start(fw, simty_get_u32(p + SIMTY_LAUNCH_ENTRY),
                         simty_get_u32(p + SIMTY_LAUNCH_NTHREADS),
                         simty_get_u32(p + SIMTY_LAUNCH_ARGS),
                         simty_get_u32(p + SIMTY_LAUNCH_DATA_END),
                         simty_get_u64(p + SIMTY_LAUNCH_TIMEOUT),
                         p[SIMTY_LAUNCH_STACK_LOG2], &detail);
    if (st != SIMTY_ST_OK) {
      reply_error(fw, cmd, seq, crc, (uint8_t)st, detail);
      return;
    }
    simty_put_u32(out + SIMTY_LAUNCHED_ID, fw->launch.id);
    simty_put_u32(out + SIMTY_LAUNCHED_STACK_TOP, fw->launch.stack_top);
    reply(fw, cmd, seq, crc, SIMTY_ST_OK, SIMTY_LAUNCHED_SIZE);
    return;
  }
  case SIMTY_CMD_STATUS: {
    EXPECT_LENGTH(len == SIMTY_STATUS_REQ_SIZE, SIMTY_STATUS_REQ_SIZE);
    uint32_t flags = simty_get_u32(p + SIMTY_STATUS_FLAGS);
    if (flags & ~SIMTY_WANT_MASK) {
      reply_error(fw, cmd, seq, crc, SIMTY_ST_BAD_ARGUMENT, SIMTY_STATUS_FLAGS);
      return;
    }
    reply(fw, cmd, seq, crc, SIMTY_ST_OK, build_status(fw, out, flags));
    return;
  }
  case SIMTY_CMD_WAIT: {
    EXPECT_LENGTH(len == SIMTY_WAIT_REQ_SIZE, SIMTY_WAIT_REQ_SIZE);
    uint32_t ms = simty_get_u32(p + SIMTY_WAIT_MS);
    uint32_t flags = simty_get_u32(p + SIMTY_WAIT_FLAGS);
    if (flags & ~SIMTY_WANT_MASK) {
      reply_error(fw, cmd, seq, crc, SIMTY_ST_BAD_ARGUMENT, SIMTY_WAIT_FLAGS);
      return;
    }
    fw->wait_seq = seq;
    fw->wait_crc = crc;
    fw->wait_flags = flags;
    fw->wait_deadline = fw_timer() + (uint64_t)ms * fw->core.cycles_per_ms;
    if (running && ms != 0)
      fw->wait_parked = true; /* answered by fw_poll() */
    else
      answer_wait(fw);
    return;
  }
  case SIMTY_CMD_ABORT:
    EXPECT_LENGTH(len == 0, 0);
    if (!running) {
      reply_error(fw, cmd, seq, crc, SIMTY_ST_NO_LAUNCH, fw->launch.state);
      return;
    }
    fw_launch_abort(fw);
    reply(fw, cmd, seq, crc, SIMTY_ST_OK, build_status(fw, out, 0));
    return;
  case SIMTY_CMD_COUNTERS: {
    EXPECT_LENGTH(len == SIMTY_COUNTERS_REQ_SIZE, SIMTY_COUNTERS_REQ_SIZE);
    uint32_t first = p[SIMTY_COUNTERS_FIRST];
    uint32_t count = p[SIMTY_COUNTERS_COUNT];
    if (first >= SIMTY_CTR_COUNT) {
      reply_error(fw, cmd, seq, crc, SIMTY_ST_BAD_ARGUMENT,
                  SIMTY_COUNTERS_FIRST);
      return;
    }
    if (count == 0)
      count = SIMTY_CTR_COUNT - first;
    if (first + count > SIMTY_CTR_COUNT) {
      reply_error(fw, cmd, seq, crc, SIMTY_ST_BAD_ARGUMENT,
                  SIMTY_COUNTERS_COUNT);
      return;
    }
    out[SIMTY_COUNTERS_FIRST] = (uint8_t)first;
    out[SIMTY_COUNTERS_COUNT] = (uint8_t)count;
    out[2] = 0;
    out[3] = 0;
    for (uint32_t i = 0; i < count; i++)
      simty_put_u64(out + SIMTY_COUNTERS_VALUES + 8u * i,
                    fw_counter(first + i));
    reply(fw, cmd, seq, crc, SIMTY_ST_OK, SIMTY_COUNTERS_VALUES + 8u * count);
    return;
  }
  case SIMTY_CMD_RESET:
    EXPECT_LENGTH(len == 0, 0);
    st = fw_core_reset(fw);
    if (st != SIMTY_ST_OK) {
      reply_error(fw, cmd, seq, crc, (uint8_t)st, 0);
      return;
    }
    reply(fw, cmd, seq, crc, SIMTY_ST_OK, 0);
    return;
  case SIMTY_CMD_CONSOLE: {
    EXPECT_LENGTH(len == SIMTY_CONSOLE_REQ_SIZE, SIMTY_CONSOLE_REQ_SIZE);
    uint32_t max = simty_get_u32(p + SIMTY_CONSOLE_MAX);
    uint32_t room = (FW_MAX_PAYLOAD - SIMTY_CS_HEADER) / SIMTY_CS_RECORD_SIZE;
    if (max == 0 || max > room)
      max = room;
    uint32_t count = fw_console_take(fw, out + SIMTY_CS_RECORDS, max);
    simty_put_u32(out + SIMTY_CS_PENDING, fw_console_pending(fw));
    simty_put_u16(out + SIMTY_CS_COUNT, (uint16_t)count);
    simty_put_u16(out + SIMTY_CS_COUNT + 2, 0);
    reply(fw, cmd, seq, crc, SIMTY_ST_OK,
          SIMTY_CS_HEADER + count * SIMTY_CS_RECORD_SIZE);
    return;
  }
  default:
    reply_error(fw, cmd, seq, crc, SIMTY_ST_UNKNOWN_COMMAND, cmd);
    return;
  }
#undef EXPECT_LENGTH
}

/* ---- The poll loop ---- */

static void uart_send(struct fw *fw)
{
  for (uint32_t i = 0; i < FW_UART_BURST; i++) {
    if (!simty_link_encoder_busy(&fw->enc))
      return;
    if ((hal_reg_read(SIMTY_MMIO_UART_STATUS) & SIMTY_UART_TX_READY) == 0)
      return;
    int b = simty_link_encoder_next(&fw->enc);
    if (b < 0)
      return;
    hal_reg_write(SIMTY_MMIO_UART_DATA, (uint32_t)b);
    if (i % FW_REFILL_BYTES == FW_REFILL_BYTES - 1u)
      fw_dispatch_refill(fw);
  }
}

static void uart_receive(struct fw *fw)
{
  for (uint32_t i = 0; i < FW_UART_BURST && fw->held == SIMTY_LINK_NONE; i++) {
    uint32_t s = hal_reg_read(SIMTY_MMIO_UART_STATUS);
    if (s & SIMTY_UART_RX_OVERRUN) {
      /* Bytes were lost: the frame under way cannot be trusted, and its
       * CRC would say so anyway; count it for diagnostics. */
      fw->uart_overruns++;
      hal_reg_write(SIMTY_MMIO_UART_STATUS, SIMTY_UART_RX_OVERRUN);
    }
    if ((s & SIMTY_UART_RX_VALID) == 0)
      return;
    uint8_t byte = (uint8_t)hal_reg_read(SIMTY_MMIO_UART_DATA);
    enum simty_link_event ev = simty_link_decoder_feed(&fw->dec, byte);
    /* A runt cannot name a request: there is nobody to answer. */
    if (ev != SIMTY_LINK_NONE && ev != SIMTY_LINK_RUNT)
      fw->held = ev;
    if (i % FW_REFILL_BYTES == FW_REFILL_BYTES - 1u)
      fw_dispatch_refill(fw);
  }
}

static bool is_parked_wait(const struct fw *fw)
{
  const uint8_t *f = fw->rx;
  uint16_t len = simty_frame_length(f);
  return simty_frame_command(f) == SIMTY_CMD_WAIT &&
         simty_frame_seq(f) == fw->wait_seq &&
         simty_get_u32(f + SIMTY_HDR_SIZE + len) == fw->wait_crc;
}

void fw_poll(struct fw *fw)
{
  fw_dispatch_poll(fw);
  /* A warp waits for its refill until the firmware looks: look often,
   * cheaply, and only now and then at everything else. */
  for (uint32_t i = 0;
       i < FW_REFILL_SPINS && fw->launch.state == SIMTY_STATE_RUNNING; i++)
    fw_dispatch_refill(fw);
  uart_send(fw);
  uart_receive(fw);

  if (simty_link_encoder_busy(&fw->enc))
    return;

  if (fw->held != SIMTY_LINK_NONE) {
    if (fw->held == SIMTY_LINK_FRAME) {
      if (fw->wait_parked) {
        if (is_parked_wait(fw)) {
          /* The host retransmitted the WAIT it is still waiting on. */
          fw->held = SIMTY_LINK_NONE;
          fw->duplicates++;
          return;
        }
        /* Another request (say ABORT) ends the wait early; it runs once
         * the WAIT's answer is out. */
        answer_wait(fw);
        return;
      }
      execute(fw);
    } else if (fw->dec.len >= SIMTY_HDR_SIZE) {
      nak(fw, fw->held);
    }
    fw->held = SIMTY_LINK_NONE;
    uart_send(fw);
    return;
  }

  if (fw->wait_parked) {
    /* A console buffer half full returns early so that the host drains
     * it before printing threads stall on it. */
    bool console_full = fw->console.count >= FW_CONSOLE_RECORDS / 2u;
    if (fw->launch.state != SIMTY_STATE_RUNNING || console_full ||
        fw_timer() >= fw->wait_deadline) {
      answer_wait(fw);
      uart_send(fw);
    }
  }
}
