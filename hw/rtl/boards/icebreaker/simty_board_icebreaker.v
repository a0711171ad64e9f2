// SPDX-License-Identifier: Apache-2.0
// simty_board_icebreaker.v - board top for the 1BitSquared iCEBreaker
// (iCE40UP5K-SG48): the Simty SoC (common/simty_board_soc.v) on the
// 12 MHz oscillator, its host link on the FT2232H's channel B (UART),
// status on the two on-board LEDs and on the five LEDs of the snap-off
// PMOD (PMOD 2) when it is attached.
//
// Clock: the 12 MHz oscillator (pin 35) directly, no SB_PLL40: the UP5K
// is the slowest of the three parts and no SoC configuration places on
// an iCE40 yet, so nothing justifies a faster clock (docs/performance.md);
// 12 MHz is also what the simulated board and the firmware's time-outs
// use.
// Reset: simty_board_por after configuration, and while the user button
// (BTN_N) is held.
// Pins: icebreaker/simty_board_icebreaker.pcf (sources cited there).
// Flow control: the SoC's RTS# output is left unconnected. The FT2232H's
// channel B CTS# (BDBUS3) reaches the FPGA only through solder jumper J4,
// open as shipped, onto pin 19 (P2_4), which the snap-off PMOD also uses
// for its button BTN2 (iCEBreaker v1.0e schematic, hardware/v1.0e/
// icebreaker.sch: "xFIFO_D3" -> J4 -> "P2_4"). A board with J4 closed
// and no PMOD on PMOD 2 could wire it; the default build does not. Keep
// link frames within the RX FIFO (the board firmware's 256-byte payloads
// do).
// LEDs: green LEDG_N heartbeat, red LEDR_N controller trap; PMOD 2: LED1
// host -> board, LED2 board -> host, LED3 in reset, LED4 kernel
// executing, LED5 kernel fault.
`default_nettype none

module simty_board_icebreaker #(
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
  input  wire       clk_i,       // 12 MHz oscillator
  input  wire       btn_n_i,     // user button, 0 = pressed
  input  wire       uart_rx_i,   // from FT2232H channel B TXD
  output wire       uart_tx_o,   // to FT2232H channel B RXD
  output wire       ledr_n_o,    // red LED, 0 = lit
  output wire       ledg_n_o,    // green LED, 0 = lit
  output wire [5:1] led_o        // PMOD 2 LEDs, 1 = lit
);
  wire rst;
  simty_board_por u_por (
    .clk_i(clk_i), .button_n_i(btn_n_i), .lock_i(1'b1), .rst_o(rst)
  );

  wire heartbeat, rx_act, tx_act, trap, in_reset, busy, fault;
  /* verilator lint_off UNUSEDSIGNAL */
  wire uart_rts_n;   // no CTS# pin by default: see above
  /* verilator lint_on UNUSEDSIGNAL */
  simty_board_soc #(
    .WARPS(WARPS), .LANES(LANES), .FW_SIZE(FW_SIZE), .CODE_SIZE(CODE_SIZE),
    .DATA_SIZE(DATA_SIZE), .FW_IMAGE(FW_IMAGE), .CLK_HZ(12000000), .BAUD(BAUD),
    .LINK_FIFO_DEPTH(LINK_FIFO_DEPTH), .CONSOLE_DEPTH(CONSOLE_DEPTH),
    .HW_BUILD(HW_BUILD),
    .VCLASS(VCLASS)
  ) u_board (
    .clk_i(clk_i), .rst_i(rst),
    .uart_rx_i(uart_rx_i), .uart_tx_o(uart_tx_o), .uart_rts_n_o(uart_rts_n),
    .led_heartbeat_o(heartbeat), .led_rx_o(rx_act), .led_tx_o(tx_act),
    .led_trap_o(trap), .led_reset_o(in_reset), .led_busy_o(busy),
    .led_fault_o(fault)
  );

  assign ledg_n_o = ~heartbeat;
  assign ledr_n_o = ~trap;
  assign led_o = {fault, busy, in_reset, tx_act, rx_act};
endmodule

`default_nettype wire
