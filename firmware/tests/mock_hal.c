/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mock_hal.c - the fake SoC behind hal.h for host tests and benchmarks.
 */
#include "mock_hal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hal.h"
#include "simty_mmio.h"

struct mock mock;

static void violate(const char *what, uint32_t value)
{
  mock.violations++;
  if (mock.violations == 1)
    snprintf(mock.violation, sizeof mock.violation, "%s (0x%x)", what,
             (unsigned)value);
}

void mock_reset(uint32_t warps, uint32_t lanes)
{
  free(mock.log);
  memset(&mock, 0, sizeof mock);
  mock.warps = warps;
  mock.lanes = lanes;
  mock.clock_hz = 1000000u;
  mock.run_polls = 3;
  mock.reset_reads = 2;
  mock.timer_step = 10;
  mock.fault_at = -1;
  mock.rng = 12345u;
  mock.rx_slots = 2;
  mock.tx_slots = 4;
  mock.baud = 3000000u;
  mock.hw_version = 0x000C0000u;
  mock.hw_build = 0x5EED1234u;
  mock.extensions = SIMTY_EXT_M | SIMTY_EXT_ZICNTR;
  mock.tx_delay = 2;
  mock.copy_delay = 1;
  mock.dec_slot = -1;
  simty_link_decoder_init(&mock.dec, mock.linkbuf,
                          SIMTY_FRAME_SIZE(SIMTY_MAX_PAYLOAD));
}

void mock_uart_push(const uint8_t *bytes, size_t n)
{
  if (mock.rx_tail + n > MOCK_UART_SIZE) {
    /* Compact the consumed part away. */
    memmove(mock.rx, mock.rx + mock.rx_head, mock.rx_tail - mock.rx_head);
    mock.rx_tail -= mock.rx_head;
    mock.rx_head = 0;
  }
  if (mock.rx_tail + n > MOCK_UART_SIZE) {
    fprintf(stderr, "mock: UART rx queue full\n");
    abort();
  }
  memcpy(mock.rx + mock.rx_tail, bytes, n);
  mock.rx_tail += n;
}

bool mock_console_push(uint32_t tid, uint8_t byte)
{
  if (mock.con_count == MOCK_CONSOLE_DEPTH)
    return false;
  uint32_t slot = (mock.con_head + mock.con_count) % MOCK_CONSOLE_DEPTH;
  mock.con_tid[slot] = tid;
  mock.con_byte[slot] = byte;
  mock.con_count++;
  return true;
}

static uint32_t next_rand(void)
{
  mock.rng = mock.rng * 1103515245u + 12345u;
  return mock.rng >> 16;
}

static unsigned popcount(uint32_t v)
{
  unsigned n = 0;
  for (; v; v &= v - 1)
    n++;
  return n;
}

/* The core takes a block from the sequencer: the warp turns busy. */
static void accept_dispatch(uint32_t w, uint32_t base, uint32_t mask)
{
  if (w >= mock.warps) {
    violate("dispatch to a warp that does not exist", w);
    return;
  }
  if (mock.busy & (1u << w))
    violate("dispatch to a busy warp", w);
  uint32_t all = mock.lanes == 32 ? 0xFFFFFFFFu : (1u << mock.lanes) - 1u;
  if (mask == 0 || (mask & ~all))
    violate("dispatch mask outside the warp", mask);
  if (mock.nlog == mock.caplog) {
    mock.caplog = mock.caplog ? 2 * mock.caplog : 1024;
    mock.log = realloc(mock.log, mock.caplog * sizeof *mock.log);
    if (!mock.log)
      abort();
  }
  mock.log[mock.nlog++] = (struct mock_dispatch){
      w,
      mock.seq_pc,
      base,
      mask,
      mock.nthreads,
      mock.args,
      mock.stack_top,
      mock.stack_log2,
      mock.steps,
      (mock.ever_used & (1u << w)) ? mock.steps - mock.freed_step[w] : 0,
      mock.rx_head,
      mock.link_writes};
  mock.ever_used |= 1u << w;
  mock.busy |= 1u << w;
  mock.busy_left[w] =
      mock.run_polls + (mock.run_jitter ? next_rand() % mock.run_jitter : 0);
  mock.ctr[SIMTY_CTR_warp_insts] += 1;
  mock.ctr[SIMTY_CTR_thread_insts] += popcount(mask);
  if (mock.fault_at >= 0 && (size_t)mock.fault_at + 1 == mock.nlog) {
    mock.fault_valid = true; /* the core stops itself on a fault */
  }
}

