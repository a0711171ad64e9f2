// SPDX-License-Identifier: Apache-2.0
// simty_core: the Simty SIMT core, top level. Ten-stage in-order pipeline:
// fetch steering, fetch/predecode, instruction buffer, schedule, operand
// collect 1 and 2 (with decode), execute, membership / branch / memory
// arbiter, gather, write-back. This module only wires the stages and
// units together: each stage's registers and control are in its module
// (simty_fetch_steer, simty_fetch, simty_ibuf, simty_sched,
// simty_stage_rr, simty_stage_ex, simty_stage_mb, simty_stage_wb), the
// per-warp fetch and issue control in simty_ctrl (docs/core.md,
// "Structure"). Interface per docs/core.md ("Interface"). Reset is
// synchronous, active high.
`default_nettype none

module simty_core #(
  parameter integer WARPS = 4,
  parameter integer LANES = 4,
  parameter [31:0]  CODE_SIZE = 32'h0001_0000,
  parameter [31:0]  DATA_SIZE = 32'h0010_0000,
  // 1: the hot tables read in EX (HCT1, HCT2) in LUT RAM with registered
  // read data instead of block RAM: the ECP5 build (no LUT RAM on iCE40)
  parameter integer HOT_LUTRAM = 0,
  // Storage of the small per-warp tables (WARPS entries: the instruction
  // buffer, each warp's base thread id) and of the counters' high parts
  // (13 entries): simty_ram_1r1w's BLOCK, 1 block RAM, 2 LUT RAM (ECP5
  // only), 3 flip-flops (docs/core.md "Table storage")
  parameter integer SMALL_TABLES = 1,
  // Optional extensions (docs/architecture.md section 2): 1 = implemented,
  // 0 = their encodings are illegal instructions.
  parameter integer EXT_M = 0,        // multiply (pipelined), divide (iterative)
  parameter integer EXT_A = 0,        // atomics on DATA (simty_amo)
  parameter integer EXT_ZICNTR = 0,   // cycle, time, instret CSRs
  // 1: the value classifier (simty_vclass) counts uniform and affine
  // vectors; 0 leaves it out (those two counters read 0), for area
  parameter integer VCLASS = 1,
  // Instruction buffer entries per warp, 1 or 2: with 2 a warp's next
  // fetch overlaps its wait to issue (docs/core.md "Instruction buffer")
  parameter integer IBUF_DEPTH = 2,
  // Return address stack entries per warp in fetch (0: returns are not
  // predicted; docs/core.md "Fetch / predecode")
  parameter integer RAS_DEPTH = 4,
  // Memory crossbar kind (docs/architecture.md section 3, "Crossbar
  // kind"): 0 full (any lane to any word of the line), 1 rotate (the
  // lanes at one rotation of the line or at the leader's word; docs/
  // core.md "Memory arbiter")
  parameter integer XBAR = 0
) (
  input  wire clk_i,
  input  wire rst_i,

  input  wire [31:0] launch_nthreads_i,
  input  wire [31:0] launch_args_i,
  input  wire [31:0] launch_stack_top_i,
  input  wire [4:0]  launch_stack_log2_i,

  input  wire                   dispatch_valid_i,
  output wire                   dispatch_ready_o,
  input  wire [WARP_BITS-1:0]   dispatch_warp_i,
  input  wire [31:0]            dispatch_pc_i,
  input  wire [31:0]            dispatch_base_tid_i,
  input  wire [LANES-1:0]       dispatch_mask_i,
  output wire [WARPS-1:0]       warp_busy_o,

  input  wire        halt_i,
  output wire        fault_valid_o,
  output wire [3:0]  fault_cause_o,
  output wire [31:0] fault_pc_o,
  output wire [31:0] fault_hart_o,
  output wire [31:0] fault_tid_o,
  output wire [31:0] fault_addr_o,
  output wire        idle_o,

  input  wire        ctr_clear_i,
  input  wire [3:0]  ctr_sel_i,
  output wire [63:0] ctr_value_o,
  output wire        ctr_valid_o,

  output wire        console_valid_o,
  output wire [7:0]  console_byte_o,
  output wire [31:0] console_tid_o,
  input  wire        console_ready_i,

  output wire        imem_en_o,
  output wire [31:0] imem_addr_o,
  input  wire [31:0] imem_rdata_i,

  output wire                   dmem_en_o,
  // MB holds a load or store: the core may use DATA this cycle. From
  // registers only (a superset of dmem_en_o), for the SoC's arbitration
  // and its DATA RAM read enables, which then do not wait for dmem_en_o.
  output wire                   dmem_busy_o,
  output wire [31:0]            dmem_addr_o,
  output wire [4*LANES-1:0]     dmem_be_o,
  output wire [32*LANES-1:0]    dmem_wdata_o,
  input  wire [32*LANES-1:0]    dmem_rdata_i,

  output wire                   retire_valid_o,
  output wire [WARP_BITS-1:0]   retire_warp_o,
  output wire [31:0]            retire_pc_o,
  output wire [LANES-1:0]       retire_mask_o
);
  localparam WARP_BITS = (WARPS > 1) ? $clog2(WARPS) : 1;
// The contract include declares every constant; each block uses a few.
// verilator lint_off UNUSEDPARAM
`include "simty_arch.vh"
// verilator lint_on UNUSEDPARAM
  localparam integer LANE_BITS  = (LANES > 1) ? $clog2(LANES) : 1;
  localparam integer EPOCH_BITS = 3;
  localparam integer RSB = (RAS_DEPTH > 1) ? $clog2(RAS_DEPTH) : 1;  // RAS pointer
  // pcs inside the core are word offsets into CODE, wide enough for the
  // word just past its end (where falling off the last word leads): 15
  // bits for 64 KiB. A jump outside CODE faults at the jump, so no other
  // pc is ever held (docs/core.md, "pcs").
  localparam [31:0]  CODE_WORDS = CODE_SIZE >> 2;
  localparam integer PCW = $clog2(CODE_WORDS + 1);
  localparam [31:0]  CODE_BASE = SIMTY_CODE_BASE;
  // The byte address of a pc. A macro, undefined at the end of the
  // module, because the simulator evaluates a function call through
  // stored temporaries (see simty_warp_onehot.vh).
