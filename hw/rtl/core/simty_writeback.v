// SPDX-License-Identifier: Apache-2.0
// simty_writeback: write-back stage. The register banks are written at
// the end of the gather stage (simty_operand); this stage holds that write
// for one cycle as the bypass source of a first operand whose bank read
// coincided with it (masked: only the lanes that wrote), and for the
// value classifier.
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
  output reg  [32*LANES-1:0]   wb_data_o
);

  always @(posedge clk_i) begin
    if (rst_i) begin
      wb_we_o  <= 1'b0;
    end else begin
      wb_we_o  <= we_i && mask_i != {LANES{1'b0}};
    end
    wb_warp_o  <= warp_i;
    wb_rd_o    <= rd_i;
    wb_mask_o  <= mask_i;
    wb_data_o  <= data_i;
  end

endmodule
