// SPDX-License-Identifier: Apache-2.0
// simty_core: the Simty SIMT core, top level. Ten-stage in-order pipeline:
// fetch steering, fetch/predecode, instruction buffer, schedule, operand
// collect 1 and 2 (with decode), execute, membership / branch / memory
// arbiter, gather, write-back. See docs/core.md; interface per
// docs/core.md ("Interface"). Reset is synchronous, active high.
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
  parameter integer RAS_DEPTH = 4
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
  localparam integer LS         = 2 + ((LANES > 1) ? $clog2(LANES) : 0);
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
  // Warp state
  // ------------------------------------------------------------------
  reg  [WARPS-1:0] busy_q, ended_q;
  reg              fault_q;
  wire [WARPS-1:0] blocked;
  wire [WARPS-1:0] inflight;
  wire             disp_go;

  // ------------------------------------------------------------------
  // Stage 1-2: fetch steering, fetch / predecode
  // ------------------------------------------------------------------
  // The membership stage's redirect of the warp in MB (redir_valid,
  // redir_pc), registered: the _q copies flush that warp's instruction
  // buffer entry, kill its fetch in stage 2 and restart its fetch steering
  // (new pc, epoch bump) one cycle later. A wrong-path instruction that
  // gets into the buffer or the pipeline meanwhile carries the old epoch
  // and is validated in MB like any other (the HCT1 match, stale).
  wire                  redir_valid;
  wire [PCW-1:0]           redir_pc;
  reg                   redir_q;
  reg  [WARP_BITS-1:0]  redir_warp_q;
  reg  [PCW-1:0]        redir_pc_q;
  reg  [RSB-1:0]        redir_rsp_q;    // the warp's RAS pointer from here
  reg  [WARP_BITS-1:0]  mb_warp;
  wire                  fs_valid;
  wire [WARP_BITS-1:0]  fs_warp;
  wire [PCW-1:0]           fs_pc;
  wire [EPOCH_BITS-1:0] fs_epoch;
  wire [WARPS*EPOCH_BITS-1:0] epochs;
  wire [WARPS-1:0]      fetch_elig, fetch_live;
  wire                  fe_busy;
  wire [WARP_BITS-1:0]  fe_warp;
  wire [WARPS-1:0]      ib_valid, ib_full;

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
  wire [WARPS*5-1:0] ib_rs1, ib_rs2, ib_rd;
  wire [WARPS-1:0]   ib_use1, ib_use2, ib_wr;
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
    .issue_i      (issue),
    .issue_warp_i (issue_warp),
    .rd_warp_i    (rr1_warp),
    .valid_o      (ib_valid),
    .full_o       (ib_full),
    .rs1_o        (ib_rs1),
    .rs2_o        (ib_rs2),
    .rd_o         (ib_rd),
    .use1_o       (ib_use1),
    .use2_o       (ib_use2),
    .wr_o         (ib_wr),
    .aux_o        (ib_aux),
    .rd_pc_o      (rr2_pc),
    .rd_word_o    (rr2_word),
    .rd_oor_o     (rr2_oor),
    .rd_epoch_o   (rr2_epoch),
    .rd_pnext_o   (rr2_pnext),
    .rd_x_o       (rr2_rsp)
  );

  wire                 rr1_valid, rr1_use2;
  wire [WARP_BITS-1:0] rr1_warp;
  wire                 rr2_valid;
  wire [WARP_BITS-1:0] rr2_warp;
  wire [4:0]           rr2_rd;
  wire                 rr2_use2, rr2_wr;
  reg                  ex_valid;
  reg  [WARP_BITS-1:0] ex_warp;
  reg                  ex_wr;
  reg                  mb_valid, mb_wr;
  reg  [4:0]           mb_rd;
  reg                  ga_valid, ga_wr;
  reg  [WARP_BITS-1:0] ga_warp;
  reg  [4:0]           ga_rd;
  reg  [4:0]           ex_rd;
  wire [WARPS-1:0]     div_block;    // M: divide issue rule ("Divide")
  wire [WARPS-1:0]     amo_block;    // A: atomic issue rule ("Atomics")
  wire                 disp_bubble;  // no issue: MB free for a dispatch
  wire [WARPS-1:0]     sched_ready = busy_q & ~ended_q & ~blocked & ~div_block & ~amo_block &
                                     {WARPS{!fault_q && !halt_i && !disp_bubble}};

  simty_sched #(.WARPS(WARPS), .WARP_BITS(WARP_BITS)) u_sched (
    .clk_i        (clk_i),
    .rst_i        (rst_i),
    .ready_i      (sched_ready),
    .ib_valid_i   (ib_valid),
    .ib_rs1_i     (ib_rs1),
    .ib_rs2_i     (ib_rs2),
    .ib_use1_i    (ib_use1),
    .ib_use2_i    (ib_use2),
    .rr1_valid_i  (rr1_valid),
    .rr1_warp_i   (rr1_warp),
    .rr1_use2_i   (rr1_use2),
    .rr2_valid_i  (rr2_valid),
    .rr2_warp_i   (rr2_warp),
    .rr2_wr_i     (rr2_wr),
    .rr2_rd_i     (rr2_rd),
    .ex_valid_i   (ex_valid),
    .ex_warp_i    (ex_warp),
    .ex_wr_i      (ex_wr),
    .ex_rd_i      (ex_rd),
    .issue_o      (issue),
    .issue_warp_o (issue_warp)
  );

  // ------------------------------------------------------------------
  // Stage 5-6: operand collection (+ decode in RR2)
  // ------------------------------------------------------------------
  wire                 wb_we;
  wire [WARP_BITS-1:0] wb_warp;
  wire [4:0]           wb_rd;
  wire [LANES-1:0]     wb_mask;
  wire [32*LANES-1:0]  wb_data;
  wire [32*LANES-1:0]  ga_val;
  wire [32*LANES-1:0]  rr2_op1, ex_op2;
  reg                  ex_use2;

  simty_operand #(.WARPS(WARPS), .LANES(LANES), .WARP_BITS(WARP_BITS)) u_operand (
    .clk_i        (clk_i),
    .rst_i        (rst_i),
    .issue_i      (issue),
    .issue_warp_i (issue_warp),
    .issue_rs1_i  (ib_rs1[issue_warp*5 +: 5]),
    .issue_rs2_i  (ib_rs2[issue_warp*5 +: 5]),
    .issue_rd_i   (ib_rd[issue_warp*5 +: 5]),
    .issue_use1_i (ib_use1[issue_warp]),
    .issue_use2_i (ib_use2[issue_warp]),
    .issue_wr_i   (ib_wr[issue_warp]),
    .rr1_valid_o  (rr1_valid),
    .rr1_warp_o   (rr1_warp),
    .rr1_use2_o   (rr1_use2),
    .rr2_valid_o  (rr2_valid),
    .rr2_warp_o   (rr2_warp),
    .rr2_rd_o     (rr2_rd),
    .rr2_use2_o   (rr2_use2),
    .rr2_wr_o     (rr2_wr),
    .rr2_op1_o    (rr2_op1),
    .ex_warp_i    (ex_warp),
    .ex_use2_i    (ex_use2),
    .ex_op2_o     (ex_op2),
    .rf_we_i      ((ga_valid || ga_dv) && ga_wr),
    .rf_warp_i    (ga_warp),
    .rf_rd_i      (ga_rd),
    .rf_mask_i    (ga_mask),
    .rf_data_i    (ga_val),
    .wb_we_i      (wb_we),
    .wb_warp_i    (wb_warp),
    .wb_rd_i      (wb_rd),
    .wb_mask_i    (wb_mask),
    .wb_data_i    (wb_data)
  );

  wire [3:0]  d_alu_op;
  wire        d_a_pc, d_b_imm;
  wire [31:0] d_imm;
  wire [1:0]  d_res_sel;
  wire [2:0]  d_csr_sel;
  wire        d_branch, d_jal, d_jalr, d_load, d_store, d_uns;
  wire [1:0]  d_size;
  wire        d_ecall, d_ebreak, d_illegal, d_call, d_ret;
  wire        d_mul, d_div, d_cnt, d_instret, d_cnt_time, d_cnt_hi;
  wire        d_amo;
  wire [3:0]  d_amo_op;

  simty_decode #(.EXT_M(EXT_M), .EXT_A(EXT_A), .EXT_ZICNTR(EXT_ZICNTR)) u_decode (
    .word_i    (rr2_word),
    .alu_op_o  (d_alu_op),
    .a_pc_o    (d_a_pc),
    .b_imm_o   (d_b_imm),
    .imm_o     (d_imm),
    .res_sel_o (d_res_sel),
    .csr_sel_o (d_csr_sel),
    .branch_o  (d_branch),
    .jal_o     (d_jal),
    .jalr_o    (d_jalr),
    .load_o    (d_load),
    .store_o   (d_store),
    .size_o    (d_size),
    .uns_o     (d_uns),
    .ecall_o   (d_ecall),
    .ebreak_o  (d_ebreak),
    .illegal_o (d_illegal),
    .call_o    (d_call),
    .ret_o     (d_ret),
    .mul_o     (d_mul),
    .div_o     (d_div),
    .cnt_o     (d_cnt),
    .instret_o (d_instret),
    .cnt_time_o(d_cnt_time),
    .cnt_hi_o  (d_cnt_hi),
    .amo_o     (d_amo),
    .amo_op_o  (d_amo_op)
  );

  // Base logical thread id of each warp's block, read in RR1 for RR2 (the
  // CSR value is selected there). A warp is written only at dispatch,
  // while it has nothing in flight, so a same-cycle read of it is never
  // used (SAME_CYCLE 0). The base is a multiple of LANES (interface rule):
  // its low bits are not stored, so lane l's id is base | l.
  localparam [31:0] LANE_LOW = LANES - 1;
  wire [31:0] rr2_base_tid;
  simty_ram_1r1w #(.WIDTH(32), .DEPTH(WARPS), .ABITS(WARP_BITS),
                   .BLOCK(SMALL_TABLES), .SAME_CYCLE(0)) u_base_tid (
    .clk_i   (clk_i),
    .re_i    (1'b1),
    .raddr_i (rr1_warp),
    .rdata_o (rr2_base_tid),
    .we_i    (disp_go),
    .waddr_i (dispatch_warp_i),
    .wdata_i (dispatch_base_tid_i & ~LANE_LOW)
  );
`ifndef SYNTHESIS
  always @(posedge clk_i)
    if (disp_go && (dispatch_base_tid_i & LANE_LOW) != 32'd0) begin
      $display("simty_core: dispatch_base_tid_i 0x%08x is not a multiple of LANES",
               dispatch_base_tid_i);
      $finish;
    end
`endif

  // The uniform operand of the instruction, selected in RR2: the decoded
  // immediate, or for auipc pc + immediate (uniform, so one adder instead
  // of a pc input on every lane's ALU), or for a CSR read the CSR's value
  // (lane 0's, see simty_csr). The ALU then adds it to x0 (operand 1 of
  // auipc and of the CSR forms is never a register), so neither needs a
  // path of its own through the lanes.
  wire [31:0] csr_val;
  wire        csr_lane;
  simty_csr #(.WARPS(WARPS), .LANES(LANES), .WARP_BITS(WARP_BITS)) u_csr (
    .sel_i        (d_csr_sel),
    .warp_i       (rr2_warp),
    .base_tid_i   (rr2_base_tid),
    .nthreads_i   (launch_nthreads_i),
    .args_i       (launch_args_i),
    .stack_top_i  (launch_stack_top_i),
    .stack_log2_i (launch_stack_log2_i),
    .value_o      (csr_val),
    .lane_o       (csr_lane)
  );
  wire        d_csr    = d_res_sel == 2'd2;
  wire [31:0] rr2_pcf  = `SIMTY_FULL_PC(rr2_pc);
  wire [19:0] auipc_hi = rr2_pcf[31:12] + d_imm[31:12];
  wire [31:0] cnt_val;                  // Zicntr cycle / time, see below
  wire [31:0] d_uimm   = d_csr  ? (d_cnt ? cnt_val : csr_val) :
                         d_a_pc ? {auipc_hi, rr2_pcf[11:0]} : d_imm;

  // Zicntr's uniform counters, read in RR2 like the other CSRs (two cycles
  // after issue): cycle counts the cycles in which a warp is busy since the
  // counters were last cleared (the `cycles` counter, cleared at each
  // launch); time counts every cycle since reset.
  generate
    if (EXT_ZICNTR != 0) begin : gen_cnt
      reg  [63:0] cycle_q, time_q;
      always @(posedge clk_i) begin
        if (rst_i) time_q <= 64'd0;
        else time_q <= time_q + 64'd1;
        if (rst_i || ctr_clear_i) cycle_q <= 64'd0;
        else if (|busy_q) cycle_q <= cycle_q + 64'd1;
      end
      wire [63:0] src = d_cnt_time ? time_q : cycle_q;
      assign cnt_val = d_cnt_hi ? src[63:32] : src[31:0];
    end else begin : gen_no_cnt
      assign cnt_val = 32'd0;
      wire unused_cnt = &{1'b0, d_cnt_time, d_cnt_hi};
    end
  endgenerate

  // ------------------------------------------------------------------
  // Stage 7: execute
  // ------------------------------------------------------------------
  reg  [PCW-1:0]           ex_pc;
  reg  [2:0]            ex_f3;
  reg                   ex_oor;
  reg  [EPOCH_BITS-1:0] ex_epoch;
  reg  [PCW-1:0]        ex_pnext;
  reg  [RSB-1:0]        ex_rsp;
  reg  [3:0]            ex_alu_op;
  reg                   ex_b_imm, ex_lane;
  reg  [31:0]           ex_imm, ex_base_tid;
  reg                   ex_link;      // jal/jalr: rd = pc + 4
  reg                   ex_branch, ex_jal, ex_jalr, ex_load, ex_store, ex_uns;
  reg  [1:0]            ex_size;
  reg                   ex_ecall, ex_ebreak, ex_illegal, ex_call, ex_ret;
  reg                   ex_mul, ex_div, ex_instret, ex_cnt_hi;
  reg                   ex_amo, ex_amoc;  // A: an atomic; AMO opcode (legal or not)
  reg  [3:0]            ex_amo_op;
  reg  [32*LANES-1:0]   ex_op1;

  always @(posedge clk_i) begin
    if (rst_i) ex_valid <= 1'b0;
    else ex_valid <= rr2_valid;
    ex_warp    <= rr2_warp;
    ex_pc      <= rr2_pc;
    ex_f3      <= rr2_word[14:12];
    ex_oor     <= rr2_oor;
    ex_epoch   <= rr2_epoch;
    ex_pnext   <= rr2_pnext;
    ex_rsp     <= rr2_rsp;
    ex_use2    <= rr2_use2;
    ex_rd      <= rr2_rd;
    ex_wr      <= rr2_wr;
    ex_alu_op  <= d_alu_op;
    ex_b_imm   <= d_b_imm;
    ex_lane    <= d_csr && csr_lane;
    ex_imm     <= d_uimm;
    ex_base_tid <= rr2_base_tid;
    ex_link    <= d_res_sel == 2'd1;
    ex_branch  <= d_branch;
    ex_jal     <= d_jal;
    ex_jalr    <= d_jalr;
    ex_load    <= d_load;
    ex_store   <= d_store;
    ex_size    <= d_size;
    ex_uns     <= d_uns;
    ex_ecall   <= d_ecall;
    ex_ebreak  <= d_ebreak;
    ex_illegal <= d_illegal;
    ex_call    <= d_call;
    ex_ret     <= d_ret;
    ex_mul     <= d_mul;
    ex_div     <= d_div;
    ex_instret <= d_instret;
    ex_cnt_hi  <= d_cnt_hi;
    ex_amo     <= d_amo;
    ex_amoc    <= EXT_A != 0 && rr2_word[6:0] == 7'b0101111;
    ex_amo_op  <= d_amo_op;
    ex_op1     <= rr2_op1;
  end


  wire [32*LANES-1:0] ex_res;
  wire [32*LANES-1:0] ex_addr;          // memory address adders
  wire [32*LANES-1:0] mb_mul_res;       // M: the multiply result, in MB
  wire [LANES-1:0]    ex_eq, ex_lt, ex_ltu;
  genvar l;
  generate
    for (l = 0; l < LANES; l = l + 1) begin : gen_lane
      localparam [31:0] LID = l;
      wire [31:0] a = ex_op1[32*l +: 32];
      wire [31:0] b = ex_b_imm ? (ex_lane ? ex_imm | LID : ex_imm) : ex_op2[32*l +: 32];
      wire [31:0] r;
      simty_alu u_alu (
        .op_i  (ex_alu_op),
        .a_i   (a),
        .b_i   (b),
        .res_o (r),
        .eq_o  (ex_eq[l]),
        .lt_o  (ex_lt[l]),
        .ltu_o (ex_ltu[l])
      );
      assign ex_res[32*l +: 32] = r;
      // The memory address (loads, stores, atomics: rs1 + immediate, the
      // immediate 0 for an atomic) from an adder of its own on the
      // registered operand, so that simty_mem_pre's checks do not wait
      // for the ALU's operand select and result multiplexer. The ALU
      // computes the same sum (ADD, immediate operand), which MB keeps in
      // mb_res for the arbiter's offsets and fault address.
      assign ex_addr[32*l +: 32] = a + ex_imm;
      // M: multiply, partial products in EX, their sum in MB (simty_mul).
      // The operands are the registers (R-type), not the ALU's b input.
      if (EXT_M != 0) begin : gen_mul
        simty_mul u_mul (
          .clk_i (clk_i),
          .en_i  (ex_mul),
          .a_i   (a),
          .b_i   (ex_op2[32*l +: 32]),
          .f3_i  (ex_f3[1:0]),
          .res_o (mb_mul_res[32*l +: 32])
        );
      end else begin : gen_no_mul
        assign mb_mul_res[32*l +: 32] = 32'd0;
      end
    end
  endgenerate

`ifndef SYNTHESIS
  // The address adders and the ALUs agree on every memory instruction
  // (MB's mb_res, from the ALU, is the same address).
  always @(posedge clk_i)
    if (ex_valid && (ex_load || ex_store || ex_amo) && ex_addr != ex_res) begin
      $display("simty_core: memory address adder and ALU disagree at pc 0x%08x",
               `SIMTY_FULL_PC(ex_pc));
      $finish;
    end
`endif

  // The memory arbiter's per-lane checks and lane-pair line compares, on
  // the memory address adders' sums; registered into MB.
  wire [LANES-1:0]       ex_mis, ex_bad, ex_con, ex_ovf, ex_stk;
  wire [LANES*LANES-1:0] ex_same;
  wire [32*LANES-1:0]    ex_pline;
  simty_mem_pre #(.WARPS(WARPS), .LANES(LANES), .WARP_BITS(WARP_BITS),
                  .DATA_SIZE(DATA_SIZE)) u_mem_pre (
    .clk_i        (clk_i),
    .stack_log2_i (launch_stack_log2_i),
    .warp_i       (ex_warp),
    .store_i      (ex_store),
    .size_i       (ex_size),
    .addr_i       (ex_addr),
    .mis_o        (ex_mis),
    .bad_o        (ex_bad),
    .ovf_o        (ex_ovf),
    .stk_o        (ex_stk),
    .con_o        (ex_con),
    .same_o       (ex_same),
    .pline_o      (ex_pline)
  );

  // ------------------------------------------------------------------
  // Stage 8: membership, branch unit, memory arbiter / coalescer
  // ------------------------------------------------------------------
  reg  [LANES-1:0]       mb_mis, mb_bad, mb_con, mb_ovf, mb_stk;
  reg  [32*LANES-1:0]    mb_pline;
  reg  [LANES*LANES-1:0] mb_same;
  reg  [PCW-1:0]           mb_pc;
  reg                   mb_oor;
  reg  [EPOCH_BITS-1:0] mb_epoch;
  reg  [PCW-1:0]        mb_pnext;
  reg  [RSB-1:0]        mb_rsp;
  reg                   mb_branch, mb_jal, mb_jalr, mb_load, mb_store, mb_uns;
  reg  [1:0]            mb_size;
  reg                   mb_ecall, mb_ebreak, mb_illegal, mb_call, mb_ret, mb_link;
  reg                   mb_mul, mb_div, mb_instret, mb_cnt_hi;
  reg                   mb_amo, mb_amoc;
  reg  [3:0]            mb_amo_op;
  reg  [2:0]            mb_f3;
  reg  [31:0]           mb_rel;     // branch / jal target, offset into CODE
  reg  [32*LANES-1:0]   mb_res, mb_b;
  reg  [LANES-1:0]      mb_eq, mb_lt, mb_ltu;
  reg  [31:0]           mb_base_tid;

  always @(posedge clk_i) begin
    if (rst_i) mb_valid <= 1'b0;
    else mb_valid <= ex_valid;
    mb_warp     <= ex_warp;
    mb_pc       <= ex_pc;
    mb_oor      <= ex_oor;
    mb_epoch    <= ex_epoch;
    mb_pnext    <= ex_pnext;
    mb_rsp      <= ex_rsp;
    mb_rd       <= ex_rd;
    mb_wr       <= ex_wr;
    mb_branch   <= ex_branch;
    mb_jal      <= ex_jal;
    mb_jalr     <= ex_jalr;
    mb_load     <= ex_load;
    mb_store    <= ex_store;
    mb_size     <= ex_size;
    mb_uns      <= ex_uns;
    mb_ecall    <= ex_ecall;
    mb_ebreak   <= ex_ebreak;
    mb_illegal  <= ex_illegal;
    mb_call     <= ex_call;
    mb_ret      <= ex_ret;
    mb_link     <= ex_link;
    mb_mul      <= ex_mul;
    mb_div      <= ex_div;
    mb_instret  <= ex_instret;
    mb_cnt_hi   <= ex_cnt_hi;
    mb_amo      <= ex_amo;
    mb_amoc     <= ex_amoc;
    mb_amo_op   <= ex_amo_op;
    mb_f3       <= ex_f3;
    // computed in EX: the register then takes the adder's output (a LUT)
    // and packs with it, where a copy of the immediate would not
    mb_rel      <= ({{(32-PCW){1'b0}}, ex_pc} << 2) + ex_imm;
    mb_res      <= ex_res;
    mb_b        <= ex_op2;
    mb_eq       <= ex_eq;
    mb_lt       <= ex_lt;
    mb_ltu      <= ex_ltu;
    mb_base_tid <= ex_base_tid;
    mb_mis      <= ex_mis;
    mb_bad      <= ex_bad;
    mb_con      <= ex_con;
    mb_same     <= ex_same;
    mb_ovf      <= ex_ovf;
    mb_stk      <= ex_stk;
    mb_pline    <= ex_pline;
  end

  wire [PCW-1:0]   mb_pc4 = mb_pc + 1'b1;
  wire [31:0]      mb_link_val = `SIMTY_FULL_PC(mb_pc4);
  wire             match, lost;
  wire             live;         // matched HCT1, no fault yet
  wire [LANES-1:0] mmask;
  wire [7:0]       mdepth;
  wire [LANES-1:0] mmask_mem;    // mmask from the memory stage's own flops
  wire [LANE_BITS-1:0] leader;   // lowest lane of mmask (simty_membership)

  wire                 mem_fault;
  wire [3:0]           mem_cause;
  wire [LANE_BITS-1:0] mem_flane;
  wire [31:0]          mem_faddr;
  wire [LANES-1:0]     served;
  wire                 is_console;
  wire                 mem_en;
  // A: an atomic is a memory instruction, checked and read like a load
  // (its write comes later, from simty_amo)
  wire                 mb_mem = mb_load || mb_store || mb_amo;
  wire                 am_busy;      // A: the atomic unit owns DATA
  wire [3:0]           mem_cause0;
  wire                 exec_ok;      // commits this cycle

  simty_mem #(.LANES(LANES), .LANE_BITS(LANE_BITS)) u_mem (
    // Not exec_ok: for a load or store the only other reasons not to
    // execute (fetch out of range, illegal) already clear load_i/store_i
    // and a console store never enables dmem, so `live && !lost` gives
    // the same enable without the jump-target and fault logic on the
    // path into the data RAMs (the ULX3S critical path ran through it).
    .valid_i       (live && !lost && !am_busy),
    .mask_i        (mmask),
    .mask_mem_i    (mmask_mem),
    .leader_i      (leader),
    .load_i        ((mb_load || mb_amo) && !mb_illegal && !mb_oor),
    .store_i       (mb_store && !mb_illegal && !mb_oor),
    .size_i        (mb_size),
    .addr_i        (mb_res),
    .sdata_i       (mb_b),
    .mis_i         (mb_mis),
    .bad_i         (mb_bad),
    .con_i         (mb_con),
    .same_i        (mb_same),
    .ovf_i         (mb_ovf),
    .stk_i         (mb_stk),
    .pline_i       (mb_pline),
    .fault_o       (mem_fault),
    .fault_cause_o (mem_cause0),
    .fault_lane_o  (mem_flane),
    .fault_addr_o  (mem_faddr),
    .served_o      (served),
    .console_o     (is_console),
    .dmem_en_o     (mem_en),
    .dmem_addr_o   (mem_addr),
    .dmem_be_o     (mem_be),
    .dmem_wdata_o  (mem_wdata)
  );
  // A: sc.w and the AMOs fault as stores (lr.w as a load); simty_mem
  // checked them as loads (CONSOLE out of range).
  assign mem_cause = !(mb_amo && mb_amo_op != 4'd0) ? mem_cause0 :
                     mem_cause0 == SIMTY_FAULT_MISALIGNED_LOAD ? SIMTY_FAULT_MISALIGNED_STORE :
                     mem_cause0 == SIMTY_FAULT_LOAD_OUT_OF_RANGE ? SIMTY_FAULT_STORE_OUT_OF_RANGE :
                     mem_cause0;
  // The DATA port: the atomic unit's write (am_we, while am_busy holds
  // every memory instruction in MB), else MB's access.
  wire [31:0]          mem_addr;
  wire [4*LANES-1:0]   mem_be;
  wire [32*LANES-1:0]  mem_wdata;
  wire                 am_we;
  wire [31:0]          am_addr;
  wire [4*LANES-1:0]   am_be;
  wire [32*LANES-1:0]  am_wdata;
  assign dmem_en_o    = mem_en || am_we;
  assign dmem_addr_o  = am_we ? am_addr : mem_addr;
  assign dmem_be_o    = am_we ? am_be : mem_be;
  assign dmem_wdata_o = am_we ? am_wdata : mem_wdata;
  assign dmem_busy_o = (mb_valid && mb_mem) || am_we;

  wire                 x_valid, y_valid;
  wire [PCW-1:0]          x_pc, y_pc;
  wire [7:0]           x_depth, y_depth;
  wire [LANES-1:0]     x_mask, y_mask, retire_mask;
  wire                 br_fault;
  wire [3:0]           br_cause;
  wire [LANE_BITS-1:0] br_flane;
  wire [31:0]          br_faddr, br_fpc;
  wire                 divergent, replay_ind, replay_mem;

  simty_branch #(.LANES(LANES), .LANE_BITS(LANE_BITS), .CODE_SIZE(CODE_SIZE),
                 .PCW(PCW)) u_branch (
    .mask_i        (mmask),
    .leader_i      (leader),
    .pc_i          (mb_pc),
    .pc_full_i     (`SIMTY_FULL_PC(mb_pc)),
    .pc4_i         (mb_pc4),
    .depth_i       (mdepth),
    .oor_i         (mb_oor),
    .branch_i      (mb_branch),
    .br_f3_i       (mb_f3),
    .jal_i         (mb_jal),
    .jalr_i        (mb_jalr),
    .mem_i         (mb_mem),
    .ecall_i       (mb_ecall),
    .ebreak_i      (mb_ebreak),
    .illegal_i     (mb_illegal),
    .call_i        (mb_call),
    .ret_i         (mb_ret),
    .rel_i         (mb_rel),
    .eq_i          (mb_eq),
    .lt_i          (mb_lt),
    .ltu_i         (mb_ltu),
    .res_i         (mb_res),
    .served_i      (served),
    .x_valid_o     (x_valid),
    .x_pc_o        (x_pc),
    .x_depth_o     (x_depth),
    .x_mask_o      (x_mask),
    .y_valid_o     (y_valid),
    .y_pc_o        (y_pc),
    .y_depth_o     (y_depth),
    .y_mask_o      (y_mask),
    .retire_o      (retire_mask),
    .fault_o       (br_fault),
    .fault_cause_o (br_cause),
    .fault_lane_o  (br_flane),
    .fault_addr_o  (br_faddr),
    .fault_pc_o    (br_fpc),
    .divergent_o   (divergent),
    .replay_ind_o  (replay_ind),
    .replay_mem_o  (replay_mem)
  );

  wire        con_busy;
  wire        fault_now = br_fault || mem_fault;
  assign      live      = match && !fault_q;
  wire        hold      = live && (lost || (!fault_now && mb_store && is_console && con_busy) ||
                                   (!fault_now && mb_mem && am_busy));
  assign      exec_ok   = live && !lost && !fault_now && !hold;
  wire        raise     = live && !lost && fault_now;
  wire        stale     = mb_epoch != epochs[mb_warp*EPOCH_BITS +: EPOCH_BITS];
  wire        ended_now;
  wire [1:0]  merges;
  wire        smerge;
  wire        peak_valid;
  wire [LANE_BITS:0] peak;
  wire        sorter_busy;
  wire        m_disp_ready;

  simty_membership #(.WARPS(WARPS), .LANES(LANES), .WARP_BITS(WARP_BITS),
                     .LANE_BITS(LANE_BITS), .PCW(PCW), .HOT_LUTRAM(HOT_LUTRAM)) u_member (
    .clk_i         (clk_i),
    .rst_i         (rst_i),
    .ex_warp_i     (ex_warp),
    .mb_valid_i    (mb_valid),
    .mb_warp_i     (mb_warp),
    .mb_pc_i       (mb_pc),
    .match_o       (match),
    .mask_o        (mmask),
    .mask_mem_o    (mmask_mem),
    .leader_o      (leader),
    .depth_o       (mdepth),
    .lost_o        (lost),
    .commit_i      (exec_ok),
    .stale_i       (stale),
    .x_valid_i     (x_valid),
    .x_pc_i        (x_pc),
    .x_depth_i     (x_depth),
    .x_mask_i      (x_mask),
    .y_valid_i     (y_valid),
    .y_pc_i        (y_pc),
    .y_depth_i     (y_depth),
    .y_mask_i      (y_mask),
    .hold_i        (hold),
    .pnext_i       (mb_pnext),
    .redir_valid_o (redir_valid),
    .redir_pc_o    (redir_pc),
    .end_o         (ended_now),
    .merges_o      (merges),
    .smerge_o      (smerge),
    .peak_valid_o  (peak_valid),
    .peak_o        (peak),
    .blocked_o     (blocked),
    .busy_o        (sorter_busy),
    .disp_valid_i  (disp_go),
    .disp_ready_o  (m_disp_ready),
    .disp_warp_i   (dispatch_warp_i),
    .disp_pc_i     (disp_off[PCW+1:2]),
    .disp_mask_i   (dispatch_mask_i)
  );
  // Dispatch shares the HCT write ports with MB's update and the steering
  // pc with the registered redirect. It is taken only in a cycle with MB
  // empty and no redirect pending: ready comes from registers, not from
  // MB's commit (m_disp_ready is then high). An offer that cannot be
  // taken holds issue back for a cycle (disp_bubble), so that MB is empty
  // four cycles later even when every warp could issue; again if that
  // cycle was lost to a redirect (bub_q: the bubbles on their way to MB).
  wire [RSB-1:0] mb_rsp_next = (RAS_DEPTH < 2) ? mb_rsp :
                               mb_call ? mb_rsp + 1'b1 : mb_ret ? mb_rsp - 1'b1 : mb_rsp;
  assign dispatch_ready_o = !mb_valid && !redir_q;
  assign disp_go = dispatch_valid_i && dispatch_ready_o;
  reg [2:0] bub_q;
  always @(posedge clk_i) begin
    if (rst_i) bub_q <= 3'd0;
    else bub_q <= {bub_q[1:0], disp_bubble};
  end
  assign disp_bubble = dispatch_valid_i && !disp_go && bub_q == 3'd0;
  wire unused_disp_ready = m_disp_ready;
  always @(posedge clk_i) begin
    if (rst_i) redir_q <= 1'b0;
    else redir_q <= redir_valid;
    redir_warp_q <= mb_warp;
    redir_pc_q   <= redir_pc;
    // a replay refetches the instruction: the pointer it found; else the
    // pointer after its call (push) or return (pop)
    redir_rsp_q  <= hold ? mb_rsp : mb_rsp_next;
  end
  wire unused_pc_off = &{1'b0, disp_off[1:0], disp_off[31:PCW+2]};  // entry: 4-aligned, in CODE

  // Console stores
  wire [8*LANES-1:0] con_bytes;
  generate
    for (l = 0; l < LANES; l = l + 1) begin : gen_con
      assign con_bytes[8*l +: 8] = mb_b[32*l +: 8];
    end
  endgenerate
  simty_console #(.LANES(LANES)) u_console (
    .clk_i      (clk_i),
    .rst_i      (rst_i),
    .load_i     (exec_ok && mb_store && is_console),
    .mask_i     (served),
    .bytes_i    (con_bytes),
    .base_tid_i (mb_base_tid),
    .busy_o     (con_busy),
    .valid_o    (console_valid_o),
    .byte_o     (console_byte_o),
    .tid_o      (console_tid_o),
    .ready_i    (console_ready_i)
  );

  // Fault record. The word of an illegal instruction (its `addr`) is not
  // carried down the pipeline for this rare case (64 flops with no logic,
  // one iCE40 cell each): once the fault has stopped fetch, the record
  // reads it back from instruction memory at the fault pc, and
  // fault_valid_o rises when that is done (two cycles after the fault).
  localparam [3:0] ILLEGAL = SIMTY_FAULT_ILLEGAL_INSTRUCTION;
  reg         fill_q, fill2_q;
  reg [PCW-1:0] foff_q;               // the faulting instruction's pc
  wire        fe_imem_en;
  assign imem_en_o   = fe_imem_en || fill_q;
  assign imem_addr_o = `SIMTY_FULL_PC(fill_q ? foff_q : fs_pc);
  reg  [3:0]  fcause_q;
  reg  [31:0] fpc_q, fhart_q, ftid_q, faddr_q;
  wire [LANE_BITS-1:0] flane = br_fault ? br_flane : mem_flane;
  wire [31:0] flane32 = {{(32-LANE_BITS){1'b0}}, flane};
  wire [31:0] hart0   = {{(32-WARP_BITS){1'b0}}, mb_warp} * LANES;
  always @(posedge clk_i) begin
    if (rst_i) begin
      fault_q <= 1'b0;
      fill_q  <= 1'b0;
      fill2_q <= 1'b0;
    end else begin
      if (raise) fault_q <= 1'b1;
      fill_q  <= raise && !fault_q && br_fault && br_cause == ILLEGAL;
      fill2_q <= fill_q;
    end
    if (fill2_q) faddr_q <= imem_rdata_i;
    if (raise && !fault_q) begin
      fcause_q <= br_fault ? br_cause : mem_cause;
      fpc_q    <= br_fpc;
      foff_q   <= mb_pc;
      fhart_q  <= hart0 | flane32;   // hart0 is a multiple of LANES
      ftid_q   <= mb_base_tid | flane32;   // the base is a multiple of LANES
      faddr_q  <= br_fault ? br_faddr : mem_faddr;
    end
  end
  wire   fault_vis     = fault_q && !fill_q && !fill2_q;
  assign fault_valid_o = fault_vis;
  assign fault_cause_o = fault_vis ? fcause_q : 4'd0;
  assign fault_pc_o    = fpc_q;
  assign fault_hart_o  = fhart_q;
  assign fault_tid_o   = ftid_q;
  assign fault_addr_o  = faddr_q;

  // ------------------------------------------------------------------
  // Stage 9: gather
  // ------------------------------------------------------------------
  reg                  ga_load, ga_uns;
  reg  [LANES-1:0]     ga_mask;
  reg  [1:0]           ga_size;
  reg  [PCW-1:0]          ga_pc;
  reg  [32*LANES-1:0]  ga_res;
  reg  [LS*LANES-1:0]  ga_off;
  reg                  ga_any;       // any instruction, for drain tracking
  reg                  ga_dv;        // M: a divide's result, written back
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
  wire                 xi_inject = dv_inject || am_inject;
  wire [WARP_BITS-1:0] xi_warp   = dv_inject ? dv_warp : am_warp;
  wire [4:0]           xi_rd     = dv_inject ? dv_rd : am_rd;
  wire                 xi_wr     = dv_inject ? dv_wr : am_wr;
  wire [LANES-1:0]     xi_mask   = dv_inject ? dv_mask : am_mask;
  wire [32*LANES-1:0]  xi_res    = dv_inject ? dv_res : am_res;

  always @(posedge clk_i) begin
    if (rst_i) begin
      ga_valid <= 1'b0;
      ga_any   <= 1'b0;
      ga_dv    <= 1'b0;
    end else begin
      ga_valid <= exec_ok;
      ga_any   <= mb_valid || xi_inject;
      ga_dv    <= xi_inject;
    end
    // A divide retires here when it commits (no register write: mb_div),
    // and its result comes through later in a free slot (dv_inject, only
    // when MB is empty).
    ga_warp <= xi_inject ? xi_warp : mb_warp;
    ga_wr   <= xi_inject ? xi_wr : mb_wr && !mb_div && !mb_amo;
    ga_load <= mb_load && !xi_inject;
    ga_uns  <= mb_uns;
    ga_rd   <= xi_inject ? xi_rd : mb_rd;
    ga_mask <= xi_inject ? xi_mask : retire_mask;
    ga_size <= mb_size;
    ga_pc   <= mb_pc;
    // The link value (jal/jalr: pc + 4, uniform) replaces the ALU result
    // here rather than after the register: the register then takes a LUT
    // output and packs with it in one iCE40 logic cell instead of being a
    // flop of its own (128 cells at 4 lanes). So do a multiply's sum, an
    // instret read and a divide's result.
    ga_res  <= xi_inject  ? xi_res :
               mb_link    ? {LANES{mb_link_val}} :
               mb_mul     ? mb_mul_res :
               mb_instret ? mb_ir_res : mb_res;
  end
  // Each loop has its own variable: a variable shared between a clocked
  // and a combinational block is state to Verilator.
  generate
    for (l = 0; l < LANES; l = l + 1) begin : gen_off
      // a stack lane's word in the line is its lane (simty_mem_pre)
      localparam [31:0] LW = l;
      if (LS > 2) begin : gen_word
        always @(posedge clk_i)
          ga_off[LS*l +: LS] <= mb_stk[l] ? {LW[LS-3:0], mb_res[32*l +: 2]}
                                          : mb_res[32*l +: LS];
      end else begin : gen_one
        always @(posedge clk_i) ga_off[LS*l +: LS] <= mb_res[32*l +: LS];
      end
    end
  endgenerate

  wire [32*LANES-1:0] gathered;
  simty_gather #(.LANES(LANES), .LS(LS)) u_gather (
    .line_i (dmem_rdata_i),
    .off_i  (ga_off),
    .size_i (ga_size),
    .uns_i  (ga_uns),
    .data_o (gathered)
  );

  assign ga_val = ga_load ? gathered : ga_res;

  assign retire_valid_o = ga_valid;
  assign retire_warp_o  = ga_warp;
  assign retire_pc_o    = `SIMTY_FULL_PC(ga_pc);
  assign retire_mask_o  = ga_mask;

  // ------------------------------------------------------------------
  // Stage 10: write-back
  // ------------------------------------------------------------------
  reg wb_any;
  always @(posedge clk_i) begin
    if (rst_i) wb_any <= 1'b0;
    else wb_any <= ga_any;
  end

  simty_writeback #(.LANES(LANES), .WARP_BITS(WARP_BITS)) u_wb (
    .clk_i      (clk_i),
    .rst_i      (rst_i),
    .we_i       ((ga_valid || ga_dv) && ga_wr),
    .warp_i     (ga_warp),
    .rd_i       (ga_rd),
    .mask_i     (ga_mask),
    .data_i     (ga_val),
    .wb_we_o    (wb_we),
    .wb_warp_o  (wb_warp),
    .wb_rd_o    (wb_rd),
    .wb_mask_o  (wb_mask),
    .wb_data_o  (wb_data)
  );

  wire uniform, affine, vclass_busy;
  simty_vclass #(.LANES(LANES), .LANE_BITS(LANE_BITS), .VCLASS(VCLASS)) u_vclass (
    .clk_i        (clk_i),
    .rst_i        (rst_i),
    .early_mask_i (ga_mask),
    .valid_i   (wb_we),
    .mask_i    (wb_mask),
    .data_i    (wb_data),
    .uniform_o (uniform),
    .affine_o  (affine),
    .busy_o    (vclass_busy)
  );

  // ------------------------------------------------------------------
  // Warp lifetime: busy from dispatch until its threads ended and its
  // instructions drained.
  // ------------------------------------------------------------------
  // Per-warp flags as WARPS-wide vectors: a stage holding warp x
  // contributes the one-hot of x.
