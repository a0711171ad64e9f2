// SPDX-License-Identifier: Apache-2.0
// simty_board_hx8k.v - board top for the Lattice iCE40-HX8K breakout board
// (iCE40HX8K-CT256): the Simty SoC (common/simty_board_soc.v) on the
// 12 MHz oscillator, its host link on the FT2232H's channel B (UART, with
// RTS# flow control), status on the eight LEDs.
//
// Clock: the 12 MHz oscillator (pin J3) drives the SoC directly, no
// SB_PLL40: no SoC configuration places on an iCE40 yet, so there is no
// Fmax figure to justify a faster clock (docs/performance.md, scaling
// table; the 1x1 core alone reaches 34 MHz); 12 MHz is the clock the
// simulated board and the firmware's time-outs are tuned for, and UART
// rates divide it well (115200: 104 cycles a bit, 0.2% off; 1000000:
// exactly 12).
// Reset: simty_board_por after configuration (the board has no user
// button).
// Pins: hx8k/simty_board_hx8k.pcf (sources cited there).
// Flow control: the SoC's RTS# drives the FT2232H's channel B CTS# (pin
// A15, source in the pcf); it pauses the host only when the host enables
// hardware flow control (the host library's FTDI transport does not).
// LEDs (1 = lit): D9 heartbeat, D8 host -> board, D7 board -> host, D6
// controller trap, D5 in reset, D4 kernel executing, D3 kernel fault,
// D2 off.
`default_nettype none

module simty_board_hx8k #(
  parameter integer WARPS = 1,
  parameter integer LANES = 4,
  parameter integer FW_SIZE = 16384,
  parameter [31:0]  CODE_SIZE = 32'h0000_0800,
  parameter [31:0]  DATA_SIZE = 32'h0000_0800,
  parameter         FW_IMAGE = "",
  parameter integer BAUD = 115200,
  parameter [31:0]  HW_BUILD = 32'd0,      // source digest (the flow sets it)
  parameter integer LINK_FIFO_DEPTH = 512,
  parameter integer CONSOLE_DEPTH = 64,
  parameter integer VCLASS = 1             // 0: no value classifier (BOARD_VCLASS=0)
) (
  input  wire       clk_i,        // 12 MHz oscillator
  input  wire       uart_rx_i,    // from FT2232H channel B TXD
  output wire       uart_tx_o,    // to FT2232H channel B RXD
  output wire       uart_rts_n_o, // to FT2232H channel B CTS#, 1 = pause
  output wire [7:0] led_o         // D9..D2, 1 = lit
);
  wire rst;
  simty_board_por u_por (
    .clk_i(clk_i), .button_n_i(1'b1), .lock_i(1'b1), .rst_o(rst)
  );

  wire heartbeat, rx_act, tx_act, trap, in_reset, busy, fault;
  simty_board_soc #(
    .WARPS(WARPS), .LANES(LANES), .FW_SIZE(FW_SIZE), .CODE_SIZE(CODE_SIZE),
    .DATA_SIZE(DATA_SIZE), .FW_IMAGE(FW_IMAGE), .CLK_HZ(12000000), .BAUD(BAUD),
    .LINK_FIFO_DEPTH(LINK_FIFO_DEPTH), .CONSOLE_DEPTH(CONSOLE_DEPTH),
    .HW_BUILD(HW_BUILD),
    .VCLASS(VCLASS)
  ) u_board (
    .clk_i(clk_i), .rst_i(rst),
    .uart_rx_i(uart_rx_i), .uart_tx_o(uart_tx_o), .uart_rts_n_o(uart_rts_n_o),
    .led_heartbeat_o(heartbeat), .led_rx_o(rx_act), .led_tx_o(tx_act),
    .led_trap_o(trap), .led_reset_o(in_reset), .led_busy_o(busy),
    .led_fault_o(fault)
  );

  assign led_o = {heartbeat, rx_act, tx_act, trap, in_reset, busy, fault, 1'b0};
endmodule

`default_nettype wire
