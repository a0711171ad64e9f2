/* SPDX-License-Identifier: Apache-2.0 */
// simty_tb_main.cpp - Verilator glue of the simty_core testbench: clock,
// reset, the per-cycle handshakes and the two RAMs' DPI functions (the
// RAMs' read registers are in simty_tb_top.v, their contents here and in
// simty_tb.c). Everything else (command line, ELF, dispatcher, console,
// reports) is C, in simty_tb.c; this file only moves bits between it and
// the model.
//
// Built once per configuration with -DSIMTY_TB_WARPS/_LANES/_CODE_SIZE/
// _DATA_SIZE equal to the Verilog parameters (-G) of the same build.
#include <chrono>
#include <cstdint>
#include <ctime>
#include <memory>

#include "Vsimty_tb_top.h"
#include "Vsimty_tb_top__Dpi.h"
#include "verilated.h"
#if VM_TRACE_FST
#include "verilated_fst_c.h"
typedef VerilatedFstC WaveWriter;
#elif VM_TRACE
#include "verilated_vcd_c.h"
typedef VerilatedVcdC WaveWriter;
#endif

#include "simty_arch.h"
#include "simty_tb.h"

#ifndef SIMTY_TB_WARPS
#error "build with -DSIMTY_TB_WARPS=W -DSIMTY_TB_LANES=L (see hw/rtl/rtl.mk)"
#endif

#ifndef SIMTY_TB_XBAR
#define SIMTY_TB_XBAR 0
#endif

static const unsigned kLanes = SIMTY_TB_LANES;
static const unsigned kLineBytes = 4 * kLanes;
static const uint32_t kCodeSize = SIMTY_TB_CODE_SIZE;
static const uint32_t kDataSize = SIMTY_TB_DATA_SIZE;

static inline uint32_t load32(const uint8_t *p)
{
  return static_cast<uint32_t>(p[0]) | static_cast<uint32_t>(p[1]) << 8 |
         static_cast<uint32_t>(p[2]) << 16 | static_cast<uint32_t>(p[3]) << 24;
}

namespace {

class Bench;
// The one bench of this process, for the DPI functions.
Bench *the_bench = nullptr;

class Bench {
public:
  Bench(simty_tb *tb) : tb_(tb), top_(new Vsimty_tb_top(&ctx_))
  {
    code_ = simty_tb_code(tb);
    data_ = simty_tb_data(tb);
    the_bench = this;
  }

  ~Bench()
  {
    the_bench = nullptr;
#if VM_TRACE
    if (waves_)
      waves_->close();
#endif
    top_->final();
  }

  // Returns 0, or an exit code if waves were asked of a build without them.
  int open_waves(const char *path)
  {
    if (!path)
      return 0;
#if VM_TRACE
    ctx_.traceEverOn(true);
    waves_.reset(new WaveWriter);
    top_->trace(waves_.get(), 99);
    waves_->open(path);
    return 0;
#else
    fprintf(stderr,
            "simty-rtl: waveforms need the traced build: make "
            "build/rtl/core_%ux%u/simty-rtl-wave\n",
            SIMTY_TB_WARPS, SIMTY_TB_LANES);
    return SIMTY_TB_EXIT_USAGE;
#endif
  }

