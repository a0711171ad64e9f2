/* SPDX-License-Identifier: Apache-2.0 */
// tb_main.cpp - Verilator driver shared by the SoC unit benches: toggles
// clk_i until the bench calls $finish or +max_cycles=N (default 10M)
// pass; a time-out prints TIMEOUT and exits 2.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "verilated.h"
#include TB_HEADER

int main(int argc, char **argv) {
  auto ctx = std::make_unique<VerilatedContext>();
  ctx->commandArgs(argc, argv);
  auto top = std::make_unique<TB_CLASS>(ctx.get());
  unsigned long long max_cycles = 10000000ull;
  const char *arg = ctx->commandArgsPlusMatch("max_cycles=");
  if (arg && *arg) max_cycles = std::strtoull(arg + std::strlen("+max_cycles="), nullptr, 0);
  unsigned long long cycle = 0;
  top->clk_i = 0;
  top->eval();
  while (!ctx->gotFinish()) {
    if (cycle == max_cycles) {
      std::printf("TIMEOUT after %llu cycles\n", cycle);
      top->final();
      return 2;
    }
    top->clk_i = 1;
    top->eval();
    top->clk_i = 0;
    top->eval();
    cycle++;
  }
  top->final();
  std::printf("CYCLES %llu\n", cycle);
  return 0;
}