/* One step of the core and the block sequencer (docs/soc.md). */
static void seq_step(void)
{
  mock.steps++;
  bool stopped_core = mock.halt || mock.fault_valid || mock.reset_left != 0;
  if (!stopped_core) {
    for (uint32_t w = 0; w < mock.warps; w++) {
      if ((mock.busy & (1u << w)) && mock.busy_left[w]-- == 0) {
        mock.busy &= ~(1u << w);
        mock.freed_step[w] = mock.steps;
      }
    }
  }
  /* Blocks that ended. */
  uint32_t freed = mock.seq_held & ~mock.busy;
  for (uint32_t w = 0; w < mock.warps; w++)
    if (freed & (1u << w))
      mock.seq_threads_done += mock.block_threads[w];
  mock.seq_held &= ~freed;
  if (!mock.seq_launch)
    return;
  /* The next blocks to the free warps, lowest first. */
  while (mock.seq_left != 0 && !stopped_core) {
    uint32_t free = ~mock.busy & (mock.warps == 32 ? 0xFFFFFFFFu
                                                   : (1u << mock.warps) - 1u);
    if (free == 0)
      break;
    if (mock.go_left) {
      mock.go_left--;
      break;
    }
    uint32_t w = 0;
    while (!(free & (1u << w)))
      w++;
    uint32_t n = mock.seq_left < mock.lanes ? mock.seq_left : mock.lanes;
    accept_dispatch(w, mock.seq_next, n == 32 ? 0xFFFFFFFFu : (1u << n) - 1u);
    mock.block_threads[w] = n;
    mock.seq_held |= 1u << w;
    mock.seq_next += n;
    mock.seq_left -= n;
    mock.go_left = mock.go_delay;
    stopped_core = mock.fault_valid;
  }
  if (mock.seq_left == 0 && mock.seq_held == 0) {
    mock.seq_launch = false;
    mock.seq_done = true;
    mock.active = false; /* the sequencer closes the launch window */
  }
}

static uint32_t seq_status(void)
{
  seq_step();
  uint32_t st = 0;
  if (mock.seq_launch && mock.seq_left != 0)
    st |= SIMTY_SEQ_RUNNING;
  if (mock.seq_launch || mock.seq_held)
    st |= SIMTY_SEQ_BUSY;
  if (mock.seq_done)
    st |= SIMTY_SEQ_DONE;
  if (mock.seq_stopped)
    st |= SIMTY_SEQ_STOPPED;
  if (mock.fault_valid)
    st |= SIMTY_SEQ_FAULT;
  if (st & SIMTY_SEQ_DONE)
    mock.done_reads++;
  return st;
}

static bool seq_busy(void)
{
  return mock.seq_launch || mock.seq_held;
}

static void seq_ctrl(uint32_t v)
{
  if (v & SIMTY_SEQ_STOP) {
    mock.seq_stops++;
    if (mock.seq_launch) {
      mock.seq_launch = false;
      mock.seq_stopped = true;
    }
  }
  if (v & SIMTY_SEQ_START) {
    if (seq_busy()) {
      violate("START while the sequencer is busy", v);
      return;
    }
    if (mock.reset_left)
      violate("START during a core reset", v);
    mock.seq_starts++;
    uint32_t first = mock.seq_first & ~(mock.lanes - 1u);
    mock.seq_launch = true;
    mock.seq_done = mock.seq_stopped = false;
    mock.seq_next = first;
    mock.seq_left = mock.nthreads > first ? mock.nthreads - first : 0;
    mock.seq_threads_done = 0;
    mock.go_left = mock.go_delay;
    mock.active = true;
  }
}

