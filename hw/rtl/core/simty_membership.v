// SPDX-License-Identifier: Apache-2.0
// simty_membership: membership stage, path tracking (docs/architecture.md
// section 1). Per warp, HCT1 holds the running path, HCT2 the next one and
// the CCT (a per-warp stack in RAM, one entry per possible extra path) the
// others. This stage validates an instruction against HCT1 (pc match gives
// its mask; anything else is squashed), merges and orders the paths an
// instruction leaves with HCT2, and hands CCT work to a background sorter
// while the warp waits, so that the running path is always the exact
// maximum of (depth desc, pc asc).
//
// Invariants while a warp has no pending job: HCT1 > HCT2 > every CCT
// entry (strictly), no two CCT entries share a key, and HCT2 is empty only
// if the CCT is. Jobs (the warp is blocked meanwhile):
//   ins   - the path just written at CCT[n] is merged into an equal entry
//           or kept (n + 1): merge on insertion, as the model does;
//   rebal - HCT2 may not be the maximum of HCT2 and the CCT (or is empty):
//           one pass over the CCT swaps larger entries in, merges an equal
//           one and fills the hole it leaves from the top.
`default_nettype none

module simty_membership #(
  parameter integer WARPS = 4,
  parameter integer LANES = 4,
  parameter integer WARP_BITS = 2,
  parameter integer LANE_BITS = 2,
  parameter integer PCW = 15,             // pc: word offset into CODE
  parameter integer HOT_LUTRAM = 0        // 1: HCT1/HCT2 in LUT RAM (ECP5)
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
  output wire [7:0]            depth_o,
  output wire                  lost_o,       // HCT read stolen: must replay
  // Outcome (valid when commit_i)
  input  wire                  commit_i,
  input  wire                  stale_i,      // fetched before a redirect
  input  wire                  x_valid_i,
  input  wire [PCW-1:0]           x_pc_i,
  input  wire [7:0]            x_depth_i,
  input  wire [LANES-1:0]      x_mask_i,
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
  wire          steal;                 // sorter reads HCT2 this cycle
  wire [WARP_BITS-1:0] sw;             // sorter's warp
  reg           lost_q;

  localparam integer HOT_STYLE = (HOT_LUTRAM != 0) ? 2 : 1;
  simty_ram_1r1w #(.WIDTH(PW), .DEPTH(WARPS), .ABITS(WARP_BITS), .BLOCK(HOT_STYLE),
                   .SAME_CYCLE(0)) u_hct1 (
    .clk_i (clk_i), .re_i (1'b1), .raddr_i (ex_warp_i), .rdata_o (h1),
    .we_i (h1_we), .waddr_i (h1_wa), .wdata_i (h1_wd)
  );
  simty_ram_1r1w #(.WIDTH(PW), .DEPTH(WARPS), .ABITS(WARP_BITS), .BLOCK(HOT_STYLE),
                   .SAME_CYCLE(0)) u_hct2 (
    .clk_i (clk_i), .re_i (1'b1), .raddr_i (steal ? sw : ex_warp_i),
    .rdata_o (h2), .we_i (h2_we), .waddr_i (h2_wa), .wdata_i (h2_wd)
  );

  always @(posedge clk_i) begin
    if (rst_i) lost_q <= 1'b0;
    else lost_q <= steal;
  end
  assign lost_o = lost_q;

  // ---- validation ----
  wire blocked_mb = ins_q[mb_warp_i] || reb_q[mb_warp_i] || settle_q[mb_warp_i];
  assign match_o  = mb_valid_i && h1[PW-1] && h1[LANES +: PCW] == mb_pc_i &&
                    !blocked_mb;
  assign mask_o   = h1[LANES-1:0];
  assign depth_o  = h1[PW-2 -: 8];

  // ---- update: merge and order {X, Y, HCT2} ----
  wire [PW-1:0] H = lost_q ? {PW{1'b0}} : h2;
  wire [LANES-1:0] h_mask = H[LANES-1:0];
  wire xv = x_valid_i, yv = y_valid_i, hv = H[PW-1];
  wire [KW-1:0] kx = {x_depth_i, ~x_pc_i};
  wire [KW-1:0] ky = {y_depth_i, ~y_pc_i};
  wire [KW-1:0] kh = H[KL +: KW] ^ KEY_FLIP;
  // One magnitude comparison per pair (the reverse order is "neither
  // greater nor equal"); merged paths keep their keys.
  wire g_xy = kx > ky, g_xh = kx > kh, g_yh = ky > kh;
  wire k_xy = kx == ky, k_xh = kx == kh, k_yh = ky == kh;
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
  wire          rebal = commit_i && n_mb != {NB{1'b0}} && hv && r_h == 2'd0;
  wire          ended = commit_i && cnt == 2'd0;
  assign end_o    = ended;
  assign redir_valid_o = hold_i || (commit_i && (ended || push || rebal || stale_i ||
                                                 s1[LANES +: PCW] != pnext_i));
  assign redir_pc_o = hold_i ? mb_pc_i : s1[LANES +: PCW];

  // ---- CCT and its sorter ----
  localparam [3:0] S_IDLE = 4'd0, S_INS_P = 4'd1, S_INS_P2 = 4'd2,
                   S_INS_RD = 4'd3, S_INS_CMP = 4'd4, S_INS_WR = 4'd5,
                   S_REB_H2 = 4'd6, S_REB_H2D = 4'd7, S_REB_RD = 4'd8,
                   S_REB_CMP = 4'd9, S_REB_WR = 4'd10, S_REB_FILL = 4'd11,
                   S_REB_H2WR = 4'd12, S_DONE = 4'd13;

  reg [3:0]           st_q, st_d;
  reg [WARP_BITS-1:0] sw_q, sw_d;
  reg [SB-1:0]        si_q, si_d;
  reg [PW-1:0]        p_q, p_d;       // path being inserted / HCT2 candidate
  reg [PW-1:0]        wd_q, wd_d;     // pending CCT write data
  reg [SB-1:0]        wa_q, wa_d;     // pending CCT write slot
  reg [PW-1:0]        last_q, last_d; // current content of the top slot
  reg                 hole_q, hole_d;
  reg [SB-1:0]        holei_q, holei_d;
  // The original HCT2 once a larger entry displaced it into slot oslot: a
  // later entry with its key (at most one: CCT keys are distinct) must
  // still merge with it there.
  reg                 oout_q, oout_d;
  reg [PW-1:0]        o_q, o_d;
  reg [SB-1:0]        oslot_q, oslot_d;
  reg [WARP_BITS-1:0] rr_q;
  reg                 smerge;

  wire [PW-1:0] cct_rd;
  reg           cct_re;
  reg [CA-1:0]  cct_ra;
  reg           cct_we;
  reg [CA-1:0]  cct_wa;
  reg [PW-1:0]  cct_wd;
  // CCT address of slot s of warp w: {w, s}.
  simty_ram_1r1w #(.WIDTH(PW), .DEPTH(1 << CA), .ABITS(CA)) u_cct (
    .clk_i (clk_i), .re_i (cct_re), .raddr_i (cct_ra), .rdata_o (cct_rd),
    .we_i (cct_we), .waddr_i (cct_wa), .wdata_i (cct_wd)
  );

  wire [NB-1:0] n_sw   = n_q[sw_q];
  wire [SB-1:0] n_sw_s = n_sw[SB-1:0];
  wire [SB-1:0] top_s  = n_sw_s - {{(SB-1){1'b0}}, 1'b1};
  wire [WARPS-1:0] jobs = ins_q | reb_q;

  // Sorter picks the next warp with a job, round robin.
  wire                 pick_v;
  wire [WARP_BITS-1:0] pick_w;
  simty_rr_pick #(.N(WARPS), .B(WARP_BITS)) u_rr (
    .req_i (jobs), .last_i (rr_q), .valid_o (pick_v), .pick_o (pick_w)
  );

  // Port owners: the MB update first, then dispatch, then the sorter.
  wire upd_we  = commit_i;
  // Dispatch also waits for a replay (hold) so that it never redirects
  // fetch in the same cycle as the update does (one shared pc mux there).
  assign disp_ready_o = !upd_we && !hold_i;
  wire disp_go = disp_valid_i && disp_ready_o;
  wire port_cct_free = !push;
  wire port_h2_free  = !upd_we && !disp_go;

  // The sorter's comparisons: the CCT entry read against p and o.
  wire [KW-1:0] k_rd = cct_rd[KL +: KW] ^ KEY_FLIP;
  wire [KW-1:0] k_p  = p_q[KL +: KW] ^ KEY_FLIP;
  wire rd_gt_p = k_rd > k_p;
  wire rd_eq_p = cct_rd[KL +: KW] == p_q[KL +: KW];
  wire rd_eq_o = cct_rd[KL +: KW] == o_q[KL +: KW];

  reg n_inc, n_dec, done;
  always @* begin
    st_d    = st_q;
    sw_d    = sw_q;
    si_d    = si_q;
    p_d     = p_q;
    wd_d    = wd_q;
    wa_d    = wa_q;
    last_d  = last_q;
    hole_d  = hole_q;
    holei_d = holei_q;
    oout_d  = oout_q;
    o_d     = o_q;
    oslot_d = oslot_q;
    cct_re  = 1'b0;
    cct_ra  = {sw_q, si_q};
    cct_we  = 1'b0;
    cct_wa  = {sw_q, wa_q};
    cct_wd  = wd_q;
    n_inc   = 1'b0;
    n_dec   = 1'b0;
    done    = 1'b0;
    smerge  = 1'b0;
    case (st_q)
      S_IDLE: if (pick_v) begin
        sw_d = pick_w;
        st_d = ins_q[pick_w] ? S_INS_P : S_REB_H2;
      end
      // insert: the new path sits at slot n
      S_INS_P: begin
        cct_re = 1'b1;
        cct_ra = {sw_q, n_sw_s};
        st_d   = S_INS_P2;
      end
      S_INS_P2: begin
        p_d  = cct_rd;
        si_d = {SB{1'b0}};
        if (n_sw == {NB{1'b0}}) begin
          n_inc = 1'b1;
          st_d  = reb_q[sw_q] ? S_REB_H2 : S_DONE;
        end else begin
          st_d = S_INS_RD;
        end
      end
      S_INS_RD: begin
        cct_re = 1'b1;
        st_d   = S_INS_CMP;
      end
      S_INS_CMP: begin
        if (rd_eq_p) begin
          wd_d = {1'b1, p_q[PW-2:LANES], cct_rd[LANES-1:0] | p_q[LANES-1:0]};
          wa_d = si_q;
          st_d = S_INS_WR;
        end else if ({1'b0, si_q} + 1'b1 == n_sw) begin
          n_inc = 1'b1;
          st_d  = reb_q[sw_q] ? S_REB_H2 : S_DONE;
        end else begin
          si_d = si_q + 1'b1;
          st_d = S_INS_RD;
        end
      end
      S_INS_WR: if (port_cct_free) begin
        cct_we = 1'b1;
        smerge = 1'b1;
        st_d   = reb_q[sw_q] ? S_REB_H2 : S_DONE;
      end
      // rebalance: HCT2 becomes the maximum of HCT2 and the CCT
      S_REB_H2: st_d = S_REB_H2D;           // steal the HCT2 read port
      S_REB_H2D: begin
        p_d    = h2;
        si_d   = {SB{1'b0}};
        hole_d = 1'b0;
        oout_d = 1'b0;
        st_d   = S_REB_RD;
      end
      S_REB_RD: begin
        cct_re = 1'b1;
        st_d   = S_REB_CMP;
      end
      S_REB_CMP: begin
        st_d = S_REB_RD;
        if (!p_q[PW-1]) begin
          p_d     = cct_rd;
          hole_d  = 1'b1;
          holei_d = si_q;
        end else if (rd_gt_p) begin
          p_d  = cct_rd;
          wd_d = p_q;
          wa_d = si_q;
          st_d = S_REB_WR;
          if (!oout_q && !hole_q) begin
            // p is still the original HCT2 (a hole means p started empty)
            oout_d  = 1'b1;
            o_d     = p_q;
            oslot_d = si_q;
          end
        end else if (rd_eq_p) begin
          p_d     = {1'b1, p_q[PW-2:LANES], p_q[LANES-1:0] | cct_rd[LANES-1:0]};
          hole_d  = 1'b1;
          holei_d = si_q;
          smerge  = 1'b1;
        end else if (oout_q && rd_eq_o) begin
          wd_d    = {1'b1, o_q[PW-2:LANES], o_q[LANES-1:0] | cct_rd[LANES-1:0]};
          wa_d    = oslot_q;
          hole_d  = 1'b1;
          holei_d = si_q;
          smerge  = 1'b1;
          st_d    = S_REB_WR;
        end
        if (si_q == top_s) begin
          last_d = (p_q[PW-1] && rd_gt_p) ? p_q : cct_rd;
          if (st_d == S_REB_RD) st_d = S_REB_FILL;
        end else if (st_d == S_REB_RD) begin
          si_d = si_q + 1'b1;
        end
      end
      S_REB_WR: if (port_cct_free) begin
        cct_we = 1'b1;
        if (si_q == top_s) begin
          st_d = S_REB_FILL;
        end else begin
          si_d = si_q + 1'b1;
          st_d = S_REB_RD;
        end
      end
      S_REB_FILL: begin
        if (!hole_q) begin
          st_d = S_REB_H2WR;
        end else if (holei_q == top_s) begin
          n_dec = 1'b1;
          st_d  = S_REB_H2WR;
        end else if (port_cct_free) begin
          cct_we = 1'b1;
          cct_wa = {sw_q, holei_q};
          cct_wd = last_q;
          n_dec  = 1'b1;
          st_d   = S_REB_H2WR;
        end
      end
      S_REB_H2WR: st_d = S_DONE;  // when HCT2's port is free: see st_q
      S_DONE: begin
        done = 1'b1;
        st_d = S_IDLE;
      end
      default: st_d = S_IDLE;
    endcase
    if (push) begin
      cct_we = 1'b1;
      cct_wa = {mb_warp_i, n_mb[SB-1:0]};
      cct_wd = s3;
    end
  end
  assign steal  = st_q == S_REB_H2;
  assign sw     = sw_q;
  assign busy_o = st_q != S_IDLE;

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
      h2_we = 1'b1;
    end else if (disp_go) begin
      h1_we = 1'b1;
      h1_wa = disp_warp_i;
      h1_wd = {1'b1, 8'd0, disp_pc_i, disp_mask_i};
      h2_we = 1'b1;
      h2_wa = disp_warp_i;
      h2_wd = {PW{1'b0}};
    end else if (st_q == S_REB_H2WR) begin
      h2_we = 1'b1;
      h2_wa = sw_q;
      h2_wd = p_q;
    end
  end

  // Peak: the CCT size once a warp's paths are settled again.
  reg             peak_v_q;
  reg [NB-1:0]    peak_q;
  always @(posedge clk_i) begin
    if (rst_i) peak_v_q <= 1'b0;
    else peak_v_q <= done;
    peak_q <= n_sw;
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
      st_q     <= (st_q == S_REB_H2WR && !port_h2_free) ? S_REB_H2WR : st_d;
      if (st_q == S_IDLE && pick_v) rr_q <= pick_w;
    end
    sw_q    <= sw_d;
    si_q    <= si_d;
    p_q     <= p_d;
    wd_q    <= wd_d;
    wa_q    <= wa_d;
    last_q  <= last_d;
    hole_q  <= hole_d;
    holei_q <= holei_d;
    oout_q  <= oout_d;
    o_q     <= o_d;
    oslot_q <= oslot_d;
  end

  // Per-warp job flags as WARPS-wide vectors (one-hot of the warp each
  // event concerns). A dispatch clears its warp's flags and count; the
  // update sets its warp's jobs; the sorter ends them (done wins over an
  // update of the same warp: that update saw the job still pending).
  // settle: set when HCT2 is written at the end of a rebalance; the job
  // ends one cycle after, so that no instruction validates against a
  // read that missed the write.
`include "simty_warp_onehot.vh"
  wire [WARPS-1:0] d_at   = `SIMTY_AT(disp_go, disp_warp_i);
  wire [WARPS-1:0] m_at   = `SIMTY_AT(commit_i, mb_warp_i);
  wire [WARPS-1:0] s_done = `SIMTY_AT(done, sw_q);
  wire [WARPS-1:0] s_h2wr = `SIMTY_AT(st_q == S_REB_H2WR, sw_q);
  always @(posedge clk_i) begin
    if (rst_i) begin
      ins_q    <= {WARPS{1'b0}};
      reb_q    <= {WARPS{1'b0}};
      settle_q <= {WARPS{1'b0}};
    end else begin
      ins_q    <= ((ins_q & ~m_at) | (m_at & {WARPS{push}})) & ~s_done & ~d_at;
      reb_q    <= ((reb_q & ~m_at) | (m_at & {WARPS{rebal}})) & ~s_done & ~d_at;
      settle_q <= s_h2wr & (settle_q | {WARPS{port_h2_free}}) & ~d_at;
    end
  end
  integer nw;
  always @(posedge clk_i) begin
    if (rst_i) begin
      for (nw = 0; nw < WARPS; nw = nw + 1) n_q[nw] <= {NB{1'b0}};
    end else begin
      if (st_q != S_IDLE && n_inc) n_q[sw_q] <= n_sw + 1'b1;
      if (st_q != S_IDLE && n_dec) n_q[sw_q] <= n_sw - 1'b1;
      if (disp_go) n_q[disp_warp_i] <= {NB{1'b0}};
    end
  end

  assign blocked_o = ins_q | reb_q | settle_q;
  // Merges: the update's and the sorter's.
  assign merges_o  = commit_i ? incnt - cnt : 2'd0;
  assign smerge_o  = smerge;
`ifdef SIMTY_DEBUG_PATHS
  always @(posedge clk_i) begin
    if (commit_i && (((x_mask_i & y_mask_i) & {LANES{xv && yv}}) != 0 ||
                     ((x_mask_i & h_mask) & {LANES{xv && hv}}) != 0 ||
                     ((y_mask_i & h_mask) & {LANES{yv && hv}}) != 0))
      $display("%t overlap w=%0d pc=%h X=%h Y=%h H=%h n=%0d", $time, mb_warp_i, mb_pc_i,
               {xv, x_depth_i, x_pc_i, x_mask_i}, {yv, y_depth_i, y_pc_i, y_mask_i},
               H, n_mb);
    if (st_q == S_REB_CMP && p_q[PW-1] && (p_q[LANES-1:0] & cct_rd[LANES-1:0]) != 0)
      $display("%t sorter overlap w=%0d si=%0d p=%h e=%h", $time, sw_q, si_q, p_q, cct_rd);
    if (st_q == S_INS_CMP && (p_q[LANES-1:0] & cct_rd[LANES-1:0]) != 0)
      $display("%t ins overlap w=%0d si=%0d p=%h e=%h", $time, sw_q, si_q, p_q, cct_rd);
  end
`endif
endmodule
