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
  assign eq_o  = a_i == b_i;

  wire [4:0] sh = b_i[4:0];
  always @* begin
    case (op_i)
      4'd0, 4'd1: res_o = diff[31:0];
      4'd2: res_o = a_i << sh;
      4'd3: res_o = {31'd0, lt_o};
      4'd4: res_o = {31'd0, ltu_o};
      4'd5: res_o = a_i ^ b_i;
      4'd6: res_o = a_i >> sh;
      4'd7: res_o = $signed(a_i) >>> sh;
      4'd8: res_o = a_i | b_i;
      4'd9: res_o = a_i & b_i;
      default: res_o = diff[31:0];
    endcase
  end

endmodule
