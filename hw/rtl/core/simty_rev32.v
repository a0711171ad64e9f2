// SPDX-License-Identifier: Apache-2.0
// simty_rev32: bit reversal of a word (bit i to bit 31 - i), for the ALU's
// left shift. Written as swaps of halves, bytes, nibbles, pairs and bits:
// pure wiring for synthesis, and a few word operations for Verilator
// instead of one per bit (docs/performance.md, "Simulation speed"). A
// module rather than a function: Verilator 5.0 evaluates a function call
// through stored temporaries, several times the cost of the expression.
`default_nettype none

module simty_rev32 (
  input  wire [31:0] x_i,
  output wire [31:0] y_o
);
  wire [31:0] t1 = {x_i[7:0], x_i[15:8], x_i[23:16], x_i[31:24]};
  wire [31:0] t2 = ((t1 & 32'h0f0f0f0f) << 4) | ((t1 >> 4) & 32'h0f0f0f0f);
  wire [31:0] t3 = ((t2 & 32'h33333333) << 2) | ((t2 >> 2) & 32'h33333333);
  assign y_o = ((t3 & 32'h55555555) << 1) | ((t3 >> 1) & 32'h55555555);
endmodule
