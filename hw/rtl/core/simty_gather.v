// SPDX-License-Identifier: Apache-2.0
// simty_gather: gather stage. Distributes the words of the line read from
// data memory to the lanes and places bytes and halfwords at bit 0; the
// extension by sign or zero is applied after WB's register
// (simty_writeback), from the sign given here.
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
  input  wire                half_i,       // a halfword load
  input  wire                uns_i,
  input  wire [LANE_BITS-1:0] rot_i,       // XBAR = 1: the rotation r
  input  wire [LANE_BITS-1:0] bword_i,     // the broadcast word w
  input  wire [LANES-1:0]    bc_i,         // per lane: takes word w
  output reg  [32*LANES-1:0] data_o,       // per lane, not extended
  output reg  [LANES-1:0]    sign_o         // per lane, the extension bit
);

  // Loads are naturally aligned (a misaligned one faults and never
  // writes), so a word load has offset 0 in its word and a halfword load
  // offset 0 or 2: the low byte is the byte at the offset for every size,
  // bits 15:8 are the word's bits 15:8 or 31:24, bits 31:16 the word's,
  // and only the extension depends on the size: data_o is the same for
  // every size, and WB replaces bits 31:8 or 31:16 with sign_o after its
  // register (the sign's fan-out to 24 bits a lane and the size select
  // stay off the path from the data banks). The sign is bit 7 of the byte
  // at the offset
  // (byte load) or at the offset + 1 (halfword load): with the full
  // crossbar it is selected from the whole line by one multiplexer whose
  // select comes from the registered offset and size, in parallel with
  // the word select, not after it (the line arrives late, from block
  // RAMs spread over the die; the byte select after the word select is
  // then the deepest path, two multiplexer levels).
  // The word each lane takes: words_x[32*l +: 32]
  wire [32*LANES-1:0] words_x;
  // The sign byte's index: in the line (full crossbar) or in the lane's
  // word (rotate)
  localparam integer SW = (XBAR == 0) ? LS : 2;
  genvar g;
  generate
    if (XBAR == 0) begin : gen_full
      for (g = 0; g < LANES; g = g + 1) begin : gen_lane
        wire [LS-1:0] o = off_i[LS*g +: LS];
        wire [31:0]   o32 = {{(32-LS){1'b0}}, o};
        assign words_x[32*g +: 32] = line_i[32*(o32 >> 2) +: 32];
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
        assign words_x[32*g +: 32] = bc_i[g] ? bw : rx[32*g +: 32];
      end
      // the word bits of the offsets: the rotation and bc_i replace them
      wire unused_off = &{1'b0, off_i};
    end
  endgenerate

  integer l;
  reg [1:0]    off;
  reg [SW-1:0] si;
  reg [31:0]   word;
  reg [7:0]    b0, b1;
  reg          ext;
  always @* begin
    for (l = 0; l < LANES; l = l + 1) begin
      off   = off_i[LS*l +: 2];
      si    = off_i[LS*l +: SW] | {{(SW-1){1'b0}}, half_i};
      word  = words_x[32*l +: 32];
      case (off[1:0])
        2'd0: b0 = word[7:0];
        2'd1: b0 = word[15:8];
        2'd2: b0 = word[23:16];
        default: b0 = word[31:24];
      endcase
      b1  = off[1] ? word[31:24] : word[15:8];
      ext = !uns_i && ((XBAR == 0) ? line_i[8*si + 7] : word[8*si[1:0] + 7]);
      data_o[32*l +: 8]       = b0;
      data_o[32*l + 8 +: 8]   = b1;
      data_o[32*l + 16 +: 16] = word[31:16];
      sign_o[l]               = ext;
    end
  end

endmodule
