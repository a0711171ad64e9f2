/* SPDX-License-Identifier: Apache-2.0 */
// smoke_main.cpp - minimal Verilator harness for simty_core used while
// bringing the core up: loads an ELF kernel, dispatches blocks of LANES
// threads to free warps, serves memories, and prints counters, fault and a
// per-block trace in the simty-model format (base_tid pc mask).
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "Vsimty_core.h"
#include "verilated.h"

#ifndef SMOKE_WARPS
#define SMOKE_WARPS 4
#endif
#ifndef SMOKE_LANES
#define SMOKE_LANES 4
#endif

static const uint32_t CODE_BASE = 0x00010000u, CODE_SIZE = 0x10000u;
static const uint32_t DATA_BASE = 0x10000000u, DATA_SIZE = 0x100000u;

static std::vector<uint8_t> code(CODE_SIZE), data(DATA_SIZE);

static uint32_t rd32(const uint8_t *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }
static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }

static int load_elf(const char *path, uint32_t *entry)
{
  FILE *f = fopen(path, "rb");
  if (!f) { perror(path); return -1; }
  std::vector<uint8_t> b;
  uint8_t buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) b.insert(b.end(), buf, buf + n);
  fclose(f);
  if (b.size() < 52 || memcmp(b.data(), "\177ELF", 4) != 0) { fprintf(stderr, "%s: not an ELF\n", path); return -1; }
  *entry = rd32(&b[24]);
  uint32_t phoff = rd32(&b[28]);
  uint16_t phentsize = rd16(&b[42]), phnum = rd16(&b[44]);
  for (unsigned i = 0; i < phnum; i++) {
    const uint8_t *ph = &b[phoff + i * phentsize];
    if (rd32(ph) != 1) continue;
    uint32_t off = rd32(ph + 4), paddr = rd32(ph + 12), filesz = rd32(ph + 16), memsz = rd32(ph + 20);
    for (uint32_t k = 0; k < memsz; k++) {
      uint8_t v = k < filesz ? b[off + k] : 0;
      uint32_t a = paddr + k;
      if (a - CODE_BASE < CODE_SIZE) code[a - CODE_BASE] = v;
      else if (a - DATA_BASE < DATA_SIZE) data[a - DATA_BASE] = v;
      else { fprintf(stderr, "segment outside memory\n"); return -1; }
    }
  }
  return 0;
}