/* Launch inputs and sequencer registers must not change under a launch. */
static void launch_write(uint32_t *reg, uint32_t v)
{
  if (seq_busy() && *reg != v)
    violate("launch register rewritten while the sequencer is busy", v);
  *reg = v;
}

/* ---- Link engine ---- */

static uint32_t slot_base(uint32_t i)
{
  return SIMTY_LINKBUF_BASE + i * SIMTY_LINK_SLOT_BYTES;
}

uint8_t *mock_linkbuf(uint32_t addr)
{
  if (addr < SIMTY_LINKBUF_BASE ||
      addr - SIMTY_LINKBUF_BASE >= (mock.rx_slots + mock.tx_slots) *
                                       SIMTY_LINK_SLOT_BYTES)
    return NULL;
  return mock.linkbuf + (addr - SIMTY_LINKBUF_BASE);
}

static uint32_t tx_busy_mask(void)
{
  uint32_t m = 0;
  for (uint32_t i = 0; i < mock.txq_n; i++)
    m |= 1u << mock.txq_slot[i];
  return m;
}

static bool rx_held(uint32_t slot)
{
  return (mock.rx_busy >> slot) & 1u;
}

/* The engine's RX side: decodes wire bytes into a free RX slot as long as
 * one is free; a frame's end (good or bad, not a runt) holds the slot. */
static void engine_rx(void)
{
  while (mock.rx_head != mock.rx_tail) {
    if (mock.dec_slot < 0) {
      uint32_t i = 0;
      while (i < mock.rx_slots && rx_held(i))
        i++;
      if (i == mock.rx_slots)
        return; /* no free slot: the FIFO (and RTS#) hold the host back */
      mock.dec_slot = (int)i;
      mock.dec.buf = mock_linkbuf(slot_base(i));
    }
    enum simty_link_event ev =
        simty_link_decoder_feed(&mock.dec, mock.rx[mock.rx_head++]);
    if (ev == SIMTY_LINK_NONE || ev == SIMTY_LINK_RUNT)
      continue;
    uint32_t k = mock.held_n++;
    mock.held_slot[k] = (uint32_t)mock.dec_slot;
    mock.held_kind[k] = ev == SIMTY_LINK_FRAME     ? SIMTY_LINK_KIND_FRAME
                        : ev == SIMTY_LINK_BAD_CRC ? SIMTY_LINK_KIND_BAD_CRC
                                                   : SIMTY_LINK_KIND_BAD_LENGTH;
    mock.held_len[k] = (uint32_t)mock.dec.len;
    mock.rx_busy |= 1u << mock.dec_slot;
    mock.dec_slot = -1;
  }
}

/* The oldest queued send leaves once its delay has passed: the engine
 * stores the CRC after the slot's L bytes and COBS-encodes them. */
static void engine_tx(void)
{
  if (mock.txq_n == 0 || mock.tx_stall == 1)
    return;
  if (mock.txq_left) {
    mock.txq_left--;
    return;
  }
  uint8_t *f = mock_linkbuf(slot_base(mock.rx_slots + mock.txq_slot[0]));
  uint32_t len = mock.txq_len[0];
  simty_put_u32(f + len, simty_crc32(0, f, len));
  if (mock.tx_len + SIMTY_WIRE_MAX(len + 4u) > MOCK_UART_SIZE) {
    fprintf(stderr, "mock: UART tx capture full\n");
    abort();
  }
  mock.tx_len += simty_link_encode(f, len + 4u, mock.tx + mock.tx_len);
  mock.frames_sent++;
  mock.txq_n--;
  memmove(mock.txq_slot, mock.txq_slot + 1, mock.txq_n * sizeof(uint32_t));
  memmove(mock.txq_len, mock.txq_len + 1, mock.txq_n * sizeof(uint32_t));
  mock.txq_left = mock.tx_delay;
}

static void engine_step(void)
{
  if (!mock.link_enabled)
    return;
  engine_rx();
  engine_tx();
}

