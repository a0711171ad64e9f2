// SPDX-License-Identifier: Apache-2.0
// simty_ram_be.v - the SoC's memories (firmware RAM, kernel code RAM, one
// bank of the data RAM): 32-bit words, one synchronous read port, one
// write port with byte enables; Yosys maps it to block RAM (iCE40
// SB_RAM40_4K with its bit mask, ECP5 DP16KD). Optional $readmemh image.
//
// WREG = 1 registers the write port: the byte enables, address and data
// given in one cycle are written to the RAM in the next, so the logic in
// front of the write port ends at flip-flops next to the RAM instead of
// at its pins (the DATA banks: the core's store merge). A read sees every
// write given in an earlier cycle, as with WREG = 0: a read of the word
// the pending write holds takes that write's bytes from the register
// (the row compare is registered with the read; one 2:1 byte multiplexer
// after the RAM's output).
`default_nettype none

module simty_ram_be #(
  parameter integer WORDS = 1024,
  parameter integer ABITS = (WORDS > 1) ? $clog2(WORDS) : 1,
  parameter integer WREG = 0,     // 1: write port registered, reads bypass it
  parameter INIT_FILE = "",       // $readmemh image, words from index 0
  // Simulation only: +NAME=FILE on the command line loads FILE instead,
  // so a simulator binary runs a rebuilt firmware without re-verilating.
  parameter INIT_PLUSARG = ""
) (
  input  wire             clk_i,
  // Read: data the cycle after re_i; held while re_i is low.
  input  wire             re_i,
  input  wire [ABITS-1:0] raddr_i,
  output wire [31:0]      rdata_o,
  input  wire [3:0]       we_i,   // byte enables; 0 = no write
  input  wire [ABITS-1:0] waddr_i,
  input  wire [31:0]      wdata_i
);
  // The SoC never uses a read of a word in the cycle it is written (the
  // arbiter gives each cycle to one master, which does not look at the
  // read data of its own write; with WREG the pending write's bytes come
  // from its register), so Yosys need not build the read-during-write
  // bypass it otherwise adds (about 40 LUTs and 75 flops a RAM on iCE40).
  (* no_rw_check *)
  reg [31:0] mem_q [0:WORDS-1];
  reg [31:0] ram_q;

  // The RAM's write port: the inputs, or their registered copy.
  wire [3:0]       we;
  wire [ABITS-1:0] wa;
  wire [31:0]      wd;

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
    if (re_i) ram_q <= mem_q[raddr_i];
    if (we[0]) mem_q[wa][7:0] <= wd[7:0];
    if (we[1]) mem_q[wa][15:8] <= wd[15:8];
    if (we[2]) mem_q[wa][23:16] <= wd[23:16];
    if (we[3]) mem_q[wa][31:24] <= wd[31:24];
  end

  generate
    if (WREG != 0) begin : gen_wreg
      // The pending write. No reset: a write given before a reset still
      // lands a cycle later, as it would have without the register; the
      // initial value (FPGA flip-flop init) starts with none.
      reg [3:0]       we_q = 4'd0;
      reg [ABITS-1:0] wa_q;
      reg [31:0]      wd_q;
      // Read bypass, registered with the read: the bytes of the word read
      // that the pending write was writing in the read's cycle.
      reg [3:0]       byp_q = 4'd0;
      reg [31:0]      bd_q;
      always @(posedge clk_i) begin
        we_q <= we_i;
        if (we_i != 4'd0) begin
          wa_q <= waddr_i;
          wd_q <= wdata_i;
        end
        if (re_i) begin
          byp_q <= (raddr_i == wa_q) ? we_q : 4'd0;
          bd_q <= wd_q;
        end
      end
      assign we = we_q;
      assign wa = wa_q;
      assign wd = wd_q;
      assign rdata_o = {byp_q[3] ? bd_q[31:24] : ram_q[31:24],
                        byp_q[2] ? bd_q[23:16] : ram_q[23:16],
                        byp_q[1] ? bd_q[15:8] : ram_q[15:8],
                        byp_q[0] ? bd_q[7:0] : ram_q[7:0]};
    end else begin : gen_wdirect
      assign we = we_i;
      assign wa = waddr_i;
      assign wd = wdata_i;
      assign rdata_o = ram_q;
    end
  endgenerate
endmodule

`default_nettype wire
