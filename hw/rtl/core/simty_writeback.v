// SPDX-License-Identifier: Apache-2.0
// simty_writeback: write-back stage. It registers the gather stage's
// result, and the register banks are written from these registers at the
// end of WB (simty_operand): the gathered load data goes into a register,
// not across the die into the banks' write ports. The same registers are
// the bypass source of a first operand read while its producer was in GA
// (distance 4), and feed the value classifier. A second register stage
// (wb2_*) holds the write one more cycle, the bypass source of operands
// whose bank read coincided with the write (a first operand at distance
// 5, a second one at distance 4). Both bypasses are masked: only the lanes
// that wrote.
// A byte or halfword load's extension is applied after the register: WB
// registers the gathered bytes as they are, each lane's sign and the
// load's size, and wb_data_o is the extended value, one LUT level after
// the flops (a gathered line comes late from block RAMs spread over the
// die; the extension's fan-out and size select are cheaper here).
`default_nettype none

module simty_writeback #(
  parameter integer LANES = 4,
  parameter integer WARP_BITS = 2
) (
  input  wire                  clk_i,
  input  wire                  rst_i,
  input  wire                  we_i,         // from gather: writes rd
  input  wire [WARP_BITS-1:0]  warp_i,
  input  wire [4:0]            rd_i,
  input  wire [LANES-1:0]      mask_i,
  input  wire [32*LANES-1:0]   data_i,       // a load's: not extended
  input  wire [LANES-1:0]      sign_i,       // a load's extension bit
  input  wire                  xb_i,         // extend from bit 8 (lb, lbu)
  input  wire                  xh_i,         // extend from bit 16 (lh, lhu)
  output reg                   wb_we_o,
  output reg  [WARP_BITS-1:0]  wb_warp_o,
  output reg  [4:0]            wb_rd_o,
  output reg  [LANES-1:0]      wb_mask_o,
  output wire [32*LANES-1:0]   wb_data_o,
  output reg                   wb2_we_o,
  output reg  [WARP_BITS-1:0]  wb2_warp_o,
  output reg  [4:0]            wb2_rd_o,
  output reg  [LANES-1:0]      wb2_mask_o,
  output reg  [32*LANES-1:0]   wb2_data_o
);

  reg [32*LANES-1:0] raw_q;
  reg [LANES-1:0]    sign_q;
  reg                xb_q, xh_q;

  genvar l;
  generate
    for (l = 0; l < LANES; l = l + 1) begin : gen_ext
      wire s = sign_q[l];
      assign wb_data_o[32*l +: 8]       = raw_q[32*l +: 8];
      assign wb_data_o[32*l + 8 +: 8]   = xb_q ? {8{s}} : raw_q[32*l + 8 +: 8];
      assign wb_data_o[32*l + 16 +: 16] = (xb_q || xh_q) ? {16{s}} : raw_q[32*l + 16 +: 16];
    end
  endgenerate

  always @(posedge clk_i) begin
    if (rst_i) begin
      wb_we_o  <= 1'b0;
      wb2_we_o <= 1'b0;
    end else begin
      wb_we_o  <= we_i && mask_i != {LANES{1'b0}};
      wb2_we_o <= wb_we_o;
    end
    wb_warp_o  <= warp_i;
    wb_rd_o    <= rd_i;
    wb_mask_o  <= mask_i;
    raw_q      <= data_i;
    sign_q     <= sign_i;
    xb_q       <= xb_i;
    xh_q       <= xh_i;
    wb2_warp_o <= wb_warp_o;
    wb2_rd_o   <= wb_rd_o;
    wb2_mask_o <= wb_mask_o;
    wb2_data_o <= wb_data_o;
  end

endmodule
