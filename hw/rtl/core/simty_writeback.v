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
  input  wire [32*LANES-1:0]   data_i,
  output reg                   wb_we_o,
  output reg  [WARP_BITS-1:0]  wb_warp_o,
  output reg  [4:0]            wb_rd_o,
  output reg  [LANES-1:0]      wb_mask_o,
  output reg  [32*LANES-1:0]   wb_data_o,
  output reg                   wb2_we_o,
  output reg  [WARP_BITS-1:0]  wb2_warp_o,
  output reg  [4:0]            wb2_rd_o,
  output reg  [LANES-1:0]      wb2_mask_o,
  output reg  [32*LANES-1:0]   wb2_data_o
);

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
    wb_data_o  <= data_i;
    wb2_warp_o <= wb_warp_o;
    wb2_rd_o   <= wb_rd_o;
    wb2_mask_o <= wb_mask_o;
    wb2_data_o <= wb_data_o;
  end

endmodule
