// SPDX-License-Identifier: Apache-2.0
// simty_uart.v - the host link as the controller sees it: RX and TX byte
// FIFOs with status flags, fed by the UART PHY (8N1 at BAUD) on a board,
// or by a byte bridge with valid/ready in the simulated board (PHY = 0),
// so the FIFOs, flags and firmware are the same in both.
//
// rx_almost_full_o: the RX FIFO holds 3/4 of its depth or more. A board
// drives its UART's RTS# from it (to the FTDI chip's CTS#), so the host
// pauses before the FIFO overflows when the firmware reads bytes slower
// than the wire brings them; a quarter of the FIFO covers the bytes the
// host sends after the pause request.
// rx_overrun_o: a byte arrived while the RX FIFO was full and was lost.
// rx_frame_err_o: a byte had a zero stop bit and was dropped. Each stays
// set until its clear_i bit. The byte bridge applies back-pressure instead of
// dropping, so in the simulated board neither flag ever sets.
// Reset: synchronous, active high.
`default_nettype none

module simty_uart #(
  parameter integer CLK_HZ = 12000000,
  parameter integer BAUD = 115200,
  parameter integer PHY = 1,          // 1 = UART pins, 0 = byte bridge
  parameter integer RX_DEPTH = 512,   // one iCE40 block RAM each
  parameter integer TX_DEPTH = 512
) (
  input  wire       clk_i,
  input  wire       rst_i,

  // Only one of the two sets below is used, as PHY selects.
  /* verilator lint_off UNUSEDSIGNAL */
  // UART pins (PHY = 1)
  input  wire       uart_rx_i,
  output wire       uart_tx_o,

  // Byte bridge (PHY = 0): bytes from the host, and to the host.
  input  wire       bridge_rx_valid_i,
  input  wire [7:0] bridge_rx_data_i,
  output wire       bridge_rx_ready_o,
  output wire       bridge_tx_valid_o,
  output wire [7:0] bridge_tx_data_o,
  input  wire       bridge_tx_ready_i,
  /* verilator lint_on UNUSEDSIGNAL */

  // Controller side
  output wire       rx_valid_o,       // rx_data_o holds the oldest byte
  output wire [7:0] rx_data_o,
  input  wire       rx_pop_i,
  input  wire       tx_push_i,
  input  wire [7:0] tx_data_i,
  output wire       tx_full_o,
  output wire       tx_idle_o,        // TX FIFO empty and last bit sent
  output wire       rx_almost_full_o, // RX FIFO 3/4 full: ask the host to pause
  output reg        rx_overrun_o,
  output reg        rx_frame_err_o,
  input  wire [1:0] clear_i           // {frame_err, overrun}: clear flag
);
  wire       in_valid;
  wire [7:0] in_data;
  wire       rx_full;
  wire       out_valid;
  wire [7:0] out_data;
  wire       out_ready;
  wire       frame_err;
  wire       tx_empty;
  wire       phy_idle;
  /* verilator lint_off UNUSEDSIGNAL */
  wire       rx_empty_unused;   // the RX head's valid flag says enough
  wire [$clog2(RX_DEPTH)+1:0] rx_level;
  wire [$clog2(TX_DEPTH)+1:0] tx_level_unused;
  /* verilator lint_on UNUSEDSIGNAL */

  // The RX head is a register of its own: the link engine decodes the
  // head byte combinationally into the link buffer's write port.
  simty_fifo #(.WIDTH(8), .DEPTH(RX_DEPTH), .HEAD_REG(1)) u_rx_fifo (
    .clk_i(clk_i), .rst_i(rst_i),
    .push_i(in_valid), .data_i(in_data), .full_o(rx_full),
    .valid_o(rx_valid_o), .data_o(rx_data_o), .pop_i(rx_pop_i),
    .empty_o(rx_empty_unused), .level_o(rx_level)
  );

  simty_fifo #(.WIDTH(8), .DEPTH(TX_DEPTH)) u_tx_fifo (
    .clk_i(clk_i), .rst_i(rst_i),
    .push_i(tx_push_i), .data_i(tx_data_i), .full_o(tx_full_o),
    .valid_o(out_valid), .data_o(out_data), .pop_i(out_valid & out_ready),
    .empty_o(tx_empty), .level_o(tx_level_unused)
  );

  generate
    if (PHY != 0) begin : gen_uart_phy
      simty_uart_rx #(.CLK_HZ(CLK_HZ), .BAUD(BAUD)) u_rx (
        .clk_i(clk_i), .rst_i(rst_i), .rx_i(uart_rx_i),
        .valid_o(in_valid), .data_o(in_data), .frame_err_o(frame_err)
      );
      simty_uart_tx #(.CLK_HZ(CLK_HZ), .BAUD(BAUD)) u_tx (
        .clk_i(clk_i), .rst_i(rst_i),
        .valid_i(out_valid), .data_i(out_data), .ready_o(out_ready),
        .tx_o(uart_tx_o)
      );
      assign phy_idle = out_ready;
      assign bridge_rx_ready_o = 1'b0;
      assign bridge_tx_valid_o = 1'b0;
      assign bridge_tx_data_o = 8'd0;
    end else begin : gen_byte_bridge
      assign in_valid = bridge_rx_valid_i & ~rx_full;
      assign in_data = bridge_rx_data_i;
      assign bridge_rx_ready_o = ~rx_full;
      assign frame_err = 1'b0;
      assign bridge_tx_valid_o = out_valid;
      assign bridge_tx_data_o = out_data;
      assign out_ready = bridge_tx_ready_i;
      assign phy_idle = 1'b1;
      assign uart_tx_o = 1'b1;
    end
  endgenerate

  assign tx_idle_o = tx_empty & phy_idle;
  localparam integer RX_HIGH = (3 * RX_DEPTH) / 4;
  assign rx_almost_full_o = rx_level >= RX_HIGH[$clog2(RX_DEPTH)+1:0];

  always @(posedge clk_i) begin
    if (rst_i) begin
      rx_overrun_o <= 1'b0;
      rx_frame_err_o <= 1'b0;
    end else begin
      if (clear_i[0]) rx_overrun_o <= 1'b0;
      if (clear_i[1]) rx_frame_err_o <= 1'b0;
      if (in_valid & rx_full) rx_overrun_o <= 1'b1;
      if (frame_err) rx_frame_err_o <= 1'b1;
    end
  end
endmodule

`default_nettype wire
