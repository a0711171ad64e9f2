// simty_gather: gather stage. Distributes the words of the line read from
// data memory to the lanes (any permutation, broadcast of one word) and
// extracts and extends bytes and halfwords.
`default_nettype none

module simty_gather #(
  parameter integer LANES = 4,
  parameter integer LS = 4                 // line shift: log2(4 * LANES)
) (
  input  wire [32*LANES-1:0] line_i,
  input  wire [LS*LANES-1:0] off_i,        // byte offset in the line
  input  wire [1:0]          size_i,
  input  wire                uns_i,
  output reg  [32*LANES-1:0] data_o
);

  integer l;
  reg [LS-1:0] off;
  reg [31:0]   word, off32;
  // verilator lint_off UNUSEDSIGNAL
  reg [31:0]   sh;            // only its low half feeds sub-word loads
  // verilator lint_on UNUSEDSIGNAL
  always @* begin
    for (l = 0; l < LANES; l = l + 1) begin
      off  = off_i[LS*l +: LS];
      off32 = {{(32-LS){1'b0}}, off};
      word  = line_i[32*(off32 >> 2) +: 32];
      sh   = word >> {off[1:0], 3'b000};
      case (size_i)
        2'd0: data_o[32*l +: 32] = {{24{!uns_i && sh[7]}}, sh[7:0]};
        2'd1: data_o[32*l +: 32] = {{16{!uns_i && sh[15]}}, sh[15:0]};
        default: data_o[32*l +: 32] = word;
      endcase
    end
  end

endmodule
