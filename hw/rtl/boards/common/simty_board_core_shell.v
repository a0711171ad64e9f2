// SPDX-License-Identifier: Apache-2.0
// simty_board_core_shell.v - the Simty core alone, made placeable for the
// scaling table (scripts/board_report.sh): its ~1,000 port bits do not
// fit any package, so every input comes from a shift register fed by one
// pin and every output is folded into one XOR that drives one pin through
// a flop. Nothing of the core is left unobserved, so synthesis removes
// nothing; the shell costs one flop per input bit and about one LUT4 per
// three output bits (the report gives the core's own Yosys counts too).
// Not a usable design: only for resource and Fmax figures.
`default_nettype none

module simty_board_core_shell #(
  parameter integer WARPS = 4,
  parameter integer LANES = 4,
  parameter [31:0]  CODE_SIZE = 32'h0000_1000,
  parameter [31:0]  DATA_SIZE = 32'h0000_2000,
  parameter integer VCLASS = 1
) (
  input  wire clk_i,
  input  wire rst_i,
  input  wire din_i,
  output reg  dout_o
);
  localparam integer WB = (WARPS > 1) ? $clog2(WARPS) : 1;
  // launch (101), dispatch (1 + WB + 64 + LANES), halt, ctr_clear,
  // ctr_sel (4), console_ready, imem_rdata (32), dmem_rdata (32 LANES)
  localparam integer NIN = 101 + 1 + WB + 64 + LANES + 1 + 1 + 4 + 1 + 32 + 32 * LANES;

  reg [NIN-1:0] in_q = {NIN{1'b0}};
  always @(posedge clk_i) in_q <= {in_q[NIN-2:0], din_i};

  wire [31:0] launch_nthreads = in_q[31:0];
  wire [31:0] launch_args = in_q[63:32];
  wire [31:0] launch_stack_top = in_q[95:64];
  wire [4:0]  launch_stack_log2 = in_q[100:96];
  localparam integer D = 101;
  wire            dispatch_valid = in_q[D];
  wire [WB-1:0]   dispatch_warp = in_q[D + 1 +: WB];
  wire [31:0]     dispatch_pc = in_q[D + 1 + WB +: 32];
  wire [31:0]     dispatch_base = in_q[D + 33 + WB +: 32];
  wire [LANES-1:0] dispatch_mask = in_q[D + 65 + WB +: LANES];
  localparam integer E = D + 65 + WB + LANES;
  wire        halt = in_q[E];
  wire        ctr_clear = in_q[E + 1];
  wire [3:0]  ctr_sel = in_q[E + 2 +: 4];
  wire        console_ready = in_q[E + 6];
  wire [31:0] imem_rdata = in_q[E + 7 +: 32];
  wire [32*LANES-1:0] dmem_rdata = in_q[E + 39 +: 32 * LANES];

  wire             dispatch_ready;
  wire [WARPS-1:0] warp_busy;
  wire             fault_valid;
  wire [3:0]       fault_cause;
  wire [31:0]      fault_pc, fault_hart, fault_tid, fault_addr;
  wire             idle;
  wire [63:0]      ctr_value;
  wire             ctr_valid;
  wire             console_valid;
  wire [7:0]       console_byte;
  wire [31:0]      console_tid;
  wire             imem_en;
  wire [31:0]      imem_addr;
  wire             dmem_en;
  wire             dmem_busy;
  wire [31:0]      dmem_addr;
  wire [4*LANES-1:0]  dmem_be;
  wire [32*LANES-1:0] dmem_wdata;
  wire             retire_valid;
  wire [WB-1:0]    retire_warp;
  wire [31:0]      retire_pc;
  wire [LANES-1:0] retire_mask;

  simty_core #(
    .WARPS(WARPS), .LANES(LANES), .CODE_SIZE(CODE_SIZE), .DATA_SIZE(DATA_SIZE),
    .VCLASS(VCLASS)
  ) u_core (
    .clk_i(clk_i), .rst_i(rst_i),
    .launch_nthreads_i(launch_nthreads), .launch_args_i(launch_args),
    .launch_stack_top_i(launch_stack_top), .launch_stack_log2_i(launch_stack_log2),
    .dispatch_valid_i(dispatch_valid), .dispatch_ready_o(dispatch_ready),
    .dispatch_warp_i(dispatch_warp), .dispatch_pc_i(dispatch_pc),
    .dispatch_base_tid_i(dispatch_base), .dispatch_mask_i(dispatch_mask),
    .warp_busy_o(warp_busy),
    .halt_i(halt), .fault_valid_o(fault_valid), .fault_cause_o(fault_cause),
    .fault_pc_o(fault_pc), .fault_hart_o(fault_hart), .fault_tid_o(fault_tid),
    .fault_addr_o(fault_addr), .idle_o(idle),
    .ctr_clear_i(ctr_clear), .ctr_sel_i(ctr_sel), .ctr_value_o(ctr_value),
    .ctr_valid_o(ctr_valid),
    .console_valid_o(console_valid), .console_byte_o(console_byte),
    .console_tid_o(console_tid), .console_ready_i(console_ready),
    .imem_en_o(imem_en), .imem_addr_o(imem_addr), .imem_rdata_i(imem_rdata),
    .dmem_en_o(dmem_en), .dmem_busy_o(dmem_busy), .dmem_addr_o(dmem_addr), .dmem_be_o(dmem_be),
    .dmem_wdata_o(dmem_wdata), .dmem_rdata_i(dmem_rdata),
    .retire_valid_o(retire_valid), .retire_warp_o(retire_warp),
    .retire_pc_o(retire_pc), .retire_mask_o(retire_mask)
  );

  wire fold = dispatch_ready ^ (^warp_busy) ^ fault_valid ^ (^fault_cause) ^
              (^fault_pc) ^ (^fault_hart) ^ (^fault_tid) ^ (^fault_addr) ^ idle ^
              (^ctr_value) ^ ctr_valid ^ console_valid ^ (^console_byte) ^ (^console_tid) ^
              imem_en ^ (^imem_addr) ^ dmem_en ^ dmem_busy ^ (^dmem_addr) ^ (^dmem_be) ^
              (^dmem_wdata) ^ retire_valid ^ (^retire_warp) ^ (^retire_pc) ^
              (^retire_mask);
  always @(posedge clk_i) dout_o <= fold;
endmodule

`default_nettype wire
