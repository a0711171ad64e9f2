// SPDX-License-Identifier: Apache-2.0
// simty_alu: execute stage, one 32-bit RV32I ALU per lane. Also yields the
// branch comparison flags (from the subtraction) and the memory / jalr
// address (the add).
`default_nettype none

module simty_alu (
  input  wire [3:0]  op_i,
  input  wire [31:0] a_i,
  input  wire [31:0] b_i,
  output reg  [31:0] res_o,
  output wire        eq_o,
  output wire        lt_o,
  output wire        ltu_o
);

  wire        sub  = op_i != 4'd0;          // every compare subtracts
  wire [32:0] diff = {1'b0, a_i} + {1'b0, sub ? ~b_i : b_i} + {32'd0, sub};
  // a - b = a + ~b + 1: the carry out is set when a >= b (unsigned)
  assign ltu_o = !diff[32];
  assign lt_o  = (a_i[31] != b_i[31]) ? a_i[31] : diff[31];
  assign eq_o  = diff[31:0] == 32'd0;   // branches subtract

  // One right shifter serves all three shifts: a left shift is a right
  // shift of the bit-reversed operand, reversed back (simty_rev32).
  wire        left = op_i == 4'd2;
  wire [4:0]  sh   = b_i[4:0];
  wire [31:0] a_rev, s_rev;
  simty_rev32 u_rev_in (.x_i (a_i), .y_o (a_rev));
  wire [31:0] s_in  = left ? a_rev : a_i;
  wire        fill  = op_i == 4'd7 && a_i[31];
  // verilator lint_off UNUSEDSIGNAL
  wire [32:0] s_full = $signed({fill, s_in}) >>> sh;   // bit 32: fill only
  // verilator lint_on UNUSEDSIGNAL
  wire [31:0] s_out = s_full[31:0];
  simty_rev32 u_rev_out (.x_i (s_out), .y_o (s_rev));

  // Result: AND-OR of one-hot groups (cheaper than a wide case mux).
  // Logic ops in one LUT per bit: op 5 xor, 8 or, 9 and.
  wire is_add   = op_i == 4'd0 || op_i == 4'd1 || op_i > 4'd9;
  wire is_shl   = left;
  wire is_shr   = op_i == 4'd6 || op_i == 4'd7;
  wire is_logic = op_i == 4'd5 || op_i == 4'd8 || op_i == 4'd9;
  wire is_slt   = op_i == 4'd3;
  wire is_sltu  = op_i == 4'd4;
  wire [31:0] lg = op_i[3] ? (op_i[0] ? (a_i & b_i) : (a_i | b_i)) : (a_i ^ b_i);
  always @* begin
    res_o = ({32{is_add}} & diff[31:0]) | ({32{is_shl}} & s_rev) |
            ({32{is_shr}} & s_out) | ({32{is_logic}} & lg);
    res_o[0] = res_o[0] | (is_slt && lt_o) | (is_sltu && ltu_o);
  end

endmodule
