// SPDX-License-Identifier: Apache-2.0
// simty_tb_top: the core testbench's Verilated top. simty_core plus the two
// synchronous RAMs of docs/core.md ("Interface"), whose contents live on
// the C side (simty_tb.c loads the ELF there and dumps symbols from it) and
// are reached through DPI at the clock edge:
//
//   simty_tb_imem_read   one CODE word, for an imem_en_o cycle
//   simty_tb_dmem_access one DATA line: read the old contents, then write
//                        the enabled bytes (read-before-write)
//
// Both check the request against the contract (aligned, inside the
// populated memory) and report a violation to the bench, which stops.
// Keeping the read data in flops here rather than on the model's inputs
// lets Verilator evaluate the logic behind them once per clock, with the
// rest of the clocked logic, instead of again on every input change
// (docs/performance.md, "Simulation speed").
`default_nettype none

module simty_tb_top #(
  parameter integer WARPS = 4,
  parameter integer LANES = 4,
  parameter [31:0]  CODE_SIZE = 32'h0001_0000,
  parameter [31:0]  DATA_SIZE = 32'h0010_0000,
  // the core's extensions (simty_core): the bench is rv32ima_zicntr
  parameter integer EXT_M = 1,
  parameter integer EXT_A = 1,
  parameter integer EXT_ZICNTR = 1,
  // the memory crossbar kind (simty_core XBAR; rtl.mk's core_WxL_rotate)
  parameter integer XBAR = 0,
  // the hot tables in LUT RAM, as the ULX3S and the simulated board build
  // the core (simty_core HOT_LUTRAM; rtl.mk's RTL_TB_LUTRAM_CONFIGS)
  parameter integer HOT_LUTRAM = 0
) (
  input  wire clk_i,
  input  wire [3:0]  ctr_sel_i,   // not registered: see below
  output wire                   dispatch_ready_o,
  output wire [WARPS-1:0]       warp_busy_o,
  output wire        fault_valid_o,
  output wire [3:0]  fault_cause_o,
  output wire [31:0] fault_pc_o,
  output wire [31:0] fault_hart_o,
  output wire [31:0] fault_tid_o,
  output wire [31:0] fault_addr_o,
  output wire        idle_o,
  output wire [63:0] ctr_value_o,
  output wire        ctr_valid_o,
  output wire        console_valid_o,
  output wire [7:0]  console_byte_o,
  output wire [31:0] console_tid_o,
  output wire                   retire_valid_o,
  output wire [WARP_BITS-1:0]   retire_warp_o,
  output wire [31:0]            retire_pc_o,
  output wire [LANES-1:0]       retire_mask_o
);
  localparam integer WARP_BITS = (WARPS > 1) ? $clog2(WARPS) : 1;

  import "DPI-C" function int simty_tb_imem_read(input int addr);
  import "DPI-C" function void simty_tb_dmem_access(
    input int addr, input bit [4*LANES-1:0] be, input bit [32*LANES-1:0] wdata,
    output bit [32*LANES-1:0] rdata);
  import "DPI-C" function void simty_tb_inputs(
    output bit rst, output int nthreads, output int args, output int stack_top,
    output int stack_log2, output bit dispatch_valid, output int dispatch_warp,
    output int dispatch_pc, output int dispatch_base_tid,
    output int dispatch_mask, output bit halt, output bit ctr_clear,
    output bit console_ready);
  import "DPI-C" function bit simty_tb_inputs_changed();

  // The core's inputs, registered: the glue sets what it wants after an
  // edge and they take effect at the next one (simty_tb_inputs returns
  // them), one cycle later than a port driven between edges would. With
  // no input but the clock, Verilator has no logic to evaluate on input
  // changes; it used to run the dispatch, reset and counter-select logic
  // again on each of the two evaluations per cycle. Reset is held from
  // time 0 until the glue's first value arrives. The values are fetched
  // only when the glue changed one (most cycles it does not). The
  // counter select stays a port: the glue reads the counters of a
  // faulted core, which keep counting, one right after the other as the
  // counters' walk passes them (select, evaluate, see ctr_valid_o); a
  // registered select would miss each by a cycle and wait a whole walk.
  reg                 rst_q = 1'b1;
  reg  [31:0]         nthreads_q, args_q, stack_top_q;
  reg  [4:0]          stack_log2_q;
  reg                 dispatch_valid_q = 1'b0, halt_q = 1'b0,
                      ctr_clear_q = 1'b0, console_ready_q = 1'b0;
  reg  [WARP_BITS-1:0] dispatch_warp_q;
  reg  [31:0]         dispatch_pc_q, dispatch_base_tid_q;
  reg  [LANES-1:0]    dispatch_mask_q;
  bit                 i_rst, i_dv, i_halt, i_clear, i_cready;
  int                 i_nthreads, i_args, i_stack_top, i_stack_log2, i_dw,
                      i_dpc, i_dbase, i_dmask;
  always @(posedge clk_i) if (simty_tb_inputs_changed()) begin
    simty_tb_inputs(i_rst, i_nthreads, i_args, i_stack_top, i_stack_log2,
                    i_dv, i_dw, i_dpc, i_dbase, i_dmask, i_halt, i_clear,
                    i_cready);
    rst_q               <= i_rst;
    nthreads_q          <= i_nthreads;
    args_q              <= i_args;
    stack_top_q         <= i_stack_top;
    stack_log2_q        <= i_stack_log2[4:0];
    dispatch_valid_q    <= i_dv;
    dispatch_warp_q     <= i_dw[WARP_BITS-1:0];
    dispatch_pc_q       <= i_dpc;
    dispatch_base_tid_q <= i_dbase;
    dispatch_mask_q     <= i_dmask[LANES-1:0];
    halt_q              <= i_halt;
    ctr_clear_q         <= i_clear;
    console_ready_q     <= i_cready;
  end

  wire                imem_en;
  wire [31:0]         imem_addr;
  reg  [31:0]         imem_q;
  wire                dmem_en;
  wire                dmem_busy;
  wire [31:0]         dmem_addr;
  wire [4*LANES-1:0]  dmem_be;
  wire [32*LANES-1:0] dmem_wdata;
  reg  [32*LANES-1:0] dmem_q;
  reg  [32*LANES-1:0] line;

  // Outside reset only, like the core's own memories: a request held
  // during reset is not part of the protocol. Read data holds between
  // requests.
  always @(posedge clk_i) begin
    if (imem_en && !rst_q) imem_q <= simty_tb_imem_read(imem_addr);
    if (dmem_en && !dmem_busy) begin
      $display("simty_tb_top: dmem_en_o without dmem_busy_o");
      $finish;
    end
    if (dmem_en && !rst_q) begin
      simty_tb_dmem_access(dmem_addr, dmem_be, dmem_wdata, line);
      dmem_q <= line;
    end
  end

  simty_core #(
    .WARPS (WARPS), .LANES (LANES), .CODE_SIZE (CODE_SIZE), .DATA_SIZE (DATA_SIZE),
    .EXT_M (EXT_M), .EXT_A (EXT_A), .EXT_ZICNTR (EXT_ZICNTR), .XBAR (XBAR),
    .HOT_LUTRAM (HOT_LUTRAM)
  ) u_core (
    .clk_i (clk_i), .rst_i (rst_q),
    .launch_nthreads_i (nthreads_q), .launch_args_i (args_q),
    .launch_stack_top_i (stack_top_q), .launch_stack_log2_i (stack_log2_q),
    .dispatch_valid_i (dispatch_valid_q), .dispatch_ready_o (dispatch_ready_o),
    .dispatch_warp_i (dispatch_warp_q), .dispatch_pc_i (dispatch_pc_q),
    .dispatch_base_tid_i (dispatch_base_tid_q),
    .dispatch_mask_i (dispatch_mask_q), .warp_busy_o (warp_busy_o),
    .halt_i (halt_q), .fault_valid_o (fault_valid_o),
    .fault_cause_o (fault_cause_o), .fault_pc_o (fault_pc_o),
    .fault_hart_o (fault_hart_o), .fault_tid_o (fault_tid_o),
    .fault_addr_o (fault_addr_o), .idle_o (idle_o),
    .ctr_clear_i (ctr_clear_q), .ctr_sel_i (ctr_sel_i),
    .ctr_value_o (ctr_value_o), .ctr_valid_o (ctr_valid_o),
    .console_valid_o (console_valid_o), .console_byte_o (console_byte_o),
    .console_tid_o (console_tid_o), .console_ready_i (console_ready_q),
    .imem_en_o (imem_en), .imem_addr_o (imem_addr), .imem_rdata_i (imem_q),
    .dmem_en_o (dmem_en), .dmem_busy_o (dmem_busy), .dmem_addr_o (dmem_addr), .dmem_be_o (dmem_be),
    .dmem_wdata_o (dmem_wdata), .dmem_rdata_i (dmem_q),
    .retire_valid_o (retire_valid_o), .retire_warp_o (retire_warp_o),
    .retire_pc_o (retire_pc_o), .retire_mask_o (retire_mask_o)
  );
endmodule
