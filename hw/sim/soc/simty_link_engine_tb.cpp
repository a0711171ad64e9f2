/* SPDX-License-Identifier: Apache-2.0 */
// simty_link_engine_tb.cpp - self-checking bench of the link engine
// (simty_link_engine_tb.v around hw/rtl/soc/simty_link_engine.v). The
// reference is the C codec the host and the v1 firmware use
// (driver/link/simty_link.c): wire bytes for RX come from its encoder,
// the events the engine must report from its decoder, and the bytes TX
// must put on the wire from its encoder and CRC.
// Prints a line per part and "link-engine: N failure(s)"; exits 1 on a
// failure.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "verilated.h"
#include "Vsimty_link_engine_tb.h"

extern "C" {
#include "simty_link.h"
#include "simty_mmio.h"
}

namespace {

constexpr uint32_t MMIO = 0xF0000000u;
constexpr uint32_t LB = 0xF0008000u;
constexpr uint32_t CODE = 0x00010000u;
constexpr uint32_t DATA = 0x10000000u;
constexpr unsigned STRIDE = 4112u;
constexpr unsigned RX_SLOTS = 2u, TX_SLOTS = 4u;
constexpr size_t CAP = SIMTY_FRAME_SIZE(SIMTY_MAX_PAYLOAD);

int failures = 0;

#define CHECK(cond, ...)                                                       \
  do {                                                                         \
    if (!(cond)) {                                                             \
      failures++;                                                              \
      std::printf("FAIL %s:%d: ", __FILE__, __LINE__);                         \
      std::printf(__VA_ARGS__);                                                \
      std::printf("\n");                                                       \
    }                                                                          \
  } while (0)

uint32_t rng_state = 0x12345678u;
uint32_t rnd() {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 17;
  rng_state ^= rng_state << 5;
  return rng_state;
}

struct Bench {
  std::unique_ptr<VerilatedContext> ctx;
  std::unique_ptr<Vsimty_link_engine_tb> top;
  uint64_t cycle = 0;
  std::deque<uint8_t> rx_in;   // host -> device bytes not yet taken
  std::vector<uint8_t> tx_out; // device -> host bytes
  bool core_busy = false;      // random CODE/DATA activity of the "core"
  bool tx_stall = false;       // random back-pressure of the host side
  bool rx_gaps = false;        // random gaps in the host's bytes
  bool tx_block = false;       // host takes nothing

  Bench(int argc, char **argv) : ctx(new VerilatedContext) {
    ctx->commandArgs(argc, argv);
    top.reset(new Vsimty_link_engine_tb(ctx.get()));
    top->clk_i = 0;
    top->rst_i = 1;
    top->req_i = 0;
    for (int i = 0; i < 4; i++) tick();
    top->rst_i = 0;
    tick();
  }

  void tick() {
    uint32_t r = rnd();
    top->code_busy_i = core_busy && (r & 3u) == 0;
    top->data_busy_i = core_busy && ((r >> 2) & 3u) == 0;
    top->rx_valid_i = !rx_in.empty() && !(rx_gaps && ((r >> 4) & 7u) == 0);
    top->rx_data_i = rx_in.empty() ? 0 : rx_in.front();
    top->tx_ready_i = !tx_block && !(tx_stall && ((r >> 8) & 3u) != 0);
    top->eval();
    bool rx_take = top->rx_valid_i && top->rx_ready_o;
    bool tx_take = top->tx_valid_o && top->tx_ready_i;
    uint8_t txb = top->tx_data_o;
    top->clk_i = 1;
    top->eval();
    top->clk_i = 0;
    top->eval();
    if (rx_take) rx_in.pop_front();
    if (tx_take) tx_out.push_back(txb);
    cycle++;
    if (cycle > 400000000ull) {
      std::printf("FAIL global time-out\n");
      std::exit(1);
    }
  }

  uint32_t access(uint32_t addr, uint32_t wdata, unsigned wstrb) {
    top->req_i = 1;
    top->addr_i = addr;
    top->wdata_i = wdata;
    top->wstrb_i = wstrb;
    unsigned n = 0;
    do {
      tick();
      if (++n > 1000000u) {
        std::printf("FAIL bus access to %08x never acknowledged\n", addr);
        std::exit(1);
      }
    } while (!top->ack_o);
    top->req_i = 0;
    return top->rdata_o;
  }
  uint32_t rd(uint32_t addr) { return access(addr, 0, 0); }
  void wr(uint32_t addr, uint32_t v, unsigned strb = 0xFu) { access(addr, v, strb); }
  uint32_t reg(uint32_t off) { return rd(MMIO + off); }
  void set(uint32_t off, uint32_t v) { wr(MMIO + off, v); }
  void idle(unsigned n) {
    for (unsigned i = 0; i < n; i++) tick();
  }

