// SPDX-License-Identifier: Apache-2.0
// simty_instret_tb.v - self-checking bench of simty_instret against a
// plain 64-bit counter per hardware thread. Each cycle an instruction of a
// random warp (or a bubble) enters EX and the one in EX moves to MB, as in
// the core (a warp is never in EX and MB at once); it commits or not, with
// a random mask of retiring lanes. A warp's next instruction often enters
// EX two cycles after its previous one (in the cycle of that one's
// registered write: the bypass). Checked in MB for every valid
// instruction: res_o is each lane's count before it, low or high half.
// Clears come between bursts, with the pipeline empty.
// Built with verilator --binary --timing -GWARPS=w -GLANES=l; $fatal on
// failure.
`timescale 1ns / 1ps
`default_nettype none

module simty_instret_tb #(
  parameter integer WARPS = 4,
  parameter integer LANES = 4,
  parameter integer CYCLES = 200000
);
  localparam integer WB = (WARPS > 1) ? $clog2(WARPS) : 1;

  reg clk = 1'b0;
  always #5 clk = ~clk;

  reg                 rst = 1'b1, clear = 1'b0;
  reg  [WB-1:0]       ex_warp = {WB{1'b0}}, mb_warp = {WB{1'b0}};
  reg                 ex_v = 1'b0, mb_v = 1'b0;
  reg                 commit = 1'b0, hi = 1'b0;
  reg  [LANES-1:0]    retire = {LANES{1'b0}};
  wire [32*LANES-1:0] res;

  simty_instret #(.WARPS(WARPS), .LANES(LANES), .WARP_BITS(WB)) dut (
    .clk_i     (clk),
    .rst_i     (rst),
    .clear_i   (clear),
    .ex_warp_i (ex_warp),
    .mb_warp_i (mb_warp),
    .commit_i  (commit),
    .retire_i  (retire),
    .hi_i      (hi),
    .res_o     (res)
  );

  reg [63:0] ref_q [0:WARPS*LANES-1];
  integer i, l, cyc, bypasses, checks;
  integer      w;
  reg          old_mv;
  reg [WB-1:0] old_mb;
  reg [63:0]   want;

  initial begin
    for (i = 0; i < WARPS * LANES; i = i + 1) ref_q[i] = 64'd0;
    bypasses = 0;
    checks = 0;
    repeat (3) @(posedge clk);
    rst = 1'b0;
    for (cyc = 0; cyc < CYCLES; cyc = cyc + 1) begin
      @(negedge clk);
      // MB of this cycle: check, then decide the commit
      if (mb_v) begin
        for (l = 0; l < LANES; l = l + 1) begin
          want = ref_q[mb_warp * LANES + l];
          if (res[32*l +: 32] != (hi ? want[63:32] : want[31:0])) begin
            $display("FAIL lane %0d warp %0d hi %0d: res %0h, want %0h at cycle %0d",
                     l, mb_warp, hi, res[32*l +: 32], want, cyc);
            $fatal(1, "simty_instret_tb");
          end
        end
        checks = checks + 1;
        commit = ($random & 7) != 0;
        retire = $random;
        if (commit)
          for (l = 0; l < LANES; l = l + 1)
            if (retire[l]) ref_q[mb_warp * LANES + l] = ref_q[mb_warp * LANES + l] + 64'd1;
      end else begin
        commit = 1'b0;
        retire = $random;
      end
      @(posedge clk);
      #1;
      // advance: EX -> MB, a new instruction (or a bubble) into EX; it
      // is not of the warp now in MB (old_ex), and often of the warp that
      // just left MB (old_mb), whose write is pending in its EX cycle
      old_mv = mb_v;
      old_mb = mb_warp;
      mb_v    = ex_v;
      mb_warp = ex_warp;
      hi      = $random;
      clear   = (cyc % 5000) == 4995;
      if ((cyc % 5000) == 4995)
        for (i = 0; i < WARPS * LANES; i = i + 1) ref_q[i] = 64'd0;
      w = $urandom % WARPS;
      if ((cyc % 5000) >= 4990 || (WARPS == 1 && mb_v) || ($random & 3) == 0) begin
        ex_v    = 1'b0;              // a bubble (a burst's end: drain)
        ex_warp = w[WB-1:0];
      end else begin
        ex_v = 1'b1;
        if (old_mv && (!mb_v || old_mb != mb_warp) && ($random & 1)) begin
          ex_warp = old_mb;
          bypasses = bypasses + 1;
        end else begin
          if (mb_v && w == mb_warp) w = (w + 1) % WARPS;
          ex_warp = w[WB-1:0];
        end
      end
    end
    $display("simty_instret_tb %0dx%0d: %0d checks, %0d same-warp reads in a write's cycle: PASS",
             WARPS, LANES, checks, bypasses);
    $finish;
  end

endmodule

`default_nettype wire
