// simty_board_ulx3s.v - board top for the Radiona ULX3S with an ECP5
// LFE5U-85F (CABGA381): the Simty SoC on the 25 MHz oscillator, its host
// link on the FT231X UART, status on the eight LEDs.
//
// Clock: the 25 MHz oscillator (pin G2) directly, no EHXPLLL: the SoC
// meets 25 MHz on the ECP5 (docs/performance.md, scaling table), so a
// PLL would only add lock-time handling; raise it with an EHXPLLL when
// the Fmax figures allow (CLOCK_HZ in MMIO tells the firmware and host).
// UART rates divide 25 MHz well (115200: 217 cycles a bit, 0.03% off;
// 1000000: exactly 25).
// Reset: simty_board_por after configuration, and while the PWR button
// (BTN_PWRn, pressed = 0) is held.
// Pins: ulx3s/simty_board_ulx3s.lpf (source cited there).
// Flow control: the SoC's RTS# output is left unconnected: on the ULX3S
// the FT231X's CTS# goes to the ECP5's dedicated JTAG TDO pin (V4, per
// ulx3s_v20.lpf), which the fabric cannot drive. The default 115200 baud
// needs none; at 1 Mbaud a 25 MHz controller only about keeps up
// (docs/boards.md).
`default_nettype none

module simty_board_ulx3s #(
  parameter integer WARPS = 8,
  parameter integer LANES = 8,
  parameter integer FW_SIZE = 32768,
  parameter [31:0]  CODE_SIZE = 32'h0000_4000,
  parameter [31:0]  DATA_SIZE = 32'h0002_0000,
  parameter         FW_IMAGE = "",
  parameter integer BAUD = 115200,
  parameter integer LINK_FIFO_DEPTH = 512,
  parameter integer CONSOLE_DEPTH = 512
) (
  input  wire       clk_i,        // 25 MHz oscillator
  input  wire       btn_n_i,      // BTN_PWRn, 0 = pressed
  input  wire       uart_rx_i,    // from FT231X TXD ("ftdi_txd")
  output wire       uart_tx_o,    // to FT231X RXD ("ftdi_rxd")
  output wire [7:0] led_o,        // 1 = lit
  output wire       wifi_gpio0_o  // ESP32 GPIO0: held high
);
  localparam integer CLK_HZ = 25000000;

  // An ESP32 fitted on the board resets into its boot loader when GPIO0
  // is pulled low; ULX3S designs hold it high.
  assign wifi_gpio0_o = 1'b1;

  wire rst;
  simty_board_por u_por (
    .clk_i(clk_i), .button_n_i(btn_n_i), .lock_i(1'b1), .rst_o(rst)
  );

  wire trap;
  /* verilator lint_off UNUSEDSIGNAL */
  wire [2:0]  trap_cause;
  wire [31:0] trap_pc;
  wire        bridge_rx_ready, bridge_tx_valid;
  wire [7:0]  bridge_tx_data;
  // RTS# (flow control to the FTDI's CTS#): not wired, see below.
  wire        uart_rts_n;
  /* verilator lint_on UNUSEDSIGNAL */

  simty_soc #(
    .WARPS(WARPS), .LANES(LANES), .FW_SIZE(FW_SIZE), .CODE_SIZE(CODE_SIZE),
    .DATA_SIZE(DATA_SIZE), .FW_IMAGE(FW_IMAGE), .CLK_HZ(CLK_HZ), .BAUD(BAUD),
    .PHY(1), .LINK_FIFO_DEPTH(LINK_FIFO_DEPTH), .CONSOLE_DEPTH(CONSOLE_DEPTH)
  ) u_soc (
    .clk_i(clk_i), .rst_i(rst),
    .uart_rx_i(uart_rx_i), .uart_tx_o(uart_tx_o), .uart_rts_n_o(uart_rts_n),
    .bridge_rx_valid_i(1'b0), .bridge_rx_data_i(8'd0),
    .bridge_rx_ready_o(bridge_rx_ready), .bridge_tx_valid_o(bridge_tx_valid),
    .bridge_tx_data_o(bridge_tx_data), .bridge_tx_ready_i(1'b0),
    .ctrl_trap_o(trap), .ctrl_trap_cause_o(trap_cause), .ctrl_trap_pc_o(trap_pc)
  );

  wire heartbeat, rx_act, tx_act, trap_led, reset_led;
  simty_board_status #(.CLK_HZ(CLK_HZ)) u_status (
    .clk_i(clk_i), .rst_i(rst), .uart_rx_i(uart_rx_i), .uart_tx_i(uart_tx_o),
    .trap_i(trap), .heartbeat_o(heartbeat), .rx_o(rx_act), .tx_o(tx_act),
    .trap_o(trap_led), .reset_o(reset_led)
  );

  // LED7 heartbeat, LED6 host -> board, LED5 board -> host, LED4
  // controller trap, LED3 in reset; LED2..LED0 off.
  assign led_o = {heartbeat, rx_act, tx_act, trap_led, reset_led, 3'b000};
endmodule

`default_nettype wire
