// SPDX-License-Identifier: Apache-2.0
// simty_mem_pre: the per-lane half of the memory arbiter, computed in EX
// from the ALU's addresses and registered into MB, where simty_mem only
// selects with the leader: for every lane its alignment, range and stack
// guard checks, whether its word is the console's and whether it is in
// the stack area, and for every pair of lanes whether their physical
// addresses share a line. The leader (the lowest active lane, from HCT1's
// mask in MB) then picks a row of precomputed bits instead of a 32-bit
// address that every lane compares against.
//
// Stacks (docs/architecture.md section 3, "Stacks"): the area is the top
// N << s bytes of DATA (N = WARPS * LANES, s = stack_log2; DATA_SIZE a
// power of two, so the area is aligned to its size). Logical offset
// (region r, word w, byte b) in it is physical word w * N + h, h = ~r the
// region's hardware thread. A lane outside its own stack faults (ovf_o),
// so a stack lane that does not fault has r = ~h: its physical word in
// the line is its own lane number and its physical line is
// {area bits, w, warp}. The mapping is therefore never computed here: two
// lanes of one instruction (one warp) share a physical line iff
//   both in the area:  their addresses match on every bit from 2 up but
//                      the lane bits of the region field [s, s+LB2);
//   neither in it:     they match from bit LS (= 2 + LB2) up, as before;
//   one of each:       never (the area is aligned to more than a line, so
//                      two addresses of one plain line are both in it or
//                      both out).
// The compare keeps its shape: one XOR per bit, split by a launch mask into
// a common reduction and two small ones, and a final 2:1 select on "both
// in the area".
`default_nettype none

module simty_mem_pre #(
  parameter integer WARPS = 4,
  parameter integer LANES = 4,
  parameter integer WARP_BITS = 2,
  parameter [31:0]  DATA_SIZE = 32'h0010_0000
) (
  input  wire                     clk_i,
  input  wire [4:0]               stack_log2_i,  // launch constant
  input  wire [WARP_BITS-1:0]     warp_i,
  input  wire                     store_i,
  input  wire [1:0]               size_i,
  input  wire [32*LANES-1:0]      addr_i,
  output reg  [LANES-1:0]         mis_o,     // misaligned for size_i
  output reg  [LANES-1:0]         bad_o,     // misaligned, out of range or
                                             // in another thread's stack
  output reg  [LANES-1:0]         ovf_o,     // in another thread's stack
  output reg  [LANES-1:0]         stk_o,     // in the stack area
  output reg  [LANES-1:0]         con_o,     // the console's word
  // bit LANES*k + l: lanes k and l address the same physical line
  output reg  [LANES*LANES-1:0]   same_o,
  // for simty_mem: bit p set for p >= s + log2(N), the bits of an address
  // above the stack-area fields (registered from stack_log2_i)
  output wire [31:0]              above_o
);
// The contract include declares every constant; each block uses a few.
// verilator lint_off UNUSEDPARAM
`include "simty_arch.vh"
// verilator lint_on UNUSEDPARAM

  localparam integer LB2 = (LANES > 1) ? $clog2(LANES) : 0;
  localparam integer WB2 = (WARPS > 1) ? $clog2(WARPS) : 0;
  localparam integer HB  = LB2 + WB2;          // log2(N)
  localparam integer HBW = (HB > 0) ? HB : 1;
  localparam integer LINE_SHIFT = 2 + LB2;
  localparam integer DSB = $clog2(DATA_SIZE);   // DATA_SIZE = 2^DSB
  // Range checks on aligned addresses only (a misaligned lane faults as
  // misaligned whatever its range): an aligned access of any size is in
  // DATA iff its first byte is, and in CONSOLE iff its word is. DATA lies
  // in one 16 MiB-aligned window, so the checks are constant compares.
  localparam [31:0] DB = SIMTY_DATA_BASE;
  localparam [31:0] CA = SIMTY_CONSOLE_ADDR;
  localparam [24:0] DS = DATA_SIZE[24:0];
  localparam [31:0] HIGH = ~((32'd1 << LINE_SHIFT) - 32'd1);   // line bits
  localparam [31:0] LOW  = ((32'd1 << LINE_SHIFT) - 32'd1) & ~32'd3;
  localparam [31:0] DMASK = (32'd1 << DSB) - 32'd1;

  generate
    if ((DATA_SIZE & (DATA_SIZE - 1)) != 0 || DATA_SIZE > 32'h0100_0000)
      begin : data_size_must_be_a_power_of_two_up_to_16_MiB
        simty_mem_pre_bad_data_size u_error ();
      end
  endgenerate

  // Launch masks, registered from stack_log2_i (stable while a launch
  // runs; the first access comes many cycles after it is set):
  //   sdec  bit s (one-hot)
  //   lanef bits [s, s + LB2): the lane bits of the region field
  //   regf  bits [s, s + HB): the region field
  //   above bits [s + HB, 32)
  reg  [31:0] sdec, lanef, regf, above;
  wire [31:0] lo_s = (32'd1 << stack_log2_i) - 32'd1;                   // [0, s)
  localparam [31:0] LB2_32 = LB2, HB_32 = HB;
  localparam [5:0]  LB2_6 = LB2_32[5:0], HB_6 = HB_32[5:0];
  wire [31:0] lo_l = (32'd1 << ({1'b0, stack_log2_i} + LB2_6)) - 32'd1; // [0, s+LB2)
  wire [31:0] lo_h = (32'd1 << ({1'b0, stack_log2_i} + HB_6)) - 32'd1;  // [0, s+HB)
  always @(posedge clk_i) begin
    sdec  <= 32'd1 << stack_log2_i;
    lanef <= lo_l & ~lo_s;
    regf  <= lo_h & ~lo_s;
    above <= ~lo_h;
  end
  assign above_o = above;

  // Expected region field of each lane's own stack: ~h << s, h = {warp,
  // lane}, from the one-hot s (an OR of a few AND terms per bit).
  // (1 x 1: no region field, neither is used)
  // verilator lint_off UNUSEDSIGNAL
  reg [HBW-1:0] nh;
  reg [31:0]    hfull;
  // verilator lint_on UNUSEDSIGNAL
  reg [32*LANES-1:0] own_reg;
  integer l, k, j, p;
  always @* begin
    own_reg = {32*LANES{1'b0}};
    for (l = 0; l < LANES; l = l + 1) begin
      hfull = {{(32-WARP_BITS){1'b0}}, warp_i} * LANES + l;
      nh = ~hfull[HBW-1:0];
      for (j = 0; j < HB; j = j + 1)
        for (p = j; p < 32; p = p + 1)
          if (nh[j]) own_reg[32*l + p] = own_reg[32*l + p] | sdec[p - j];
    end
  end

  reg [31:0] a, b, x;
  reg        in_data;
  reg        cmn, low, lnb;
  always @* begin
    same_o = {LANES*LANES{1'b0}};
    for (l = 0; l < LANES; l = l + 1) begin
      a        = addr_i[32*l +: 32];
      mis_o[l] = (size_i == 2'd1 && a[0]) || (size_i[1] && a[1:0] != 2'd0);
      con_o[l] = a[31:2] == CA[31:2];
      in_data  = a[31:24] == DB[31:24] && {1'b0, a[23:0]} < DS;
      // in the area: in DATA with every bit of [s + HB, DSB) set
      stk_o[l] = in_data && ((a | ~above) & DMASK) == DMASK;
      ovf_o[l] = stk_o[l] && ((a ^ own_reg[32*l +: 32]) & regf) != 32'd0;
      bad_o[l] = mis_o[l] || ovf_o[l] || !(in_data || (store_i && con_o[l]));
    end
    for (l = 0; l < LANES; l = l + 1) begin
      same_o[LANES*l + l] = 1'b1;
      for (k = 0; k < l; k = k + 1) begin
        a   = addr_i[32*l +: 32];
        b   = addr_i[32*k +: 32];
        x   = a ^ b;
        cmn = (x & HIGH & ~lanef) == 32'd0;   // line bits but the lane field
        low = (x & LOW & ~lanef) == 32'd0;    // stack: word bits below LS
        lnb = (x & HIGH & lanef) == 32'd0;    // plain: the lane field too
        same_o[LANES*k + l] = cmn && ((stk_o[l] && stk_o[k]) ? low : lnb);
        same_o[LANES*l + k] = same_o[LANES*k + l];
      end
    end
  end

endmodule

`default_nettype wire
