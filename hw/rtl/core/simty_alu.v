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
  // shift of the bit-reversed operand, reversed back. The reversal is
  // written as swaps of halves, bytes, nibbles, pairs and bits: pure
  // wiring for synthesis, and a few word operations for Verilator instead
  // of one per bit (docs/performance.md, "Simulation speed").
  function [31:0] rev32(input [31:0] x);
    reg [31:0] t;
    begin
      t = {x[7:0], x[15:8], x[23:16], x[31:24]};
      t = ((t & 32'h0f0f0f0f) << 4) | ((t >> 4) & 32'h0f0f0f0f);
      t = ((t & 32'h33333333) << 2) | ((t >> 2) & 32'h33333333);
      rev32 = ((t & 32'h55555555) << 1) | ((t >> 1) & 32'h55555555);
    end
  endfunction
  wire        left = op_i == 4'd2;
  wire [4:0]  sh   = b_i[4:0];
  wire [31:0] s_in  = left ? rev32(a_i) : a_i;
  wire        fill  = op_i == 4'd7 && a_i[31];
  // verilator lint_off UNUSEDSIGNAL
  wire [32:0] s_full = $signed({fill, s_in}) >>> sh;   // bit 32: fill only
  // verilator lint_on UNUSEDSIGNAL
  wire [31:0] s_out = s_full[31:0];
  wire [31:0] s_rev = rev32(s_out);

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
