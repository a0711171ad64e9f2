// simty_vclass: value-structure classifier for the uniform / affine vector
// counters (docs/architecture.md section 6, 11 and 12), on the write-back
// stage's previous write. Affine test without division: with leader l0,
// offsets k_i = i - l0 and differences D_i = v_i - v_l0, pick the follower
// m whose offset has the fewest trailing zeros u (k_m = 2^u * p, p odd). A
// stride s exists iff D_m is a multiple of 2^u and p * D_i == k_i * (D_m >>
// u) (mod 2^32) for every written lane: multiplying by the odd p is
// invertible, and every k_i has at least u trailing zeros.
`default_nettype none

module simty_vclass #(
  parameter integer LANES = 4,
  parameter integer LANE_BITS = 2
) (
  input  wire                valid_i,
  input  wire [LANES-1:0]    mask_i,
  input  wire [32*LANES-1:0] data_i,
  output reg                 uniform_o,
  output reg                 affine_o
);

  integer i;
  reg             found, fm;
  reg [31:0]      l0, m, k, km, tz, tzm, u, p;
  reg [31:0]      v0, d, dm, dmp;
  reg [31:0]      cnt;
  reg             uni, aff;
  always @* begin
    found = 1'b0;
    l0    = 32'd0;
    cnt   = 32'd0;
    for (i = LANES - 1; i >= 0; i = i - 1) begin
      if (mask_i[i]) begin
        l0 = i;
        found = 1'b1;
      end
    end
    for (i = 0; i < LANES; i = i + 1) cnt = cnt + {31'd0, mask_i[i]};
    v0  = data_i[32*l0[LANE_BITS-1:0] +: 32];
    uni = 1'b1;
    fm  = 1'b0;
    m   = 32'd0;
    tzm = 32'd0;
    for (i = 0; i < LANES; i = i + 1) begin
      if (mask_i[i] && data_i[32*i +: 32] != v0) uni = 1'b0;
      k = i - l0;
      tz = 32'd0;
      if (k[0] == 1'b0) tz = 32'd1;
      if (k[1:0] == 2'b00) tz = 32'd2;
      if (k[2:0] == 3'b000) tz = 32'd3;
      if (k[3:0] == 4'b0000) tz = 32'd4;
      if (mask_i[i] && i > l0 && (!fm || tz < tzm)) begin
        fm  = 1'b1;
        m   = i;
        tzm = tz;
      end
    end
    u   = tzm;
    km  = m - l0;
    p   = km >> u;
    dm  = data_i[32*m[LANE_BITS-1:0] +: 32] - v0;
    dmp = dm >> u;
    aff = (dm & ((32'd1 << u) - 32'd1)) == 32'd0;
    for (i = 0; i < LANES; i = i + 1) begin
      d = data_i[32*i +: 32] - v0;
      k = i - l0;
      if (mask_i[i] && i > l0 && p * d != k * dmp) aff = 1'b0;
    end
    uniform_o = valid_i && found && cnt >= 32'd2 && uni;
    affine_o  = valid_i && found && cnt >= 32'd2 && !uni && aff;
  end

endmodule