`include "simty_warp_onehot.vh"
  assign inflight = `SIMTY_AT(rr1_valid, rr1_warp) | `SIMTY_AT(rr2_valid, rr2_warp) |
                    `SIMTY_AT(ex_valid, ex_warp) | `SIMTY_AT(mb_valid, mb_warp) |
                    `SIMTY_AT(ga_any, ga_warp) | `SIMTY_AT(wb_any, wb_warp) |
                    `SIMTY_AT(fe_busy, fe_warp);
  assign fetch_live = busy_q & ~ended_q & {WARPS{!fault_q && !halt_i}};
  assign fetch_elig = fetch_live & ~ib_full & ~`SIMTY_AT(fe_busy, fe_warp);
  wire [WARPS-1:0] disp_at = `SIMTY_AT(disp_go, dispatch_warp_i);
  assign ib_flush = `SIMTY_AT(redir_q, redir_warp_q) | disp_at;
  // A dispatch (re)starts its warp; otherwise the warp ends when its
  // last path does and stops being busy once it has drained.
  always @(posedge clk_i) begin
    if (rst_i) begin
      busy_q  <= {WARPS{1'b0}};
      ended_q <= {WARPS{1'b0}};
    end else begin
      busy_q  <= disp_at | (busy_q & ~(ended_q & ~inflight));
      ended_q <= ~disp_at & (ended_q | `SIMTY_AT(ended_now, mb_warp));
    end
  end
  assign warp_busy_o = busy_q;

  assign idle_o = !rr1_valid && !rr2_valid && !ex_valid && !mb_valid &&
                  !ga_any && !wb_any && !sorter_busy && !vclass_busy &&
                  !dv_busy && !am_active;

  // ------------------------------------------------------------------
  // Divide (M). One divide unit (simty_div) serves one warp instruction at
  // a time; a divide holds a token from its issue until its result is
  // written back, and while it does:
  //   - its warp issues nothing (the next instruction may use the result,
  //     and none of the warp's later instructions may overtake it);
  //   - no other warp issues a divide (predecoded here from the fetched
  //     word, per warp like the ibuf's fields); other instructions issue.
  // So a divide never waits in the pipeline for the unit: it is not
  // issued, which counts neither as an instruction nor as a replay. The
  // divide in EX loads its operands; when it commits in MB it retires
  // (counters, trace, instret, path: like an ALU instruction) and the unit
  // starts; a divide that does not commit (stale, lost, fault) releases
  // the token and its warp fetches it again. When the unit is done, the
  // scheduler skips one issue cycle, so that MB is empty at the latest
  // four cycles later, and the result takes GA in the first cycle in which
  // MB is empty (dv_inject); the token is released there.
  // ------------------------------------------------------------------
  wire dv_busy;
  generate
    if (EXT_M != 0) begin : gen_div
      wire [WARPS-1:0]    ib_div_q = ib_isdiv;   // the buffered instruction divides
      reg                 tok_q;
      reg [WARP_BITS-1:0] tok_warp_q;
      reg                 done_d_q;
      wire                done;
      always @(posedge clk_i) begin
        if (rst_i) begin
          tok_q    <= 1'b0;
          done_d_q <= 1'b0;
        end else begin
          if (issue && ib_div_q[issue_warp]) tok_q <= 1'b1;
          else if ((mb_valid && mb_div && !exec_ok) || dv_inject) tok_q <= 1'b0;
          done_d_q <= done;
        end
        if (issue && ib_div_q[issue_warp]) tok_warp_q <= issue_warp;
      end
      wire bubble = done && !done_d_q;
      assign div_block = (tok_q ? (ib_div_q | `SIMTY_AT(1'b1, tok_warp_q)) :
                                  {WARPS{1'b0}}) | {WARPS{bubble}};
      assign dv_inject = done && !mb_valid;
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
        .done_o  (done),
        .warp_o  (dv_warp),
        .rd_o    (dv_rd),
        .wr_o    (dv_wr),
        .mask_o  (dv_mask),
        .res_o   (dv_res),
        .take_i  (dv_inject)
      );
    end else begin : gen_no_div
      assign div_block = {WARPS{1'b0}};
      assign dv_inject = 1'b0;
      assign dv_busy   = 1'b0;
      assign dv_warp   = {WARP_BITS{1'b0}};
      assign dv_rd     = 5'd0;
      assign dv_wr     = 1'b0;
      assign dv_mask   = {LANES{1'b0}};
      assign dv_res    = {32*LANES{1'b0}};
      wire unused_div = &{1'b0, mb_div, ex_div, ib_isdiv};
    end
  endgenerate

  // ------------------------------------------------------------------
  // Atomics (A). One atomic unit (simty_amo) serves one warp instruction
  // at a time, with the same issue rule as the divide: an atomic holds a
  // token from its issue until its results are written back, and while it
  // does its warp issues nothing and no other warp issues an atomic. The
  // atomic in MB is checked, coalesced, counted and retired like a load,
  // and reads its line; when it commits, the unit applies its lanes one per
  // cycle and writes the line back, and until that write (am_busy) every
  // memory instruction reaching MB replays (hold), so that no access of
  // another warp falls inside the atomic. The results then take GA in the
  // first cycle in which MB is empty and no divide result does; while they
  // wait, no warp issues. An atomic that does not commit releases the
  // token and its warp fetches it again.
  // ------------------------------------------------------------------
  wire am_active;
  generate
    if (EXT_A != 0) begin : gen_amo
      wire [WARPS-1:0]    ib_amo_q = ib_isamo;   // the buffered instruction is an atomic
      reg                 tok_q;
      reg [WARP_BITS-1:0] tok_warp_q;
      wire                done;
      always @(posedge clk_i) begin
        if (rst_i) tok_q <= 1'b0;
        else if (issue && ib_amo_q[issue_warp]) tok_q <= 1'b1;
        else if ((mb_valid && mb_amoc && !exec_ok) || am_inject) tok_q <= 1'b0;
        if (issue && ib_amo_q[issue_warp]) tok_warp_q <= issue_warp;
      end
      assign amo_block = (tok_q ? (ib_amo_q | `SIMTY_AT(1'b1, tok_warp_q)) :
                                  {WARPS{1'b0}}) | {WARPS{done}};
      assign am_inject = done && !mb_valid && !dv_inject;
      simty_amo #(.WARPS(WARPS), .LANES(LANES), .WARP_BITS(WARP_BITS),
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
        .stk_i       (mb_stk),
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
        .done_o      (done),
        .warp_o      (am_warp),
        .rd_o        (am_rd),
        .wr_o        (am_wr),
        .mask_o      (am_mask),
        .res_o       (am_res),
        .take_i      (am_inject)
      );
    end else begin : gen_no_amo
      assign amo_block = {WARPS{1'b0}};
      assign am_inject = 1'b0;
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
      wire unused_amo = &{1'b0, mb_amoc, mb_amo_op, ib_isamo};
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
  reg [LANE_BITS:0] n_ret, n_srv;
  integer c;
  always @* begin
    n_ret = {(LANE_BITS+1){1'b0}};
    n_srv = {(LANE_BITS+1){1'b0}};
    for (c = 0; c < LANES; c = c + 1) begin
      n_ret = n_ret + {{LANE_BITS{1'b0}}, retire_mask[c]};
      n_srv = n_srv + {{LANE_BITS{1'b0}}, served[c]};
    end
  end

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
    .threads_i    (exec_ok ? n_ret : {(LANE_BITS+1){1'b0}}),
    .divergent_i  (exec_ok && divergent),
    .merges_i     (merges),
    .smerge_i     (smerge),
    .replay_mem_i (exec_ok && replay_mem),
    .replay_ind_i (exec_ok && replay_ind),
    .mem_i        (exec_ok && mb_mem),
    .requests_i   (exec_ok && mb_mem ? n_srv : {(LANE_BITS+1){1'b0}}),
    .peak_valid_i (peak_valid),
    .peak_i       (peak),
    .uniform_i    (uniform),
    .affine_i     (affine)
  );

`ifdef SIMTY_FE_STATS
  // Simulation only (+define+SIMTY_FE_STATS): where each busy warp's
  // cycles go, printed at the end of the run.
  integer st_iss, st_rr1, st_dep, st_bank, st_nrdy, st_fe, st_redq, st_empty, st_other,
          st_cyc, st_lost;
  integer rd_hold, rd_stale, rd_end, rd_mis, rd_job, rd_n, rd_jalr, rd_br, rd_div;
  integer wi;
  initial begin
    st_iss = 0; st_rr1 = 0; st_dep = 0; st_bank = 0; st_nrdy = 0; st_fe = 0;
    st_redq = 0; st_empty = 0; st_other = 0; st_cyc = 0; st_lost = 0;
    rd_hold = 0; rd_stale = 0; rd_end = 0; rd_mis = 0; rd_job = 0; rd_n = 0;
    rd_jalr = 0; rd_br = 0; rd_div = 0;
  end
  // With two warps: the cycles without an issue by both warps' states.
  generate
    if (WARPS == 2) begin : gen_fe_pair
      integer combo [0:63];
      integer rc [0:1];
      integer ci, wj;
      initial for (ci = 0; ci < 64; ci = ci + 1) combo[ci] = 0;
      always @(posedge clk_i) if (!rst_i && |busy_q && !issue) begin
        for (wj = 0; wj < 2; wj = wj + 1) begin
          if (!(busy_q[wj] && !ended_q[wj])) rc[wj] = 0;
          else if (!sched_ready[wj]) rc[wj] = 1;
          else if (u_sched.at_rr1[wj]) rc[wj] = 2;
          else if (ib_valid[wj]) rc[wj] = u_sched.dep[wj] ? 3 : 4;
          else if (redir_q && redir_warp_q == wj[WARP_BITS-1:0]) rc[wj] = 5;
          else if (fe_busy && fe_warp == wj[WARP_BITS-1:0]) rc[wj] = 6;
          else rc[wj] = 7;
        end
        combo[rc[0] * 8 + rc[1]] = combo[rc[0] * 8 + rc[1]] + 1;
      end
      final begin
        $display("fe-stats: no-issue cycles by (warp0, warp1) state: 0 idle 1 not ready 2 issued last cycle 3 dependency 4 other 5 redirect 6 fetch 7 empty");
        for (ci = 0; ci < 64; ci = ci + 1)
          if (combo[ci] > 0) $display("fe-stats:   %0d%0d %0d", ci / 8, ci % 8, combo[ci]);
      end
    end
  endgenerate
  always @(posedge clk_i) if (!rst_i && |busy_q) begin
    st_cyc = st_cyc + 1;
    if (!issue) st_lost = st_lost + 1;
    for (wi = 0; wi < WARPS; wi = wi + 1) if (busy_q[wi] && !ended_q[wi]) begin
      if (issue && issue_warp == wi[WARP_BITS-1:0]) st_iss = st_iss + 1;
      else if (!sched_ready[wi]) st_nrdy = st_nrdy + 1;
      else if (u_sched.at_rr1[wi]) st_rr1 = st_rr1 + 1;
      else if (ib_valid[wi]) begin
        if (u_sched.dep[wi]) st_dep = st_dep + 1;
        else if (u_sched.bank[wi]) st_bank = st_bank + 1;
        else st_other = st_other + 1;
      end
      else if (redir_q && redir_warp_q == wi[WARP_BITS-1:0]) st_redq = st_redq + 1;
      else if (fe_busy && fe_warp == wi[WARP_BITS-1:0]) st_fe = st_fe + 1;
      else st_empty = st_empty + 1;
    end
    if (redir_valid) begin
      rd_n = rd_n + 1;
      if (hold) rd_hold = rd_hold + 1;
      else if (stale) rd_stale = rd_stale + 1;
      else if (ended_now) rd_end = rd_end + 1;
      else if (u_member.ins || u_member.rebal) rd_job = rd_job + 1;
      else if (mb_jalr) rd_jalr = rd_jalr + 1;
      else if (mb_branch && divergent) rd_div = rd_div + 1;
      else if (mb_branch) rd_br = rd_br + 1;
      else rd_mis = rd_mis + 1;
    end
  end
  final begin
    $display("fe-stats: busy cycles %0d, no issue %0d", st_cyc, st_lost);
    $display("fe-stats: warp-cycles issued %0d (squashed later included), not ready %0d, issued last cycle %0d, dependency %0d, bank %0d, another warp picked %0d",
             st_iss, st_nrdy, st_rr1, st_dep, st_bank, st_other);
    $display("fe-stats: warp-cycles with an empty buffer: redirect cycle %0d, fetch in flight %0d, waiting to be steered %0d",
             st_redq, st_fe, st_empty);
    $display("fe-stats: redirects %0d: hold %0d stale %0d end %0d job %0d jalr %0d branch-div %0d branch %0d other %0d",
             rd_n, rd_hold, rd_stale, rd_end, rd_job, rd_jalr, rd_div, rd_br, rd_mis);
  end
`endif

`undef SIMTY_FULL_PC
endmodule
