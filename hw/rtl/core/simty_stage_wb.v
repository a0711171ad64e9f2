// SPDX-License-Identifier: Apache-2.0
// simty_stage_wb: stages 9 and 10, gather and write-back. Holds the GA
// pipeline registers (ga_*_q: the instruction MB committed, or a divide's
// or an atomic's result injected in a cycle with MB empty), the gather
// of a load's lanes from the DATA line read (simty_gather), the retire
// port, and the write-back stage (simty_writeback) with the value
// classifier behind it. The register file is written from WB's registers
// (wb_*_o, also a bypass source), and WB2 (wb2_*_o) holds the write a
// cycle longer for the reads that coincided with it.
`default_nettype none

module simty_stage_wb #(
  parameter integer LANES = 4,
  parameter integer LANE_BITS = 2,
  parameter integer WARP_BITS = 2,
  parameter integer PCW = 15,
  parameter integer VCLASS = 1,
  parameter integer XBAR = 0          // crossbar kind: 0 full, 1 rotate
) (
  input  wire                   clk_i,
  input  wire                   rst_i,

  // MB (its registers and its decision)
  input  wire                   mb_valid_i,
  input  wire                   exec_ok_i,
  input  wire [WARP_BITS-1:0]   mb_warp_i,
  input  wire [PCW-1:0]         mb_pc_i,
  input  wire [4:0]             mb_rd_i,
  input  wire                   mb_wr_i,
  input  wire                   mb_load_i, mb_uns_i,
  input  wire [1:0]             mb_size_i,
  input  wire                   mb_link_i, mb_mul_i, mb_div_i, mb_instret_i, mb_amo_i,
  input  wire [LANE_BITS*LANES-1:0] mb_pword_i,  // per lane its word in the line
  // XBAR = 1: the access's rotation, broadcast word, lanes at it (simty_mem)
  input  wire [LANE_BITS-1:0]   mb_rot_i,
  input  wire [LANE_BITS-1:0]   mb_bword_i,
  input  wire [LANES-1:0]       mb_bc_i,
  input  wire [LANES-1:0]       retire_mask_i,
  input  wire [31:0]            mb_link_val_i,
  input  wire [32*LANES-1:0]    mb_res_i,
  input  wire [32*LANES-1:0]    mb_mul_res_i,  // M: the multiply's sum
  input  wire [32*LANES-1:0]    mb_ir_res_i,   // Zicntr: instret's value

  // The divide's (M) and the atomic unit's (A) results, taking GA when
  // MB is empty (the divide first)
  input  wire                   dv_inject_i,
  input  wire [WARP_BITS-1:0]   dv_warp_i,
  input  wire [4:0]             dv_rd_i,
  input  wire                   dv_wr_i,
  input  wire [LANES-1:0]       dv_mask_i,
  input  wire [32*LANES-1:0]    dv_res_i,
  input  wire                   am_inject_i,
  input  wire [WARP_BITS-1:0]   am_warp_i,
  input  wire [4:0]             am_rd_i,
  input  wire                   am_wr_i,
  input  wire [LANES-1:0]       am_mask_i,
  input  wire [32*LANES-1:0]    am_res_i,

  input  wire [32*LANES-1:0]    dmem_rdata_i,

  // GA: any instruction (drain tracking), the retire port
  output reg                    ga_any_q,
  output reg  [WARP_BITS-1:0]   ga_warp_q,
  output wire                   retire_valid_o,
  output wire [31:0]            retire_pc_o,
  output wire [LANES-1:0]       retire_mask_o,

  // WB
  output reg                    wb_any_q,
  output wire                   wb_we_o,
  output wire [WARP_BITS-1:0]   wb_warp_o,
  output wire [4:0]             wb_rd_o,
  output wire [LANES-1:0]       wb_mask_o,
  output wire [32*LANES-1:0]    wb_data_o,
  output wire                   wb2_we_o,
  output wire [WARP_BITS-1:0]   wb2_warp_o,
  output wire [4:0]             wb2_rd_o,
  output wire [LANES-1:0]       wb2_mask_o,
  output wire [32*LANES-1:0]    wb2_data_o,

  // Value classifier
  output wire                   uniform_o,
  output wire                   affine_o,
  output wire                   vclass_busy_o
);
// The contract include declares every constant; each block uses a few.
// verilator lint_off UNUSEDPARAM
`include "simty_arch.vh"
// verilator lint_on UNUSEDPARAM
  localparam [31:0]  CODE_BASE = SIMTY_CODE_BASE;
  localparam integer LS = 2 + ((LANES > 1) ? $clog2(LANES) : 0);

  // ------------------------------------------------------------------
  // Stage 9: gather
  // ------------------------------------------------------------------
  reg                  ga_valid_q, ga_wr_q;
  reg  [4:0]           ga_rd_q;
  reg                  ga_load_q, ga_uns_q;
  reg  [LANES-1:0]     ga_mask_q;
  reg  [1:0]           ga_size_q;
  reg  [PCW-1:0]       ga_pc_q;
  reg  [32*LANES-1:0]  ga_res_q;
  reg  [LS*LANES-1:0]  ga_off_q;
  reg  [LANE_BITS-1:0] ga_rot_q, ga_bword_q;
  reg  [LANES-1:0]     ga_bc_q;
  reg                  ga_dv_q;      // an injected result, written back

  wire                 xi_inject = dv_inject_i || am_inject_i;
  wire [WARP_BITS-1:0] xi_warp   = dv_inject_i ? dv_warp_i : am_warp_i;
  wire [4:0]           xi_rd     = dv_inject_i ? dv_rd_i : am_rd_i;
  wire                 xi_wr     = dv_inject_i ? dv_wr_i : am_wr_i;
  wire [LANES-1:0]     xi_mask   = dv_inject_i ? dv_mask_i : am_mask_i;
  wire [32*LANES-1:0]  xi_res    = dv_inject_i ? dv_res_i : am_res_i;

  always @(posedge clk_i) begin
    if (rst_i) begin
      ga_valid_q <= 1'b0;
      ga_any_q   <= 1'b0;
      ga_dv_q    <= 1'b0;
    end else begin
      ga_valid_q <= exec_ok_i;
      ga_any_q   <= mb_valid_i || xi_inject;
      ga_dv_q    <= xi_inject;
    end
    // A divide or an atomic retires here when it commits (no register
    // write: mb_div_i, mb_amo_i), and its result comes through later in a
    // free slot (xi_inject, only when MB is empty).
    ga_warp_q <= xi_inject ? xi_warp : mb_warp_i;
    ga_wr_q   <= xi_inject ? xi_wr : mb_wr_i && !mb_div_i && !mb_amo_i;
    ga_load_q <= mb_load_i && !xi_inject;
    ga_uns_q  <= mb_uns_i;
    ga_rd_q   <= xi_inject ? xi_rd : mb_rd_i;
    ga_mask_q <= xi_inject ? xi_mask : retire_mask_i;
    ga_size_q <= mb_size_i;
    ga_pc_q   <= mb_pc_i;
    ga_rot_q   <= mb_rot_i;
    ga_bword_q <= mb_bword_i;
    ga_bc_q    <= mb_bc_i;
    // The link value (jal/jalr: pc + 4, uniform) replaces the ALU result
    // here rather than after the register: the register then takes a LUT
    // output and packs with it in one iCE40 logic cell instead of being a
    // flop of its own. So do a multiply's sum, an instret read and a
    // divide's result.
    ga_res_q  <= xi_inject    ? xi_res :
                 mb_link_i    ? {LANES{mb_link_val_i}} :
                 mb_mul_i     ? mb_mul_res_i :
                 mb_instret_i ? mb_ir_res_i : mb_res_i;
  end
  // Each loop has its own variable: a variable shared between a clocked
  // and a combinational block is state to Verilator.
  genvar l;
  generate
    for (l = 0; l < LANES; l = l + 1) begin : gen_off
      // the lane's word in its physical line (simty_mem_pre's: a stack
      // lane's is its lane number), then its byte in the word
      if (LS > 2) begin : gen_word
        always @(posedge clk_i)
          ga_off_q[LS*l +: LS] <= {mb_pword_i[LANE_BITS*l +: LS-2], mb_res_i[32*l +: 2]};
      end else begin : gen_one
        always @(posedge clk_i) ga_off_q[LS*l +: LS] <= mb_res_i[32*l +: LS];
        wire unused_word = &{1'b0, mb_pword_i[LANE_BITS*l +: LANE_BITS]};  // one word
      end
    end
  endgenerate

  wire [32*LANES-1:0] gathered;
  wire [LANES-1:0]    gathered_sign;
  simty_gather #(.LANES(LANES), .LS(LS), .LANE_BITS(LANE_BITS),
                 .XBAR(XBAR)) u_gather (
    .line_i  (dmem_rdata_i),
    .off_i   (ga_off_q),
    .half_i  (ga_size_q[0]),
    .uns_i   (ga_uns_q),
    .rot_i   (ga_rot_q),
    .bword_i (ga_bword_q),
    .bc_i    (ga_bc_q),
    .data_o  (gathered),
    .sign_o  (gathered_sign)
  );

  wire [32*LANES-1:0] ga_val = ga_load_q ? gathered : ga_res_q;

  assign retire_valid_o = ga_valid_q;
  assign retire_pc_o    = CODE_BASE + ({{(32-PCW){1'b0}}, ga_pc_q} << 2);
  assign retire_mask_o  = ga_mask_q;

  // ------------------------------------------------------------------
  // Stage 10: write-back
  // ------------------------------------------------------------------
  always @(posedge clk_i) begin
    if (rst_i) wb_any_q <= 1'b0;
    else wb_any_q <= ga_any_q;
  end

  simty_writeback #(.LANES(LANES), .WARP_BITS(WARP_BITS)) u_wb (
    .clk_i      (clk_i),
    .rst_i      (rst_i),
    .we_i       ((ga_valid_q || ga_dv_q) && ga_wr_q),
    .warp_i     (ga_warp_q),
    .rd_i       (ga_rd_q),
    .mask_i     (ga_mask_q),
    .data_i     (ga_val),
    .sign_i     (gathered_sign),
    .xb_i       (ga_load_q && ga_size_q == 2'd0),
    .xh_i       (ga_load_q && ga_size_q == 2'd1),
    .wb_we_o    (wb_we_o),
    .wb_warp_o  (wb_warp_o),
    .wb_rd_o    (wb_rd_o),
    .wb_mask_o  (wb_mask_o),
    .wb_data_o  (wb_data_o),
    .wb2_we_o   (wb2_we_o),
    .wb2_warp_o (wb2_warp_o),
    .wb2_rd_o   (wb2_rd_o),
    .wb2_mask_o (wb2_mask_o),
    .wb2_data_o (wb2_data_o)
  );

  simty_vclass #(.LANES(LANES), .LANE_BITS(LANE_BITS), .VCLASS(VCLASS)) u_vclass (
    .clk_i        (clk_i),
    .rst_i        (rst_i),
    .early_mask_i (ga_mask_q),
    .valid_i   (wb_we_o),
    .mask_i    (wb_mask_o),
    .data_i    (wb_data_o),
    .uniform_o (uniform_o),
    .affine_o  (affine_o),
    .busy_o    (vclass_busy_o)
  );
endmodule
