// SPDX-License-Identifier: Apache-2.0
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

  // Loads are naturally aligned (a misaligned one faults and never
  // writes), so a word load has offset 0 in its word and a halfword load
  // offset 0 or 2: the low byte is the byte at the offset for every size,
  // bits 15:8 are the word's bits 15:8 or 31:24, and only the extension
  // depends on the size.
  integer l;
  reg [LS-1:0] off;
  reg [31:0]   word, off32;
  reg [7:0]    b0, b1;
  reg          ext;
  always @* begin
    for (l = 0; l < LANES; l = l + 1) begin
      off   = off_i[LS*l +: LS];
      off32 = {{(32-LS){1'b0}}, off};
      word  = line_i[32*(off32 >> 2) +: 32];
      case (off[1:0])
        2'd0: b0 = word[7:0];
        2'd1: b0 = word[15:8];
        2'd2: b0 = word[23:16];
        default: b0 = word[31:24];
      endcase
      b1  = off[1] ? word[31:24] : word[15:8];
      ext = !uns_i && (size_i == 2'd0 ? b0[7] : b1[7]);
      data_o[32*l +: 8]       = b0;
      data_o[32*l + 8 +: 8]   = (size_i == 2'd0) ? {8{ext}} : b1;
      data_o[32*l + 16 +: 16] = size_i[1] ? word[31:16] : {16{ext}};
    end
  end

endmodule
