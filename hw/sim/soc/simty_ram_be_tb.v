// SPDX-License-Identifier: Apache-2.0
// simty_ram_be_tb.v - self-checking bench of the byte-enable RAM
// (hw/rtl/soc/simty_ram_be.v), with its write port direct (WREG = 0) or
// registered (WREG = 1, the DATA banks). Random traffic on a few words
// (so reads often follow writes of the same word) against a reference
// array updated when a write is given: a read returns, the cycle after
// re_i, every byte written in an earlier cycle, and holds it while re_i is
// low. A read of the word written in the same cycle is not checked (the
// SoC never does one: docs/soc.md, "Memories"). Counts the reads that
// follow a write of their word in the cycle before, the case the
// registered port's bypass serves, and fails if there are too few.
// Built with verilator --binary --timing, once per WREG; $fatal on a
// failure.
`timescale 1ns / 1ps
`default_nettype none

module simty_ram_be_tb #(
  parameter integer WREG = 1
);
  localparam integer WORDS = 8;
  localparam integer ABITS = 3;
  localparam integer CYCLES = 20000;

  reg clk = 1'b0;
  always #5 clk = ~clk;

  reg              re = 1'b0;
  reg  [ABITS-1:0] raddr = 0;
  reg  [3:0]       we = 4'd0;
  reg  [ABITS-1:0] waddr = 0;
  reg  [31:0]      wdata = 32'd0;
  wire [31:0]      rdata;

  simty_ram_be #(.WORDS(WORDS), .WREG(WREG)) dut (
    .clk_i(clk), .re_i(re), .raddr_i(raddr), .rdata_o(rdata),
    .we_i(we), .waddr_i(waddr), .wdata_i(wdata)
  );

  reg [31:0] ref_q [0:WORDS-1];
  reg [31:0] expect_q = 32'd0;    // what rdata must hold
  reg        known_q = 1'b1;      // expect_q is defined (unwritten RAM reads 0)
  reg        last_we_hit = 1'b0;  // the previous cycle wrote the word read now
  reg [ABITS-1:0] last_waddr = 0;
  reg [3:0]  last_we = 4'd0;
  integer cyc, k, checks = 0, after_write = 0;
  reg [31:0] merged;

  initial begin
    for (k = 0; k < WORDS; k = k + 1) ref_q[k] = 32'd0;
    for (cyc = 0; cyc < CYCLES; cyc = cyc + 1) begin
      // Drive this cycle's requests.
      re = ($random & 3) != 0;
      raddr = $random;
      we = (($random & 1) != 0) ? $random : 4'd0;
      waddr = $random;
      wdata = $random;
      last_we_hit = last_we != 4'd0 && last_waddr == raddr;
      @(posedge clk);
      #1;
      // The read given in the cycle just ended.
      if (re) begin
        known_q = !(we != 4'd0 && waddr == raddr);
        expect_q = ref_q[raddr];
        if (known_q && last_we_hit) after_write = after_write + 1;
      end
      // The write given in that cycle: visible from the next cycle's read.
      merged = ref_q[waddr];
      if (we[0]) merged[7:0] = wdata[7:0];
      if (we[1]) merged[15:8] = wdata[15:8];
      if (we[2]) merged[23:16] = wdata[23:16];
      if (we[3]) merged[31:24] = wdata[31:24];
      ref_q[waddr] = merged;
      last_we = we;
      last_waddr = waddr;
      if (known_q) begin
        checks = checks + 1;
        if (rdata !== expect_q)
          $fatal(1, "simty_ram_be_tb WREG=%0d: cycle %0d: read %08x, expected %08x",
                 WREG, cyc, rdata, expect_q);
      end
    end
    if (after_write < CYCLES / 50)
      $fatal(1, "simty_ram_be_tb WREG=%0d: only %0d reads right after a write of their word",
             WREG, after_write);
    $display("simty_ram_be_tb WREG=%0d: %0d reads checked, %0d right after a write of their word: PASS",
             WREG, checks, after_write);
    $finish;
  end
endmodule

`default_nettype wire
