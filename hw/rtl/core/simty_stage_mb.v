// SPDX-License-Identifier: Apache-2.0
// simty_stage_mb: stage 8, membership / branch / memory arbiter, and the
// pipeline's control. Holds the MB pipeline registers (mb_*_q, loaded
// every cycle from EX), the membership stage (simty_membership: HCT1
// match, path update, CCT sorter), the branch unit (simty_branch), the
// memory arbiter (simty_mem) with the DATA port, the console, and the one
// decision every instruction gets here:
//   - hold:   it matched HCT1 but must replay (HCT read lost, console
//             busy, the atomic unit owns DATA); fetch restarts at its pc;
//   - commit: it matched, raised no fault and is not held (exec_ok): it
//             retires (retire_mask_o), updates its warp's paths and moves
//             to GA;
//   - raise:  it matched and faults: the core stops (fault record below);
//   - otherwise it is squashed (not HCT1's pc, stale, after a fault).
// The redirect (a hold, a job, an end, a stale fetch or a mispredicted
// next pc) is registered here (redir_*_q) and restarts the warp's fetch
// one cycle later. Dispatch shares the HCT write ports with MB's update:
// its handshake is here too.
`default_nettype none

module simty_stage_mb #(
  parameter integer WARPS = 4,
  parameter integer LANES = 4,
  parameter integer WARP_BITS = 2,
  parameter integer LANE_BITS = 2,
  parameter integer PCW = 15,
  parameter integer EPOCH_BITS = 3,
  parameter integer RSB = 2,
  parameter integer RAS_DEPTH = 4,
  parameter [31:0]  CODE_SIZE = 32'h0001_0000,
  parameter integer HOT_LUTRAM = 0,
  parameter integer XBAR = 0          // crossbar kind: 0 full, 1 rotate
) (
  input  wire                   clk_i,
  input  wire                   rst_i,

  // The EX registers and results (the MB registers' next values)
  input  wire                   ex_valid_i,
  input  wire [WARP_BITS-1:0]   ex_warp_i,
  input  wire [PCW-1:0]         ex_pc_i,
  input  wire [2:0]             ex_f3_i,
  input  wire                   ex_oor_i,
  input  wire [EPOCH_BITS-1:0]  ex_epoch_i,
  input  wire [PCW-1:0]         ex_pnext_i,
  input  wire [RSB-1:0]         ex_rsp_i,
  input  wire [4:0]             ex_rd_i,
  input  wire                   ex_wr_i,
  input  wire [31:0]            ex_imm_i,
  input  wire [31:0]            ex_base_tid_i,
  input  wire                   ex_link_i,
  input  wire                   ex_branch_i, ex_jal_i, ex_jalr_i, ex_load_i, ex_store_i,
  input  wire                   ex_uns_i,
  input  wire [1:0]             ex_size_i,
  input  wire                   ex_ecall_i, ex_ebreak_i, ex_illegal_i, ex_call_i, ex_ret_i,
  input  wire                   ex_mul_i, ex_div_i, ex_instret_i, ex_cnt_hi_i,
  input  wire                   ex_amo_i, ex_amoc_i,
  input  wire [3:0]             ex_amo_op_i,
  input  wire [32*LANES-1:0]    ex_res_i,
  input  wire [32*LANES-1:0]    ex_op2_i,
  input  wire [LANES-1:0]       ex_eq_i, ex_lt_i, ex_ltu_i,
  input  wire [LANES-1:0]       ex_mis_i, ex_bad_i, ex_con_i, ex_ovf_i,
  input  wire [LANES*LANES-1:0] ex_same_i,
  input  wire [32*LANES-1:0]    ex_pline_i,
  input  wire [LANE_BITS*LANES-1:0] ex_pword_i, ex_prot_i,
  input  wire [(PCW+2)*LANES-1:0] ex_jt_i,     // per lane jalr target

  // Each warp's fetch epoch (simty_fetch_steer): an older one is stale
  input  wire [WARPS*EPOCH_BITS-1:0] epochs_i,

  // The MB registers the other stages and units use
  output reg                    mb_valid_q,
  output reg  [WARP_BITS-1:0]   mb_warp_q,
  output reg  [PCW-1:0]         mb_pc_q,
  output reg  [4:0]             mb_rd_q,
  output reg                    mb_wr_q,
  output reg                    mb_load_q, mb_uns_q,
  output reg  [1:0]             mb_size_q,
  output reg                    mb_link_q, mb_mul_q, mb_div_q, mb_instret_q, mb_cnt_hi_q,
  output reg                    mb_amo_q, mb_amoc_q,
  output reg  [3:0]             mb_amo_op_q,
  output reg  [32*LANES-1:0]    mb_res_q,     // the ALUs' result / the address
  output reg  [32*LANES-1:0]    mb_b_q,       // operand 2 / the store data
  // per lane its word in its physical line (simty_mem_pre): the load
  // gather's and the atomic unit's word index
  output reg  [LANE_BITS*LANES-1:0] mb_pword_q,
  output wire [31:0]            mb_link_val_o, // jal/jalr: pc + 4

  // The decision and its outcome
  output wire                   exec_ok_o,    // commit
  output wire [LANES-1:0]       retire_mask_o,
  output wire [LANES-1:0]       served_o,     // memory: the lanes served
  // XBAR = 1, for the gather: rotation, broadcast word, lanes at it
  output wire [LANE_BITS-1:0]   rot_o,
  output wire [LANE_BITS-1:0]   bword_o,
  output wire [LANES-1:0]       bc_o,
  output wire [31:0]            mem_addr_o,   // memory: the line's address
  output wire                   ended_o,      // the warp has no thread left
  output wire [WARPS-1:0]       blocked_o,    // warps with a sorter job
  output wire                   sorter_busy_o,

  // Counter events
  output wire [LANE_BITS:0]     ev_threads_o,
  output wire                   ev_divergent_o,
  output wire [1:0]             ev_merges_o,
  output wire                   ev_smerge_o,
  output wire                   ev_replay_mem_o,
  output wire                   ev_replay_ind_o,
  output wire                   ev_mem_o,
  output wire [LANE_BITS:0]     ev_requests_o,
  output wire                   ev_peak_valid_o,
  output wire [LANE_BITS:0]     ev_peak_o,

  // The registered redirect of the warp that was in MB
  output reg                    redir_q,
  output reg  [WARP_BITS-1:0]   redir_warp_q,
  output reg  [PCW-1:0]         redir_pc_q,
  output reg  [RSB-1:0]         redir_rsp_q,  // the warp's RAS pointer from here

  // Dispatch (pc as a word offset into CODE)
  input  wire                   dispatch_valid_i,
  output wire                   dispatch_ready_o,
  input  wire [WARP_BITS-1:0]   dispatch_warp_i,
  input  wire [PCW-1:0]         dispatch_pc_i,
  input  wire [LANES-1:0]       dispatch_mask_i,
  output wire                   disp_go_o,    // taken this cycle
  output wire                   disp_bubble_o, // hold issue back a cycle

  // The atomic unit (A): owns DATA while busy, writes it with am_we_i
  input  wire                   am_busy_i,
  input  wire                   am_we_i,
  input  wire [31:0]            am_addr_i,
  input  wire [4*LANES-1:0]     am_be_i,
  input  wire [32*LANES-1:0]    am_wdata_i,

  output wire                   dmem_en_o,
  output wire                   dmem_busy_o,
  output wire [31:0]            dmem_addr_o,
  output wire [4*LANES-1:0]     dmem_be_o,
  output wire [32*LANES-1:0]    dmem_wdata_o,

  output wire                   console_valid_o,
  output wire [7:0]             console_byte_o,
  output wire [31:0]            console_tid_o,
  input  wire                   console_ready_i,

  // Fault record; the fill reads an illegal instruction's word back
  output reg                    fault_q,
  output reg                    fill_q,
  output reg  [PCW-1:0]         foff_q,       // the faulting instruction's pc
  input  wire [31:0]            imem_rdata_i,
  output wire                   fault_valid_o,
  output wire [3:0]             fault_cause_o,
  output wire [31:0]            fault_pc_o,
  output wire [31:0]            fault_hart_o,
  output wire [31:0]            fault_tid_o,
  output wire [31:0]            fault_addr_o
);
// The contract include declares every constant; each block uses a few.
// verilator lint_off UNUSEDPARAM
`include "simty_arch.vh"
// verilator lint_on UNUSEDPARAM
  localparam [31:0] CODE_BASE = SIMTY_CODE_BASE;