static void engine_reset(void)
{
  mock.held_n = 0;
  mock.rx_busy = 0;
  mock.txq_n = 0;
  mock.dec_slot = -1;
  simty_link_decoder_init(&mock.dec, mock.linkbuf,
                          SIMTY_FRAME_SIZE(SIMTY_MAX_PAYLOAD));
}

/* The slot (RX: held; TX: any) that [addr, addr + n) lies in, or -1. */
static int slot_of(uint32_t addr, uint32_t n)
{
  if (!mock_linkbuf(addr) || n == 0)
    return -1;
  uint32_t i = (addr - SIMTY_LINKBUF_BASE) / SIMTY_LINK_SLOT_BYTES;
  if ((addr - slot_base(i)) + (uint64_t)n > SIMTY_LINK_SLOT_BYTES)
    return -1;
  return (int)i;
}

static uint8_t *mem_at(uint32_t addr, uint32_t n)
{
  if (addr >= SIMTY_CODE_BASE &&
      addr - SIMTY_CODE_BASE + (uint64_t)n <= MOCK_CODE_SIZE)
    return mock.code + (addr - SIMTY_CODE_BASE);
  if (addr >= SIMTY_DATA_BASE &&
      addr - SIMTY_DATA_BASE + (uint64_t)n <= MOCK_DATA_SIZE)
    return mock.data + (addr - SIMTY_DATA_BASE);
  return NULL;
}

/* COPY_GO: the bytes move at once; COPY_GO reads busy copy_delay times. */
static void copy_go(void)
{
  uint32_t n = mock.copy_len;
  mock.copies++;
  mock.copy_bytes += n;
  mock.copy_left = mock.copy_delay;
  uint8_t *src = mem_at(mock.copy_src, n);
  uint8_t *dst = mem_at(mock.copy_dst, n);
  int ss = slot_of(mock.copy_src, n), ds = slot_of(mock.copy_dst, n);
  if (!src && ss >= 0) {
    if ((uint32_t)ss < mock.rx_slots && !rx_held((uint32_t)ss))
      violate("COPY from an RX slot the engine owns", mock.copy_src);
    src = mock_linkbuf(mock.copy_src);
  }
  if (!dst && ds >= 0) {
    if ((uint32_t)ds < mock.rx_slots)
      violate("COPY into an RX slot", mock.copy_dst);
    else if (tx_busy_mask() & (1u << (ds - (int)mock.rx_slots)))
      violate("COPY into a busy TX slot", mock.copy_dst);
    dst = mock_linkbuf(mock.copy_dst);
  }
  if (!src || !dst) {
    violate("COPY outside CODE, DATA and the link buffer's slots",
            src ? mock.copy_dst : mock.copy_src);
    return;
  }
  if (n)
    memmove(dst, src, n);
}

/* The controller's own stores to CODE and DATA (a queued WRITE). A store
 * while the core runs is fine on the SoC (the core wins the RAM); here it
 * is counted. */
void hal_mem_write8(uint32_t addr, uint8_t value)
{
  uint8_t *p = mem_at(addr, 1);
  if (!p) {
    violate("controller store outside CODE and DATA", addr);
    return;
  }
  *p = value;
  mock.mem_stores++;
}

void hal_mem_write32(uint32_t addr, uint32_t value)
{
  uint8_t *p = mem_at(addr, 4);
  if (!p || (addr & 3u)) {
    violate("controller word store outside CODE/DATA or unaligned", addr);
    return;
  }
  p[0] = (uint8_t)value;
  p[1] = (uint8_t)(value >> 8);
  p[2] = (uint8_t)(value >> 16);
  p[3] = (uint8_t)(value >> 24);
  mock.mem_stores++;
}

uint32_t hal_link_read32(uint32_t addr)
{
  int i = slot_of(addr, 4);
  if (i < 0 || (addr & 3u)) {
    violate("link buffer read outside the slots or unaligned", addr);
    return 0;
  }
  if ((uint32_t)i < mock.rx_slots) {
    if (!rx_held((uint32_t)i))
      violate("read of an RX slot the engine owns", addr);
    if (addr - slot_base((uint32_t)i) >= SIMTY_HDR_SIZE + 32u)
      mock.rx_payload_reads++;
  }
  uint32_t v;
  memcpy(&v, mock_linkbuf(addr), 4);
  return v;
}

