// SPDX-License-Identifier: Apache-2.0
// simty_rr_pick: round-robin pick among N requests. The first requester
// after last_i in cyclic order (last_i + 1, ..., N - 1, 0, ..., last_i)
// wins: the lowest request above last_i, else the lowest request. Used by
// fetch steering, the scheduler and the membership sorter.
//
// Written with vector operations (mask, lowest set bit as x & -x, one-hot
// to index through constant masks) rather than a loop over requesters:
// small either way in gates, several times cheaper for the simulator
// (docs/performance.md, "Simulation speed").
`default_nettype none

module simty_rr_pick #(
  parameter integer N = 4,
  parameter integer B = 2            // index bits, >= 1
) (
  input  wire [N-1:0] req_i,
  input  wire [B-1:0] last_i,
  output wire         valid_o,
  output wire [N-1:0] grant_o,       // the pick, one-hot (zero when none)
  output wire [B-1:0] pick_o
);

  // bit w set when bit b of w is
  function [N-1:0] index_bit(input integer b);
    integer w;
    begin
      for (w = 0; w < N; w = w + 1) index_bit[w] = ((w >> b) & 1) == 1;
    end
  endfunction

  localparam [2*N:0]   ONE_W = {{2*N{1'b0}}, 1'b1};
  localparam [2*N-1:0] ONE   = ONE_W[2*N-1:0];
  localparam [N:0]     ONE_N = {{N{1'b0}}, 1'b1};
  wire [N-1:0] upto  = ~({N{1'b1}} << last_i) | (ONE_N[N-1:0] << last_i);   // 0..last_i
  wire [N-1:0] above = req_i & ~upto;
  // The requests above last_i, then all of them, in one word: its lowest
  // set bit is the first above last_i if there is one, else the lowest
  // request. One carry chain, with no test of "any above" before it.
  wire [2*N-1:0] both  = {req_i, above};
  wire [2*N-1:0] low   = both & (~both + ONE);   // lowest set bit
  wire [N-1:0]   first = low[N-1:0] | low[2*N-1:N];

  assign valid_o = req_i != {N{1'b0}};
  assign grant_o = first;
  genvar b;
  generate
    for (b = 0; b < B; b = b + 1) begin : gen_bit
      localparam [N-1:0] M = index_bit(b);
      assign pick_o[b] = (first & M) != {N{1'b0}};
    end
  endgenerate

endmodule