`define SIMTY_FULL_PC(off) (CODE_BASE + ({{(32-PCW){1'b0}}, (off)} << 2))
  // the entry pc as an offset (the firmware checks it lies in CODE)
  wire [31:0] disp_off = dispatch_pc_i - CODE_BASE;

  // ------------------------------------------------------------------
  // Warp state (simty_ctrl), the fault stop and dispatch (simty_stage_mb)
  // ------------------------------------------------------------------
  wire [WARPS-1:0] busy_q;
  wire             fault_q;
  wire [WARPS-1:0] blocked;
  wire             disp_go;

  // ------------------------------------------------------------------
  // Stage 1-2: fetch steering, fetch / predecode
  // ------------------------------------------------------------------
  // The membership stage's registered redirect of the warp that was in MB
  // (simty_stage_mb): it flushes that warp's instruction buffer entries,
  // kills its fetch in stage 2 and restarts its fetch steering.
  wire                  redir_q;
  wire [WARP_BITS-1:0]  redir_warp_q;
  wire [PCW-1:0]        redir_pc_q;
  wire [RSB-1:0]        redir_rsp_q;    // the warp's RAS pointer from here
  wire [WARP_BITS-1:0]  mb_warp;
  wire                  fs_valid;
  wire [WARP_BITS-1:0]  fs_warp;
  wire [PCW-1:0]           fs_pc;
  wire [EPOCH_BITS-1:0] fs_epoch;
  wire [WARPS*EPOCH_BITS-1:0] epochs;
  wire [WARPS-1:0]      fetch_elig, fetch_live;
  wire                  fe_busy;
  wire [WARP_BITS-1:0]  fe_warp;
  wire [WARPS-1:0]      ib_valid, ib_full_next;

  simty_fetch_steer #(.WARPS(WARPS), .WARP_BITS(WARP_BITS), .EPOCH_BITS(EPOCH_BITS),
                      .PCW(PCW)) u_steer (
    .clk_i         (clk_i),
    .rst_i         (rst_i),
    .elig_i        (fetch_elig),
    .live_i        (fetch_live),
    .redir_valid_i (redir_q),
    .redir_warp_i  (redir_warp_q),
    .redir_pc_i    (redir_pc_q),
    .disp_valid_i  (disp_go),
    .disp_warp_i   (dispatch_warp_i),
    .disp_pc_i     (disp_off[PCW+1:2]),
    .adv_valid_i   (ibw_we),
    .adv_warp_i    (ibw_warp),
    .adv_pc_i      (pred_pc),
    .fs_valid_o    (fs_valid),
    .fs_warp_o     (fs_warp),
    .fs_pc_o       (fs_pc),
    .fs_epoch_o    (fs_epoch),
    .epoch_o       (epochs)
  );

  wire                  ibw_we;
  wire [WARP_BITS-1:0]  ibw_warp;
  wire [PCW-1:0]           ibw_pc;
  wire [31:0]           ibw_word;
  wire                  ibw_oor;
  wire [EPOCH_BITS-1:0] ibw_epoch;
  wire [4:0]            ibw_rs1, ibw_rs2, ibw_rd;
  wire                  ibw_use1, ibw_use2, ibw_wr;
  wire [PCW-1:0]           pred_pc;
  wire [RSB-1:0]        ibw_rsp;

  simty_fetch #(.WARPS(WARPS), .WARP_BITS(WARP_BITS), .EPOCH_BITS(EPOCH_BITS),
                .CODE_SIZE(CODE_SIZE), .PCW(PCW), .RAS_DEPTH(RAS_DEPTH),
                .RSB(RSB), .STYLE(SMALL_TABLES)) u_fetch (
    .clk_i         (clk_i),
    .rst_i         (rst_i),
    .fs_valid_i    (fs_valid),
    .fs_warp_i     (fs_warp),
    .fs_pc_i       (fs_pc),
    .fs_epoch_i    (fs_epoch),
    .epoch_i       (epochs),
    .redir_valid_i (redir_q),
    .redir_warp_i  (redir_warp_q),
    .redir_rsp_i   (redir_rsp_q),
    .imem_en_o     (fe_imem_en),
    .imem_rdata_i  (imem_rdata_i),
    .fe_busy_o     (fe_busy),
    .fe_warp_o     (fe_warp),
    .ib_we_o       (ibw_we),
    .ib_warp_o     (ibw_warp),
    .ib_pc_o       (ibw_pc),
    .ib_word_o     (ibw_word),
    .ib_oor_o      (ibw_oor),
    .ib_epoch_o    (ibw_epoch),
    .ib_rs1_o      (ibw_rs1),
    .ib_rs2_o      (ibw_rs2),
    .ib_rd_o       (ibw_rd),
    .ib_use1_o     (ibw_use1),
    .ib_use2_o     (ibw_use2),
    .ib_wr_o       (ibw_wr),
    .pred_pc_o     (pred_pc),
    .ib_rsp_o      (ibw_rsp)
  );

  // ------------------------------------------------------------------
  // Stage 3-4: instruction buffer, scheduler
  // ------------------------------------------------------------------
  wire [WARPS-1:0]   ib_flush;
  wire               issue;
  wire [WARP_BITS-1:0] issue_warp;
  wire [WARPS-1:0]     issue_at;       // the issuing warp, one-hot
  wire [WARPS*5-1:0] ib_rs1, ib_rs2;
  wire [WARPS-1:0]   ib_use1, ib_use2;
  wire [4:0]         iss_rs1, iss_rs2, iss_rd;     // the issuing warp's entry
  wire               iss_use1, iss_use2, iss_wr;
  // The issued entry, straight from the ibuf in RR2 (read in RR1)
  wire [PCW-1:0]        rr2_pc;
  wire [31:0]           rr2_word;
  wire                  rr2_oor;
  wire [EPOCH_BITS-1:0] rr2_epoch;
  wire [PCW-1:0]        rr2_pnext;      // where the warp's fetch went next
  wire [RSB-1:0]        rr2_rsp;        // the RAS pointer its fetch found
  // Predecode bits the issue rules of the divide and the atomic unit test
  // on the buffered instruction (bit 0: a divide, bit 1: an atomic).
  wire [1:0]            ibw_aux = {ibw_word[6:0] == 7'b0101111,
                                   ibw_word[6:0] == 7'b0110011 &&
                                   ibw_word[31:25] == 7'h01 && ibw_word[14]};
  wire [WARPS*2-1:0]    ib_aux;
  wire [WARPS-1:0]      ib_isdiv, ib_isamo;   // the head entry's bits
  genvar ia;
  generate
    for (ia = 0; ia < WARPS; ia = ia + 1) begin : gen_ib_aux
      assign ib_isdiv[ia] = ib_aux[2*ia];
      assign ib_isamo[ia] = ib_aux[2*ia + 1];
    end
  endgenerate

  simty_ibuf #(.WARPS(WARPS), .WARP_BITS(WARP_BITS), .EPOCH_BITS(EPOCH_BITS),
               .PCW(PCW), .DEPTH(IBUF_DEPTH), .AUX(2), .XW(RSB),
               .STYLE(SMALL_TABLES)) u_ibuf (
    .clk_i        (clk_i),
    .rst_i        (rst_i),
    .we_i         (ibw_we),
    .wwarp_i      (ibw_warp),
    .pc_i         (ibw_pc),
    .word_i       (ibw_word),
    .oor_i        (ibw_oor),
    .epoch_i      (ibw_epoch),
    .rs1_i        (ibw_rs1),
    .rs2_i        (ibw_rs2),
    .rd_i         (ibw_rd),
    .use1_i       (ibw_use1),
    .use2_i       (ibw_use2),
    .wr_i         (ibw_wr),
    .aux_i        (ibw_aux),
    .pnext_i      (pred_pc),
    .x_i          (ibw_rsp),
    .flush_i      (ib_flush),
    .issue_at_i   (issue_at),
    .rd_warp_i    (rr1_warp),
    .valid_o      (ib_valid),
    .full_next_o  (ib_full_next),
    .rs1_o        (ib_rs1),
    .rs2_o        (ib_rs2),
    .use1_o       (ib_use1),
    .use2_o       (ib_use2),
    .aux_o        (ib_aux),
    .iss_rs1_o    (iss_rs1),
    .iss_rs2_o    (iss_rs2),
    .iss_rd_o     (iss_rd),
    .iss_use1_o   (iss_use1),
    .iss_use2_o   (iss_use2),
    .iss_wr_o     (iss_wr),
    .rd_pc_o      (rr2_pc),
    .rd_word_o    (rr2_word),
    .rd_oor_o     (rr2_oor),
    .rd_epoch_o   (rr2_epoch),
    .rd_pnext_o   (rr2_pnext),
    .rd_x_o       (rr2_rsp)
  );

  wire                 rr1_valid;
  wire [WARP_BITS-1:0] rr1_warp;
  wire [4:0]           rr1_rd;
  wire                 rr1_wr;
  wire                 rr2_valid;
  wire [WARP_BITS-1:0] rr2_warp;
  wire [4:0]           rr2_rd;
  wire                 rr2_wr;
  wire                 ex_valid;
  wire [WARP_BITS-1:0] ex_warp;
  wire                 ex_wr;
  wire [4:0]           ex_rd;
  wire                 mb_valid, mb_wr;
  wire [4:0]           mb_rd;
  wire [WARP_BITS-1:0] ga_warp;
  wire [LANES-1:0]     ga_mask;
  wire                 disp_bubble;  // no issue: MB free for a dispatch
  wire [WARPS-1:0]     sched_ready;  // simty_ctrl
  wire                 sched_hold;

  simty_sched #(.WARPS(WARPS), .WARP_BITS(WARP_BITS)) u_sched (
    .clk_i        (clk_i),
    .rst_i        (rst_i),
    .ready_i      (sched_ready),
    .hold_i       (sched_hold),
    .ib_valid_i   (ib_valid),
    .ib_rs1_i     (ib_rs1),
    .ib_rs2_i     (ib_rs2),
    .ib_use1_i    (ib_use1),
    .ib_use2_i    (ib_use2),
    .fill_i       (ibw_we),
    .fill_warp_i  (ibw_warp),
    .fill_rs1_i   (ibw_rs1),
    .fill_rs2_i   (ibw_rs2),
    .fill_use1_i  (ibw_use1),
    .fill_use2_i  (ibw_use2),
    .rr1_valid_i  (rr1_valid),
    .rr1_warp_i   (rr1_warp),
    .rr1_wr_i     (rr1_wr),
    .rr1_rd_i     (rr1_rd),
    .rr2_valid_i  (rr2_valid),
    .rr2_warp_i   (rr2_warp),
    .rr2_wr_i     (rr2_wr),
    .rr2_rd_i     (rr2_rd),
    .issue_o      (issue),
    .issue_at_o   (issue_at),
    .issue_warp_o (issue_warp)
  );

  // ------------------------------------------------------------------
  // Stage 5-6: operand collection, decode (simty_stage_rr)
  // ------------------------------------------------------------------
  wire                 wb_we;
  wire [WARP_BITS-1:0] wb_warp;
  wire [4:0]           wb_rd;
  wire [LANES-1:0]     wb_mask;
  wire [32*LANES-1:0]  wb_data;
  wire                 wb2_we;
  wire [WARP_BITS-1:0] wb2_warp;
  wire [4:0]           wb2_rd;
  wire [LANES-1:0]     wb2_mask;
  wire [32*LANES-1:0]  wb2_data;
  wire [32*LANES-1:0]  rr2_op1, rr2_op2;
  wire [31:0]          rr2_base_tid;
  wire [3:0]           d_alu_op;
  wire                 d_b_imm, d_lane, d_link;
  wire [31:0]          d_uimm;
  wire                 d_branch, d_jal, d_jalr, d_load, d_store, d_uns;
  wire [1:0]           d_size;
  wire                 d_ecall, d_ebreak, d_illegal, d_call, d_ret;
  wire                 d_mul, d_div, d_instret, d_cnt_hi;
  wire                 d_amo;
  wire [3:0]           d_amo_op;

  simty_stage_rr #(.WARPS(WARPS), .LANES(LANES), .WARP_BITS(WARP_BITS), .PCW(PCW),
                   .CODE_BASE(CODE_BASE), .SMALL_TABLES(SMALL_TABLES), .EXT_M(EXT_M),
                   .EXT_A(EXT_A), .EXT_ZICNTR(EXT_ZICNTR)) u_rr (
    .clk_i           (clk_i),
    .rst_i           (rst_i),
    .issue_i         (issue),
    .issue_warp_i    (issue_warp),
    .issue_rs1_i     (iss_rs1),
    .issue_rs2_i     (iss_rs2),
    .issue_rd_i      (iss_rd),
    .issue_use1_i    (iss_use1),
    .issue_use2_i    (iss_use2),
    .issue_wr_i      (iss_wr),
    .rr1_valid_o     (rr1_valid),
    .rr1_warp_o      (rr1_warp),
    .rr1_rd_o        (rr1_rd),
    .rr1_wr_o        (rr1_wr),
    .rr2_valid_o     (rr2_valid),
    .rr2_warp_o      (rr2_warp),
    .rr2_rd_o        (rr2_rd),
    .rr2_wr_o        (rr2_wr),
    .rr2_op1_o       (rr2_op1),
    .rr2_op2_o       (rr2_op2),
    .rr2_base_tid_o  (rr2_base_tid),
    .rr2_pc_i        (rr2_pc),
    .rr2_word_i      (rr2_word),
    .d_alu_op_o      (d_alu_op),
    .d_b_imm_o       (d_b_imm),
    .d_lane_o        (d_lane),
    .d_uimm_o        (d_uimm),
    .d_link_o        (d_link),
    .d_branch_o      (d_branch),
    .d_jal_o         (d_jal),
    .d_jalr_o        (d_jalr),
    .d_load_o        (d_load),
    .d_store_o       (d_store),
    .d_uns_o         (d_uns),
    .d_size_o        (d_size),
    .d_ecall_o       (d_ecall),
    .d_ebreak_o      (d_ebreak),
    .d_illegal_o     (d_illegal),
    .d_call_o        (d_call),
    .d_ret_o         (d_ret),
    .d_mul_o         (d_mul),
    .d_div_o         (d_div),
    .d_instret_o     (d_instret),
    .d_cnt_hi_o      (d_cnt_hi),
    .d_amo_o         (d_amo),
    .d_amo_op_o      (d_amo_op),
    .wb_we_i         (wb_we),
    .wb_warp_i       (wb_warp),
    .wb_rd_i         (wb_rd),
    .wb_mask_i       (wb_mask),
    .wb_data_i       (wb_data),
    .wb2_we_i        (wb2_we),
    .wb2_warp_i      (wb2_warp),
    .wb2_rd_i        (wb2_rd),
    .wb2_mask_i      (wb2_mask),
    .wb2_data_i      (wb2_data),
    .disp_go_i       (disp_go),
    .disp_warp_i     (dispatch_warp_i),
    .disp_base_tid_i (dispatch_base_tid_i),
    .nthreads_i      (launch_nthreads_i),
    .args_i          (launch_args_i),
    .stack_top_i     (launch_stack_top_i),
    .stack_log2_i    (launch_stack_log2_i),
    .ctr_clear_i     (ctr_clear_i),
    .busy_i          (|busy_q)
  );

  // ------------------------------------------------------------------
  // Stage 7: execute (simty_stage_ex)
  // ------------------------------------------------------------------
  wire [PCW-1:0]        ex_pc;
  wire [2:0]            ex_f3;
  wire                  ex_oor;
  wire [EPOCH_BITS-1:0] ex_epoch;
  wire [PCW-1:0]        ex_pnext;
  wire [RSB-1:0]        ex_rsp;
  wire [31:0]           ex_imm, ex_base_tid;
  wire                  ex_link;
  wire                  ex_branch, ex_jal, ex_jalr, ex_load, ex_store, ex_uns;
  wire [1:0]            ex_size;
  wire                  ex_ecall, ex_ebreak, ex_illegal, ex_call, ex_ret;
  wire                  ex_mul, ex_div, ex_instret, ex_cnt_hi;
  wire                  ex_amo, ex_amoc;
  wire [3:0]            ex_amo_op;
  wire [32*LANES-1:0]   ex_op1, ex_op2;
  wire [32*LANES-1:0]   ex_res;
  wire [32*LANES-1:0]   mb_mul_res;       // M: the multiply result, in MB
  wire [LANES-1:0]      ex_eq, ex_lt, ex_ltu;
  wire [LANES-1:0]       ex_mis, ex_bad, ex_con, ex_ovf;
  wire [LANES*LANES-1:0] ex_same;
  wire [32*LANES-1:0]    ex_pline;
  wire [LANE_BITS*LANES-1:0] ex_pword, ex_prot;
  wire [(PCW+2)*LANES-1:0] ex_jt;

  simty_stage_ex #(.WARPS(WARPS), .LANES(LANES), .WARP_BITS(WARP_BITS), .PCW(PCW),
                   .EPOCH_BITS(EPOCH_BITS), .RSB(RSB), .CODE_BASE(CODE_BASE),
                   .CODE_SIZE(CODE_SIZE),
                   .DATA_SIZE(DATA_SIZE), .EXT_M(EXT_M), .EXT_A(EXT_A),
                   .LANE_BITS(LANE_BITS), .XBAR(XBAR)) u_ex (
    .clk_i          (clk_i),
    .rst_i          (rst_i),
    .stack_log2_i   (launch_stack_log2_i),
    .rr2_valid_i    (rr2_valid),
    .rr2_warp_i     (rr2_warp),
    .rr2_pc_i       (rr2_pc),
    .rr2_f3_i       (rr2_word[14:12]),
    .rr2_opcode_i   (rr2_word[6:0]),
    .rr2_oor_i      (rr2_oor),
    .rr2_epoch_i    (rr2_epoch),
    .rr2_pnext_i    (rr2_pnext),
    .rr2_rsp_i      (rr2_rsp),
    .rr2_rd_i       (rr2_rd),
    .rr2_wr_i       (rr2_wr),
    .rr2_op1_i      (rr2_op1),
    .rr2_op2_i      (rr2_op2),
    .rr2_base_tid_i (rr2_base_tid),
    .d_alu_op_i     (d_alu_op),
    .d_b_imm_i      (d_b_imm),
    .d_lane_i       (d_lane),
    .d_uimm_i       (d_uimm),
    .d_link_i       (d_link),
    .d_branch_i     (d_branch),
    .d_jal_i        (d_jal),
    .d_jalr_i       (d_jalr),
    .d_load_i       (d_load),
    .d_store_i      (d_store),
    .d_uns_i        (d_uns),
    .d_size_i       (d_size),
    .d_ecall_i      (d_ecall),
    .d_ebreak_i     (d_ebreak),
    .d_illegal_i    (d_illegal),
    .d_call_i       (d_call),
    .d_ret_i        (d_ret),
    .d_mul_i        (d_mul),
    .d_div_i        (d_div),
    .d_instret_i    (d_instret),
    .d_cnt_hi_i     (d_cnt_hi),
    .d_amo_i        (d_amo),
    .d_amo_op_i     (d_amo_op),
    .ex_valid_q     (ex_valid),
    .ex_warp_q      (ex_warp),
    .ex_pc_q        (ex_pc),
    .ex_f3_q        (ex_f3),
    .ex_oor_q       (ex_oor),
    .ex_epoch_q     (ex_epoch),
    .ex_pnext_q     (ex_pnext),
    .ex_rsp_q       (ex_rsp),
    .ex_rd_q        (ex_rd),
    .ex_wr_q        (ex_wr),
    .ex_imm_q       (ex_imm),
    .ex_base_tid_q  (ex_base_tid),
    .ex_link_q      (ex_link),
    .ex_branch_q    (ex_branch),
    .ex_jal_q       (ex_jal),
    .ex_jalr_q      (ex_jalr),
    .ex_load_q      (ex_load),
    .ex_store_q     (ex_store),
    .ex_uns_q       (ex_uns),
    .ex_size_q      (ex_size),
    .ex_ecall_q     (ex_ecall),
    .ex_ebreak_q    (ex_ebreak),
    .ex_illegal_q   (ex_illegal),
    .ex_call_q      (ex_call),
    .ex_ret_q       (ex_ret),
    .ex_mul_q       (ex_mul),
    .ex_div_q       (ex_div),
    .ex_instret_q   (ex_instret),
    .ex_cnt_hi_q    (ex_cnt_hi),
    .ex_amo_q       (ex_amo),
    .ex_amoc_q      (ex_amoc),
    .ex_amo_op_q    (ex_amo_op),
    .ex_op1_q       (ex_op1),
    .ex_op2_q       (ex_op2),
    .ex_res_o       (ex_res),
    .ex_eq_o        (ex_eq),
    .ex_lt_o        (ex_lt),
    .ex_ltu_o       (ex_ltu),
    .mb_mul_res_o   (mb_mul_res),
    .ex_mis_o       (ex_mis),
    .ex_bad_o       (ex_bad),
    .ex_con_o       (ex_con),
    .ex_ovf_o       (ex_ovf),
    .ex_same_o      (ex_same),
    .ex_pline_o     (ex_pline),
    .ex_pword_o     (ex_pword),
    .ex_prot_o      (ex_prot),
    .ex_jt_o        (ex_jt)
  );

  // ------------------------------------------------------------------
  // Stage 8: membership, branch unit, memory arbiter; the commit, fault
  // and redirect decision (simty_stage_mb)
  // ------------------------------------------------------------------
  wire [PCW-1:0]       mb_pc;
  wire                 mb_load, mb_uns;
  wire [1:0]           mb_size;
  wire                 mb_link, mb_mul, mb_div, mb_instret, mb_cnt_hi;
  wire                 mb_amo, mb_amoc;
  wire [3:0]           mb_amo_op;
  wire [32*LANES-1:0]  mb_res, mb_b;
  wire [LANE_BITS*LANES-1:0] mb_pword;
  wire [31:0]          mb_link_val;
  wire                 exec_ok;      // commits this cycle
  wire [LANES-1:0]     retire_mask, served;
  wire [LANE_BITS-1:0] mb_rot, mb_bword;   // XBAR = 1: for the gather
  wire [LANES-1:0]     mb_bc;
  wire [31:0]          mem_addr;
  wire                 ended_now, sorter_busy;
  wire [LANE_BITS:0]   ev_threads, ev_requests, ev_peak;
  wire                 ev_divergent, ev_smerge, ev_replay_mem, ev_replay_ind, ev_mem;
  wire                 ev_peak_valid;
  wire [1:0]           ev_merges;
  wire                 am_busy;      // A: the atomic unit owns DATA
  wire                 am_we;
  wire [31:0]          am_addr;
  wire [4*LANES-1:0]   am_be;
  wire [32*LANES-1:0]  am_wdata;
  wire                 fill_q;
  wire [PCW-1:0]       foff_q;

  simty_stage_mb #(.WARPS(WARPS), .LANES(LANES), .WARP_BITS(WARP_BITS),
                   .LANE_BITS(LANE_BITS), .PCW(PCW), .EPOCH_BITS(EPOCH_BITS), .RSB(RSB),
                   .RAS_DEPTH(RAS_DEPTH), .CODE_SIZE(CODE_SIZE),
                   .HOT_LUTRAM(HOT_LUTRAM), .XBAR(XBAR)) u_mb (
    .clk_i            (clk_i),
    .rst_i            (rst_i),
    .ex_valid_i       (ex_valid),
    .ex_warp_i        (ex_warp),
    .ex_pc_i          (ex_pc),
    .ex_f3_i          (ex_f3),
    .ex_oor_i         (ex_oor),
    .ex_epoch_i       (ex_epoch),
    .ex_pnext_i       (ex_pnext),
    .ex_rsp_i         (ex_rsp),
    .ex_rd_i          (ex_rd),
    .ex_wr_i          (ex_wr),
    .ex_imm_i         (ex_imm),
    .ex_base_tid_i    (ex_base_tid),
    .ex_link_i        (ex_link),
    .ex_branch_i      (ex_branch),
    .ex_jal_i         (ex_jal),
    .ex_jalr_i        (ex_jalr),
    .ex_load_i        (ex_load),
    .ex_store_i       (ex_store),
    .ex_uns_i         (ex_uns),
    .ex_size_i        (ex_size),
    .ex_ecall_i       (ex_ecall),
    .ex_ebreak_i      (ex_ebreak),
    .ex_illegal_i     (ex_illegal),
    .ex_call_i        (ex_call),
    .ex_ret_i         (ex_ret),
    .ex_mul_i         (ex_mul),
    .ex_div_i         (ex_div),
    .ex_instret_i     (ex_instret),
    .ex_cnt_hi_i      (ex_cnt_hi),
    .ex_amo_i         (ex_amo),
    .ex_amoc_i        (ex_amoc),
    .ex_amo_op_i      (ex_amo_op),
    .ex_res_i         (ex_res),
    .ex_op2_i         (ex_op2),
    .ex_eq_i          (ex_eq),
    .ex_lt_i          (ex_lt),
    .ex_ltu_i         (ex_ltu),
    .ex_mis_i         (ex_mis),
    .ex_bad_i         (ex_bad),
    .ex_con_i         (ex_con),
    .ex_ovf_i         (ex_ovf),
    .ex_same_i        (ex_same),
    .ex_pline_i       (ex_pline),
    .ex_pword_i       (ex_pword),
    .ex_prot_i        (ex_prot),
    .ex_jt_i          (ex_jt),
    .epochs_i         (epochs),
    .mb_valid_q       (mb_valid),
    .mb_warp_q        (mb_warp),
    .mb_pc_q          (mb_pc),
    .mb_rd_q          (mb_rd),
    .mb_wr_q          (mb_wr),
    .mb_load_q        (mb_load),
    .mb_uns_q         (mb_uns),
    .mb_size_q        (mb_size),
    .mb_link_q        (mb_link),
    .mb_mul_q         (mb_mul),
    .mb_div_q         (mb_div),
    .mb_instret_q     (mb_instret),
    .mb_cnt_hi_q      (mb_cnt_hi),
    .mb_amo_q         (mb_amo),
    .mb_amoc_q        (mb_amoc),
    .mb_amo_op_q      (mb_amo_op),
    .mb_res_q         (mb_res),
    .mb_b_q           (mb_b),
    .mb_pword_q       (mb_pword),
    .mb_link_val_o    (mb_link_val),
    .exec_ok_o        (exec_ok),
    .retire_mask_o    (retire_mask),
    .served_o         (served),
    .rot_o            (mb_rot),
    .bword_o          (mb_bword),
    .bc_o             (mb_bc),
    .mem_addr_o       (mem_addr),
    .ended_o          (ended_now),
    .blocked_o        (blocked),
    .sorter_busy_o    (sorter_busy),
    .ev_threads_o     (ev_threads),
    .ev_divergent_o   (ev_divergent),
    .ev_merges_o      (ev_merges),
    .ev_smerge_o      (ev_smerge),
    .ev_replay_mem_o  (ev_replay_mem),
    .ev_replay_ind_o  (ev_replay_ind),
    .ev_mem_o         (ev_mem),
    .ev_requests_o    (ev_requests),
    .ev_peak_valid_o  (ev_peak_valid),
    .ev_peak_o        (ev_peak),
    .redir_q          (redir_q),
    .redir_warp_q     (redir_warp_q),
    .redir_pc_q       (redir_pc_q),
    .redir_rsp_q      (redir_rsp_q),
    .dispatch_valid_i (dispatch_valid_i),
    .dispatch_ready_o (dispatch_ready_o),
    .dispatch_warp_i  (dispatch_warp_i),
    .dispatch_pc_i    (disp_off[PCW+1:2]),
    .dispatch_mask_i  (dispatch_mask_i),
    .disp_go_o        (disp_go),
    .disp_bubble_o    (disp_bubble),
    .am_busy_i        (am_busy),
    .am_we_i          (am_we),
    .am_addr_i        (am_addr),
    .am_be_i          (am_be),
    .am_wdata_i       (am_wdata),
    .dmem_en_o        (dmem_en_o),
    .dmem_busy_o      (dmem_busy_o),
    .dmem_addr_o      (dmem_addr_o),
    .dmem_be_o        (dmem_be_o),
    .dmem_wdata_o     (dmem_wdata_o),
    .console_valid_o  (console_valid_o),
    .console_byte_o   (console_byte_o),
    .console_tid_o    (console_tid_o),
    .console_ready_i  (console_ready_i),
    .fault_q          (fault_q),
    .fill_q           (fill_q),
    .foff_q           (foff_q),
    .imem_rdata_i     (imem_rdata_i),
    .fault_valid_o    (fault_valid_o),
    .fault_cause_o    (fault_cause_o),
    .fault_pc_o       (fault_pc_o),
    .fault_hart_o     (fault_hart_o),
    .fault_tid_o      (fault_tid_o),
    .fault_addr_o     (fault_addr_o)
  );
  wire unused_pc_off = &{1'b0, disp_off[1:0], disp_off[31:PCW+2]};  // entry: 4-aligned, in CODE

  // The instruction port: fetch, or the fault record's read of an illegal
  // instruction's word once the fault has stopped fetch
  wire fe_imem_en;
  assign imem_en_o   = fe_imem_en || fill_q;
  assign imem_addr_o = `SIMTY_FULL_PC(fill_q ? foff_q : fs_pc);

  // ------------------------------------------------------------------
  // Stages 9-10: gather, write-back (simty_stage_wb)
  // ------------------------------------------------------------------
  wire                 ga_any, wb_any;
  wire                 dv_inject;    // M: the divide result takes GA
  wire [WARP_BITS-1:0] dv_warp;
  wire [4:0]           dv_rd;
  wire                 dv_wr;
  wire [LANES-1:0]     dv_mask;
  wire [32*LANES-1:0]  dv_res;
  wire [32*LANES-1:0]  mb_ir_res;    // Zicntr: this warp's instret, in MB
  // A: the atomic unit's results come through GA like a divide's
  // (am_inject: only when MB is empty and no divide result takes it)
  wire                 am_inject;
  wire [WARP_BITS-1:0] am_warp;
  wire [4:0]           am_rd;
  wire                 am_wr;
  wire [LANES-1:0]     am_mask;
  wire [32*LANES-1:0]  am_res;
  wire uniform, affine, vclass_busy;

  simty_stage_wb #(.LANES(LANES), .LANE_BITS(LANE_BITS), .WARP_BITS(WARP_BITS),
                   .PCW(PCW), .VCLASS(VCLASS), .XBAR(XBAR)) u_gw (
    .clk_i          (clk_i),
    .rst_i          (rst_i),
    .mb_valid_i     (mb_valid),
    .exec_ok_i      (exec_ok),
    .mb_warp_i      (mb_warp),
    .mb_pc_i        (mb_pc),
    .mb_rd_i        (mb_rd),
    .mb_wr_i        (mb_wr),
    .mb_load_i      (mb_load),
    .mb_uns_i       (mb_uns),
    .mb_size_i      (mb_size),
    .mb_link_i      (mb_link),
    .mb_mul_i       (mb_mul),
    .mb_div_i       (mb_div),
    .mb_instret_i   (mb_instret),
    .mb_amo_i       (mb_amo),
    .mb_pword_i     (mb_pword),
    .mb_rot_i       (mb_rot),
    .mb_bword_i     (mb_bword),
    .mb_bc_i        (mb_bc),
    .retire_mask_i  (retire_mask),
    .mb_link_val_i  (mb_link_val),
    .mb_res_i       (mb_res),
    .mb_mul_res_i   (mb_mul_res),
    .mb_ir_res_i    (mb_ir_res),
    .dv_inject_i    (dv_inject),
    .dv_warp_i      (dv_warp),
    .dv_rd_i        (dv_rd),
    .dv_wr_i        (dv_wr),
    .dv_mask_i      (dv_mask),
    .dv_res_i       (dv_res),
    .am_inject_i    (am_inject),
    .am_warp_i      (am_warp),
    .am_rd_i        (am_rd),
    .am_wr_i        (am_wr),
    .am_mask_i      (am_mask),
    .am_res_i       (am_res),
    .dmem_rdata_i   (dmem_rdata_i),
    .ga_any_q       (ga_any),
    .ga_warp_q      (ga_warp),
    .retire_valid_o (retire_valid_o),
    .retire_pc_o    (retire_pc_o),
    .retire_mask_o  (ga_mask),
    .wb_any_q       (wb_any),
    .wb_we_o        (wb_we),
    .wb_warp_o      (wb_warp),
    .wb_rd_o        (wb_rd),
    .wb_mask_o      (wb_mask),
    .wb_data_o      (wb_data),
    .wb2_we_o       (wb2_we),
    .wb2_warp_o     (wb2_warp),
    .wb2_rd_o       (wb2_rd),
    .wb2_mask_o     (wb2_mask),
    .wb2_data_o     (wb2_data),
    .uniform_o      (uniform),
    .affine_o       (affine),
    .vclass_busy_o  (vclass_busy)
  );
  assign retire_warp_o = ga_warp;
  assign retire_mask_o = ga_mask;


  // ------------------------------------------------------------------
  // Warp and issue control (simty_ctrl): warp lifetime, fetch and issue
  // eligibility, the buffer flush, the divide's and the atomic unit's
  // issue tokens and result slots, idle
  // ------------------------------------------------------------------
  wire dv_busy, dv_done;
  wire am_active, am_done;

  simty_ctrl #(.WARPS(WARPS), .WARP_BITS(WARP_BITS), .EXT_M(EXT_M), .EXT_A(EXT_A)) u_ctrl (
    .clk_i         (clk_i),
    .rst_i         (rst_i),
    .halt_i        (halt_i),
    .fault_i       (fault_q),
    .disp_go_i     (disp_go),
    .disp_warp_i   (dispatch_warp_i),
    .disp_bubble_i (disp_bubble),
    .fe_busy_i     (fe_busy),
    .fe_warp_i     (fe_warp),
    .ib_full_next_i (ib_full_next),
    .rr1_valid_i   (rr1_valid),
    .rr1_warp_i    (rr1_warp),
    .rr2_valid_i   (rr2_valid),
    .rr2_warp_i    (rr2_warp),
    .ex_valid_i    (ex_valid),
    .ex_warp_i     (ex_warp),
    .mb_valid_i    (mb_valid),
    .mb_warp_i     (mb_warp),
    .ga_any_i      (ga_any),
    .ga_warp_i     (ga_warp),
    .wb_any_i      (wb_any),
    .wb_warp_i     (wb_warp),
    .issue_at_i    (issue_at),
    .ib_isdiv_i    (ib_isdiv),
    .ib_isamo_i    (ib_isamo),
    .exec_ok_i     (exec_ok),
    .mb_div_i      (mb_div),
    .mb_amoc_i     (mb_amoc),
    .ended_now_i   (ended_now),
    .blocked_i     (blocked),
    .redir_q_i     (redir_q),
    .redir_warp_i  (redir_warp_q),
    .dv_done_i     (dv_done),
    .am_done_i     (am_done),
    .dv_inject_o   (dv_inject),
    .am_inject_o   (am_inject),
    .sorter_busy_i (sorter_busy),
    .vclass_busy_i (vclass_busy),
    .dv_busy_i     (dv_busy),
    .am_active_i   (am_active),
    .busy_q        (busy_q),
    .fetch_live_o  (fetch_live),
    .fetch_elig_o  (fetch_elig),
    .ib_flush_o    (ib_flush),
    .sched_ready_o (sched_ready),
    .sched_hold_o  (sched_hold),
    .idle_o        (idle_o)
  );
  assign warp_busy_o = busy_q;

  // ------------------------------------------------------------------
  // Divide unit (M): loaded in EX, started by the divide's commit in MB,
  // its result written back through GA (simty_ctrl's dv_inject)
  // ------------------------------------------------------------------
  generate
    if (EXT_M != 0) begin : gen_div
      simty_div #(.LANES(LANES), .WARP_BITS(WARP_BITS)) u_div (
        .clk_i   (clk_i),
        .rst_i   (rst_i),
        .load_i  (ex_valid && ex_div),
        .a_i     (ex_op1),
        .b_i     (ex_op2),
        .f3_i    (ex_f3[1:0]),
        .start_i (exec_ok && mb_div),
        .warp_i  (mb_warp),
        .rd_i    (mb_rd),
        .wr_i    (mb_wr),
        .mask_i  (retire_mask),
        .busy_o  (dv_busy),
        .done_o  (dv_done),
        .warp_o  (dv_warp),
        .rd_o    (dv_rd),
        .wr_o    (dv_wr),
        .mask_o  (dv_mask),
        .res_o   (dv_res),
        .take_i  (dv_inject)
      );
    end else begin : gen_no_div
      assign dv_done   = 1'b0;
      assign dv_busy   = 1'b0;
      assign dv_warp   = {WARP_BITS{1'b0}};
      assign dv_rd     = 5'd0;
      assign dv_wr     = 1'b0;
      assign dv_mask   = {LANES{1'b0}};
      assign dv_res    = {32*LANES{1'b0}};
      wire unused_div = &{1'b0, ex_div, ex_op1};
    end
  endgenerate

  // ------------------------------------------------------------------
  // Atomic unit (A): started by the atomic's commit in MB; owns DATA
  // while busy (MB holds memory instructions), its results written back
  // through GA (simty_ctrl's am_inject)
  // ------------------------------------------------------------------
  generate
    if (EXT_A != 0) begin : gen_amo
      simty_amo #(.WARPS(WARPS), .LANES(LANES), .WARP_BITS(WARP_BITS), .LANE_BITS(LANE_BITS),
                  .DATA_SIZE(DATA_SIZE)) u_amo (
        .clk_i       (clk_i),
        .rst_i       (rst_i),
        .start_i     (exec_ok && mb_amo),
        .op_i        (mb_amo_op),
        .warp_i      (mb_warp),
        .rd_i        (mb_rd),
        .wr_i        (mb_wr),
        .mask_i      (served),
        .line_i      (mem_addr),
        .addr_i      (mb_res),
        .pword_i     (mb_pword),
        .src_i       (mb_b),
        .rdata_i     (dmem_rdata_i),
        .wr_en_i     (dmem_en_o),
        .wr_addr_i   (dmem_addr_o),
        .wr_be_i     (dmem_be_o),
        .disp_i      (disp_go),
        .disp_warp_i (dispatch_warp_i),
        .busy_o      (am_busy),
        .active_o    (am_active),
        .we_o        (am_we),
        .addr_o      (am_addr),
        .be_o        (am_be),
        .wdata_o     (am_wdata),
        .done_o      (am_done),
        .warp_o      (am_warp),
        .rd_o        (am_rd),
        .wr_o        (am_wr),
        .mask_o      (am_mask),
        .res_o       (am_res),
        .take_i      (am_inject)
      );
    end else begin : gen_no_amo
      assign am_done   = 1'b0;
      assign am_active = 1'b0;
      assign am_busy   = 1'b0;
      assign am_we     = 1'b0;
      assign am_addr   = 32'd0;
      assign am_be     = {4*LANES{1'b0}};
      assign am_wdata  = {32*LANES{1'b0}};
      assign am_warp   = {WARP_BITS{1'b0}};
      assign am_rd     = 5'd0;
      assign am_wr     = 1'b0;
      assign am_mask   = {LANES{1'b0}};
      assign am_res    = {32*LANES{1'b0}};
      wire unused_amo = &{1'b0, mb_amo_op, mb_b, served, mem_addr};
    end
  endgenerate

  // ------------------------------------------------------------------
  // instret (Zicntr): per hardware thread the instructions it retired since
  // the counters were last cleared (simty_instret): read in EX, the old
  // value in MB (a read of instret gives it: the reading instruction
  // excluded), old + 1 written the cycle after MB by the lanes that
  // retired.
  // ------------------------------------------------------------------
  generate
    if (EXT_ZICNTR != 0) begin : gen_instret
      simty_instret #(.WARPS(WARPS), .LANES(LANES), .WARP_BITS(WARP_BITS),
                      .LUTRAM(HOT_LUTRAM)) u_instret (
        .clk_i     (clk_i),
        .rst_i     (rst_i),
        .clear_i   (ctr_clear_i),
        .ex_warp_i (ex_warp),
        .mb_warp_i (mb_warp),
        .commit_i  (exec_ok),
        .retire_i  (retire_mask),
        .hi_i      (mb_cnt_hi),
        .res_o     (mb_ir_res)
      );
    end else begin : gen_no_instret
      assign mb_ir_res = {32*LANES{1'b0}};
      wire unused_ir = &{1'b0, mb_instret, mb_cnt_hi};
    end
  endgenerate

  // ------------------------------------------------------------------
  // Counters
  // ------------------------------------------------------------------
  simty_counters #(.LANE_BITS(LANE_BITS), .STYLE(SMALL_TABLES)) u_ctr (
    .clk_i        (clk_i),
    .rst_i        (rst_i),
    .clear_i      (ctr_clear_i),
    .sel_i        (ctr_sel_i),
    .value_o      (ctr_value_o),
    .valid_o      (ctr_valid_o),
    .busy_i       (|busy_q),
    .issue_i      (issue),
    .exec_i       (exec_ok),
    .threads_i    (ev_threads),
    .divergent_i  (ev_divergent),
    .merges_i     (ev_merges),
    .smerge_i     (ev_smerge),
    .replay_mem_i (ev_replay_mem),
    .replay_ind_i (ev_replay_ind),
    .mem_i        (ev_mem),
    .requests_i   (ev_requests),
    .peak_valid_i (ev_peak_valid),
    .peak_i       (ev_peak),
    .uniform_i    (uniform),
    .affine_i     (affine)
  );

`ifdef SIMTY_FE_STATS
  // Simulation only: front-end statistics (hw/sim/core/simty_fe_stats.vh).
`include "simty_fe_stats.vh"
`endif

`undef SIMTY_FULL_PC
endmodule