void hal_link_write32(uint32_t addr, uint32_t value)
{
  int i = slot_of(addr, 4);
  if (i < 0 || (addr & 3u) || (uint32_t)i < mock.rx_slots) {
    violate("link buffer write outside the TX slots or unaligned", addr);
    return;
  }
  if (tx_busy_mask() & (1u << (i - (int)mock.rx_slots)))
    violate("write to a busy TX slot", addr);
  mock.link_writes++;
  memcpy(mock_linkbuf(addr), &value, 4);
}

static uint32_t link_reg_read(uint32_t off)
{
  engine_step();
  switch (off) {
  case SIMTY_MMIO_LINK_CTRL:
    return mock.link_enabled;
  case SIMTY_MMIO_LINK_INFO:
    return mock.rx_slots | mock.tx_slots << 8 | SIMTY_LINK_SLOT_BYTES << 16;
  case SIMTY_MMIO_LINK_RX_STATUS:
    if (mock.held_n == 0)
      return 0;
    return SIMTY_LINK_RX_READY | mock.held_slot[0] << SIMTY_LINK_RX_SLOT_SHIFT |
           mock.held_kind[0] << SIMTY_LINK_RX_KIND_SHIFT |
           mock.held_len[0] << SIMTY_LINK_RX_LEN_SHIFT;
  case SIMTY_MMIO_LINK_RX_FRAMES:
    return mock.dec.frames;
  case SIMTY_MMIO_LINK_RX_BAD_CRC:
    return mock.dec.bad_crc;
  case SIMTY_MMIO_LINK_RX_BAD_LENGTH:
    return mock.dec.bad_length;
  case SIMTY_MMIO_LINK_RX_RUNTS:
    return mock.dec.runts;
  case SIMTY_MMIO_LINK_TX_STATUS:
    return (mock.txq_n >= mock.tx_slots ? SIMTY_LINK_TX_FULL : 0) |
           (mock.txq_n == 0 ? SIMTY_LINK_TX_IDLE : 0) | mock.txq_n << 8;
  case SIMTY_MMIO_LINK_TX_BUSY:
    return tx_busy_mask();
  case SIMTY_MMIO_COPY_SRC:
    return mock.copy_src;
  case SIMTY_MMIO_COPY_DST:
    return mock.copy_dst;
  case SIMTY_MMIO_COPY_LEN:
    return mock.copy_len;
  case SIMTY_MMIO_COPY_GO:
    if (mock.copy_left) {
      mock.copy_left--;
      return 1;
    }
    return 0;
  default:
    violate("read of an unknown register", off);
    return 0;
  }
}

static void link_reg_write(uint32_t off, uint32_t v)
{
  switch (off) {
  case SIMTY_MMIO_LINK_CTRL:
    if (v & SIMTY_LINK_CTRL_RESET)
      engine_reset();
    mock.link_enabled = v & SIMTY_LINK_CTRL_ENABLE;
    break;
  case SIMTY_MMIO_LINK_RX_RELEASE:
    if (mock.held_n == 0) {
      violate("RX_RELEASE with no frame held", 0);
      break;
    }
    mock.rx_busy &= ~(1u << mock.held_slot[0]);
    mock.held_n--;
    memmove(mock.held_slot, mock.held_slot + 1, mock.held_n * sizeof(uint32_t));
    memmove(mock.held_kind, mock.held_kind + 1, mock.held_n * sizeof(uint32_t));
    memmove(mock.held_len, mock.held_len + 1, mock.held_n * sizeof(uint32_t));
    break;
  case SIMTY_MMIO_LINK_TX_SEND: {
    uint32_t slot = v & 0xFu, len = (v >> SIMTY_LINK_TX_LEN_SHIFT) & 0x1FFFu;
    if (slot >= mock.tx_slots || len < SIMTY_HDR_SIZE ||
        len > SIMTY_LINK_SLOT_BYTES - 4u) {
      violate("TX_SEND of a slot or length out of range", v);
      break;
    }
    if (mock.txq_n >= mock.tx_slots) {
      violate("TX_SEND while the send queue is FULL", v);
      break;
    }
    if (mock.copy_left) {
      int ds = slot_of(mock.copy_dst, mock.copy_len ? mock.copy_len : 1);
      if (ds == (int)(mock.rx_slots + slot))
        violate("TX_SEND while a COPY into the slot runs", v);
    }
    if (mock.txq_n == 0)
      mock.txq_left = mock.tx_delay;
    mock.txq_slot[mock.txq_n] = slot;
    mock.txq_len[mock.txq_n] = len;
    mock.txq_n++;
    break;
  }
  case SIMTY_MMIO_COPY_SRC:
    mock.copy_src = v;
    break;
  case SIMTY_MMIO_COPY_DST:
    mock.copy_dst = v;
    break;
  case SIMTY_MMIO_COPY_LEN:
    mock.copy_len = v;
    break;
  case SIMTY_MMIO_COPY_GO:
    if (mock.copy_left)
      violate("COPY_GO while a copy runs", v);
    copy_go();
    break;
  default:
    violate("write of an unknown register", off);
    break;
  }
  engine_step();
}

