// SPDX-License-Identifier: Apache-2.0
// simty_gather: gather stage. Distributes the words of the line read from
// data memory to the lanes and extracts and extends bytes and halfwords.
// With the full crossbar (XBAR = 0) a lane takes any word (its offset's
// word bits select it: a LANES:1 multiplexer per lane); with the rotate
// crossbar (XBAR = 1; docs/architecture.md 3, "Crossbar kind") lane l
// takes word (l + r) mod LANES of the line rotated by r (LANE_BITS stages
// of 2:1 multiplexers shared by all lanes) or the broadcast word w (one
// LANES:1 multiplexer), a 2:1 select per lane (bc_i; simty_mem).
`default_nettype none

module simty_gather #(
  parameter integer LANES = 4,
  parameter integer LS = 4,                // line shift: log2(4 * LANES)
  parameter integer LANE_BITS = 2,
  parameter integer XBAR = 0               // 0 full, 1 rotate
) (
  input  wire [32*LANES-1:0] line_i,
  input  wire [LS*LANES-1:0] off_i,        // byte offset in the line
  input  wire [1:0]          size_i,
  input  wire                uns_i,
  input  wire [LANE_BITS-1:0] rot_i,       // XBAR = 1: the rotation r
  input  wire [LANE_BITS-1:0] bword_i,     // the broadcast word w
  input  wire [LANES-1:0]    bc_i,         // per lane: takes word w
  output reg  [32*LANES-1:0] data_o
);

  // Loads are naturally aligned (a misaligned one faults and never
  // writes): a word load has offset 0 in its word, a halfword load 0 or
  // 2. So the result's byte k is the line's byte at the offset with its
  // low bits ORed with k (k = 0 for every size, 1 for halfwords and
  // words, 2 and 3 for words), and the sign is bit 7 of the byte at the
  // offset (byte load) or at the offset + 1 (halfword load). Each of
  // those is one multiplexer over the line whose select comes from the
  // registered offset and size; the line's bits then pass through that
  // multiplexer and one fill select only (the line arrives late, from
  // block RAMs spread over the die).
  // With the full crossbar a lane selects its bytes from the whole line
  // (its offset is the byte in the line); with the rotate crossbar from
  // the word it takes (its offset's low two bits are the byte).
  localparam integer SW = (XBAR == 0) ? LS : 2;      // byte select bits
  localparam integer SRC = (XBAR == 0) ? LANES : 1;  // words selected from

  // The bytes each lane selects from: its src_x[32*SRC*l +: 32*SRC]
  wire [32*SRC*LANES-1:0] src_x;
  genvar g;
  generate
    if (XBAR == 0) begin : gen_full
      for (g = 0; g < LANES; g = g + 1) begin : gen_lane
        assign src_x[32*SRC*g +: 32*SRC] = line_i;
      end
      wire unused_rot = &{1'b0, rot_i, bword_i, bc_i};
    end else begin : gen_rotate
      // stage s: lane g takes word g + 2^s if rot_i[s]
      reg [32*LANES-1:0] rx, ry;
      integer gr, s;
      always @* begin
        rx = line_i;
        for (s = 0; s < LANE_BITS; s = s + 1) begin
          for (gr = 0; gr < LANES; gr = gr + 1)
            ry[32*gr +: 32] = rot_i[s] ? rx[32*((gr + (1 << s)) % LANES) +: 32]
                                       : rx[32*gr +: 32];
          rx = ry;
        end
      end
      wire [31:0] bw = line_i[32*bword_i +: 32];
      for (g = 0; g < LANES; g = g + 1) begin : gen_lane
        assign src_x[32*g +: 32] = bc_i[g] ? bw : rx[32*g +: 32];
      end
      // the word bits of the offsets: the rotation and bc_i replace them
      wire unused_off = &{1'b0, off_i};
    end
  endgenerate

  integer l, k;
  reg [SW-1:0]    o, bi, si;
  reg [32*SRC-1:0] src;
  reg [31:0]      bytes;
  reg             msb, ext;
  always @* begin
    for (l = 0; l < LANES; l = l + 1) begin
      o   = off_i[LS*l +: SW];
      src = src_x[32*SRC*l +: 32*SRC];
      for (k = 0; k < 4; k = k + 1) begin
        bi = o | k[SW-1:0];
        bytes[8*k +: 8] = src[8*bi +: 8];
      end
      si  = o | {{(SW-1){1'b0}}, size_i[0]};
      msb = src[8*si + 7];
      ext = !uns_i && msb;
      data_o[32*l +: 8]       = bytes[7:0];
      data_o[32*l + 8 +: 8]   = (size_i == 2'd0) ? {8{ext}} : bytes[15:8];
      data_o[32*l + 16 +: 16] = size_i[1] ? bytes[31:16] : {16{ext}};
    end
  end

endmodule
