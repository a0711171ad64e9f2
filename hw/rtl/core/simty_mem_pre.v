// SPDX-License-Identifier: Apache-2.0
// simty_mem_pre: the per-lane half of the memory arbiter, computed in EX
// from the memory address adders' sums (simty_core: rs1 + immediate per
// lane, not the ALU's result) and registered into MB, where simty_mem only
// selects with the leader: for every lane its alignment, range and stack
// guard checks, whether its word is the console's and whether it is in
// the stack area, and for every pair of lanes whether their physical
// addresses share a line (with the rotate crossbar: whether one
// transaction can serve both, below). The leader (the lowest active lane,
// from HCT1's mask in MB) then picks a row of precomputed bits instead
// of a 32-bit address that every lane compares against.
//
// Stacks (docs/architecture.md section 3, "Stacks"): the area is the top
// N << s bytes of DATA (N = WARPS * LANES, s = stack_log2; DATA_SIZE a
// power of two, so the area is aligned to its size). Logical offset
// (region r, word w, byte b) in it is physical word w * N + h, h = ~r the
// region's hardware thread. A lane outside its own stack faults (ovf_o),
// so a stack lane that does not fault has r = ~h: its physical word in
// the line is its own lane number and its physical line is
// {area bits, w, warp}, a 2:1 multiplexer per line bit on "in the area"
// (bits [s + HB, DSB) of the address all set: an AND of a few bits) with
// the launch's masks. That physical line (pline_o) is what the lane-pair
// compares see, and what MB's leader picks for the transaction's address.
//
// Crossbar kind (XBAR, docs/architecture.md 3, "Crossbar kind"): with the
// rotate crossbar (XBAR = 1) a lane l is served with leader k only if its
// word of the line w_l is the leader's, w_k (broadcast), or its rotation,
// w_l - l == w_k - k (mod LANES). Both are relations between two lanes,
// so they fold into the lane-pair bits: same_o[k][l] is "same line, and
// same word or same rotation", and MB's served set stays one row select
// by the leader (simty_mem and the branch unit's copy alike). Per lane
// its word (pword_o: the lane number in the stack area, else address bits
// [2, LS)) and its rotation (prot_o: w_l - l) go to MB too, where the
// leader's pick steers the store rotator and the load gather.
//
// Indirect jumps (jalr_i): the adders' sum is the jump target (rs1 + imm),
// and the lane-pair bits say instead whether two lanes jump to the same
// target (bits [1, 32) equal: a target's bit 0 is dropped). The line
// compare serves both: for a jalr no lane is taken as a stack lane, so
// its physical line is its target's line bits, and the pair's bits below
// the line ([1, LS)) are compared besides. The leader's row of the bits is
// then the set of lanes that jump with it (the branch unit's served set),
// so no 32-bit target compare waits for the leader in MB.
`default_nettype none

module simty_mem_pre #(
  parameter integer WARPS = 4,
  parameter integer LANES = 4,
  parameter integer WARP_BITS = 2,
  parameter [31:0]  DATA_SIZE = 32'h0010_0000,
  parameter integer XBAR = 0,                // 0 full, 1 rotate
  parameter integer LANE_BITS = (LANES > 1) ? $clog2(LANES) : 1
) (
  input  wire                     clk_i,
  input  wire [4:0]               stack_log2_i,  // launch constant
  input  wire [WARP_BITS-1:0]     warp_i,
  input  wire                     store_i,
  input  wire                     jalr_i,    // addr_i are jump targets
  input  wire [1:0]               size_i,
  input  wire [32*LANES-1:0]      addr_i,
  output reg  [LANES-1:0]         mis_o,     // misaligned for size_i
  output reg  [LANES-1:0]         bad_o,     // misaligned, out of range or
                                             // in another thread's stack
  output reg  [LANES-1:0]         ovf_o,     // in another thread's stack
  output reg  [LANES-1:0]         con_o,     // the console's word
  // bit LANES*k + l: lanes k and l address the same physical line (for
  // a jalr: jump to the same target)
  output reg  [LANES*LANES-1:0]   same_o,
  // per lane its physical address's line bits (bits [LS, 32); below LS:
  // 0), for MB's transaction address
  output reg  [32*LANES-1:0]      pline_o,
  // per lane its word in its physical line and its rotation (word - lane)
  // mod LANES (WI bits each; 0 with one lane)
  output reg  [LANE_BITS*LANES-1:0] pword_o,
  output reg  [LANE_BITS*LANES-1:0] prot_o
);
// The contract include declares every constant; each block uses a few.
// verilator lint_off UNUSEDPARAM
`include "simty_arch.vh"
// verilator lint_on UNUSEDPARAM

  localparam integer LB2 = (LANES > 1) ? $clog2(LANES) : 0;
  localparam integer WB2 = (WARPS > 1) ? $clog2(WARPS) : 0;
  localparam integer HB  = LB2 + WB2;          // log2(N)
  localparam integer LINE_SHIFT = 2 + LB2;
  localparam integer DSB = $clog2(DATA_SIZE);   // DATA_SIZE = 2^DSB
  // Range checks on aligned addresses only (a misaligned lane faults as
  // misaligned whatever its range): an aligned access of any size is in
  // DATA iff its first byte is, and in CONSOLE iff its word is. DATA is a
  // power-of-two size aligned to its size, so "in DATA" is an equality of
  // the bits above DATA_SIZE with the base's (a LUT tree, no magnitude
  // compare), and the console check a 30-bit equality.
  localparam [31:0] DB = SIMTY_DATA_BASE;
  localparam [31:0] CA = SIMTY_CONSOLE_ADDR;
  localparam [31:0] DMASK = (32'd1 << DSB) - 32'd1;

  generate
    if ((DATA_SIZE & (DATA_SIZE - 1)) != 0 || DATA_SIZE > 32'h0100_0000 ||
        (DB & DMASK) != 32'd0)
      begin : data_size_must_be_a_power_of_two_up_to_16_MiB_base_aligned
        simty_mem_pre_bad_data_size u_error ();
      end
  endgenerate

  // Launch masks, registered from stack_log2_i (stable while a launch
  // runs; the first access comes many cycles after it is set). Only the
  // bits [SMIN, DSB) can be fields of the area (s >= SMIN; a launch with
  // s + log2(N) > DSB is refused), so only those are registers:
  //   sdec  bit s (one-hot)
  //   regf  bits [s, s + HB): the region field
  //   above bits [s + HB, 32)
  localparam integer SMIN = 6;                    // SIMTY_STACK_LOG2_MIN
  localparam integer WLO  = SMIN;
  localparam integer WHI  = (DSB > SMIN) ? DSB : SMIN + 1;   // [WLO, WHI)
  reg  [WHI-1:WLO] sdec_q, regf_q, above_q;
  wire [31:0] s32 = {27'd0, stack_log2_i};
  integer q;
  always @(posedge clk_i)
    for (q = WLO; q < WHI; q = q + 1) begin
      sdec_q[q]  <= q == s32;
      regf_q[q]  <= q >= s32 && q < s32 + HB;
      above_q[q] <= q >= s32 + HB;
    end
  wire [31:0] sdec, regf, above;
  generate
    if (WHI < 32) begin : gen_hi
      assign sdec[31:WHI]  = {(32-WHI){1'b0}};
      assign regf[31:WHI]  = {(32-WHI){1'b0}};
      assign above[31:WHI] = {(32-WHI){1'b1}};
    end
  endgenerate
  assign sdec[WHI-1:0]  = {sdec_q, {WLO{1'b0}}};
  assign regf[WHI-1:0]  = {regf_q, {WLO{1'b0}}};
  assign above[WHI-1:0] = {above_q, {WLO{1'b0}}};

  // The region field of each lane's own stack is ~h << s, h = {warp,
  // lane}: the warp's part (~warp << (s + LB2)), one for all lanes, and
  // each lane's constant part (~lane << s), a few bits of the one-hot s.
  reg [31:0] own_w, nl;
  reg [32*LANES-1:0] own_l;
  integer l, k, j, p;
  always @* begin
    own_w = 32'd0;
    for (j = 0; j < WB2; j = j + 1)
      for (p = WLO + LB2 + j; p < WHI; p = p + 1)
        if (!warp_i[j]) own_w[p] = own_w[p] | sdec[p - LB2 - j];
    own_l = {32*LANES{1'b0}};
    for (l = 0; l < LANES; l = l + 1) begin
      nl = ~l;
      for (j = 0; j < LB2; j = j + 1)
        for (p = WLO + j; p < WHI; p = p + 1)
          if (nl[j]) own_l[32*l + p] = own_l[32*l + p] | sdec[p - j];
    end
  end

  localparam [31:0] LMASK = LANES - 1;
  localparam integer LB = LANE_BITS;
  reg [31:0] a, pl;
  reg [LB-1:0] wl, dl;
  reg        in_data, area, parea, stk;
  always @* begin
    same_o = {LANES*LANES{1'b0}};
    for (l = 0; l < LANES; l = l + 1) begin
      a        = addr_i[32*l +: 32];
      mis_o[l] = (size_i == 2'd1 && a[0]) || (size_i[1] && a[1:0] != 2'd0);
      con_o[l] = a[31:2] == CA[31:2];
      in_data  = ((a ^ DB) & ~DMASK) == 32'd0;
      // Every bit of [s + HB, DSB) set: in the area if in DATA. The
      // physical line takes this alone (a lane outside DATA faults, or is
      // a console store, whose line is compared only with other console
      // lanes', mapped alike), so it does not wait for the range compare.
      area     = ((a | ~above) & DMASK) == DMASK;
      stk      = in_data && area;
      ovf_o[l] = stk &&
                 ((a ^ (own_w | own_l[32*l +: 32])) & regf) != 32'd0;
      bad_o[l] = mis_o[l] || ovf_o[l] || !(in_data || (store_i && con_o[l]));
      // Physical line bits: above the area's fields the address's own;
      // [HB + 2, s + HB) the word field a[s-1:2]; [LS, HB + 2) the warp.
      // A jump target is never mapped (parea).
      parea = area && !jalr_i;
      pl = 32'd0;
      for (p = LINE_SHIFT; p < 32; p = p + 1)
        if (!parea || above[p]) pl[p] = a[p];
      for (p = HB + 2; p < 32; p = p + 1)
        if (parea && !above[p]) pl[p] = a[p - HB];
      for (p = LINE_SHIFT; p < HB + 2; p = p + 1)
        if (parea) pl[p] = warp_i[p - LINE_SHIFT];
      pline_o[32*l +: 32] = pl;
      // the word in the physical line (as the line, on `area` alone: a
      // lane where it differs from stk_o faults) and the rotation
      wl = (parea ? l[LB-1:0] : a[2 +: LB]) & LMASK[LB-1:0];
      dl = wl - l[LB-1:0];
      pword_o[LB*l +: LB] = wl;
      prot_o[LB*l +: LB]  = dl;
    end
    for (l = 0; l < LANES; l = l + 1) begin
      same_o[LANES*l + l] = 1'b1;
      for (k = 0; k < l; k = k + 1) begin
        same_o[LANES*k + l] = pline_o[32*l +: 32] == pline_o[32*k +: 32] &&
          (jalr_i ? addr_i[32*l + 1 +: LINE_SHIFT - 1] ==
                    addr_i[32*k + 1 +: LINE_SHIFT - 1] :
           (XBAR == 0 || pword_o[LB*l +: LB] == pword_o[LB*k +: LB] ||
                         prot_o[LB*l +: LB] == prot_o[LB*k +: LB]));
        same_o[LANES*l + k] = same_o[LANES*k + l];
      end
    end
  end

endmodule

`default_nettype wire
