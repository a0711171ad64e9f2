/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gen_arch.c - derive the RTL include and the linker memory map from
 * simty_arch.h, so that the contract has exactly one source.
 *
 *   gen_arch vh > simty_arch.vh      Verilog localparams
 *   gen_arch ld > simty_memory.ld    MEMORY regions for GNU ld
 */
#include <stdio.h>
#include <string.h>

#include "simty_arch.h"

static void emit_verilog(void)
{
  printf("// Generated from hw/arch/simty_arch.h by gen_arch: do not edit.\n");
  printf("localparam [31:0] SIMTY_FW_BASE = 32'h%08x;\n", SIMTY_FW_BASE);
  printf("localparam [31:0] SIMTY_FW_WINDOW = 32'h%08x;\n", SIMTY_FW_WINDOW);
  printf("localparam [31:0] SIMTY_CODE_BASE = 32'h%08x;\n", SIMTY_CODE_BASE);
  printf("localparam [31:0] SIMTY_CODE_WINDOW = 32'h%08x;\n", SIMTY_CODE_WINDOW);
  printf("localparam [31:0] SIMTY_DATA_BASE = 32'h%08x;\n", SIMTY_DATA_BASE);
  printf("localparam [31:0] SIMTY_DATA_WINDOW = 32'h%08x;\n", SIMTY_DATA_WINDOW);
  printf("localparam [31:0] SIMTY_CONSOLE_ADDR = 32'h%08x;\n", SIMTY_CONSOLE_ADDR);
  printf("localparam [31:0] SIMTY_MMIO_BASE = 32'h%08x;\n", SIMTY_MMIO_BASE);
  printf("localparam [31:0] SIMTY_MMIO_WINDOW = 32'h%08x;\n", SIMTY_MMIO_WINDOW);
  printf("localparam [31:0] SIMTY_LINKBUF_BASE = 32'h%08x;\n", SIMTY_LINKBUF_BASE);
  printf("localparam [31:0] SIMTY_LINKBUF_WINDOW = 32'h%08x;\n", SIMTY_LINKBUF_WINDOW);
  printf("localparam integer SIMTY_LINK_SLOT_BYTES = %u;\n", SIMTY_LINK_SLOT_BYTES);
  printf("localparam [11:0] SIMTY_CSR_MHARTID = 12'h%03x;\n", SIMTY_CSR_MHARTID);
  printf("localparam [11:0] SIMTY_CSR_TID = 12'h%03x;\n", SIMTY_CSR_TID);
  printf("localparam [11:0] SIMTY_CSR_NTHREADS = 12'h%03x;\n", SIMTY_CSR_NTHREADS);
  printf("localparam [11:0] SIMTY_CSR_LANES = 12'h%03x;\n", SIMTY_CSR_LANES);
  printf("localparam [11:0] SIMTY_CSR_WARPS = 12'h%03x;\n", SIMTY_CSR_WARPS);
  printf("localparam [11:0] SIMTY_CSR_ARGS = 12'h%03x;\n", SIMTY_CSR_ARGS);
  printf("localparam [11:0] SIMTY_CSR_STACK_TOP = 12'h%03x;\n", SIMTY_CSR_STACK_TOP);
  printf("localparam [11:0] SIMTY_CSR_STACK_LOG2 = 12'h%03x;\n", SIMTY_CSR_STACK_LOG2);
  printf("localparam integer SIMTY_DEPTH_BITS = %d;\n", SIMTY_DEPTH_BITS);
#define SIMTY_X_(name, code, text) \
  printf("localparam [3:0] SIMTY_FAULT_%s = 4'd%d; // %s\n", #name, code, text);
  SIMTY_FAULT_MAP(SIMTY_X_)
#undef SIMTY_X_
#define SIMTY_X_(name, index, text) \
  printf("localparam integer SIMTY_CTR_%s = %d; // %s\n", #name, index, text);
  SIMTY_COUNTER_MAP(SIMTY_X_)
#undef SIMTY_X_
  printf("localparam integer SIMTY_CTR_COUNT = %d;\n", SIMTY_CTR_COUNT);
  printf("localparam [31:0] SIMTY_VERSION_CODE = 32'h%08x;\n",
         (unsigned)SIMTY_VERSION_CODE);
}

static void emit_ld(void)
{
  printf("/* Generated from hw/arch/simty_arch.h by gen_arch: do not edit. */\n");
  printf("MEMORY\n{\n");
  printf("  FW (rwx) : ORIGIN = 0x%08x, LENGTH = 0x%08x\n", SIMTY_FW_BASE,
         SIMTY_FW_WINDOW);
  printf("  CODE (rx) : ORIGIN = 0x%08x, LENGTH = 0x%08x\n", SIMTY_CODE_BASE,
         SIMTY_CODE_WINDOW);
  printf("  DATA (rw) : ORIGIN = 0x%08x, LENGTH = 0x%08x\n", SIMTY_DATA_BASE,
         SIMTY_DATA_WINDOW);
  printf("}\n");
  printf("PROVIDE(__simty_console = 0x%08x);\n", SIMTY_CONSOLE_ADDR);
  printf("PROVIDE(__simty_mmio = 0x%08x);\n", SIMTY_MMIO_BASE);
}

int main(int argc, char **argv)
{
  if (argc == 2 && strcmp(argv[1], "vh") == 0) {
    emit_verilog();
    return 0;
  }
  if (argc == 2 && strcmp(argv[1], "ld") == 0) {
    emit_ld();
    return 0;
  }
  fprintf(stderr, "usage: %s vh|ld\n", argv[0]);
  return 2;
}
