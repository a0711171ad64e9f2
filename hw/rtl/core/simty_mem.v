// SPDX-License-Identifier: Apache-2.0
// simty_mem: memory arbiter and coalescer (membership stage). Checks every
// lane's address (alignment, then range, then the stack guard; the lowest
// bad lane faults), picks the leader (lowest lane) and serves the lanes
// whose physical address lies in the leader's line of LANES words in one
// transaction, merging store bytes with the higher lane winning. The other
// lanes replay (docs/architecture.md 3). A lane in the stack area (and
// in its own stack since it does not fault) is at physical word w * N + h
// (simty_mem_pre): word `lane` of its physical line. simty_mem_pre gives
// every lane's word in its physical line (pword_i), used by both store
// merges.
//
// Crossbar kind (XBAR; docs/architecture.md 3, "Crossbar kind"). The
// served set is the leader's row of same_i under both kinds: with the
// rotate crossbar (XBAR = 1) simty_mem_pre's pair bits already require
// the same word or the same rotation. Then with leader k at word w of
// its line and rotation r = w - k (pword_i, prot_i at the leader), a
// served lane is at word w (broadcast, bc_o) or at its rotation l + r,
// and the store merge is a rotator of the lanes' data by r (LANE_BITS
// stages of 2:1 multiplexers) for every word but w, plus for word w the
// highest broadcast lane per byte (one LANES-wide pick per byte, not one
// per byte of the line). r, w and bc_o go on to the load gather
// (simty_gather), a rotator the other way plus a 2:1 select per lane.
`default_nettype none

module simty_mem #(
  parameter integer LANES = 4,
  parameter integer LANE_BITS = 2,
  parameter integer XBAR = 0                // 0 full, 1 rotate
) (
  input  wire                  valid_i,     // executes this cycle
  input  wire [LANES-1:0]      mask_i,
  // mask_i again from its own flip-flops (simty_membership mask_mem_o):
  // the access's enables and the store merge use it, served_o mask_i.
  input  wire [LANES-1:0]      mask_mem_i,
  input  wire [LANE_BITS-1:0]  leader_i,
  input  wire                  load_i,
  input  wire                  store_i,
  input  wire [1:0]            size_i,
  input  wire [32*LANES-1:0]   addr_i,
  input  wire [32*LANES-1:0]   sdata_i,
  // From simty_mem_pre, a stage earlier: per lane misaligned, bad
  // (misaligned, out of range or in another thread's stack), the
  // console's word, in another thread's stack, its
  // physical line; per lane pair the same physical line (bit LANES*k + l)
  input  wire [LANES-1:0]      mis_i,
  input  wire [LANES-1:0]      bad_i,
  input  wire [LANES-1:0]      con_i,
  input  wire [LANES-1:0]      ovf_i,       // in another thread's stack
  // the leader's picks of simty_mem_pre's values (simty_stage_mb: with
  // HOT_LUTRAM registered from EX, where the leader is already known):
  // its row of the lane-pair bits (bit l: lane l can share its
  // transaction) and its physical line (bits [LS, 32))
  input  wire [LANES-1:0]      lead_same_i,
  input  wire [31:0]           lead_line_i,
  // per lane its word in its physical line (a stack lane's: its lane) and
  // its rotation, word - lane (XBAR = 1 only) (simty_mem_pre)
  input  wire [LANE_BITS*LANES-1:0] pword_i,
  input  wire [LANE_BITS*LANES-1:0] prot_i,
  output reg                   fault_o,
  output reg  [3:0]            fault_cause_o,
  output reg  [LANE_BITS-1:0]  fault_lane_o,
  output reg  [31:0]           fault_addr_o,
  output reg  [LANES-1:0]      served_o,
  output wire                  console_o,   // the transaction is the console
  output wire                  dmem_en_o,
  output wire [31:0]           dmem_addr_o,
  output reg  [4*LANES-1:0]    dmem_be_o,
  output reg  [32*LANES-1:0]   dmem_wdata_o,
  // XBAR = 1, for the load gather: the rotation, the broadcast word, per
  // lane whether it is at the broadcast word (XBAR = 0: zero)
  output wire [LANE_BITS-1:0]  rot_o,
  output wire [LANE_BITS-1:0]  bword_o,
  output wire [LANES-1:0]      bc_o
);
// The contract include declares every constant; each block uses a few.
// verilator lint_off UNUSEDPARAM
`include "simty_arch.vh"
// verilator lint_on UNUSEDPARAM

  localparam integer LINE_SHIFT = 2 + ((LANES > 1) ? $clog2(LANES) : 0);
  wire [LANES-1:0] lead_same = lead_same_i;

  integer l;
  always @* begin
    fault_o       = 1'b0;
    fault_lane_o  = {LANE_BITS{1'b0}};
    fault_addr_o  = 32'd0;
    fault_cause_o = SIMTY_FAULT_NONE;
    served_o      = mask_i & lead_same;
    // Lowest faulting lane: scan down so the lowest one is left.
    for (l = LANES - 1; l >= 0; l = l - 1) begin
      if (mask_i[l] && bad_i[l] && (load_i || store_i)) begin
        fault_o      = 1'b1;
        fault_lane_o = l[LANE_BITS-1:0];
        fault_addr_o = addr_i[32*l +: 32];
        if (mis_i[l]) fault_cause_o = load_i ? SIMTY_FAULT_MISALIGNED_LOAD
                                             : SIMTY_FAULT_MISALIGNED_STORE;
        else if (ovf_i[l]) fault_cause_o = SIMTY_FAULT_STACK_OVERFLOW;
        else fault_cause_o = load_i ? SIMTY_FAULT_LOAD_OUT_OF_RANGE
                                    : SIMTY_FAULT_STORE_OUT_OF_RANGE;
      end
    end
  end

  // Any active lane faulting stops the access: no priority on this path.
  wire any_bad = (mask_mem_i & bad_i) != {LANES{1'b0}};
  wire [LANES-1:0] served_m = mask_mem_i & lead_same;
  assign console_o   = store_i && con_i[leader_i];
  assign dmem_en_o   = valid_i && (load_i || store_i) && !any_bad && !console_o;
  assign dmem_addr_o = (lead_line_i >> LINE_SHIFT) << LINE_SHIFT;

  wire wr = dmem_en_o && store_i;
  localparam integer LB = LANE_BITS;

  // The highest set lane of c (0 when none): its index a bit at a time
  // from the top, bit t set iff a candidate agrees with the bits above t
  // and has bit t set (LANE_BITS steps of OR reductions, not a chain of
  // LANES conditional updates).
  function automatic [LB-1:0] highest(input [LANES-1:0] c);
    integer t, q;
    reg hit;
    begin
      highest = {LB{1'b0}};
      for (t = LB - 1; t >= 0; t = t - 1) begin
        hit = 1'b0;
        for (q = 0; q < LANES; q = q + 1)
          if (((q >> t) & 1) == 1 &&
              (q >> (t + 1)) == ({{(32-LB){1'b0}}, highest} >> (t + 1)))
            hit = hit | c[q];
        highest[t] = hit;
      end
    end
  endfunction
  // per lane: store data, replicated over the word; byte enables in its
  // word (from registered values only: they settle while the leader is
  // picked)
  reg [32*LANES-1:0] sd;
  reg [4*LANES-1:0]  lbe;
  reg [1:0]          sa;
  integer q;
  always @* begin
    for (q = 0; q < LANES; q = q + 1) begin
      sa = addr_i[32*q +: 2];
      case (size_i)
        2'd0: begin sd[32*q +: 32] = {4{sdata_i[32*q +: 8]}};  lbe[4*q +: 4] = 4'b0001 << sa; end
        2'd1: begin sd[32*q +: 32] = {2{sdata_i[32*q +: 16]}}; lbe[4*q +: 4] = sa[1] ? 4'b1100 : 4'b0011; end
        default: begin sd[32*q +: 32] = sdata_i[32*q +: 32]; lbe[4*q +: 4] = 4'b1111; end
      endcase
    end
  end

  generate
    if (XBAR == 0) begin : gen_full
      // Store merge: for every byte of the line, the highest served lane
      // whose store covers it wins (lanes apply in ascending order). Each
      // lane's coverage (its byte enables in its word, its word in the
      // line) depends on registered values only and settles while the
      // leader is picked; per byte the candidates are `served & cover`,
      // and the winner's index is `highest` of them, then one mux by
      // index per byte. A byte no lane covers
      // is not enabled; its data is don't-care.
      reg [4*LANES*LANES-1:0] cov; // bit LANES*(4*j + b) + q: q covers byte b of word j
      integer qc, jq, bq;
      always @* begin
        cov = {4*LANES*LANES{1'b0}};
        for (qc = 0; qc < LANES; qc = qc + 1) begin
          for (jq = 0; jq < LANES; jq = jq + 1)
            for (bq = 0; bq < 4; bq = bq + 1)
              cov[LANES*(4*jq + bq) + qc] = pword_i[LB*qc +: LB] == jq[LB-1:0] &&
                                            lbe[4*qc + bq];
        end
      end
      reg [LANES-1:0] cand;
      reg [LB-1:0]    win;
      integer j, b;   // one set of loop variables per block
      always @* begin
        dmem_be_o    = {4*LANES{1'b0}};
        dmem_wdata_o = {32*LANES{1'b0}};
        for (j = 0; j < LANES; j = j + 1)
          for (b = 0; b < 4; b = b + 1) begin
            cand = served_m & cov[LANES*(4*j + b) +: LANES];
            win  = highest(cand);
            dmem_be_o[4*j + b] = wr && cand != {LANES{1'b0}};
            dmem_wdata_o[32*j + 8*b +: 8] = sd[32*win + 8*b +: 8];
          end
      end
      assign rot_o   = {LB{1'b0}};
      assign bword_o = {LB{1'b0}};
      assign bc_o    = {LANES{1'b0}};
      wire unused_rot = &{1'b0, prot_i};
    end else begin : gen_rotate
      // The leader's word w and rotation r; the lanes at word w.
      wire [LB-1:0] w = pword_i[LB*leader_i +: LB];
      wire [LB-1:0] r = prot_i[LB*leader_i +: LB];
      reg  [LANES-1:0] bc;
      integer qb;
      always @*
        for (qb = 0; qb < LANES; qb = qb + 1)
          bc[qb] = pword_i[LB*qb +: LB] == w;
      assign rot_o   = r;
      assign bword_o = w;
      assign bc_o    = bc;

      // Rotator: line word j takes lane (j - r) mod LANES, its data and
      // its byte enables if it is served at its rotation (not at w: word
      // w is the broadcast's below). Stage s moves by 2^s if r[s].
      localparam integer RW = 32 + 4;        // {enables, data} per lane
      reg [RW*LANES-1:0] rx, ry;
      integer g, s;
      always @* begin
        for (g = 0; g < LANES; g = g + 1)
          rx[RW*g +: RW] = {lbe[4*g +: 4] & {4{served_m[g] && !bc[g]}},
                            sd[32*g +: 32]};
        for (s = 0; s < LB; s = s + 1) begin
          for (g = 0; g < LANES; g = g + 1)
            ry[RW*g +: RW] = r[s] ? rx[RW*((g - (1 << s) + LANES) % LANES) +: RW]
                                  : rx[RW*g +: RW];
          rx = ry;
        end
      end
      // Broadcast word: per byte, the highest served lane at w covering
      // it (`highest`, as in the full merge).
      reg [LANES-1:0] cand;
      reg [LB-1:0]    win;
      reg [3:0]       bbe;
      reg [31:0]      bdata;
      integer b, q2;
      always @* begin
        for (b = 0; b < 4; b = b + 1) begin
          for (q2 = 0; q2 < LANES; q2 = q2 + 1)
            cand[q2] = served_m[q2] && bc[q2] && lbe[4*q2 + b];
          win = highest(cand);
          bbe[b] = cand != {LANES{1'b0}};
          bdata[8*b +: 8] = sd[32*win + 8*b +: 8];
        end
      end
      // Word w takes the broadcast, every other word the rotator.
      integer j;
      always @*
        for (j = 0; j < LANES; j = j + 1)
          if (w == j[LB-1:0]) begin
            dmem_be_o[4*j +: 4]      = {4{wr}} & bbe;
            dmem_wdata_o[32*j +: 32] = bdata;
          end else begin
            dmem_be_o[4*j +: 4]      = {4{wr}} & rx[RW*j + 32 +: 4];
            dmem_wdata_o[32*j +: 32] = rx[RW*j +: 32];
          end
    end
  endgenerate

endmodule