  // Byte-wise read and write through word accesses with byte enables.
  std::vector<uint8_t> read_bytes(uint32_t addr, size_t n) {
    std::vector<uint8_t> out(n);
    uint32_t w = 0, wa = 1;
    for (size_t i = 0; i < n; i++) {
      uint32_t a = addr + (uint32_t)i;
      if ((a & ~3u) != wa) {
        wa = a & ~3u;
        w = rd(wa);
      }
      out[i] = (uint8_t)(w >> (8 * (a & 3u)));
    }
    return out;
  }
  void write_bytes(uint32_t addr, const uint8_t *p, size_t n) {
    size_t i = 0;
    while (i < n) {
      uint32_t a = addr + (uint32_t)i;
      uint32_t w = 0;
      unsigned strb = 0;
      do {
        w |= (uint32_t)p[i] << (8 * (a & 3u));
        strb |= 1u << (a & 3u);
        i++;
        a++;
      } while (i < n && (a & 3u) != 0);
      wr((a - 1) & ~3u, w, strb);
    }
  }
};

// ---- Reference decoder: the C one, with the engine's runt rule first ----
enum { DEC_DATA = 2 }; // simty_link.c's decoder state with a frame open

struct Expect {
  unsigned kind; // SIMTY_LINK_KIND_*
  std::vector<uint8_t> bytes;
};

struct RefDecoder {
  std::vector<uint8_t> buf = std::vector<uint8_t>(CAP);
  simty_link_decoder dec;
  std::deque<Expect> expect;
  unsigned runts = 0, frames = 0, bad_crc = 0, bad_length = 0;
  RefDecoder() { simty_link_decoder_init(&dec, buf.data(), buf.size()); }
  void feed(const std::vector<uint8_t> &wire) {
    for (uint8_t b : wire) {
      bool runt = b == 0 && dec.state == DEC_DATA && dec.len < SIMTY_HDR_SIZE;
      simty_link_event ev = simty_link_decoder_feed(&dec, b);
      if (runt) {
        runts++;
        continue;
      }
      unsigned kind;
      if (ev == SIMTY_LINK_FRAME) {
        kind = SIMTY_LINK_KIND_FRAME;
        frames++;
      } else if (ev == SIMTY_LINK_BAD_CRC) {
        kind = SIMTY_LINK_KIND_BAD_CRC;
        bad_crc++;
      } else if (ev == SIMTY_LINK_BAD_LENGTH) {
        kind = SIMTY_LINK_KIND_BAD_LENGTH;
        bad_length++;
      } else {
        continue;
      }
      expect.push_back({kind, std::vector<uint8_t>(buf.begin(), buf.begin() + dec.len)});
    }
  }
};

std::vector<uint8_t> make_frame(size_t payload, int fill, uint16_t seq) {
  std::vector<uint8_t> f(SIMTY_FRAME_SIZE(payload));
  for (size_t i = 0; i < payload; i++) {
    uint8_t v;
    switch (fill) {
    case 0: v = 0; break;                             // all zeros
    case 1: v = (uint8_t)(1u + rnd() % 255u); break;  // no zero at all
    case 2: v = (rnd() % 4u) ? (uint8_t)rnd() : 0; break;
    default: v = (uint8_t)rnd(); break;
    }
    f[SIMTY_HDR_SIZE + i] = v;
  }
  simty_frame_seal(f.data(), 3, seq, 0, (uint16_t)payload);
  return f;
}

std::vector<uint8_t> encode(const std::vector<uint8_t> &f) {
  std::vector<uint8_t> out(SIMTY_WIRE_MAX(f.size()));
  out.resize(simty_link_encode(f.data(), f.size(), out.data()));
  return out;
}

// Drains every frame the engine holds, checking each against the
// reference, with random pauses before a release (so RX slots fill up).
void collect(Bench &tb, RefDecoder &ref, const char *what, unsigned max_idle = 200000) {
  unsigned quiet = 0;
  while (quiet < max_idle) {
    uint32_t st = tb.reg(SIMTY_MMIO_LINK_RX_STATUS);
    if (!(st & SIMTY_LINK_RX_READY)) {
      if (tb.rx_in.empty() && ref.expect.empty()) {
        tb.idle(200);  // the last bytes may still be in the FIFO
        if (!(tb.reg(SIMTY_MMIO_LINK_RX_STATUS) & SIMTY_LINK_RX_READY)) break;
        continue;
      }
      tb.idle(50);
      quiet += 50;
      continue;
    }
    quiet = 0;
    unsigned slot = (st >> SIMTY_LINK_RX_SLOT_SHIFT) & 7u;
    unsigned kind = (st >> SIMTY_LINK_RX_KIND_SHIFT) & 3u;
    unsigned len = st >> SIMTY_LINK_RX_LEN_SHIFT;
    CHECK(!ref.expect.empty(), "%s: engine reports a frame the reference does not (kind %u len %u)",
          what, kind, len);
    if (ref.expect.empty()) {
      tb.set(SIMTY_MMIO_LINK_RX_RELEASE, 0);
      continue;
    }
    Expect e = ref.expect.front();
    ref.expect.pop_front();
    CHECK(slot < RX_SLOTS, "%s: slot %u", what, slot);
    CHECK(kind == e.kind && len == e.bytes.size(), "%s: kind %u len %u, want kind %u len %zu",
          what, kind, len, e.kind, e.bytes.size());
    std::vector<uint8_t> got = tb.read_bytes(LB + slot * STRIDE, e.bytes.size());
    CHECK(got == e.bytes, "%s: slot bytes differ (len %zu)", what, e.bytes.size());
    if (rnd() % 3u == 0) tb.idle(rnd() % 3000u);
    tb.set(SIMTY_MMIO_LINK_RX_RELEASE, 0);
  }
  CHECK(ref.expect.empty(), "%s: %zu frame(s) never reported", what, ref.expect.size());
  CHECK(tb.rx_in.empty(), "%s: %zu wire byte(s) never taken", what, tb.rx_in.size());
}

void check_counters(Bench &tb, RefDecoder &ref, const char *what) {
  CHECK(tb.reg(SIMTY_MMIO_LINK_RX_FRAMES) == ref.frames, "%s: RX_FRAMES %u want %u", what,
        tb.reg(SIMTY_MMIO_LINK_RX_FRAMES), ref.frames);
  CHECK(tb.reg(SIMTY_MMIO_LINK_RX_BAD_CRC) == ref.bad_crc, "%s: RX_BAD_CRC %u want %u", what,
        tb.reg(SIMTY_MMIO_LINK_RX_BAD_CRC), ref.bad_crc);
  CHECK(tb.reg(SIMTY_MMIO_LINK_RX_BAD_LENGTH) == ref.bad_length, "%s: RX_BAD_LENGTH %u want %u",
        what, tb.reg(SIMTY_MMIO_LINK_RX_BAD_LENGTH), ref.bad_length);
  CHECK(tb.reg(SIMTY_MMIO_LINK_RX_RUNTS) == ref.runts, "%s: RX_RUNTS %u want %u", what,
        tb.reg(SIMTY_MMIO_LINK_RX_RUNTS), ref.runts);
}

void send_wire(Bench &tb, RefDecoder &ref, const std::vector<uint8_t> &wire) {
  ref.feed(wire);
  tb.rx_in.insert(tb.rx_in.end(), wire.begin(), wire.end());
}

void test_disabled(Bench &tb) {
  uint32_t info = tb.reg(SIMTY_MMIO_LINK_INFO);
  CHECK(info == ((STRIDE << 16) | (TX_SLOTS << 8) | RX_SLOTS), "LINK_INFO %08x", info);
  CHECK(tb.reg(SIMTY_MMIO_LINK_CTRL) == 0, "ENABLE is 0 after reset");
  // The engine leaves the UART alone: bytes wait for UART_DATA.
  const uint8_t in[] = {0x00, 0x11, 0x00, 0x7F};
  for (uint8_t b : in) tb.rx_in.push_back(b);
  tb.idle(200);
  for (uint8_t b : in) {
    uint32_t v = tb.reg(SIMTY_MMIO_UART_DATA);
    CHECK(v == (0x100u | b), "UART_DATA with the engine off: %03x want %03x", v, 0x100u | b);
  }
  CHECK(tb.reg(SIMTY_MMIO_UART_DATA) == 0, "UART_DATA empty");
  tb.set(SIMTY_MMIO_UART_DATA, 0xA5);
  tb.set(SIMTY_MMIO_UART_DATA, 0x00);
  tb.idle(50);
  CHECK(tb.tx_out == std::vector<uint8_t>({0xA5, 0x00}), "UART_DATA writes with the engine off");
  tb.tx_out.clear();
  CHECK(!(tb.reg(SIMTY_MMIO_LINK_RX_STATUS) & 1u), "nothing held while off");
  CHECK(tb.reg(SIMTY_MMIO_LINK_RX_RUNTS) == 0, "no runt counted while off");
  // LINKBUF: byte, halfword and word writes, word reads; past the slots 0.
  tb.wr(LB + 0x100, 0x11223344u);
  tb.wr(LB + 0x100, 0x0000AA00u, 0x2u);
  tb.wr(LB + 0x100, 0xBBCC0000u, 0xCu);
  CHECK(tb.rd(LB + 0x100) == 0xBBCCAA44u, "LINKBUF byte enables: %08x", tb.rd(LB + 0x100));
  tb.wr(LB + (RX_SLOTS + TX_SLOTS) * STRIDE, 0xDEADBEEFu);
  CHECK(tb.rd(LB + (RX_SLOTS + TX_SLOTS) * STRIDE) == 0, "LINKBUF past the slots reads 0");
  tb.wr(LB + 0x7FFC, 0xDEADBEEFu);
  CHECK(tb.rd(LB + 0x7FFC) == 0, "LINKBUF window end reads 0");
  std::printf("part: engine off, UART_DATA, LINKBUF access\n");
}

void test_rx_frames(Bench &tb, RefDecoder &ref) {
  const size_t sizes[] = {0, 1, 2, 3, 100, 245, 246, 247, 250, 253, 254, 255, 300, 508, 509,
                          1000, 2047, 4092, 4095, 4096};
  uint16_t seq = 1;
  for (int fill = 0; fill < 4; fill++) {
    for (size_t s : sizes) {
      std::vector<uint8_t> wire = encode(make_frame(s, fill, seq++));
      if (rnd() & 1u) wire.erase(wire.begin());  // no leading delimiter
      send_wire(tb, ref, wire);
    }
    collect(tb, ref, "good frames");
  }
  check_counters(tb, ref, "good frames");
  CHECK(ref.frames == 4 * (sizeof sizes / sizeof sizes[0]), "reference counted %u frames",
        ref.frames);
  std::printf("part: %u good frames (payload 0..4096, zeros, 254+ runs)\n", ref.frames);
}

void test_rx_errors(Bench &tb, RefDecoder &ref) {
  uint16_t seq = 100;
  unsigned bad_crc0 = ref.bad_crc, bad_len0 = ref.bad_length, runts0 = ref.runts;
  // Garbage between frames, runts, a cut frame, a CRC error, oversize.
  for (int round = 0; round < 6; round++) {
    std::vector<uint8_t> g;
    for (unsigned i = rnd() % 40u; i > 0; i--) g.push_back((uint8_t)rnd());
    send_wire(tb, ref, g);
    send_wire(tb, ref, encode(make_frame(rnd() % 600u, 3, seq++)));
    send_wire(tb, ref, {0x00, 0x03, 0x11, 0x22, 0x00});          // runt
    send_wire(tb, ref, {0x00, 0x09, 0x01, 0x02, 0x00});          // runt, run cut short
    send_wire(tb, ref, {0x00, 0x08, 1, 2, 3, 4, 5, 6, 7, 0x00});  // 7 bytes: runt
    send_wire(tb, ref, {0x00, 0x09, 1, 2, 3, 4, 5, 6, 7, 8, 0x00}); // 8: BAD_LENGTH
    std::vector<uint8_t> f = make_frame(50 + rnd() % 300u, 3, seq++);
    f[SIMTY_HDR_SIZE + rnd() % 50u] ^= 0x10;                      // CRC error
    send_wire(tb, ref, encode(f));
    std::vector<uint8_t> c = encode(make_frame(200, 1, seq++));  // run cut short
    c.resize(c.size() - 30);
    c.push_back(0x00);
    send_wire(tb, ref, c);
    std::vector<uint8_t> l = make_frame(100, 3, seq++);           // size != 12 + length
    l[SIMTY_HDR_LENGTH] = 99;
    simty_put_u32(l.data() + 108, simty_crc32(0, l.data(), 108));
    send_wire(tb, ref, encode(l));
    send_wire(tb, ref, encode(make_frame(rnd() % 4097u, 2, seq++)));
  }
  // Oversize: a frame of 4097 and one of 6000 payload bytes, both
  // reported once and dropped up to the next zero, then a good frame.
  for (size_t s : {4097u, 6000u}) {
    std::vector<uint8_t> big(SIMTY_FRAME_SIZE(s));
    for (auto &v : big) v = (uint8_t)(1u + rnd() % 255u);
    simty_frame_seal(big.data(), 3, seq++, 0, (uint16_t)s);
    send_wire(tb, ref, encode(big));
    send_wire(tb, ref, encode(make_frame(10, 3, seq++)));
  }
  collect(tb, ref, "errors");
  check_counters(tb, ref, "errors");
  CHECK(ref.bad_crc - bad_crc0 >= 6 && ref.bad_length - bad_len0 >= 20 && ref.runts - runts0 >= 18,
        "the error cases happened (crc %u len %u runts %u)", ref.bad_crc - bad_crc0,
        ref.bad_length - bad_len0, ref.runts - runts0);
  std::printf("part: garbage, runts, cut, BAD_CRC, BAD_LENGTH, oversize, resync\n");
}

void test_rx_full(Bench &tb, RefDecoder &ref) {
  // Four frames, no release: two slots fill, the engine stops popping,
  // the UART FIFO fills and the host is held back; no byte is lost.
  unsigned frames0 = ref.frames;
  for (int i = 0; i < 4; i++) send_wire(tb, ref, encode(make_frame(300, 3, (uint16_t)(500 + i))));
  tb.idle(30000);
  CHECK(tb.reg(SIMTY_MMIO_LINK_RX_FRAMES) == frames0 + 2, "two frames held, no more taken");
  CHECK(tb.rx_in.size() > 300, "the host is held back (%zu bytes waiting)", tb.rx_in.size());
  uint32_t st = tb.reg(SIMTY_MMIO_LINK_RX_STATUS);
  CHECK((st & 1u) && ((st >> 1) & 7u) < RX_SLOTS, "RX_STATUS shows the oldest");
  collect(tb, ref, "slots full");
  check_counters(tb, ref, "slots full");
  std::printf("part: RX slots full, back-pressure, no byte lost\n");
}

// TX: frames written into TX slots, queued; the wire must carry exactly
// the reference encoder's bytes, in queue order.
void test_tx(Bench &tb, bool stall) {
  tb.tx_stall = stall;
  std::vector<uint8_t> want;
  uint16_t seq = 900;
  for (int round = 0; round < 3; round++) {
    std::vector<std::vector<uint8_t>> frames;
    for (unsigned j = 0; j < TX_SLOTS; j++) {
      static const size_t first[4] = {0, 1, 254, 4096};
      size_t payload = (round == 0) ? first[j % 4u] : rnd() % 1200u;
      std::vector<uint8_t> f = make_frame(payload, (int)((j + round) % 4u), seq++);
      tb.write_bytes(LB + (RX_SLOTS + j) * STRIDE, f.data(), f.size() - 4);
      frames.push_back(f);
    }
    tb.tx_block = true;
    for (unsigned j = 0; j < TX_SLOTS; j++) {
      unsigned L = (unsigned)frames[j].size() - 4u;
      tb.set(SIMTY_MMIO_LINK_TX_SEND, (L << SIMTY_LINK_TX_LEN_SHIFT) | j);
      std::vector<uint8_t> e = encode(frames[j]);
      want.insert(want.end(), e.begin(), e.end());
    }
    uint32_t s = tb.reg(SIMTY_MMIO_LINK_TX_STATUS);
    CHECK(s == ((TX_SLOTS << 8) | SIMTY_LINK_TX_FULL), "TX_STATUS with %u queued: %08x",
          TX_SLOTS, s);
    CHECK(tb.reg(SIMTY_MMIO_LINK_TX_BUSY) == (1u << TX_SLOTS) - 1u, "TX_BUSY all set");
    tb.set(SIMTY_MMIO_LINK_TX_SEND, (20u << SIMTY_LINK_TX_LEN_SHIFT) | 0u);  // FULL: dropped
    tb.tx_block = false;
    unsigned n = 0;
    while (!(tb.reg(SIMTY_MMIO_LINK_TX_STATUS) & SIMTY_LINK_TX_IDLE) && n++ < 200000u) tb.idle(20);
    CHECK(tb.reg(SIMTY_MMIO_LINK_TX_BUSY) == 0, "TX_BUSY clear when idle");
    for (unsigned j = 0; j < TX_SLOTS; j++) {
      std::vector<uint8_t> crc =
          tb.read_bytes(LB + (RX_SLOTS + j) * STRIDE + (uint32_t)frames[j].size() - 4, 4);
      CHECK(std::equal(crc.begin(), crc.end(), frames[j].end() - 4), "CRC stored in slot %u", j);
    }
  }
  tb.idle(2000);
  CHECK(tb.tx_out == want, "TX wire bytes (%zu got, %zu want)", tb.tx_out.size(), want.size());
  if (tb.tx_out != want) {
    for (size_t i = 0; i < want.size() && i < tb.tx_out.size(); i++)
      if (tb.tx_out[i] != want[i]) {
        std::printf("     first difference at byte %zu: %02x want %02x\n", i, tb.tx_out[i], want[i]);
        break;
      }
  }
  tb.tx_out.clear();
  tb.tx_stall = false;
  std::printf("part: TX of %u queued slots x3%s, CRC stored, FULL drops\n", TX_SLOTS,
              stall ? " (host back-pressure)" : "");
}

// RX and TX at once, with the "core" busy and host gaps.
void test_both(Bench &tb, RefDecoder &ref) {
  tb.rx_gaps = true;
  tb.tx_stall = true;
  std::vector<uint8_t> want;
  for (int i = 0; i < 6; i++) send_wire(tb, ref, encode(make_frame(rnd() % 2000u, 3, (uint16_t)(700 + i))));
  for (unsigned j = 0; j < TX_SLOTS; j++) {
    std::vector<uint8_t> f = make_frame(rnd() % 900u, 2, (uint16_t)(800 + j));
    tb.write_bytes(LB + (RX_SLOTS + j) * STRIDE, f.data(), f.size() - 4);
    tb.set(SIMTY_MMIO_LINK_TX_SEND, ((unsigned)(f.size() - 4) << SIMTY_LINK_TX_LEN_SHIFT) | j);
    std::vector<uint8_t> e = encode(f);
    want.insert(want.end(), e.begin(), e.end());
  }
  collect(tb, ref, "rx+tx");
  unsigned n = 0;
  while (!(tb.reg(SIMTY_MMIO_LINK_TX_STATUS) & SIMTY_LINK_TX_IDLE) && n++ < 200000u) tb.idle(20);
  tb.idle(2000);
  CHECK(tb.tx_out == want, "rx+tx: TX wire bytes");
  tb.tx_out.clear();
  check_counters(tb, ref, "rx+tx");
  tb.rx_gaps = false;
  tb.tx_stall = false;
  std::printf("part: RX and TX together\n");
}

void test_reset(Bench &tb, RefDecoder &ref) {
  // Half a frame, then RESET: the partial frame is dropped, held frames
  // freed; the next frame is received normally.
  std::vector<uint8_t> w = encode(make_frame(100, 3, 1000));
  send_wire(tb, ref, encode(make_frame(20, 3, 999)));
  std::vector<uint8_t> half(w.begin(), w.begin() + 50);
  tb.rx_in.insert(tb.rx_in.end(), half.begin(), half.end());
  tb.idle(2000);
  CHECK(tb.reg(SIMTY_MMIO_LINK_RX_STATUS) & 1u, "a frame held before RESET");
  tb.set(SIMTY_MMIO_LINK_CTRL, SIMTY_LINK_CTRL_ENABLE | SIMTY_LINK_CTRL_RESET);
  CHECK(!(tb.reg(SIMTY_MMIO_LINK_RX_STATUS) & 1u), "RESET frees the RX slots");
  CHECK(tb.reg(SIMTY_MMIO_LINK_CTRL) == SIMTY_LINK_CTRL_ENABLE, "RESET reads 0, ENABLE stays");
  ref.expect.clear();
  simty_link_decoder_init(&ref.dec, ref.buf.data(), ref.buf.size());
  send_wire(tb, ref, w);
  collect(tb, ref, "after RESET");
  std::printf("part: LINK_CTRL RESET\n");
}

// ENABLE cleared and set again many times while a frame is being sent
// and another received, with controller reads of LINKBUF in the pauses:
// both frames come out intact.
void test_pause(Bench &tb, RefDecoder &ref) {
  std::vector<uint8_t> f = make_frame(2000, 2, 1234);
  tb.write_bytes(LB + (RX_SLOTS + 1) * STRIDE, f.data(), f.size() - 4);
  send_wire(tb, ref, encode(make_frame(1500, 3, 1235)));
  tb.set(SIMTY_MMIO_LINK_TX_SEND, ((unsigned)(f.size() - 4) << SIMTY_LINK_TX_LEN_SHIFT) | 1u);
  for (int k = 0; k < 60; k++) {
    tb.idle(rnd() % 400u);
    tb.set(SIMTY_MMIO_LINK_CTRL, 0);
    for (int r = 0; r < 4; r++) tb.rd(LB + (rnd() % (6u * STRIDE)) / 4u * 4u);
    tb.idle(rnd() % 50u);
    tb.set(SIMTY_MMIO_LINK_CTRL, SIMTY_LINK_CTRL_ENABLE);
  }
  collect(tb, ref, "pause");
  unsigned n = 0;
  while (!(tb.reg(SIMTY_MMIO_LINK_TX_STATUS) & SIMTY_LINK_TX_IDLE) && n++ < 200000u) tb.idle(20);
  tb.idle(100);
  CHECK(tb.tx_out == encode(f), "pause: TX wire bytes after ENABLE toggles");
  tb.tx_out.clear();
  std::printf("part: ENABLE toggled mid-frame (RX and TX)\n");
}

// ---- COPY ----
struct Shadow {
  std::vector<uint8_t> code = std::vector<uint8_t>(0x10000);
  std::vector<uint8_t> data = std::vector<uint8_t>(0x10000);
  std::vector<uint8_t> lb = std::vector<uint8_t>(0x8000);
  uint8_t &at(uint32_t a) {
    if (a >= LB) return lb[a - LB];
    if (a >= DATA) return data[a - DATA];
    return code[a - CODE];
  }
};

void test_copy(Bench &tb) {
  Shadow sh;
  const uint32_t AREA = 0x2000;
  const uint32_t bases[3] = {CODE + 0x1000, DATA + 0x3000, LB + 0x0800};
  const char *names[3] = {"CODE", "DATA", "LINKBUF"};
  for (uint32_t base : bases)
    for (uint32_t a = base; a < base + AREA; a += 4) {
      uint32_t v = rnd();
      tb.wr(a, v);
      for (unsigned k = 0; k < 4; k++) sh.at(a + k) = (uint8_t)(v >> (8 * k));
    }
  tb.core_busy = true;
  unsigned copies = 0;
  uint64_t copy_cycles = 0, copy_bytes = 0;
  for (unsigned si = 0; si < 3; si++)
    for (unsigned di = 0; di < 3; di++)
      for (unsigned sa = 0; sa < 4; sa++)
        for (unsigned da = 0; da < 4; da++) {
          unsigned len = (copies % 7u == 0) ? 1000u + rnd() % 2000u : rnd() % 70u;
          // src in the first half of its area, dst in the second: no overlap
          uint32_t src = bases[si] + 16u + (rnd() % 0x200u) * 4u + sa;
          uint32_t dst = bases[di] + AREA / 2u + 16u + (rnd() % 0x100u) * 4u + da;
          if (len + (dst - bases[di]) + 16u > AREA) len = AREA - (dst - bases[di]) - 16u;
          tb.set(SIMTY_MMIO_COPY_SRC, src);
          tb.set(SIMTY_MMIO_COPY_DST, dst);
          tb.set(SIMTY_MMIO_COPY_LEN, len);
          uint64_t c0 = tb.cycle;
          tb.set(SIMTY_MMIO_COPY_GO, 1);
          while (tb.reg(SIMTY_MMIO_COPY_GO) & 1u) {
          }
          copy_cycles += tb.cycle - c0;
          copy_bytes += len;
          for (unsigned i = 0; i < len; i++) sh.at(dst + i) = sh.at(src + i);
          // The controller's access after a copy waits for its end anyway:
          // read back the destination and 8 bytes either side.
          std::vector<uint8_t> got = tb.read_bytes(dst - 8, len + 16);
          bool ok = true;
          for (unsigned i = 0; i < len + 16; i++) ok = ok && got[i] == sh.at(dst - 8 + i);
          CHECK(ok, "COPY %s+%u -> %s+%u len %u", names[si], sa, names[di], da, len);
          CHECK(tb.reg(SIMTY_MMIO_COPY_SRC) == src && tb.reg(SIMTY_MMIO_COPY_LEN) == len,
                "COPY registers keep their values");
          copies++;
        }
  tb.core_busy = false;
  // Aligned LINKBUF -> LINKBUF without core activity: a word a cycle.
  tb.set(SIMTY_MMIO_COPY_SRC, LB + 0x800);
  tb.set(SIMTY_MMIO_COPY_DST, LB + 0x1800);
  tb.set(SIMTY_MMIO_COPY_LEN, 4000);
  uint64_t c0 = tb.cycle;
  tb.set(SIMTY_MMIO_COPY_GO, 1);
  // The next LINKBUF access waits for the copy's end.
  uint32_t v = tb.rd(LB + 0x1800 + 3996);
  uint64_t took = tb.cycle - c0;
  for (unsigned i = 0; i < 4000; i++) sh.at(LB + 0x1800 + i) = sh.at(LB + 0x800 + i);
  CHECK(v == (uint32_t)(sh.at(LB + 0x1800 + 3996) | sh.at(LB + 0x1800 + 3997) << 8 |
                        sh.at(LB + 0x1800 + 3998) << 16 | sh.at(LB + 0x1800 + 3999) << 24),
        "the access after COPY_GO sees the copied data");
  CHECK(took < 1000 + 20, "aligned copy of 4000 bytes took %llu cycles", (unsigned long long)took);
  std::printf("part: COPY, %u copies at every alignment between CODE, DATA, LINKBUF "
              "(%.2f bytes/cycle with the core busy half the time; aligned 4000 B in %llu cycles)\n",
              copies, (double)copy_bytes / (double)copy_cycles, (unsigned long long)took);
}

// LINK_TX_SEND limits: L up to the slot stride - 4 is sent, a longer L
// or a slot past the TX slots is dropped.
void test_send_limits(Bench &tb) {
  std::vector<uint8_t> f = make_frame(STRIDE - 4u - 8u - 4u + 4u, 3, 77);  // L = 4108
  CHECK(f.size() - 4 == STRIDE - 4u, "frame of L = stride - 4");
  tb.write_bytes(LB + (RX_SLOTS + 2) * STRIDE, f.data(), f.size() - 4);
  tb.set(SIMTY_MMIO_LINK_TX_SEND, ((STRIDE - 4u) << SIMTY_LINK_TX_LEN_SHIFT) | 2u);
  unsigned n = 0;
  while (!(tb.reg(SIMTY_MMIO_LINK_TX_STATUS) & SIMTY_LINK_TX_IDLE) && n++ < 200000u) tb.idle(20);
  tb.idle(100);
  CHECK(tb.tx_out == encode(f), "L = %u sent", STRIDE - 4u);
  tb.tx_out.clear();
  tb.set(SIMTY_MMIO_LINK_TX_SEND, ((STRIDE - 3u) << SIMTY_LINK_TX_LEN_SHIFT) | 2u);
  tb.set(SIMTY_MMIO_LINK_TX_SEND, (20u << SIMTY_LINK_TX_LEN_SHIFT) | TX_SLOTS);
  CHECK(tb.reg(SIMTY_MMIO_LINK_TX_STATUS) == SIMTY_LINK_TX_IDLE && tb.reg(SIMTY_MMIO_LINK_TX_BUSY) == 0,
        "L > stride - 4 and slot >= TX_SLOTS dropped");
  tb.idle(500);
  CHECK(tb.tx_out.empty(), "nothing sent for dropped sends");
  std::printf("part: TX_SEND limits\n");
}

void test_tx_rate(Bench &tb) {
  // Cycles per wire byte of TX with the host always ready (FIFO of 16).
  std::vector<uint8_t> f = make_frame(4096, 3, 1);
  tb.write_bytes(LB + RX_SLOTS * STRIDE, f.data(), f.size() - 4);
  std::vector<uint8_t> e = encode(f);
  uint64_t c0 = tb.cycle;
  tb.set(SIMTY_MMIO_LINK_TX_SEND, ((unsigned)(f.size() - 4) << SIMTY_LINK_TX_LEN_SHIFT) | 0u);
  while (tb.tx_out.size() < e.size()) tb.tick();
  CHECK(tb.tx_out == e, "TX of 4096 bytes");
  std::printf("rate: TX %zu wire bytes in %llu cycles (%.2f cycles a byte)\n", e.size(),
              (unsigned long long)(tb.cycle - c0), (double)(tb.cycle - c0) / (double)e.size());
  tb.tx_out.clear();
}

} // namespace