int main(int argc, char **argv)
{
  Verilated::commandArgs(argc, argv);
  const char *elf = nullptr, *trace_path = nullptr;
  uint64_t nthreads = SMOKE_WARPS * SMOKE_LANES, max_cycles = 50000000;
  bool counters = false;
  std::vector<std::pair<uint32_t, unsigned>> dumps;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--threads") && i + 1 < argc) nthreads = strtoull(argv[++i], 0, 0);
    else if (!strcmp(argv[i], "--trace") && i + 1 < argc) trace_path = argv[++i];
    else if (!strcmp(argv[i], "--counters")) counters = true;
    else if (!strcmp(argv[i], "--max-cycles") && i + 1 < argc) max_cycles = strtoull(argv[++i], 0, 0);
    else if (!strcmp(argv[i], "--dump-hex") && i + 2 < argc) {
      uint32_t a = strtoul(argv[++i], 0, 0);
      dumps.push_back({a, (unsigned)strtoul(argv[++i], 0, 0)});
    } else if (argv[i][0] != '-' && argv[i][0] != '+') elf = argv[i];
  }
  if (!elf) { fprintf(stderr, "usage: %s kernel.elf [--threads N] [--trace F] [--counters]\n", argv[0]); return 2; }
  uint32_t entry;
  if (load_elf(elf, &entry)) return 2;
  FILE *trace = trace_path ? fopen(trace_path, "w") : nullptr;

  const unsigned W = SMOKE_WARPS, L = SMOKE_LANES;
  Vsimty_core *c = new Vsimty_core;
  c->clk_i = 0;
  c->rst_i = 1;
  c->launch_nthreads_i = (uint32_t)nthreads;
  c->launch_args_i = 0;
  c->launch_stack_top_i = DATA_BASE + DATA_SIZE;
  c->launch_stack_log2_i = 10;
  auto tick = [&]() { c->clk_i = 1; c->eval(); c->clk_i = 0; c->eval(); };
  for (int i = 0; i < 4; i++) tick();
  c->rst_i = 0;
  c->eval();

  uint64_t next = 0, nblocks = (nthreads + L - 1) / L;
  std::vector<uint32_t> warp_base(W, 0);
  std::map<uint32_t, std::string> con;
  bool imem_pending = false, dmem_pending = false;
  uint32_t imem_addr = 0, dmem_addr = 0;
  uint64_t cyc = 0;
  int rc = 0;
  for (;;) {
    // Combinational inputs for this cycle: memory data from last cycle's en.
    c->imem_rdata_i = imem_pending ? rd32(&code[imem_addr - CODE_BASE]) : 0;
    for (unsigned i = 0; i < L; i++) {
      uint32_t v = dmem_pending ? rd32(&data[dmem_addr - DATA_BASE + 4 * i]) : 0;
#if SMOKE_LANES == 1
      c->dmem_rdata_i = v;
#elif SMOKE_LANES == 2
      c->dmem_rdata_i = (c->dmem_rdata_i & ~(0xffffffffull << (32 * i))) | ((uint64_t)v << (32 * i));
#else
      c->dmem_rdata_i[i] = v;
#endif
    }
    // Dispatch to the lowest free warp.
    c->dispatch_valid_i = 0;
    if (next < nblocks) {
      for (unsigned w = 0; w < W; w++) {
        if (!((c->warp_busy_o >> w) & 1)) {
          uint64_t base = next * L, left = nthreads - base;
          c->dispatch_valid_i = 1;
          c->dispatch_warp_i = w;
          c->dispatch_pc_i = entry;
          c->dispatch_base_tid_i = (uint32_t)base;
          c->dispatch_mask_i = left >= L ? (uint32_t)((L == 32) ? 0xffffffffu : ((1u << L) - 1)) : (uint32_t)((1u << left) - 1);
          break;
        }
      }
    }
    c->console_ready_i = 1;
    c->eval();
    bool disp = c->dispatch_valid_i && c->dispatch_ready_o;
    if (disp) { warp_base[c->dispatch_warp_i] = c->dispatch_base_tid_i; next++; }
    if (c->retire_valid_o && trace)
      fprintf(trace, "%" PRIu32 " %08" PRIx32 " %" PRIx64 "\n", warp_base[c->retire_warp_o], c->retire_pc_o, (uint64_t)c->retire_mask_o);
    if (c->console_valid_o) {
      std::string &s = con[c->console_tid_o];
      char ch = (char)c->console_byte_o;
      if (ch == '\n') { printf("[%" PRIu32 "] %s\n", c->console_tid_o, s.c_str()); s.clear(); }
      else s += ch;
    }
    // Memory ports: sample the requests of this cycle.
    imem_pending = c->imem_en_o;
    imem_addr = c->imem_addr_o;
    if (imem_pending && imem_addr - CODE_BASE >= CODE_SIZE) { fprintf(stderr, "imem out of range %08x\n", imem_addr); return 3; }
    dmem_pending = c->dmem_en_o;
    dmem_addr = c->dmem_addr_o;
    if (dmem_pending) {
      if (dmem_addr - DATA_BASE >= DATA_SIZE) { fprintf(stderr, "dmem out of range %08x\n", dmem_addr); return 3; }
      for (unsigned i = 0; i < L; i++) {
#if SMOKE_LANES == 1
        uint32_t wd = c->dmem_wdata_o;
#elif SMOKE_LANES == 2
        uint32_t wd = (uint32_t)(c->dmem_wdata_o >> (32 * i));
#else
        uint32_t wd = c->dmem_wdata_o[i];
#endif
        uint64_t be = 0;
#if SMOKE_LANES <= 8
        be = c->dmem_be_o;
#else
        be = (uint64_t)c->dmem_be_o[(4 * i) / 32] << (32 * ((4 * i) / 32));
#endif
        for (unsigned b = 0; b < 4; b++)
          if ((be >> (4 * i + b)) & 1) data[dmem_addr - DATA_BASE + 4 * i + b] = (uint8_t)(wd >> (8 * b));
      }
    }
    tick();
    cyc++;
    if (c->fault_valid_o) { rc = 1; break; }
    if (next == nblocks && c->warp_busy_o == 0 && !disp) break;
    if (cyc >= max_cycles) { fprintf(stderr, "time-out\n"); rc = 4; break; }
  }
  for (auto &kv : con) if (!kv.second.empty()) printf("[%" PRIu32 "] %s\n", kv.first, kv.second.c_str());
  for (auto &d : dumps)
    for (unsigned i = 0; i < d.second; i++)
      printf("mem[%08x] = %" PRId32 "\n", d.first + 4 * i, (int32_t)rd32(&data[d.first + 4 * i - DATA_BASE]));
  if (counters) {
    static const char *names[] = {"cycles", "warp_insts", "thread_insts", "divergent_branches", "path_merges",
      "replays_mem", "replays_indirect", "mem_requests", "mem_transactions", "sched_idle_cycles", "cct_peak",
      "uniform_vectors", "affine_vectors"};
    uint64_t v[13] = {};
    // ctr_value_o is registered: wait (bounded) for ctr_valid_o, after
    // one clock on index 15 so that counter 0 is latched afresh.
    c->ctr_sel_i = 15; c->eval(); tick();
    for (unsigned i = 0; i < 13; i++) {
      c->ctr_sel_i = i; c->eval();
      for (unsigned w = 0; w < 32 && !c->ctr_valid_o; w++) tick();
      if (!c->ctr_valid_o) { fprintf(stderr, "ctr_valid_o never rose for counter %u\n", i); rc = rc ? rc : 5; break; }
      v[i] = c->ctr_value_o; printf("%s = %" PRIu64 "\n", names[i], v[i]);
    }
    printf("ipc = %.3f\n", v[0] ? (double)v[1] / v[0] : 0.0);
  }
  if (rc == 1)
    fprintf(stderr, "fault: (cause %u) pc=0x%08x hart=%u tid=%u addr=0x%08x\n", c->fault_cause_o, c->fault_pc_o,
            c->fault_hart_o, c->fault_tid_o, c->fault_addr_o);
  if (trace) fclose(trace);
  delete c;
  return rc;
}
