// SPDX-License-Identifier: Apache-2.0
// simty_mul: one lane's multiplier for the M extension (mul, mulh, mulhsu,
// mulhu), pipelined over two stages so that no stage holds a full 32x32
// multiply and its carry chain.
//
// EX (this module's inputs): each operand is split into a high half of 17
// bits, sign- or zero-extended per the instruction, and a low half of 16
// bits, zero-extended to 17. The four 17x17 signed products are each one
// 18x18 hardware multiplier (ECP5 MULT18X18D through synth_ecp5's
// inference; on the iCE40UP5K synth_ice40 -dsp puts the 16x16 low product
// in an SB_MAC16 and splits the others; LUTs where there are none). The
// products are registered.
// MB (res_o, from the registers): the 64-bit sum
//   ll + (lh + hl) << 16 + hh << 32
// (a 35-bit and a 48-bit three-operand add: bits 15:0 are ll's)
// and the word the instruction asks for. The caller registers res_o into
// GA, in place of the ALU result.
`default_nettype none

module simty_mul (
  input  wire        clk_i,
  input  wire        en_i,     // EX holds a multiply: load the products
  input  wire [31:0] a_i,
  input  wire [31:0] b_i,
  input  wire [1:0]  f3_i,     // 0 mul, 1 mulh, 2 mulhsu, 3 mulhu
  output wire [31:0] res_o     // the MB-stage result
);

  wire a_sig = f3_i == 2'd1 || f3_i == 2'd2;   // mulh, mulhsu
  wire b_sig = f3_i == 2'd1;                   // mulh
  wire signed [16:0] ah = {a_sig & a_i[31], a_i[31:16]};
  wire signed [16:0] bh = {b_sig & b_i[31], b_i[31:16]};
  wire signed [16:0] al = {1'b0, a_i[15:0]};
  wire signed [16:0] bl = {1'b0, b_i[15:0]};

  reg  [31:0]        ll_q;     // unsigned 16x16
  reg  signed [33:0] lh_q, hl_q, hh_q;
  reg                hi_q;     // the high word
  always @(posedge clk_i)
    if (en_i) begin
      ll_q <= a_i[15:0] * b_i[15:0];
      lh_q <= al * bh;
      hl_q <= ah * bl;
      hh_q <= ah * bh;
      hi_q <= f3_i != 2'd0;
    end

  // Bits 15:0 are ll's; above them a 35-bit add of the middle products
  // and one 48-bit three-operand add (no adder over the known zeros).
  wire [34:0] mid = {lh_q[33], lh_q} + {hl_q[33], hl_q};
  wire [47:0] up  = {32'd0, ll_q[31:16]} + {{13{mid[34]}}, mid} +
                    {hh_q[31:0], 16'd0};
  wire [63:0] sum = {up, ll_q[15:0]};
  wire unused_hh = &{1'b0, hh_q[33:32]};   // beyond bit 63
  assign res_o = hi_q ? sum[63:32] : sum[31:0];

endmodule