uint32_t hal_reg_read(uint32_t off)
{
  if (off >= SIMTY_MMIO_LINK_CTRL && off <= SIMTY_MMIO_COPY_GO)
    return link_reg_read(off);
  switch (off) {
  case SIMTY_MMIO_ID:
    return SIMTY_MMIO_ID_VALUE;
  case SIMTY_MMIO_WARPS:
    return mock.warps;
  case SIMTY_MMIO_LANES:
    return mock.lanes;
  case SIMTY_MMIO_CODE_SIZE:
    return MOCK_CODE_SIZE;
  case SIMTY_MMIO_DATA_SIZE:
    return MOCK_DATA_SIZE;
  case SIMTY_MMIO_CLOCK_HZ:
    return mock.clock_hz;
  case SIMTY_MMIO_CORE_RESET:
    if (mock.reset_left) {
      mock.reset_left--;
      return 1;
    }
    return 0;
  case SIMTY_MMIO_HALT:
    return mock.halt;
  case SIMTY_MMIO_ACTIVE:
    return mock.active;
  case SIMTY_MMIO_SEQ_PC:
    return mock.seq_pc;
  case SIMTY_MMIO_SEQ_FIRST:
    return mock.seq_first;
  case SIMTY_MMIO_SEQ_STATUS:
    return seq_status();
  case SIMTY_MMIO_SEQ_NEXT:
    return mock.seq_next;
  case SIMTY_MMIO_SEQ_DONE:
    return mock.seq_threads_done;
  case SIMTY_MMIO_SEQ_HELD:
    return mock.seq_held;
  case SIMTY_MMIO_WARP_BUSY:
    return mock.busy;
  case SIMTY_MMIO_FAULT_VALID:
    return mock.fault_valid;
  case SIMTY_MMIO_FAULT_CAUSE:
    return mock.fault_valid ? mock.fault_cause : 0;
  case SIMTY_MMIO_FAULT_PC:
    return mock.fault_valid ? mock.fault_pc : 0;
  case SIMTY_MMIO_FAULT_HART:
    return mock.fault_valid ? mock.fault_hart : 0;
  case SIMTY_MMIO_FAULT_TID:
    return mock.fault_valid ? mock.fault_tid : 0;
  case SIMTY_MMIO_FAULT_ADDR:
    return mock.fault_valid ? mock.fault_addr : 0;
  case SIMTY_MMIO_CTR_SEL:
    return mock.ctr_sel;
  case SIMTY_MMIO_CTR_LO:
    if (mock.ctr_sel >= SIMTY_CTR_COUNT)
      return mock.ctr_hi = 0;
    mock.ctr_hi = (uint32_t)(mock.ctr[mock.ctr_sel] >> 32);
    return (uint32_t)mock.ctr[mock.ctr_sel];
  case SIMTY_MMIO_CTR_HI:
    return mock.ctr_hi;
  case SIMTY_MMIO_CONSOLE_STATUS:
    return mock.con_count;
  case SIMTY_MMIO_CONSOLE_TID:
    return mock.con_count ? mock.con_tid[mock.con_head] : 0;
  case SIMTY_MMIO_CONSOLE_DATA: {
    if (mock.con_count == 0) {
      violate("console read while empty", 0);
      return 0;
    }
    uint8_t b = mock.con_byte[mock.con_head];
    mock.con_head = (mock.con_head + 1) % MOCK_CONSOLE_DEPTH;
    mock.con_count--;
    return b;
  }
  case SIMTY_MMIO_TIMER_LO:
    mock.timer += mock.timer_step;
    if (mock.active)
      mock.ctr[SIMTY_CTR_cycles] += mock.timer_step;
    mock.timer_hi = (uint32_t)(mock.timer >> 32);
    return (uint32_t)mock.timer;
  case SIMTY_MMIO_TIMER_HI:
    return mock.timer_hi;
  case SIMTY_MMIO_UART_DATA:
  case SIMTY_MMIO_UART_STATUS:
    /* The link engine owns the UART FIFOs once enabled; the firmware
     * has no business there. */
    violate("UART register read by the v2 firmware", off);
    return 0;
  case SIMTY_MMIO_HW_VERSION:
    return mock.hw_version;
  case SIMTY_MMIO_HW_BUILD:
    return mock.hw_build;
  case SIMTY_MMIO_LINK_BAUD:
    return mock.baud;
  case SIMTY_MMIO_EXTENSIONS:
    return mock.extensions;
  default:
    violate("read of an unknown register", off);
    return 0;
  }
}