`define SIMTY_FULL_PC(off) (CODE_BASE + ({{(32-PCW){1'b0}}, (off)} << 2))

  // ------------------------------------------------------------------
  // MB registers
  // ------------------------------------------------------------------
  reg  [LANES-1:0]       mb_mis_q, mb_bad_q, mb_con_q, mb_ovf_q;
  reg  [LANE_BITS*LANES-1:0] mb_prot_q;
  reg                    mb_oor_q;
  reg  [EPOCH_BITS-1:0]  mb_epoch_q;
  reg  [PCW-1:0]         mb_pnext_q;
  reg  [RSB-1:0]         mb_rsp_q;
  reg                    mb_branch_q, mb_jal_q, mb_jalr_q, mb_store_q;
  reg                    mb_ecall_q, mb_ebreak_q, mb_illegal_q, mb_call_q, mb_ret_q;
  reg  [2:0]             mb_f3_q;
  reg  [31:0]            mb_rel_q;    // branch / jal target, offset into CODE
  reg                    mb_rel_oor_q; // ... outside CODE
  // with HOT_LUTRAM: the leader of EX's read of the mask (0 and unused
  // without)
  // verilator lint_off UNUSEDSIGNAL
  wire [LANE_BITS-1:0]   leader_ex;
  // verilator lint_on UNUSEDSIGNAL
  reg  [LANES-1:0]       mb_eq_q, mb_lt_q, mb_ltu_q;
  reg  [31:0]            mb_base_tid_q;
  // computed in EX: the register then takes the adder's output (a LUT)
  // and packs with it, where a copy of the immediate would not
  wire [31:0]            mb_rel_d = ({{(32-PCW){1'b0}}, ex_pc_i} << 2) + ex_imm_i;

  always @(posedge clk_i) begin
    if (rst_i) mb_valid_q <= 1'b0;
    else mb_valid_q <= ex_valid_i;
    mb_warp_q     <= ex_warp_i;
    mb_pc_q       <= ex_pc_i;
    mb_oor_q      <= ex_oor_i;
    mb_epoch_q    <= ex_epoch_i;
    mb_pnext_q    <= ex_pnext_i;
    mb_rsp_q      <= ex_rsp_i;
    mb_rd_q       <= ex_rd_i;
    mb_wr_q       <= ex_wr_i;
    mb_branch_q   <= ex_branch_i;
    mb_jal_q      <= ex_jal_i;
    mb_jalr_q     <= ex_jalr_i;
    mb_load_q     <= ex_load_i;
    mb_store_q    <= ex_store_i;
    mb_size_q     <= ex_size_i;
    mb_uns_q      <= ex_uns_i;
    mb_ecall_q    <= ex_ecall_i;
    mb_ebreak_q   <= ex_ebreak_i;
    mb_illegal_q  <= ex_illegal_i;
    mb_call_q     <= ex_call_i;
    mb_ret_q      <= ex_ret_i;
    mb_link_q     <= ex_link_i;
    mb_mul_q      <= ex_mul_i;
    mb_div_q      <= ex_div_i;
    mb_instret_q  <= ex_instret_i;
    mb_cnt_hi_q   <= ex_cnt_hi_i;
    mb_amo_q      <= ex_amo_i;
    mb_amoc_q     <= ex_amoc_i;
    mb_amo_op_q   <= ex_amo_op_i;
    mb_f3_q       <= ex_f3_i;
    mb_rel_q      <= mb_rel_d;
    mb_rel_oor_q  <= mb_rel_d >= CODE_SIZE;
    mb_res_q      <= ex_res_i;
    mb_b_q        <= ex_op2_i;
    mb_eq_q       <= ex_eq_i;
    mb_lt_q       <= ex_lt_i;
    mb_ltu_q      <= ex_ltu_i;
    mb_base_tid_q <= ex_base_tid_i;
    mb_mis_q      <= ex_mis_i;
    mb_bad_q      <= ex_bad_i;
    mb_con_q      <= ex_con_i;
    mb_ovf_q      <= ex_ovf_i;
    mb_pword_q    <= ex_pword_i;
    mb_prot_q     <= ex_prot_i;
  end

  wire [PCW-1:0]   mb_pc4 = mb_pc_q + 1'b1;
  assign mb_link_val_o = `SIMTY_FULL_PC(mb_pc4);
  wire             match, lost;
  wire             live;         // matched HCT1, no fault yet
  wire [LANES-1:0] mmask;
  wire [7:0]       mdepth;
  wire [LANES-1:0] mmask_mem;    // mmask from the memory stage's own flops
  wire [LANE_BITS-1:0] leader;   // lowest lane of mmask (simty_membership)
  wire [LANES-1:0]     mmask_br;  // the branch unit's copies of both
  wire [LANE_BITS-1:0] leader_br;

  // ------------------------------------------------------------------
  // Memory arbiter and the DATA port
  // ------------------------------------------------------------------
  wire                 mem_fault;
  wire [3:0]           mem_cause, mem_cause0;
  wire [LANE_BITS-1:0] mem_flane;
  wire [31:0]          mem_faddr;
  wire [LANES-1:0]     served;
  wire                 is_console;
  wire                 mem_en;
  wire [4*LANES-1:0]   mem_be;
  wire [32*LANES-1:0]  mem_wdata;
  // A: an atomic is a memory instruction, checked and read like a load
  // (its write comes later, from simty_amo)
  wire                 mb_mem = mb_load_q || mb_store_q || mb_amo_q;
  wire                 exec_ok;      // commits this cycle

  // The leader's picks: its row of the lane-pair bits (the memory
  // stage's copy and the branch unit's), its physical line and its jalr
  // target. With HOT_LUTRAM the leader is known in EX (simty_membership's
  // mask copy is read there): the picks are registered into MB from EX's
  // values, and MB starts from them; without, MB picks with its leaders.
  wire [LANES-1:0] row_mem, row_br;
  wire [31:0]      lline;
  wire [PCW+1:0]   jt_lead;
  generate
    if (HOT_LUTRAM != 0) begin : gen_pick_ex
      (* keep *) reg [LANES-1:0] row_mem_q, row_br_q;
      reg [31:0]      lline_q;
      reg [PCW+1:0]   jt_lead_q;
      always @(posedge clk_i) begin
        row_mem_q <= ex_same_i[LANES*leader_ex +: LANES];
        row_br_q  <= ex_same_i[LANES*leader_ex +: LANES];
        lline_q   <= ex_pline_i[32*leader_ex +: 32];
        jt_lead_q <= ex_jt_i[(PCW+2)*leader_ex +: PCW+2];
      end
      assign row_mem = row_mem_q;
      assign row_br  = row_br_q;
      assign lline   = lline_q;
      assign jt_lead = jt_lead_q;
    end else begin : gen_pick_mb
      // every lane's values registered (per lane its jalr target: the
      // branch unit's own copy of what it needs of mb_res_q), picked in MB
      reg [LANES*LANES-1:0]   mb_same_q;
      reg [32*LANES-1:0]      mb_pline_q;
      reg [(PCW+2)*LANES-1:0] mb_jt_q;
      always @(posedge clk_i) begin
        mb_same_q  <= ex_same_i;
        mb_pline_q <= ex_pline_i;
        mb_jt_q    <= ex_jt_i;
      end
      assign row_mem = mb_same_q[LANES*leader +: LANES];
      assign row_br  = mb_same_q[LANES*leader_br +: LANES];
      assign lline   = mb_pline_q[32*leader +: 32];
      assign jt_lead = mb_jt_q[(PCW+2)*leader_br +: PCW+2];
    end
  endgenerate

  simty_mem #(.LANES(LANES), .LANE_BITS(LANE_BITS), .XBAR(XBAR)) u_mem (
    // Not exec_ok: for a load or store the only other reasons not to
    // execute (fetch out of range, illegal) already clear load_i/store_i
    // and a console store never enables dmem, so `live && !lost` gives
    // the same enable without the jump-target and fault logic on the
    // path into the data RAMs.
    .valid_i       (live && !lost && !am_busy_i),
    .mask_i        (mmask),
    .mask_mem_i    (mmask_mem),
    .leader_i      (leader),
    .load_i        ((mb_load_q || mb_amo_q) && !mb_illegal_q && !mb_oor_q),
    .store_i       (mb_store_q && !mb_illegal_q && !mb_oor_q),
    .size_i        (mb_size_q),
    .addr_i        (mb_res_q),
    .sdata_i       (mb_b_q),
    .mis_i         (mb_mis_q),
    .bad_i         (mb_bad_q),
    .con_i         (mb_con_q),
    .lead_same_i   (row_mem),
    .ovf_i         (mb_ovf_q),
    .lead_line_i   (lline),
    .pword_i       (mb_pword_q),
    .prot_i        (mb_prot_q),
    .fault_o       (mem_fault),
    .fault_cause_o (mem_cause0),
    .fault_lane_o  (mem_flane),
    .fault_addr_o  (mem_faddr),
    .served_o      (served),
    .console_o     (is_console),
    .dmem_en_o     (mem_en),
    .dmem_addr_o   (mem_addr_o),
    .dmem_be_o     (mem_be),
    .dmem_wdata_o  (mem_wdata),
    .rot_o         (rot_o),
    .bword_o       (bword_o),
    .bc_o          (bc_o)
  );
  assign served_o = served;
  // A: sc.w and the AMOs fault as stores (lr.w as a load); simty_mem
  // checked them as loads (CONSOLE out of range).
  assign mem_cause = !(mb_amo_q && mb_amo_op_q != 4'd0) ? mem_cause0 :
                     mem_cause0 == SIMTY_FAULT_MISALIGNED_LOAD ? SIMTY_FAULT_MISALIGNED_STORE :
                     mem_cause0 == SIMTY_FAULT_LOAD_OUT_OF_RANGE ? SIMTY_FAULT_STORE_OUT_OF_RANGE :
                     mem_cause0;
  // The DATA port: the atomic unit's write (am_we_i, while am_busy_i
  // holds every memory instruction in MB), else MB's access.
  assign dmem_en_o    = mem_en || am_we_i;
  assign dmem_addr_o  = am_we_i ? am_addr_i : mem_addr_o;
  assign dmem_be_o    = am_we_i ? am_be_i : mem_be;
  assign dmem_wdata_o = am_we_i ? am_wdata_i : mem_wdata;
  assign dmem_busy_o  = (mb_valid_q && mb_mem) || am_we_i;

  // ------------------------------------------------------------------
  // Branch unit
  // ------------------------------------------------------------------
  wire                 x_valid, y_valid;
  wire [PCW-1:0]       x_pc, y_pc;
  wire [7:0]           x_depth, y_depth;
  wire                 x_jump;          // X is the jump target:
  wire [PCW-1:0]       xt_pc;           // X's jump candidate
  wire [7:0]           xt_depth;
  wire [LANES-1:0]     x_mask, y_mask, retire_mask;
  wire                 br_fault;
  wire [3:0]           br_cause;
  wire [LANE_BITS-1:0] br_flane;
  wire [31:0]          br_faddr, br_fpc;
  wire                 divergent, replay_ind, replay_mem;

  // The lanes that go on: for a memory access those it serves, again from
  // the branch unit's own leader and mask (simty_mem computes the same set
  // as served, the leader's row of the lane-pair bits, which hold the
  // crossbar's rule (simty_mem_pre), so that one rule serves both: checked
  // in simulation below); for a jalr those with the leader's target (the
  // same row: simty_mem_pre compares targets for a jalr). The leader's
  // target comes from the branch unit's own per-lane copy.
  wire [LANES-1:0] go_br = mmask_br & row_br;

  simty_branch #(.LANES(LANES), .LANE_BITS(LANE_BITS), .PCW(PCW)) u_branch (
    .mask_i        (mmask_br),
    .leader_i      (leader_br),
    .pc_i          (mb_pc_q),
    .pc_full_i     (`SIMTY_FULL_PC(mb_pc_q)),
    .pc4_i         (mb_pc4),
    .depth_i       (mdepth),
    .oor_i         (mb_oor_q),
    .branch_i      (mb_branch_q),
    .br_f3_i       (mb_f3_q),
    .jal_i         (mb_jal_q),
    .jalr_i        (mb_jalr_q),
    .mem_i         (mb_mem),
    .ecall_i       (mb_ecall_q),
    .ebreak_i      (mb_ebreak_q),
    .illegal_i     (mb_illegal_q),
    .call_i        (mb_call_q),
    .ret_i         (mb_ret_q),
    .rel_i         (mb_rel_q),
    .rel_oor_i     (mb_rel_oor_q),
    .jt_i          (jt_lead),
    .eq_i          (mb_eq_q),
    .lt_i          (mb_lt_q),
    .ltu_i         (mb_ltu_q),
    .res_i         (mb_res_q),
    .go_i          (go_br),
    .x_valid_o     (x_valid),
    .x_pc_o        (x_pc),
    .x_depth_o     (x_depth),
    .x_jump_o      (x_jump),
    .xt_pc_o       (xt_pc),
    .xt_depth_o    (xt_depth),
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
  assign retire_mask_o = retire_mask;

  // ------------------------------------------------------------------
  // The decision: hold, commit, raise
  // ------------------------------------------------------------------
  wire        con_busy;
  wire        fault_now = br_fault || mem_fault;
  assign      live      = match && !fault_q;
  wire        hold      = live && (lost || (!fault_now && mb_store_q && is_console && con_busy) ||
                                   (!fault_now && mb_mem && am_busy_i));
  assign      exec_ok   = live && !lost && !fault_now && !hold;
  wire        raise     = live && !lost && fault_now;
  wire        stale     = mb_epoch_q != epochs_i[mb_warp_q*EPOCH_BITS +: EPOCH_BITS];
  assign      exec_ok_o = exec_ok;

  // ------------------------------------------------------------------
  // Membership
  // ------------------------------------------------------------------
  wire             redir_valid;
  wire [PCW-1:0]   redir_pc;
  wire             m_disp_ready;
  wire             disp_go;

  simty_membership #(.WARPS(WARPS), .LANES(LANES), .WARP_BITS(WARP_BITS),
                     .LANE_BITS(LANE_BITS), .PCW(PCW), .HOT_LUTRAM(HOT_LUTRAM)) u_member (
    .clk_i         (clk_i),
    .rst_i         (rst_i),
    .ex_warp_i     (ex_warp_i),
    .mb_valid_i    (mb_valid_q),
    .mb_warp_i     (mb_warp_q),
    .mb_pc_i       (mb_pc_q),
    .match_o       (match),
    .mask_o        (mmask),
    .mask_mem_o    (mmask_mem),
    .leader_o      (leader),
    .mask_br_o     (mmask_br),
    .leader_br_o   (leader_br),
    .leader_ex_o   (leader_ex),
    .depth_o       (mdepth),
    .lost_o        (lost),
    .commit_i      (exec_ok),
    .stale_i       (stale),
    .x_valid_i     (x_valid),
    .x_pc_i        (x_pc),
    .x_depth_i     (x_depth),
    .x_jump_i      (x_jump),
    .xt_pc_i       (xt_pc),
    .xt_depth_i    (xt_depth),
    .x_mask_i      (x_mask),
    .y_valid_i     (y_valid),
    .y_pc_i        (y_pc),
    .y_depth_i     (y_depth),
    .y_mask_i      (y_mask),
    .hold_i        (hold),
    .pnext_i       (mb_pnext_q),
    .redir_valid_o (redir_valid),
    .redir_pc_o    (redir_pc),
    .end_o         (ended_o),
    .merges_o      (ev_merges_o),
    .smerge_o      (ev_smerge_o),
    .peak_valid_o  (ev_peak_valid_o),
    .peak_o        (ev_peak_o),
    .blocked_o     (blocked_o),
    .busy_o        (sorter_busy_o),
    .disp_valid_i  (disp_go),
    .disp_ready_o  (m_disp_ready),
    .disp_warp_i   (dispatch_warp_i),
    .disp_pc_i     (dispatch_pc_i),
    .disp_mask_i   (dispatch_mask_i)
  );

  // Dispatch shares the HCT write ports with MB's update and the steering
  // pc with the registered redirect. It is taken only in a cycle with MB
  // empty and no redirect pending: ready comes from registers, not from
  // MB's commit (m_disp_ready is then high). An offer that cannot be
  // taken holds issue back for a cycle (disp_bubble_o), so that MB is
  // empty four cycles later even when every warp could issue; again if
  // that cycle was lost to a redirect (bub_q: the bubbles on their way to
  // MB).
  assign dispatch_ready_o = !mb_valid_q && !redir_q;
  assign disp_go          = dispatch_valid_i && dispatch_ready_o;
  assign disp_go_o        = disp_go;
  reg [2:0] bub_q;
  always @(posedge clk_i) begin
    if (rst_i) bub_q <= 3'd0;
    else bub_q <= {bub_q[1:0], disp_bubble_o};
  end
  assign disp_bubble_o = dispatch_valid_i && !disp_go && bub_q == 3'd0;
  wire unused_disp_ready = m_disp_ready;

  // The redirect, registered: it flushes the warp's instruction buffer
  // entries, kills its fetch in stage 2 and restarts its fetch steering
  // (new pc, epoch bump). A wrong-path instruction that gets into the
  // buffer or the pipeline meanwhile carries the old epoch and is
  // validated here like any other (the HCT1 match, stale).
  wire [RSB-1:0] mb_rsp_next = (RAS_DEPTH < 2) ? mb_rsp_q :
                               mb_call_q ? mb_rsp_q + 1'b1 : mb_ret_q ? mb_rsp_q - 1'b1 : mb_rsp_q;
  always @(posedge clk_i) begin
    if (rst_i) redir_q <= 1'b0;
    else redir_q <= redir_valid;
    redir_warp_q <= mb_warp_q;
    redir_pc_q   <= redir_pc;
    // a replay refetches the instruction: the pointer it found; else the
    // pointer after its call (push) or return (pop)
    redir_rsp_q  <= hold ? mb_rsp_q : mb_rsp_next;
  end

  // ------------------------------------------------------------------
  // Console stores
  // ------------------------------------------------------------------
  wire [8*LANES-1:0] con_bytes;
  genvar l;
  generate
    for (l = 0; l < LANES; l = l + 1) begin : gen_con
      assign con_bytes[8*l +: 8] = mb_b_q[32*l +: 8];
    end
  endgenerate
  simty_console #(.LANES(LANES)) u_console (
    .clk_i      (clk_i),
    .rst_i      (rst_i),
    .load_i     (exec_ok && mb_store_q && is_console),
    .mask_i     (served),
    .bytes_i    (con_bytes),
    .base_tid_i (mb_base_tid_q),
    .busy_o     (con_busy),
    .valid_o    (console_valid_o),
    .byte_o     (console_byte_o),
    .tid_o      (console_tid_o),
    .ready_i    (console_ready_i)
  );

  // ------------------------------------------------------------------
  // Counter events
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
  assign ev_threads_o    = exec_ok ? n_ret : {(LANE_BITS+1){1'b0}};
  assign ev_divergent_o  = exec_ok && divergent;
  assign ev_replay_mem_o = exec_ok && replay_mem;
  assign ev_replay_ind_o = exec_ok && replay_ind;
  assign ev_mem_o        = exec_ok && mb_mem;
  assign ev_requests_o   = exec_ok && mb_mem ? n_srv : {(LANE_BITS+1){1'b0}};

  // ------------------------------------------------------------------
  // Fault record. The word of an illegal instruction (its `addr`) is not
  // carried down the pipeline for this rare case (64 flops with no logic,
  // one iCE40 cell each): once the fault has stopped fetch, the record
  // reads it back from instruction memory at the fault pc (fill_q,
  // foff_q: the core's instruction port), and fault_valid_o rises when
  // that is done (two cycles after the fault).
  // ------------------------------------------------------------------
  localparam [3:0] ILLEGAL = SIMTY_FAULT_ILLEGAL_INSTRUCTION;
  reg         fill2_q;
  reg  [3:0]  fcause_q;
  reg  [31:0] fpc_q, fhart_q, ftid_q, faddr_q;
  wire [LANE_BITS-1:0] flane = br_fault ? br_flane : mem_flane;
  wire [31:0] flane32 = {{(32-LANE_BITS){1'b0}}, flane};
  wire [31:0] hart0   = {{(32-WARP_BITS){1'b0}}, mb_warp_q} * LANES;
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
      foff_q   <= mb_pc_q;
      fhart_q  <= hart0 | flane32;   // hart0 is a multiple of LANES
      ftid_q   <= mb_base_tid_q | flane32;   // the base is a multiple of LANES
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

`ifndef SYNTHESIS
  // ------------------------------------------------------------------
  // Membership invariants (simulation; the RTL suites run them; see
  // simty_membership's header and docs/core.md "Assertions").
  // At every commit: the paths X and Y the instruction leaves are
  // disjoint and within HCT1's mask (no thread is created or doubled).
  // For each dispatched warp with no sorter work pending (no job, no
  // settle, not the sorter's warp, no CCT push in flight), in the first
  // such cycle after anything that may change its paths (a dispatch, a
  // commit, sorter work: ck_dirty_q; its paths hold still otherwise), its
  // paths HCT1, HCT2, CCT[0..n-1] satisfy (the bits of ck_why):
  //   1 HCT1 valid has a non-empty mask;
  //   2 HCT1 empty means no path left (HCT2 empty, n = 0);
  //   3 HCT2 valid has a non-empty mask, disjoint from HCT1's;
  //   4 HCT1 > HCT2 in (depth desc, pc asc);
  //   5 HCT2 empty only if the CCT is;
  //   6 each CCT entry valid, its mask non-empty and disjoint from the
  //     paths above;
  //   7 the CCT strictly ascending: CCT[0] < ... < CCT[n-1];
  //   8 CCT[n-1] < HCT2;
  //   9 the masks cover exactly the warp's live threads: those
  //     dispatched, less those that committed an ecall (tracked here,
  //     apart from the path logic).
  // The tables are read through their instances (u_member.u_hct1.mem_q,
  // ...). Blocking assignments in a clocked block: the checks'
  // temporaries.
  // ------------------------------------------------------------------
  // verilator lint_off BLKSEQ
  // verilator lint_off UNUSEDSIGNAL
  localparam integer PW = 1 + 8 + PCW + LANES;        // {v, depth, pc, mask}
  localparam integer SB = (LANES > 2) ? LANE_BITS : 1; // CCT slot bits
  localparam integer NB = LANE_BITS + 1;
  localparam integer KW = 8 + PCW;
  localparam [KW-1:0] KEY_FLIP = {8'd0, {PCW{1'b1}}};
  reg [LANES-1:0] ck_live_q [0:WARPS-1];
  reg [WARPS-1:0] ck_seen_q, ck_dirty_q;
  reg [LANES-1:0] ck_cov, ck_m;
  reg [PW-1:0]    ck_h1, ck_h2, ck_e, ck_prev;
  reg [NB-1:0]    ck_n;
  reg             ck_bad;
  reg [9:1]       ck_why;     // the checks that failed
  integer         ck_w, ck_j;
  wire [WARP_BITS-1:0] ck_push_w = u_member.push_a_q[SB +: WARP_BITS];
  wire [WARPS-1:0] ck_quiet, ck_event;
  genvar cw;
  generate
    for (cw = 0; cw < WARPS; cw = cw + 1) begin : gen_ck_quiet
      wire sorting = u_member.st_q != 4'd0 && u_member.sw_q == cw[WARP_BITS-1:0];
      wire pushing = u_member.push_q && ck_push_w == cw[WARP_BITS-1:0];
      assign ck_quiet[cw] = ck_seen_q[cw] && !blocked_o[cw] && !sorting && !pushing;
      assign ck_event[cw] = (disp_go && dispatch_warp_i == cw[WARP_BITS-1:0]) ||
                            (exec_ok && mb_warp_q == cw[WARP_BITS-1:0]) ||
                            blocked_o[cw] || sorting || pushing;
    end
  endgenerate
  // The branch unit's copy of the served set is the memory arbiter's.
  always @(posedge clk_i)
    if (!rst_i && exec_ok && mb_mem && go_br != served) begin
      $display("simty_core: MB warp %0d pc 0x%08x: the branch unit's served lanes %h, the memory arbiter's %h",
               mb_warp_q, `SIMTY_FULL_PC(mb_pc_q), go_br, served);
      $fatal(1, "simty_core: served set");
    end
  // For a jalr, the lane-pair bits' row is the set of lanes whose target is
  // the leader's, and the branch unit's copy of the leader's target is its
  // target in mb_res_q.
  reg [LANES-1:0] ck_jgo;
  reg [31:0]      ck_jt, ck_joff;
  integer         ck_jl;
  always @* begin
    ck_jt = mb_res_q[32*leader_br +: 32] & 32'hffff_fffe;
    ck_joff = ck_jt - CODE_BASE;
    for (ck_jl = 0; ck_jl < LANES; ck_jl = ck_jl + 1)
      ck_jgo[ck_jl] = mmask_br[ck_jl] &&
                      (mb_res_q[32*ck_jl +: 32] & 32'hffff_fffe) == ck_jt;
  end
  always @(posedge clk_i)
    if (!rst_i && live && mb_jalr_q && !mb_oor_q && !mb_illegal_q &&
        (go_br != ck_jgo ||
         jt_lead != {ck_joff >= CODE_SIZE, ck_joff[1], ck_joff[PCW+1:2]})) begin
      $display("simty_core: MB warp %0d pc 0x%08x: jalr lanes %h target %h, expected %h %08x",
               mb_warp_q, `SIMTY_FULL_PC(mb_pc_q), go_br, jt_lead, ck_jgo, ck_jt);
      $fatal(1, "simty_core: jalr targets");
    end
  always @(posedge clk_i) begin
    if (rst_i) begin
      ck_seen_q  <= {WARPS{1'b0}};
      ck_dirty_q <= {WARPS{1'b0}};
    end else begin
      ck_dirty_q <= (ck_dirty_q & ~ck_quiet) | ck_event;
      if (exec_ok && ((x_valid && y_valid && (x_mask & y_mask) != {LANES{1'b0}}) ||
                      (x_valid && (x_mask & ~mmask) != {LANES{1'b0}}) ||
                      (y_valid && (y_mask & ~mmask) != {LANES{1'b0}}))) begin
        $display("simty_core: MB warp %0d pc 0x%08x leaves overlapping paths X %h Y %h (mask %h)",
                 mb_warp_q, `SIMTY_FULL_PC(mb_pc_q), x_mask, y_mask, mmask);
        $fatal(1, "simty_core: membership invariant");
      end
      for (ck_w = 0; ck_w < WARPS; ck_w = ck_w + 1) begin
        if (ck_quiet[ck_w] && ck_dirty_q[ck_w]) begin
          ck_bad  = 1'b0;
          ck_why  = 9'd0;
          ck_h1   = u_member.u_hct1.mem_q[ck_w];
          ck_h2   = u_member.u_hct2.mem_q[ck_w];
          ck_n    = u_member.n_q[ck_w];
          ck_cov  = {LANES{1'b0}};
          ck_prev = {PW{1'b0}};
          // disjoint masks, non-empty when valid
          if (ck_h1[PW-1]) begin
            if (ck_h1[LANES-1:0] == {LANES{1'b0}}) begin ck_bad = 1'b1; ck_why[1] = 1'b1; end
            ck_cov = ck_h1[LANES-1:0];
          end else if (ck_h2[PW-1] || ck_n != {NB{1'b0}}) begin
            ck_bad = 1'b1; ck_why[2] = 1'b1;
          end
          if (ck_h2[PW-1]) begin
            ck_m = ck_h2[LANES-1:0];
            if (ck_m == {LANES{1'b0}} || (ck_m & ck_cov) != {LANES{1'b0}}) begin
              ck_bad = 1'b1; ck_why[3] = 1'b1;
            end
            ck_cov = ck_cov | ck_m;
            if (ck_h1[PW-1] && (ck_h1[LANES +: KW] ^ KEY_FLIP) <= (ck_h2[LANES +: KW] ^ KEY_FLIP)) begin
              ck_bad = 1'b1; ck_why[4] = 1'b1;
            end
          end else if (ck_n != {NB{1'b0}}) begin
            ck_bad = 1'b1; ck_why[5] = 1'b1;
          end
          for (ck_j = 0; ck_j < (1 << SB); ck_j = ck_j + 1) begin
            if (ck_j < {{(32-NB){1'b0}}, ck_n}) begin
              ck_e = u_member.u_cct.mem_q[{ck_w[WARP_BITS-1:0], ck_j[SB-1:0]}];
              ck_m = ck_e[LANES-1:0];
              if (!ck_e[PW-1] || ck_m == {LANES{1'b0}} || (ck_m & ck_cov) != {LANES{1'b0}}) begin
                ck_bad = 1'b1; ck_why[6] = 1'b1;
              end
              ck_cov = ck_cov | ck_m;
              if (ck_j > 0 && (ck_e[LANES +: KW] ^ KEY_FLIP) <= (ck_prev[LANES +: KW] ^ KEY_FLIP)) begin
                ck_bad = 1'b1; ck_why[7] = 1'b1;
              end
              ck_prev = ck_e;
            end
          end
          if (ck_n != {NB{1'b0}} &&
              (ck_h2[LANES +: KW] ^ KEY_FLIP) <= (ck_prev[LANES +: KW] ^ KEY_FLIP)) begin
            ck_bad = 1'b1; ck_why[8] = 1'b1;
          end
          if (ck_cov != ck_live_q[ck_w]) begin
            ck_bad = 1'b1; ck_why[9] = 1'b1;
          end
          if (ck_bad) begin
            $display("simty_core: membership invariants %b (9..1) broken, warp %0d: HCT1 %h HCT2 %h n %0d, paths cover %h, live threads %h",
                     ck_why, ck_w, ck_h1, ck_h2, ck_n, ck_cov, ck_live_q[ck_w]);
            $fatal(1, "simty_core: membership invariant");
          end
        end
      end
      if (disp_go) ck_seen_q[dispatch_warp_i] <= 1'b1;
    end
    // live threads: set at dispatch, less an ecall's lanes at its commit
    if (disp_go)
      ck_live_q[dispatch_warp_i] <= dispatch_mask_i;
    else if (exec_ok && mb_ecall_q)
      ck_live_q[mb_warp_q] <= ck_live_q[mb_warp_q] & ~mmask;
  end
  // verilator lint_on UNUSEDSIGNAL
  // verilator lint_on BLKSEQ
`endif

`undef SIMTY_FULL_PC
endmodule
