// SPDX-License-Identifier: Apache-2.0
// simty_mem_pre: the per-lane half of the memory arbiter, computed in EX
// from the ALU's addresses and registered into MB, where simty_mem only
// selects with the leader: for every lane its alignment and range checks
// and whether its word is the console's, and for every pair of lanes
// whether their addresses share a line. The leader (the lowest active
// lane, from HCT1's mask in MB) then picks a row of precomputed bits
// instead of a 32-bit address that every lane compares against.
`default_nettype none

module simty_mem_pre #(
  parameter integer LANES = 4,
  parameter [31:0]  DATA_SIZE = 32'h0010_0000
) (
  input  wire                     store_i,
  input  wire [1:0]               size_i,
  input  wire [32*LANES-1:0]      addr_i,
  output reg  [LANES-1:0]         mis_o,     // misaligned for size_i
  output reg  [LANES-1:0]         bad_o,     // misaligned or out of range
  output reg  [LANES-1:0]         con_o,     // the console's word
  // bit LANES*k + l: lanes k and l address the same line
  output reg  [LANES*LANES-1:0]   same_o
);
// The contract include declares every constant; each block uses a few.
// verilator lint_off UNUSEDPARAM
`include "simty_arch.vh"
// verilator lint_on UNUSEDPARAM

  localparam integer LINE_SHIFT = 2 + ((LANES > 1) ? $clog2(LANES) : 0);
  // Range checks on aligned addresses only (a misaligned lane faults as
  // misaligned whatever its range): an aligned access of any size is in
  // DATA iff its first byte is, and in CONSOLE iff its word is. DATA lies
  // in one 16 MiB-aligned window, so the checks are constant compares.
  localparam [31:0] DB = SIMTY_DATA_BASE;
  localparam [31:0] CA = SIMTY_CONSOLE_ADDR;
  localparam [24:0] DS = DATA_SIZE[24:0];
  reg [31:0] a, b;
  integer l, k;
  always @* begin
    same_o = {LANES*LANES{1'b0}};
    for (l = 0; l < LANES; l = l + 1) begin
      a        = addr_i[32*l +: 32];
      mis_o[l] = (size_i == 2'd1 && a[0]) || (size_i[1] && a[1:0] != 2'd0);
      con_o[l] = a[31:2] == CA[31:2];
      bad_o[l] = mis_o[l] ||
                 !((a[31:24] == DB[31:24] && {1'b0, a[23:0]} < DS) ||
                   (store_i && con_o[l]));
      same_o[LANES*l + l] = 1'b1;
      for (k = 0; k < l; k = k + 1) begin
        b = addr_i[32*k +: 32];
        same_o[LANES*k + l] = (a >> LINE_SHIFT) == (b >> LINE_SHIFT);
        same_o[LANES*l + k] = same_o[LANES*k + l];
      end
    end
  end

endmodule

`default_nettype wire