void hal_reg_write(uint32_t off, uint32_t v)
{
  if (off >= SIMTY_MMIO_LINK_CTRL && off <= SIMTY_MMIO_COPY_GO) {
    link_reg_write(off, v);
    return;
  }
  switch (off) {
  case SIMTY_MMIO_CORE_RESET:
    if (v & 1u) {
      mock.resets++;
      mock.reset_left = mock.reset_reads;
      mock.busy = 0;
      mock.ever_used = 0;
      mock.fault_valid = false;
      /* The sequencer is reset with the core. */
      mock.seq_launch = mock.seq_done = mock.seq_stopped = false;
      mock.seq_held = 0;
      mock.seq_next = mock.seq_left = mock.seq_threads_done = 0;
      mock.con_head = mock.con_count = 0;
    }
    return;
  case SIMTY_MMIO_HALT:
    if ((v & 1u) && !mock.halt)
      mock.halts++;
    mock.halt = v & 1u;
    return;
  case SIMTY_MMIO_ACTIVE:
    mock.active = v & 1u;
    return;
  case SIMTY_MMIO_LAUNCH_NTHREADS:
    launch_write(&mock.nthreads, v);
    return;
  case SIMTY_MMIO_LAUNCH_ARGS:
    launch_write(&mock.args, v);
    return;
  case SIMTY_MMIO_LAUNCH_STACK_TOP:
    launch_write(&mock.stack_top, v);
    return;
  case SIMTY_MMIO_LAUNCH_STACK_LOG2:
    launch_write(&mock.stack_log2, v);
    return;
  case SIMTY_MMIO_SEQ_PC:
    launch_write(&mock.seq_pc, v);
    return;
  case SIMTY_MMIO_SEQ_FIRST:
    launch_write(&mock.seq_first, v);
    return;
  case SIMTY_MMIO_SEQ_CTRL:
    seq_ctrl(v);
    return;
  case SIMTY_MMIO_CTR_SEL:
    mock.ctr_sel = v;
    return;
  case SIMTY_MMIO_CTR_CLEAR:
    mock.ctr_clears++;
    memset(mock.ctr, 0, sizeof mock.ctr);
    return;
  case SIMTY_MMIO_UART_DATA:
  case SIMTY_MMIO_UART_STATUS:
    violate("UART register written by the v2 firmware", off);
    return;
  default:
    violate("write of an unknown register", off);
    return;
  }
}