int main(int argc, char **argv) {
  Bench tb(argc, argv);
  RefDecoder ref;
  test_disabled(tb);
  tb.set(SIMTY_MMIO_LINK_CTRL, SIMTY_LINK_CTRL_ENABLE);
  CHECK(tb.reg(SIMTY_MMIO_UART_DATA) == 0, "UART_DATA reads 0 with the engine on");
  test_rx_frames(tb, ref);
  test_rx_errors(tb, ref);
  test_rx_full(tb, ref);
  test_tx(tb, false);
  test_tx(tb, true);
  test_both(tb, ref);
  test_reset(tb, ref);
  test_pause(tb, ref);
  test_copy(tb);
  test_send_limits(tb);
  test_tx_rate(tb);
  {
    // RX rate: a 4096-byte frame from a host that never pauses.
    std::vector<uint8_t> w = encode(make_frame(4096, 3, 2));
    send_wire(tb, ref, w);
    uint64_t c0 = tb.cycle;
    while (!tb.rx_in.empty()) tb.tick();
    uint64_t took = tb.cycle - c0;
    collect(tb, ref, "rx rate");
    std::printf("rate: RX %zu wire bytes in %llu cycles\n", w.size(), (unsigned long long)took);
  }
  std::printf("link-engine: %d failure(s), %llu cycles\n", failures,
              (unsigned long long)tb.cycle);
  tb.top->final();
  return failures ? 1 : 0;
}
