// SPDX-License-Identifier: Apache-2.0
// simty_instret: Zicntr's instret, the instructions each hardware thread
// retired since the counters were last cleared (each launch;
// docs/architecture.md section 2). One 64-bit word per hardware thread, in
// a RAM per lane indexed by warp (LUT RAM on ECP5, flip-flops on iCE40).
//
// The pipeline, for the instruction of warp w that is in EX in cycle t:
// - t (EX): the lane RAMs are read at w (into old_q), with the word's
//   valid bit (a clear drops the valid bits instead of rewriting the RAM:
//   a word not written since reads as 0);
// - t + 1 (MB): old is the word, 0 if not valid, or the value written in
//   t if that write was to the same word (the bypass, below); res_o gives
//   old (the reading instruction excluded); old + 1 and the lanes that
//   retire (commit_i, retire_i) are registered;
// - t + 2 (W): the registered write: each retiring lane's RAM takes its
//   old + 1 at w, and its valid bit is set.
// So the commit decision (commit_i, late in MB) reaches LANES flip-flops,
// not the RAMs' write enables. A warp is never in EX and MB at once, but
// its next instruction can be in EX in W: that read misses the write of
// the same cycle, so in MB it takes the written value (bd_q, a copy of W's
// write data) instead. A warp writes once per instruction, so at most one
// write is pending. The bypass and the valid bit select after the read
// register (one LUT per bit in MB), so the read stays a plain registered
// read (a multiplexer before the register costs more, and Yosys takes
// write data / address compares there for read-port transparency).
`default_nettype none

module simty_instret #(
  parameter integer WARPS = 4,
  parameter integer LANES = 4,
  parameter integer WARP_BITS = 2,
  parameter integer LUTRAM = 0        // 1: ask for LUT RAM (ECP5 only)
) (
  input  wire                  clk_i,
  input  wire                  rst_i,
  input  wire                  clear_i,    // zero every word
  input  wire [WARP_BITS-1:0]  ex_warp_i,  // EX: read
  input  wire [WARP_BITS-1:0]  mb_warp_i,  // MB: the instruction read last cycle
  input  wire                  commit_i,   // MB: it commits
  input  wire [LANES-1:0]      retire_i,   // MB: its lanes that retire
  input  wire                  hi_i,       // MB: res_o gives the high halves
  output wire [32*LANES-1:0]   res_o       // MB: per lane the old value's half
);

  // Yosys reads the attribute's value from this constant; Verilator
  // ignores it.
  // verilator lint_off UNUSEDPARAM
  localparam STYLE = (LUTRAM != 0) ? "distributed" : "auto";
  // verilator lint_on UNUSEDPARAM

  // The registered write (W)
  reg [LANES-1:0]      we_q;
  reg [WARP_BITS-1:0]  wa_q;
  reg [64*LANES-1:0]   wd_q;
  wire                 clr = rst_i || clear_i;

  always @(posedge clk_i) begin
    if (clr) we_q <= {LANES{1'b0}};
    else we_q <= commit_i ? retire_i : {LANES{1'b0}};
    wa_q <= mb_warp_i;
  end

  wire byp = !clear_i && wa_q == ex_warp_i;   // with we_q[l]: the bypass
  genvar l;
  generate
    for (l = 0; l < LANES; l = l + 1) begin : gen_lane
      (* ram_style = STYLE *) reg [63:0] mem_q [0:WARPS-1];
      reg  [63:0] old_q;                 // MB: the word read
      reg  [63:0] bd_q;                  // MB: the value written in W
      reg         b_q;                   // MB: the read missed it
      reg         rv_q;                  // MB: old_q is valid
      wire [63:0] old = b_q ? bd_q : rv_q ? old_q : 64'd0;
      // Valid bits, one per warp, written with decoded enables (an
      // indexed write would synthesize as a shifter)
      reg  [WARPS-1:0] v_q;
      wire        rv = v_q[ex_warp_i];   // EX: the word read is valid
      integer j;
      always @(posedge clk_i)
        for (j = 0; j < WARPS; j = j + 1)
          if (clr) v_q[j] <= 1'b0;
          else if (we_q[l] && wa_q == j[WARP_BITS-1:0]) v_q[j] <= 1'b1;
      always @(posedge clk_i) begin
        if (we_q[l]) mem_q[wa_q] <= wd_q[64*l +: 64];
        old_q <= mem_q[ex_warp_i];
        rv_q  <= rv;
        b_q   <= byp && we_q[l];
        bd_q  <= wd_q[64*l +: 64];
        wd_q[64*l +: 64] <= old + 64'd1;
      end
      assign res_o[32*l +: 32] = hi_i ? old[63:32] : old[31:0];
`ifndef SYNTHESIS
      // Simulation only: a defined start (unwritten words read as zero
      // through their valid bits anyway), and a check: at every commit, a
      // retiring lane's old value is its count kept the plain way (a
      // counter per hardware thread incremented at the commit), which
      // checks the valid bits, the registered write and the bypass.
      integer i;
      reg [63:0] ck_q [0:WARPS-1];
      initial for (i = 0; i < WARPS; i = i + 1) mem_q[i] = 64'd0;
      always @(posedge clk_i) begin
        if (!clr && commit_i && retire_i[l]) begin
          if (old != ck_q[mb_warp_i]) begin
            $display("simty_instret: lane %0d warp %0d reads %0d, counted %0d",
                     l, mb_warp_i, old, ck_q[mb_warp_i]);
            $fatal(1, "simty_instret: check");
          end
          ck_q[mb_warp_i] <= ck_q[mb_warp_i] + 64'd1;
        end
        if (clr)
          for (i = 0; i < WARPS; i = i + 1) ck_q[i] <= 64'd0;
      end
`endif
    end
  endgenerate

endmodule

`default_nettype wire