  int run()
  {
    drive_.nthreads = simty_tb_nthreads(tb_);
    drive_.args = simty_tb_args(tb_);
    drive_.stack_top = simty_tb_stack_top(tb_);
    drive_.stack_log2 = simty_tb_stack_log2(tb_);
    drive_.console_ready = true;
    drive_.rst = true;
    top_->ctr_sel_i = 0;
    for (int i = 0; i < 4; i++)
      cycle();
    drive_.rst = false;
    in_reset_ = false;

    simty_tb_state state = SIMTY_TB_RUNNING;
    simty_tb_dispatch next = {};
    auto start = std::chrono::steady_clock::now();
    const std::clock_t cpu_start = std::clock();
    while (state == SIMTY_TB_RUNNING) {
      if (!cycle()) {
        state = SIMTY_TB_BROKEN;
        break;
      }
      state = simty_tb_step(tb_, top_->warp_busy_o, top_->idle_o,
                            top_->fault_valid_o, &next);
      drive_.dispatch = next;
      drive_.console_ready =
          simty_tb_console_ready(tb_, drive_.console_ready);
    }
    const double seconds = std::chrono::duration<double>(
                               std::chrono::steady_clock::now() - start)
                               .count();
    const double cpu_seconds =
        static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;

    simty_tb_fault fault = {};
    if (state == SIMTY_TB_FAULTED) {
      fault.cause = top_->fault_cause_o;
      fault.pc = top_->fault_pc_o;
      fault.hart = top_->fault_hart_o;
      fault.tid = top_->fault_tid_o;
      fault.addr = top_->fault_addr_o;
    }
    // Stop everything before reading counters: a time-out halts the core
    // like the host's abort does.
    drive_.dispatch = simty_tb_dispatch{};
    drive_.halt = state == SIMTY_TB_TIMEOUT;
    drive_.console_ready = true;
    uint64_t ctr[SIMTY_CTR_COUNT] = {};
    // ctr_value_o is registered: select, clock until ctr_valid_o says it
    // holds the selected counter (docs/core.md: at most SIMTY_CTR_COUNT
    // cycles; the bench gives up after twice that and calls it a broken
    // interface). Index 15 (reads 0) is selected for one clock first, so
    // that counter 0 is latched afresh, not the snapshot (up to 13 cycles
    // old) taken while it was selected during the run. `cycles` is read
    // first, before the extra clocks could add to it. A core that broke
    // the memory protocol is not clocked further. The select is the one
    // input that is not registered (simty_tb_top.v).
    if (state != SIMTY_TB_BROKEN) {
      top_->ctr_sel_i = 15;
      top_->eval();
      cycle();
    }
    for (unsigned i = 0; i < SIMTY_CTR_COUNT && state != SIMTY_TB_BROKEN;
         i++) {
      top_->ctr_sel_i = i;
      top_->eval();
      unsigned waited = 0;
      while (!top_->ctr_valid_o && waited < 2 * SIMTY_CTR_COUNT + 2) {
        cycle();
        waited++;
      }
      if (!top_->ctr_valid_o) {
        simty_tb_protocol_error(tb_, "ctr_valid_o never rose for counter", i);
        state = SIMTY_TB_BROKEN;
        break;
      }
      ctr[i] = top_->ctr_value_o;
    }
    return simty_tb_finish(tb_, state, &fault, ctr, seconds, cpu_seconds);
  }

public:
  // The core's inputs: set by the glue between edges, registered in
  // simty_tb_top.v at the next rising edge (simty_tb_inputs).
  struct Inputs {
    bool rst = true;
    uint32_t nthreads = 0, args = 0, stack_top = 0, stack_log2 = 0;
    simty_tb_dispatch dispatch = {};
    bool halt = false, ctr_clear = false, console_ready = true;

    bool operator==(const Inputs &o) const
    {
      return rst == o.rst && nthreads == o.nthreads && args == o.args &&
             stack_top == o.stack_top && stack_log2 == o.stack_log2 &&
             dispatch.valid == o.dispatch.valid &&
             dispatch.warp == o.dispatch.warp &&
             dispatch.pc == o.dispatch.pc &&
             dispatch.base_tid == o.dispatch.base_tid &&
             dispatch.mask == o.dispatch.mask && halt == o.halt &&
             ctr_clear == o.ctr_clear && console_ready == o.console_ready;
    }
  };

  // simty_tb_inputs: the values to register at this edge.
  const Inputs &inputs()
  {
    held_ = drive_;
    fetched_ = true;
    return held_;
  }

  // simty_tb_inputs_changed: whether they differ from those registered.
  bool inputs_changed() const { return !fetched_ || !(drive_ == held_); }

private:
  // One clock period: note what the core hands over at the rising edge
  // (retirements, console bytes, a dispatch), clock (the RAMs answer and
  // the inputs are registered through DPI at the edge), fall. False if
  // the core asked for memory outside its contract during this period.
  // held_ is what the core's input registers hold until this edge.
  bool cycle()
  {
    const bool fire = held_.dispatch.valid && top_->dispatch_ready_o;

    if (!in_reset_) {
      if (top_->retire_valid_o)
        simty_tb_retire(tb_, top_->retire_warp_o, top_->retire_pc_o,
                        top_->retire_mask_o);
      if (top_->console_valid_o && held_.console_ready)
        simty_tb_console(tb_, top_->console_tid_o, top_->console_byte_o);
      if (fire) {
        // Accepted at this edge: not offered again (the glue may already
        // offer another block or warp; the next step decides anew).
        simty_tb_dispatched(tb_, &held_.dispatch);
        drive_.dispatch.valid = 0;
      }
    }

    mem_ok_ = true;
    top_->clk_i = 1;
    top_->eval();
    tick_waves();
    top_->clk_i = 0;
    top_->eval();
    tick_waves();
    return mem_ok_;
  }

public:
  // simty_tb_imem_read: one CODE word. A fetch outside populated CODE
  // or misaligned stops the bench and reads as 0.
  uint32_t imem_read(uint32_t addr)
  {
    const uint32_t off = addr - SIMTY_CODE_BASE;
    if ((addr & 3) || addr < SIMTY_CODE_BASE || off >= kCodeSize) {
      simty_tb_protocol_error(tb_, "fetch outside populated CODE", addr);
      mem_ok_ = false;
      return 0;
    }
    return load32(code_ + off);
  }

