// SPDX-License-Identifier: Apache-2.0
// simty_ram_be.v - the SoC's memories (firmware RAM, kernel code RAM, one
// bank of the data RAM): 32-bit words, one synchronous read port, one
// write port with byte enables; Yosys maps it to block RAM (iCE40
// SB_RAM40_4K with its bit mask, ECP5 DP16KD). Optional $readmemh image.
`default_nettype none

module simty_ram_be #(
  parameter integer WORDS = 1024,
  parameter integer ABITS = (WORDS > 1) ? $clog2(WORDS) : 1,
  parameter INIT_FILE = "",       // $readmemh image, words from index 0
  // Simulation only: +NAME=FILE on the command line loads FILE instead,
  // so a simulator binary runs a rebuilt firmware without re-verilating.
  parameter INIT_PLUSARG = ""
) (
  input  wire             clk_i,
  // Read: data the cycle after re_i; held while re_i is low.
  input  wire             re_i,
  input  wire [ABITS-1:0] raddr_i,
  output reg  [31:0]      rdata_o,
  input  wire [3:0]       we_i,   // byte enables; 0 = no write
  input  wire [ABITS-1:0] waddr_i,
  input  wire [31:0]      wdata_i
);
  // The SoC never reads a word in the cycle it is written (the arbiter
  // gives each cycle to one master), so Yosys need not build the
  // read-during-write bypass it otherwise adds (about 40 LUTs and 75 flops
  // a RAM on iCE40).
  (* no_rw_check *)
  reg [31:0] mem_q [0:WORDS-1];

  // Unwritten words read as zero in simulation and on FPGAs (block RAM
  // contents are part of the bitstream), so an image needs no padding.
  integer i;
`ifndef SYNTHESIS
  reg [8*1024-1:0] init_path;
`endif
  initial begin
    for (i = 0; i < WORDS; i = i + 1) mem_q[i] = 32'd0;
`ifndef SYNTHESIS
    if (INIT_PLUSARG != "" && $value$plusargs({INIT_PLUSARG, "=%s"}, init_path))
      $readmemh(init_path, mem_q);
    else
`endif
    if (INIT_FILE != "") $readmemh(INIT_FILE, mem_q);
  end

  always @(posedge clk_i) begin
    if (re_i) rdata_o <= mem_q[raddr_i];
    if (we_i[0]) mem_q[waddr_i][7:0] <= wdata_i[7:0];
    if (we_i[1]) mem_q[waddr_i][15:8] <= wdata_i[15:8];
    if (we_i[2]) mem_q[waddr_i][23:16] <= wdata_i[23:16];
    if (we_i[3]) mem_q[waddr_i][31:24] <= wdata_i[31:24];
  end
endmodule

`default_nettype wire
