// SPDX-License-Identifier: Apache-2.0
// simty_vclass: value-structure classifier for the uniform / affine vector
// counters (docs/architecture.md section 6, 11 and 12), on the write-back
// stage's previous write.
//
// Affine test without division (exact, mod 2^32): with leader l0 (lowest
// written lane), offsets k_i = i - l0 and D_i = v_i - v_l0, pick the
// written follower m whose offset has the fewest trailing zeros u
// (k_m = 2^u * p, p odd). A stride exists iff D_m is a multiple of 2^u and
// p * D_i == k_i * (D_m >> u) for every written lane (p is invertible and
// every k_i has at least u trailing zeros). Rearranged per lane,
//   w_i = p * v_i - i * dm,   dm = D_m >> u,
// the test is "w_i equal for all written lanes" (w_l0 = p*v_l0 - l0*dm),
// the same shape as the uniform test: per lane one multiply by the small
// odd p (LANE_BITS-1 adds) and one by the constant i, no 32-bit multiplier.
// Uniform is the special case D_m == 0.
//
// Timing: everything that depends on the mask only (the leader l0, the
// follower m, u and p) is computed a stage early, from the gather stage's
// mask (`early_mask_i`, the same write one cycle before), and registered;
// the outcome is registered too. So the path from the write-back data is
// the value arithmetic alone, not the priority encoders before it nor the
// counter after it. The arithmetic itself takes two stages: the per-lane
// w_i are registered (stage A: leader and follower values, their
// difference, dm, the small multiplies), then compared (stage B). The
// counters see a write's class three cycles after its write-back;
// busy_o covers stage A, so the core is idle only once no class is
// still on its way (as before: the outcome register's count lands the
// cycle after).
//
// VCLASS = 0 builds none of it: uniform_o, affine_o and busy_o are 0, so
// the uniform_vectors and affine_vectors counters stay at zero (they
// still exist and read 0) and synthesis removes their increment logic.
`default_nettype none

module simty_vclass #(
  parameter integer LANES = 4,
  parameter integer LANE_BITS = 2,
  parameter integer VCLASS = 1     // 0: no classifier, outputs 0
) (
  input  wire                clk_i,
  input  wire                rst_i,
  input  wire [LANES-1:0]    early_mask_i,  // mask_i, one cycle early
  input  wire                valid_i,
  input  wire [LANES-1:0]    mask_i,
  input  wire [32*LANES-1:0] data_i,
  output wire                uniform_o,
  output wire                affine_o,
  output wire                busy_o         // a write in stage A
);
  genvar l;
  generate
  if (VCLASS != 0) begin : gen_vclass
    localparam integer TB = (LANE_BITS > 1) ? $clog2(LANE_BITS + 1) : 1;

    // Leader: the lowest written lane (of the early mask).
    reg [LANE_BITS-1:0] l0_e;
    integer i;
    always @* begin
      l0_e = {LANE_BITS{1'b0}};
      for (i = LANES - 1; i >= 0; i = i - 1)
        if (early_mask_i[i]) l0_e = i[LANE_BITS-1:0];
    end

    // Follower m with the fewest trailing zeros (tz) in its offset k.
    reg                 fm_e;
    reg [LANE_BITS-1:0] m_e, k;
    reg [TB-1:0]        tzm_e, tz;
    integer j, t;
    always @* begin
      fm_e  = 1'b0;
      m_e   = {LANE_BITS{1'b0}};
      tzm_e = {TB{1'b0}};
      for (j = 0; j < LANES; j = j + 1) begin
        k  = j[LANE_BITS-1:0] - l0_e;
        tz = {TB{1'b0}};
        for (t = LANE_BITS - 1; t >= 0; t = t - 1)
          if (k[t]) tz = t[TB-1:0];
        if (early_mask_i[j] && j[LANE_BITS-1:0] > l0_e && (!fm_e || tz < tzm_e)) begin
          fm_e  = 1'b1;
          m_e   = j[LANE_BITS-1:0];
          tzm_e = tz;
        end
      end
    end
    wire [LANE_BITS-1:0] km_e = m_e - l0_e;

    // The mask-only values, registered: they describe mask_i this cycle.
    reg                 fm;
    reg [LANE_BITS-1:0] l0, m, p;
    reg [TB-1:0]        tzm;
    always @(posedge clk_i) begin
      fm  <= fm_e;
      l0  <= l0_e;
      m   <= m_e;
      tzm <= tzm_e;
      p   <= km_e >> tzm_e;
    end

    wire [31:0] v0  = data_i[32*l0 +: 32];
    wire [31:0] vm  = data_i[32*m +: 32];
    wire [31:0] dfm = vm - v0;
    wire [31:0] dm  = dfm >> tzm;
    wire        dm_ok = (dfm & ((32'd1 << tzm) - 32'd1)) == 32'd0;

    // Per lane w_i = p * v_i - i * dm.
    wire [32*LANES-1:0] w;
    for (l = 0; l < LANES; l = l + 1) begin : gen_lane
      wire [31:0] v = data_i[32*l +: 32];
      reg  [31:0] pv, idm;
      integer b;
      always @* begin
        pv = v;                         // p is odd
        for (b = 1; b < LANE_BITS; b = b + 1)
          if (p[b]) pv = pv + (v << b);
        idm = 32'd0;
        for (b = 0; b < LANE_BITS; b = b + 1)
          if (((l >> b) & 1) != 0) idm = idm + (dm << b);
      end
      assign w[32*l +: 32] = pv - idm;
    end

    // Stage A's registers: the per-lane w_i and what the comparison needs.
    reg [32*LANES-1:0]  w_q;
    reg [LANES-1:0]     mask_q;
    reg [LANE_BITS-1:0] l0_q;
    reg                 va_q, ok_q, uni_q;
    always @(posedge clk_i) begin
      if (rst_i) va_q <= 1'b0;
      else va_q <= valid_i && fm;
      w_q    <= w;
      mask_q <= mask_i;
      l0_q   <= l0;
      ok_q   <= dm_ok;
      uni_q  <= dfm == 32'd0;
    end
    assign busy_o = va_q;

    // All written w_i equal: the affine relation holds. It holds with
    // D_m == 0 exactly when the written values are all equal (p is odd,
    // so p * v_i equal means v_i equal): the uniform test comes for free.
    wire [31:0] w0 = w_q[32*l0_q +: 32];
    reg aff;
    integer q;
    always @* begin
      aff = ok_q;
      for (q = 0; q < LANES; q = q + 1)
        if (mask_q[q] && w_q[32*q +: 32] != w0) aff = 1'b0;
    end

    // fm: a second written lane exists (two or more lanes wrote).
    reg uniform_q, affine_q;
    always @(posedge clk_i) begin
      if (rst_i) begin
        uniform_q <= 1'b0;
        affine_q  <= 1'b0;
      end else begin
        uniform_q <= va_q && aff && uni_q;
        affine_q  <= va_q && aff && !uni_q;
      end
    end
    assign uniform_o = uniform_q;
    assign affine_o  = affine_q;
  end else begin : gen_no_vclass
    assign uniform_o = 1'b0;
    assign affine_o  = 1'b0;
    assign busy_o    = 1'b0;
    /* verilator lint_off UNUSEDSIGNAL */
    wire unused = &{1'b0, clk_i, rst_i, early_mask_i, valid_i, mask_i, data_i};
    /* verilator lint_on UNUSEDSIGNAL */
  end
  endgenerate

endmodule