  // simty_tb_dmem_access: the line RAM. Read the old contents, then write
  // the enabled bytes. A line outside populated DATA or not line-aligned
  // stops the bench, writes nothing and reads as 0.
  void dmem_access(uint32_t addr, const svBitVecVal *be,
                   const svBitVecVal *wdata, svBitVecVal *rdata)
  {
    const uint32_t off = addr - SIMTY_DATA_BASE;
    if ((addr & (kLineBytes - 1)) || addr < SIMTY_DATA_BASE ||
        off >= kDataSize) {
      simty_tb_protocol_error(tb_, "data line outside populated DATA or "
                                   "not line-aligned", addr);
      mem_ok_ = false;
      for (unsigned i = 0; i < kLanes; i++)
        rdata[i] = 0;
      return;
    }
    uint8_t *line = data_ + off;
    for (unsigned i = 0; i < kLanes; i++) {
      rdata[i] = load32(line + 4 * i);
      const uint32_t lane_be = (be[i / 8] >> (4 * (i % 8))) & 15;
      for (unsigned b = 0; b < 4; b++)
        if (lane_be & (1u << b))
          line[4 * i + b] = static_cast<uint8_t>(wdata[i] >> (8 * b));
    }
  }

private:
  void tick_waves()
  {
#if VM_TRACE
    if (waves_)
      waves_->dump(time_);
#endif
    time_++;
  }

  simty_tb *tb_;
  VerilatedContext ctx_;
  std::unique_ptr<Vsimty_tb_top> top_;
#if VM_TRACE
  std::unique_ptr<WaveWriter> waves_;
#endif
  const uint8_t *code_ = nullptr;
  uint8_t *data_ = nullptr;
  bool mem_ok_ = true;
  Inputs drive_, held_;
  bool fetched_ = false;  // held_ was registered at least once
  uint64_t time_ = 0;
  bool in_reset_ = true;
};

} // namespace

// DPI functions of simty_tb_top.v (declared in Vsimty_tb_top__Dpi.h).
int simty_tb_imem_read(int addr)
{
  return static_cast<int>(the_bench->imem_read(static_cast<uint32_t>(addr)));
}

void simty_tb_dmem_access(int addr, const svBitVecVal *be,
                          const svBitVecVal *wdata, svBitVecVal *rdata)
{
  the_bench->dmem_access(static_cast<uint32_t>(addr), be, wdata, rdata);
}

svBit simty_tb_inputs_changed()
{
  return the_bench->inputs_changed();
}

void simty_tb_inputs(svBit *rst, int *nthreads, int *args, int *stack_top,
                     int *stack_log2, svBit *dispatch_valid,
                     int *dispatch_warp, int *dispatch_pc,
                     int *dispatch_base_tid, int *dispatch_mask, svBit *halt,
                     svBit *ctr_clear, svBit *console_ready)
{
  const Bench::Inputs &in = the_bench->inputs();
  *rst = in.rst;
  *nthreads = static_cast<int>(in.nthreads);
  *args = static_cast<int>(in.args);
  *stack_top = static_cast<int>(in.stack_top);
  *stack_log2 = static_cast<int>(in.stack_log2);
  *dispatch_valid = in.dispatch.valid != 0;
  *dispatch_warp = static_cast<int>(in.dispatch.warp);
  *dispatch_pc = static_cast<int>(in.dispatch.pc);
  *dispatch_base_tid = static_cast<int>(in.dispatch.base_tid);
  *dispatch_mask = static_cast<int>(in.dispatch.mask);
  *halt = in.halt;
  *ctr_clear = in.ctr_clear;
  *console_ready = in.console_ready;
}

int main(int argc, char **argv)
{
  int code = 0;
  simty_tb_xbar = SIMTY_TB_XBAR;
  simty_tb *tb = simty_tb_create(argc, argv, SIMTY_TB_WARPS, SIMTY_TB_LANES,
                                 kCodeSize, kDataSize, &code);
  if (!tb)
    return code;
  {
    Bench bench(tb);
    code = bench.open_waves(simty_tb_wave_file(tb));
    if (!code)
      code = bench.run();
  }
  simty_tb_destroy(tb);
  return code;
}
