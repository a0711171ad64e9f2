// SPDX-License-Identifier: Apache-2.0
// simty_membership: membership stage, path tracking (docs/architecture.md
// section 1). Per warp, HCT1 holds the running path, HCT2 the next one and
// the CCT (a per-warp stack in RAM, one entry per possible extra path) the
// others, kept sorted: slot 0 the lowest, slot n-1 (the top) the highest.
// This stage validates an instruction against HCT1 (pc match gives its
// mask; anything else is squashed), merges and orders the paths an
// instruction leaves with HCT2, and hands the CCT work that needs more
// than one write to a background sorter, so that the running path is
// always the exact maximum of (depth desc, pc asc).
//
// Invariants while a warp has no pending job: HCT1 > HCT2 > CCT[n-1] >
// ... > CCT[0] (strictly: no two paths share a key), and HCT2 is empty
// only if the CCT is. Simulation checks them (end of the module).
// An update that leaves three paths pushes the lowest one, s3: if s3 is
// the old HCT2 it is above every CCT entry and goes on the top at once
// (no job). Jobs (the warp is blocked meanwhile; one entry a cycle):
//   ins   - the path just written at CCT[n] (below HCT2) moves down to its
//           place, shifting the entries above it up, or merges into an
//           equal entry (the shifted ones then move back down): merge on
//           insertion, as the model does;
//   rebal - HCT2 may not be above the CCT's top (the old HCT2 became
//           HCT1, or HCT2 is empty): the top and HCT2 are compared; the
//           higher becomes HCT2 (equal keys merge) and a displaced HCT2 is
//           inserted as above.
// The sorter reads its own copy of HCT2 and writes the CCT through a port
// that MB's push uses one cycle after the update (registered).
`default_nettype none

module simty_membership #(
  parameter integer WARPS = 4,
  parameter integer LANES = 4,
  parameter integer WARP_BITS = 2,
  parameter integer LANE_BITS = 2,
  parameter integer PCW = 15,             // pc: word offset into CODE
  parameter integer HOT_LUTRAM = 0        // 1: HCT1/HCT2 and the CCT in LUT RAM (ECP5)
) (
  input  wire                  clk_i,
  input  wire                  rst_i,
  // HCT read for the instruction in EX (data in MB)
  input  wire [WARP_BITS-1:0]  ex_warp_i,
  // Instruction in MB
  input  wire                  mb_valid_i,
  input  wire [WARP_BITS-1:0]  mb_warp_i,
  input  wire [PCW-1:0]           mb_pc_i,
  output wire                  match_o,      // instruction belongs to HCT1
  output wire [LANES-1:0]      mask_o,
  // The same mask again, and its leader (lowest active lane), for the
  // memory stage: with HOT_LUTRAM both are registered from the table's
  // read (their own flip-flops), so the arbiter's and the store merge's
  // logic starts at flops that drive nothing else, and no leader priority
  // sits between the mask and the line select.
  output wire [LANES-1:0]      mask_mem_o,
  output wire [LANE_BITS-1:0]  leader_o,
  // Another copy of both for the branch unit (its outcome masks feed the
  // merge below): with HOT_LUTRAM from flip-flops of their own, placed
  // near their consumers rather than shared with the memory stage's.
  output wire [LANES-1:0]      mask_br_o,
  output wire [LANE_BITS-1:0]  leader_br_o,
  // With HOT_LUTRAM, the leader those registers take, a cycle early (the
  // EX warp's read): MB registers what it picks with the leader. Without
  // HOT_LUTRAM the mask is known in MB only (0).
  output wire [LANE_BITS-1:0]  leader_ex_o,
  output wire [7:0]            depth_o,
  output wire                  lost_o,       // HCT read lost: replay (never: 0)
  // Outcome (valid when commit_i)
  input  wire                  commit_i,
  input  wire                  stale_i,      // fetched before a redirect
  input  wire                  x_valid_i,
  input  wire [PCW-1:0]           x_pc_i,
  input  wire [7:0]            x_depth_i,
  input  wire [LANES-1:0]      x_mask_i,
  // X's candidates (x_pc_i, x_depth_i is one of them): the jump target
  // (x_jump_i) or the fall-through, mb_pc_i + 1 at depth_o
  input  wire                  x_jump_i,
  input  wire [PCW-1:0]        xt_pc_i,
  input  wire [7:0]            xt_depth_i,
  input  wire                  y_valid_i,
  input  wire [PCW-1:0]           y_pc_i,
  input  wire [7:0]            y_depth_i,
  input  wire [LANES-1:0]      y_mask_i,
  input  wire                  hold_i,       // matched but must replay
  input  wire [PCW-1:0]           pnext_i,      // where its fetch stream went
  output wire                  redir_valid_o,
  output wire [PCW-1:0]           redir_pc_o,
  output wire                  end_o,        // the MB warp has no thread left
  output wire [1:0]            merges_o,     // path merges at the update
  output wire                  smerge_o,     // a merge by the sorter
  output wire                  peak_valid_o, // a warp's CCT size settled
  output wire [LANE_BITS:0]    peak_o,
  output wire [WARPS-1:0]      blocked_o,
  output wire                  busy_o,       // the sorter is working
  // Dispatch
  input  wire                  disp_valid_i,
  output wire                  disp_ready_o,
  input  wire [WARP_BITS-1:0]  disp_warp_i,
  input  wire [PCW-1:0]           disp_pc_i,
  input  wire [LANES-1:0]      disp_mask_i
);

  localparam integer PW = 1 + 8 + PCW + LANES;        // {v, depth, pc, mask}
  localparam integer SB = (LANES > 2) ? LANE_BITS : 1; // CCT slot bits
  localparam integer NB = LANE_BITS + 1;             // CCT count bits
  localparam integer CA = WARP_BITS + SB;

  // ---- paths ----
  // A path is {valid, depth, pc, mask}; bits KL.. KL+KW-1 are {depth, pc}.
  // Its order key {depth, ~pc} compares as one unsigned number: a larger
  // key is deeper, or as deep with a lower pc (a runs before b). Fields
  // are taken as slices of wires, not through functions: Verilator turns
  // every function call into stored temporaries, evaluated each cycle.
  localparam integer KW = 8 + PCW;
  localparam integer KL = LANES;
  localparam [PCW-1:0] PC_ONES = {PCW{1'b1}};
  localparam [KW-1:0]  KEY_FLIP = {8'd0, PC_ONES};

  // ---- per-warp state ----
  reg [NB-1:0]    n_q   [0:WARPS-1];
  reg [WARPS-1:0] ins_q, reb_q, settle_q;

  // ---- HCT RAMs ----
  wire [PW-1:0] h1, h2;
  reg           h1_we, h2_we;
  reg [WARP_BITS-1:0] h1_wa, h2_wa;
  reg [PW-1:0]  h1_wd, h2_wd;
  wire [PW-1:0] h2s;                   // the sorter's copy of HCT2
  reg [WARP_BITS-1:0] sw_q;            // the sorter's warp
  wire [WARP_BITS-1:0] h2s_ra;         // its read: the warp it picks / has

  localparam integer HOT_STYLE = (HOT_LUTRAM != 0) ? 2 : 1;
  simty_ram_1r1w #(.WIDTH(PW), .DEPTH(WARPS), .ABITS(WARP_BITS), .BLOCK(HOT_STYLE),
                   .SAME_CYCLE(0)) u_hct1 (
    .clk_i (clk_i), .re_i (1'b1), .raddr_i (ex_warp_i), .rdata_o (h1),
    .we_i (h1_we), .waddr_i (h1_wa), .wdata_i (h1_wd)
  );
  simty_ram_1r1w #(.WIDTH(PW), .DEPTH(WARPS), .ABITS(WARP_BITS), .BLOCK(HOT_STYLE),
                   .SAME_CYCLE(0)) u_hct2 (
    .clk_i (clk_i), .re_i (1'b1), .raddr_i (ex_warp_i),
    .rdata_o (h2), .we_i (h2_we), .waddr_i (h2_wa), .wdata_i (h2_wd)
  );
  // The same table for the sorter: written as HCT2, read at its warp.
  simty_ram_1r1w #(.WIDTH(PW), .DEPTH(WARPS), .ABITS(WARP_BITS), .BLOCK(HOT_STYLE),
                   .SAME_CYCLE(0)) u_hct2s (
    .clk_i (clk_i), .re_i (1'b1), .raddr_i (h2s_ra),
    .rdata_o (h2s), .we_i (h2_we), .waddr_i (h2_wa), .wdata_i (h2_wd)
  );
  // The sorter never takes EX's HCT2 read: no instruction loses its read.
  assign lost_o = 1'b0;

  // ---- validation ----
  wire blocked_mb = ins_q[mb_warp_i] || reb_q[mb_warp_i] || settle_q[mb_warp_i];
  assign match_o  = mb_valid_i && h1[PW-1] && h1[LANES +: PCW] == mb_pc_i &&
                    !blocked_mb;
  assign mask_o   = h1[LANES-1:0];

  // The lowest set bit's index.
  function automatic [LANE_BITS-1:0] lowest(input [LANES-1:0] m);
    integer k;
    begin
      lowest = {LANE_BITS{1'b0}};
      for (k = LANES - 1; k >= 0; k = k - 1)
        if (m[k]) lowest = k[LANE_BITS-1:0];
    end
  endfunction

  generate
    if (HOT_LUTRAM != 0) begin : gen_mask_copy
      // HCT1's mask field again, as LUT RAM with its read data used
      // before the read register: written as HCT1 is, read at the EX warp;
      // the register takes the mask and its leader. A write to the warp
      // being read is not seen, as with HCT1 (SAME_CYCLE = 0).
      (* ram_style = "distributed", no_rw_check *)
      reg [LANES-1:0] mm_q [0:WARPS-1];
      (* keep *) reg [LANES-1:0] mask_mem_q, mask_br_q;
      (* keep *) reg [LANE_BITS-1:0] leader_q, leader_br_q;
      wire [LANES-1:0] mm_rd = mm_q[ex_warp_i];
      always @(posedge clk_i) begin
        if (h1_we) mm_q[h1_wa] <= h1_wd[LANES-1:0];
        mask_mem_q <= mm_rd;
        leader_q <= lowest(mm_rd);
        mask_br_q <= mm_rd;
        leader_br_q <= lowest(mm_rd);
      end
`ifndef SYNTHESIS
      integer k;
      initial begin
        for (k = 0; k < WARPS; k = k + 1) mm_q[k] = {LANES{1'b0}};
        mask_mem_q = {LANES{1'b0}};
        leader_q = {LANE_BITS{1'b0}};
        mask_br_q = {LANES{1'b0}};
        leader_br_q = {LANE_BITS{1'b0}};
      end
      // The copy is HCT1's mask and its leader, read for the same warp in
      // the same cycle: they agree whenever MB uses them.
      always @(posedge clk_i)
        if (!rst_i && match_o &&
            (mask_mem_q != h1[LANES-1:0] || leader_q != lowest(h1[LANES-1:0]) ||
             mask_br_q != h1[LANES-1:0] || leader_br_q != lowest(h1[LANES-1:0])))
          $fatal(1, "simty_membership: MB's mask copies %h %h / leaders %0d %0d differ from HCT1's mask %h",
                 mask_mem_q, mask_br_q, leader_q, leader_br_q, h1[LANES-1:0]);
`endif
      assign mask_mem_o = mask_mem_q;
      assign leader_o = leader_q;
      assign mask_br_o = mask_br_q;
      assign leader_br_o = leader_br_q;
      assign leader_ex_o = lowest(mm_rd);
    end else begin : gen_mask_same
      assign mask_mem_o = h1[LANES-1:0];
      assign leader_o = lowest(h1[LANES-1:0]);
      assign mask_br_o = h1[LANES-1:0];
      assign leader_br_o = lowest(h1[LANES-1:0]);
      assign leader_ex_o = {LANE_BITS{1'b0}};
    end
  endgenerate
  assign depth_o  = h1[PW-2 -: 8];

  // ---- update: merge and order {X, Y, HCT2} ----
  wire [PW-1:0] H = h2;
  wire [LANES-1:0] h_mask = H[LANES-1:0];
  wire xv = x_valid_i, yv = y_valid_i, hv = H[PW-1];
  // X's key is compared for both of its candidates, which are known
  // from MB's registers, and the jump decision (the branch outcome, the
  // faults) selects the results: the compares do not wait for it.
  wire [PCW-1:0] x_pc4 = mb_pc_i + 1'b1;
  wire [KW-1:0] kxt = {xt_depth_i, ~xt_pc_i};
  wire [KW-1:0] kxf = {h1[PW-2 -: 8], ~x_pc4};
  wire [KW-1:0] ky = {y_depth_i, ~y_pc_i};
  wire [KW-1:0] kh = H[KL +: KW] ^ KEY_FLIP;
  // One magnitude comparison per pair (the reverse order is "neither
  // greater nor equal"); merged paths keep their keys.
  wire g_xy = x_jump_i ? kxt > ky : kxf > ky;
  wire g_xh = x_jump_i ? kxt > kh : kxf > kh;
  wire g_yh = ky > kh;
  wire k_xy = x_jump_i ? kxt == ky : kxf == ky;
  wire k_xh = x_jump_i ? kxt == kh : kxf == kh;
  wire k_yh = ky == kh;
`ifndef SYNTHESIS
  always @(posedge clk_i)
    if (!rst_i && commit_i &&
        (x_pc_i != (x_jump_i ? xt_pc_i : x_pc4) ||
         x_depth_i != (x_jump_i ? xt_depth_i : h1[PW-2 -: 8])))
      $fatal(1, "simty_membership: X (pc %0d depth %0d) is neither candidate",
             x_pc_i, x_depth_i);
`endif
  wire g_yx = !g_xy && !k_xy, g_hx = !g_xh && !k_xh, g_hy = !g_yh && !k_yh;
  wire eq_xy = xv && yv && k_xy;
  wire eq_xh = xv && hv && k_xh;
  wire eq_yh = yv && hv && k_yh;
  wire mxv = xv;
  wire myv = yv && !eq_xy;
  wire mhv = hv && !eq_xh && !eq_yh;
  wire [LANES-1:0] mxm = x_mask_i | (eq_xy ? y_mask_i : {LANES{1'b0}}) |
                         (eq_xh ? h_mask : {LANES{1'b0}});
  wire [LANES-1:0] mym = y_mask_i | (eq_yh ? h_mask : {LANES{1'b0}});
  wire [PW-1:0] MX = {mxv, x_depth_i, x_pc_i, mxm};
  wire [PW-1:0] MY = {myv, y_depth_i, y_pc_i, mym};
  wire [PW-1:0] MH = {mhv, H[PW-2:0]};
  wire [1:0] rx = {1'b0, myv && g_yx} + {1'b0, mhv && g_hx};
  wire [1:0] ry = {1'b0, mxv && g_xy} + {1'b0, mhv && g_hy};
  wire [1:0] rh = {1'b0, mxv && g_xh} + {1'b0, myv && g_yh};
  wire [1:0] cnt = {1'b0, mxv} + {1'b0, myv} + {1'b0, mhv};
  wire [1:0] incnt = {1'b0, xv} + {1'b0, yv} + {1'b0, hv};
  wire [1:0] r_h = eq_xh ? rx : (eq_yh ? ry : rh);

  // The path of rank r: the first of X, Y, HCT2 that has it.
  wire [PW-1:0] s1 = (mxv && rx == 2'd0) ? MX : (myv && ry == 2'd0) ? MY :
                     (mhv && rh == 2'd0) ? MH : {PW{1'b0}};
  wire [PW-1:0] s2 = (mxv && rx == 2'd1) ? MX : (myv && ry == 2'd1) ? MY :
                     (mhv && rh == 2'd1) ? MH : {PW{1'b0}};
  wire [PW-1:0] s3 = (mxv && rx == 2'd2) ? MX : (myv && ry == 2'd2) ? MY :
                     (mhv && rh == 2'd2) ? MH : {PW{1'b0}};

  wire [NB-1:0] n_mb  = n_q[mb_warp_i];
  wire          push  = commit_i && cnt == 2'd3;
  // s3 is the old HCT2 (rank 2): above the CCT's top, it becomes the top.
  wire          pushtop = push && rh == 2'd2;
  wire          ins   = push && !pushtop;
  wire          rebal = commit_i && n_mb != {NB{1'b0}} && hv && r_h == 2'd0;
  wire          ended = commit_i && cnt == 2'd0;
  assign end_o    = ended;
  // A job blocks the warp: its fetch restarts at s1 (the in-flight
  // instructions are squashed while it is blocked).
  assign redir_valid_o = hold_i || (commit_i && (ended || ins || rebal || stale_i ||
                                                 s1[LANES +: PCW] != pnext_i));
  assign redir_pc_o = hold_i ? mb_pc_i : s1[LANES +: PCW];

`include "simty_warp_onehot.vh"

  // ---- CCT and its sorter ----
  localparam [3:0] S_IDLE = 4'd0, S_INS_P = 4'd1, S_INS_L = 4'd2, S_INS = 4'd3,
                   S_PUT = 4'd4, S_COMP = 4'd5, S_REB_RD = 4'd6, S_REB_CMP = 4'd7,
                   S_REB_H2WR = 4'd8, S_DONE = 4'd9;
  localparam [SB-1:0] ONE_S = {{(SB-1){1'b0}}, 1'b1};

  reg [3:0]           st_q, st_d;
  reg [WARP_BITS-1:0] sw_d;
  reg [SB-1:0]        i_q, i_d;       // the slot read last cycle
  reg [PW-1:0]        p_q, p_d;       // path being inserted / new HCT2
  reg                 chain_q, chain_d; // a rebalance follows the insert
  reg                 reins_q, reins_d; // an insert follows the rebalance
  reg                 byp_q, byp_d;     // p came from MB's push register
  reg [WARP_BITS-1:0] rr_q;

  // MB's push, registered: written the cycle after the update.
  reg                 push_q;
  reg [CA-1:0]        push_a_q;
  reg [PW-1:0]        push_d_q;
  always @(posedge clk_i) begin
    if (rst_i) push_q <= 1'b0;
    else push_q <= push;
    push_a_q <= {mb_warp_i, n_mb[SB-1:0]};
    push_d_q <= s3;
  end

  wire [PW-1:0] cct_rd;
  reg           e_re, e_we;
  reg [CA-1:0]  e_ra, e_wa;
  reg [PW-1:0]  e_wd;
  // The sorter waits while the push writes (one write port).
  wire          e_stall = e_we && push_q;
  wire          cct_re  = e_re && !e_stall;
  wire          cct_we  = push_q || e_we;
  wire [CA-1:0] cct_wa  = push_q ? push_a_q : e_wa;
  wire [PW-1:0] cct_wd  = push_q ? push_d_q : e_wd;
  // CCT address of slot s of warp w: {w, s}. With HOT_LUTRAM in LUT RAM
  // too: the sorter's loop (read, compare with p or HCT2, next slot's
  // address) then starts at a register, not at a block RAM's output.
  simty_ram_1r1w #(.WIDTH(PW), .DEPTH(1 << CA), .ABITS(CA),
                   .BLOCK((HOT_LUTRAM != 0) ? 2 : 0)) u_cct (
    .clk_i (clk_i), .re_i (cct_re), .raddr_i (e_ra), .rdata_o (cct_rd),
    .we_i (cct_we), .waddr_i (cct_wa), .wdata_i (cct_wd)
  );

  wire [NB-1:0] n_sw   = n_q[sw_q];
  wire [SB-1:0] n_sw_s = n_sw[SB-1:0];
  wire [SB-1:0] top_s  = n_sw_s - ONE_S;
  assign h2s_ra = (st_q == S_IDLE) ? pk_w_q : sw_q;
  wire [SB-1:0] i_up   = i_q + ONE_S;
  wire [SB-1:0] i_dn   = i_q - ONE_S;
  wire [WARPS-1:0] jobs = ins_q | reb_q;

  // The sorter's next job is chosen a cycle ahead and registered with
  // what its first read needs (the warp, the kind of job, the slot), so an
  // idle sorter's CCT and HCT2 read addresses start at flip-flops. The
  // choice: round robin among the warps with a pending job, less the one
  // being sorted (its job ends with the sort, so the choice made in a
  // job's last cycle starts the next job in the cycle after); with none,
  // the job the update queues in this cycle, whose slot MB knows (a job
  // then starts the cycle after its update, as from the job flags). A
  // warp with a job is blocked, so its count and flags hold still until
  // the sorter takes it, but for a dispatch, which clears them: a choice
  // whose job is gone is not started (pk_ok).
  wire [WARPS-1:0] in_sort = `SIMTY_AT(st_q != S_IDLE, sw_q);
  wire                 pick_v;
  wire [WARP_BITS-1:0] pick_w;
  wire [WARPS-1:0] unused_pick_at;   // the pick as an index only
  simty_rr_pick #(.N(WARPS), .B(WARP_BITS)) u_rr (
    .req_i (jobs & ~in_sort), .last_i (rr_q), .valid_o (pick_v), .grant_o (unused_pick_at), .pick_o (pick_w)
  );
  wire [SB-1:0] n_pick = n_q[pick_w][SB-1:0];   // (at most LANES - 2)
  wire [SB-1:0] n_mb_s = n_mb[SB-1:0];
  reg                 pk_v_q, pk_ins_q, pk_chain_q, pk_byp_q;
  reg [WARP_BITS-1:0] pk_w_q;
  reg [SB-1:0]        pk_slot_q;   // insert: slot n (the new path); else the top
  always @(posedge clk_i) begin
    if (rst_i) pk_v_q <= 1'b0;
    else pk_v_q <= pick_v || ins || rebal;
    if (pick_v) begin
      pk_w_q     <= pick_w;
      pk_ins_q   <= ins_q[pick_w];
      pk_chain_q <= ins_q[pick_w] && reb_q[pick_w];
      pk_slot_q  <= ins_q[pick_w] ? n_pick : n_pick - ONE_S;
      pk_byp_q   <= 1'b0;
    end else begin
      // the new path is written from MB's push register in the cycle the
      // sorter reads it: it is taken from there (byp)
      pk_w_q     <= mb_warp_i;
      pk_ins_q   <= ins;
      pk_chain_q <= ins && rebal;
      pk_slot_q  <= ins ? n_mb_s : n_mb_s - ONE_S;
      pk_byp_q   <= ins;
    end
  end
  wire pk_ok = pk_v_q && jobs[pk_w_q];

  // Port owners: the MB update first, then dispatch, then the sorter.
  wire upd_we  = commit_i;
  // Dispatch also waits for a replay (hold) so that it never redirects
  // fetch in the same cycle as the update does (one shared pc mux there).
  assign disp_ready_o = !upd_we && !hold_i;
  wire disp_go = disp_valid_i && disp_ready_o;
  // An update leaves HCT2 as it is when the old HCT2 stays second,
  // unmerged, or when both are empty: it then does not write it, and the
  // sorter has the port.
  wire h2_same = (mhv && rh == 2'd1) || (!hv && cnt < 2'd2);
  wire upd_h2  = upd_we && !h2_same;
  wire port_h2_free  = !upd_h2 && !disp_go;

  // The sorter's comparisons: the CCT entry read against p (insert) and
  // the CCT's top against HCT2 (rebalance).
  wire [KW-1:0] k_rd  = cct_rd[KL +: KW] ^ KEY_FLIP;
  wire [KW-1:0] k_p   = p_q[KL +: KW] ^ KEY_FLIP;
  wire [KW-1:0] k_h2s = h2s[KL +: KW] ^ KEY_FLIP;
  wire rd_gt_p  = k_rd > k_p;
  wire rd_eq_p  = cct_rd[KL +: KW] == p_q[KL +: KW];
  wire h2s_v    = h2s[PW-1];
  wire top_gt_h = h2s_v && k_rd > k_h2s;
  wire top_eq_h = h2s_v && cct_rd[KL +: KW] == h2s[KL +: KW];
  wire [PW-1:0] rd_or_p = {1'b1, cct_rd[PW-2:LANES], cct_rd[LANES-1:0] | p_q[LANES-1:0]};
  wire [PW-1:0] rd_or_h = {1'b1, cct_rd[PW-2:LANES], cct_rd[LANES-1:0] | h2s[LANES-1:0]};
  // After an insert: the rebalance queued with it, or the end.
  wire [3:0] s_next = chain_q ? S_REB_RD : S_DONE;

  reg n_inc_r, n_dec_r, done_r, smerge_r, h2w;
  always @* begin
    st_d     = st_q;
    sw_d     = sw_q;
    i_d      = i_q;
    p_d      = p_q;
    chain_d  = chain_q;
    reins_d  = reins_q;
    byp_d    = byp_q;
    e_re     = 1'b0;
    e_ra     = {sw_q, i_q};
    e_we     = 1'b0;
    e_wa     = {sw_q, i_up};
    e_wd     = p_q;
    n_inc_r  = 1'b0;
    n_dec_r  = 1'b0;
    done_r   = 1'b0;
    smerge_r = 1'b0;
    h2w      = 1'b0;
    case (st_q)
      // A chosen warp's first read is issued at once: its path at slot n
      // (insert) or its top (rebalance; HCT2 is read at pk_w_q too).
      S_IDLE: if (pk_ok) begin
        sw_d    = pk_w_q;
        chain_d = pk_chain_q;
        e_re    = 1'b1;
        e_ra    = {pk_w_q, pk_slot_q};
        p_d     = push_d_q;
        byp_d   = pk_byp_q;
        st_d    = pk_ins_q ? S_INS_L : S_REB_CMP;
      end
      // insert: the new path sits at slot n, above the n sorted entries
      S_INS_P: begin
        e_re    = 1'b1;
        e_ra    = {sw_q, n_sw_s};
        reins_d = 1'b0;
        byp_d   = 1'b0;
        st_d    = S_INS_L;
      end
      S_INS_L: begin
        if (!byp_q) p_d = cct_rd;
        byp_d = 1'b0;
        if (n_sw == {NB{1'b0}}) begin
          n_inc_r = 1'b1;
          chain_d = 1'b0;
          st_d    = s_next;
        end else begin
          e_re = 1'b1;
          e_ra = {sw_q, top_s};
          i_d  = top_s;
          st_d = S_INS;
        end
      end
      // slot i against p, from the top down: a higher entry moves up one
      // slot; a lower one takes p above it; an equal one takes p's lanes.
      S_INS: begin
        e_we = 1'b1;
        if (rd_gt_p) begin
          e_wd = cct_rd;
          if (i_q == {SB{1'b0}}) begin
            st_d = S_PUT;
          end else begin
            e_re = 1'b1;
            e_ra = {sw_q, i_dn};
            i_d  = i_dn;
          end
        end else if (rd_eq_p) begin
          e_wa     = {sw_q, i_q};
          e_wd     = rd_or_p;
          smerge_r = 1'b1;
          if (i_q == top_s) begin
            chain_d = 1'b0;
            st_d    = s_next;
          end else begin
            // slots i+2..n hold the entries i+1..n-1 moved up: move them
            // back down
            e_re = 1'b1;
            e_ra = {sw_q, i_up + ONE_S};
            i_d  = i_up + ONE_S;
            st_d = S_COMP;
          end
        end else begin
          n_inc_r = 1'b1;
          chain_d = 1'b0;
          st_d    = s_next;
        end
      end
      S_PUT: begin
        e_we    = 1'b1;
        e_wa    = {sw_q, i_q};
        n_inc_r = 1'b1;
        chain_d = 1'b0;
        st_d    = s_next;
      end
      S_COMP: begin
        e_we = 1'b1;
        e_wa = {sw_q, i_dn};
        e_wd = cct_rd;
        if ({1'b0, i_q} == n_sw) begin
          chain_d = 1'b0;
          st_d    = s_next;
        end else begin
          e_re = 1'b1;
          e_ra = {sw_q, i_up};
          i_d  = i_up;
        end
      end
      // rebalance: the CCT's top against HCT2 (both read here)
      S_REB_RD: begin
        e_re = 1'b1;
        e_ra = {sw_q, top_s};
        st_d = S_REB_CMP;
      end
      // The higher of the two is written to HCT2 in this cycle if its
      // port is free (else from S_REB_H2WR, see st_q).
      S_REB_CMP: begin
        if (h2s_v && !top_gt_h && !top_eq_h) begin
          done_r = 1'b1;                  // HCT2 is above the top already
          st_d = S_IDLE;
        end else begin
          h2w      = 1'b1;
          n_dec_r  = 1'b1;                // the top leaves the CCT
          p_d      = top_eq_h ? rd_or_h : cct_rd;
          smerge_r = top_eq_h;
          if (top_gt_h) begin
            // the old HCT2 takes the top's slot and is inserted from there
            e_we    = 1'b1;
            e_wa    = {sw_q, top_s};
            e_wd    = h2s;
            reins_d = 1'b1;
            st_d    = S_INS_P;
          end else begin
            done_r = 1'b1;
            st_d = S_IDLE;
          end
        end
      end
      S_REB_H2WR: begin
        h2w = 1'b1;
        done_r = !reins_q;
        st_d = reins_q ? S_INS_P : S_IDLE;
      end
      S_DONE: begin
        done_r = 1'b1;
        st_d = S_IDLE;
      end
      default: st_d = S_IDLE;
    endcase
  end
  // The sorter's HCT2 write waits while an update or a dispatch writes.
  wire h2_wait = h2w && !port_h2_free;
  wire h2_swe  = h2w && !e_stall && port_h2_free;
  wire n_inc  = n_inc_r && !e_stall;
  wire n_dec  = n_dec_r && !e_stall;
  wire smerge = smerge_r && !e_stall;
  wire done   = done_r && !e_stall && !h2_wait;
  assign busy_o = st_q != S_IDLE || push_q;

  // HCT writes
  always @* begin
    h1_we = 1'b0;
    h1_wa = mb_warp_i;
    h1_wd = s1;
    h2_we = 1'b0;
    h2_wa = mb_warp_i;
    h2_wd = (cnt >= 2'd2) ? s2 : {PW{1'b0}};
    if (upd_we) begin
      h1_we = 1'b1;
    end else if (disp_go) begin
      h1_we = 1'b1;
      h1_wa = disp_warp_i;
      h1_wd = {1'b1, 8'd0, disp_pc_i, disp_mask_i};
    end
    if (upd_h2) begin
      h2_we = 1'b1;
    end else if (disp_go) begin
      h2_we = 1'b1;
      h2_wa = disp_warp_i;
      h2_wd = {PW{1'b0}};
    end else if (h2w && !e_stall) begin
      h2_we = 1'b1;
      h2_wa = sw_q;
      h2_wd = (st_q == S_REB_H2WR) ? p_q : p_d;
    end
  end

  // Peak: the CCT size once a warp's paths are settled again (the end of
  // its jobs, or a push on the top).
  wire [NB-1:0]   n_mb1  = n_mb + 1'b1;
  wire [NB-1:0]   n_done = n_dec ? n_sw - 1'b1 : n_sw;   // after the job
  reg             peak_v_q;
  reg [NB-1:0]    peak_q;
  always @(posedge clk_i) begin
    if (rst_i) peak_v_q <= 1'b0;
    else peak_v_q <= done || pushtop;
    peak_q <= (pushtop && !(done && n_done > n_mb1)) ? n_mb1 : n_done;
  end
  assign peak_valid_o = peak_v_q;
  assign peak_o       = peak_q;

  always @(posedge clk_i) begin
    if (rst_i) begin
      st_q     <= S_IDLE;
      rr_q     <= {WARP_BITS{1'b0}};
    end else begin
      // The wait for HCT2's write port (busy on an update or a dispatch)
      // stays out of the block above, which then does not depend on the
      // core's dispatch input: the simulator evaluates it once a cycle.
      if (!e_stall)
        st_q <= h2_wait ? S_REB_H2WR : st_d;
      if (st_q == S_IDLE && pk_ok) rr_q <= pk_w_q;
    end
    if (!e_stall) begin
      sw_q    <= sw_d;
      i_q     <= i_d;
      p_q     <= p_d;
      chain_q <= chain_d;
      reins_q <= reins_d;
      byp_q   <= byp_d;
    end
  end

  // Per-warp job flags as WARPS-wide vectors (one-hot of the warp each
  // event concerns). A dispatch clears its warp's flags and count; the
  // update sets its warp's jobs; the sorter ends them (done wins over an
  // update of the same warp: that update saw the job still pending).
  // settle: set when HCT2 is written at the end of a rebalance; the job
  // ends one cycle after, so that no instruction validates against a
  // read that missed the write.
  wire [WARPS-1:0] d_at   = `SIMTY_AT(disp_go, disp_warp_i);
  wire [WARPS-1:0] m_at   = `SIMTY_AT(commit_i, mb_warp_i);
  wire [WARPS-1:0] s_done = `SIMTY_AT(done, sw_q);
  wire [WARPS-1:0] s_h2wr = `SIMTY_AT(h2_swe, sw_q);
  always @(posedge clk_i) begin
    if (rst_i) begin
      ins_q    <= {WARPS{1'b0}};
      reb_q    <= {WARPS{1'b0}};
      settle_q <= {WARPS{1'b0}};
    end else begin
      ins_q    <= ((ins_q & ~m_at) | (m_at & {WARPS{ins}})) & ~s_done & ~d_at;
      reb_q    <= ((reb_q & ~m_at) | (m_at & {WARPS{rebal}})) & ~s_done & ~d_at;
      settle_q <= s_h2wr & ~d_at;
    end
  end
  integer nw;
  always @(posedge clk_i) begin
    if (rst_i) begin
      for (nw = 0; nw < WARPS; nw = nw + 1) n_q[nw] <= {NB{1'b0}};
    end else begin
      if (st_q != S_IDLE && n_inc) n_q[sw_q] <= n_sw + 1'b1;
      if (st_q != S_IDLE && n_dec) n_q[sw_q] <= n_sw - 1'b1;
      if (pushtop) n_q[mb_warp_i] <= n_mb1;
      if (disp_go) n_q[disp_warp_i] <= {NB{1'b0}};
    end
  end

  assign blocked_o = ins_q | reb_q | settle_q;
  // Merges: the update's and the sorter's.
  assign merges_o  = commit_i ? incnt - cnt : 2'd0;
  assign smerge_o  = smerge;

`ifndef SYNTHESIS
  // ---- invariant checks (simulation; the RTL suites run them) ----
  // When a warp's jobs end: its CCT is sorted strictly ascending, its
  // top below HCT2, HCT2 below HCT1, HCT2 empty only with an empty CCT.
  // At every update of a warp with a CCT: HCT2 above the CCT's top.
  // Blocking assignments in a clocked block: the checks' temporaries,
  // evaluated only on those events.
  // verilator lint_off BLKSEQ
  // verilator lint_off UNUSEDSIGNAL
  // The end of a job is checked the cycle after (its last writes done).
  integer      ck_j;
  reg          ck_bad, ck_q;
  reg [WARP_BITS-1:0] ck_w_q;
  reg [NB-1:0] ck_n;
  reg [PW-1:0] ck_e, ck_prev, ck_h1, ck_h2;
  always @(posedge clk_i) begin
    ck_q   <= !rst_i && done;
    ck_w_q <= sw_q;
    if (!rst_i && ck_q) begin
      ck_bad  = 1'b0;
      ck_prev = {PW{1'b0}};
      ck_n    = n_q[ck_w_q];
      ck_h1   = u_hct1.mem_q[ck_w_q];
      ck_h2   = u_hct2.mem_q[ck_w_q];
      for (ck_j = 0; ck_j < (1 << SB); ck_j = ck_j + 1) begin
        if (ck_j < {{(32-NB){1'b0}}, ck_n}) begin
          ck_e = u_cct.mem_q[{ck_w_q, ck_j[SB-1:0]}];
          if (!ck_e[PW-1] || (ck_j > 0 && (ck_e[KL +: KW] ^ KEY_FLIP) <=
                                          (ck_prev[KL +: KW] ^ KEY_FLIP)))
            ck_bad = 1'b1;
          ck_prev = ck_e;
        end
      end
      if (ck_n != {NB{1'b0}} && (!ck_h2[PW-1] || (ck_h2[KL +: KW] ^ KEY_FLIP) <=
                                                (ck_prev[KL +: KW] ^ KEY_FLIP)))
        ck_bad = 1'b1;
      if (ck_h2[PW-1] && (!ck_h1[PW-1] || (ck_h1[KL +: KW] ^ KEY_FLIP) <=
                                         (ck_h2[KL +: KW] ^ KEY_FLIP)))
        ck_bad = 1'b1;
      if (ck_bad) begin
        $display("simty_membership: path invariant broken after a sorter job, warp %0d, n %0d",
                 ck_w_q, ck_n);
        $fatal(1, "simty_membership: invariant");
      end
    end
    if (!rst_i && commit_i && n_mb != {NB{1'b0}}) begin
      ck_e = (push_q && push_a_q == {mb_warp_i, n_mb[SB-1:0] - ONE_S}) ? push_d_q :
             u_cct.mem_q[{mb_warp_i, n_mb[SB-1:0] - ONE_S}];
      if (!hv || kh <= (ck_e[KL +: KW] ^ KEY_FLIP)) begin
        $display("simty_membership: HCT2 not above the CCT at an update, warp %0d pc %0h",
                 mb_warp_i, mb_pc_i);
        $fatal(1, "simty_membership: invariant");
      end
    end
  end
  // verilator lint_on UNUSEDSIGNAL
  // verilator lint_on BLKSEQ
`endif
`ifdef SIMTY_DEBUG_PATHS
  always @(posedge clk_i) begin
    if (commit_i && (((x_mask_i & y_mask_i) & {LANES{xv && yv}}) != 0 ||
                     ((x_mask_i & h_mask) & {LANES{xv && hv}}) != 0 ||
                     ((y_mask_i & h_mask) & {LANES{yv && hv}}) != 0))
      $display("%t overlap w=%0d pc=%h X=%h Y=%h H=%h n=%0d", $time, mb_warp_i, mb_pc_i,
               {xv, x_depth_i, x_pc_i, x_mask_i}, {yv, y_depth_i, y_pc_i, y_mask_i},
               H, n_mb);
    if (st_q == S_INS && (p_q[LANES-1:0] & cct_rd[LANES-1:0]) != 0)
      $display("%t ins overlap w=%0d si=%0d p=%h e=%h", $time, sw_q, i_q, p_q, cct_rd);
  end
`endif

endmodule
