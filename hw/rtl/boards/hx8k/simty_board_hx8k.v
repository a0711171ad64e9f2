// simty_board_hx8k.v - board top for the Lattice iCE40-HX8K breakout board
// (iCE40HX8K-CT256): the Simty SoC on the 12 MHz oscillator, its host
// link on the FT2232H's channel B (UART), status on the eight LEDs.
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
// Flow control: the SoC's RTS# output is left unconnected: the pin
// sources above give only the UART's TXD/RXD on channel B, and we found
// no documented FPGA pin for the FT2232H's CTS#. Keep link frames within
// the RX FIFO (the board firmware's 256-byte payloads do).
`default_nettype none

module simty_board_hx8k #(
  parameter integer WARPS = 1,
  parameter integer LANES = 4,
  parameter integer FW_SIZE = 16384,
  parameter [31:0]  CODE_SIZE = 32'h0000_0800,
  parameter [31:0]  DATA_SIZE = 32'h0000_0800,
  parameter         FW_IMAGE = "",
  parameter integer BAUD = 115200,
  parameter integer LINK_FIFO_DEPTH = 512,
  parameter integer CONSOLE_DEPTH = 64
) (
  input  wire       clk_i,       // 12 MHz oscillator
  input  wire       uart_rx_i,   // from FT2232H channel B TXD
  output wire       uart_tx_o,   // to FT2232H channel B RXD
  output wire [7:0] led_o        // D9..D2, 1 = lit
);
  localparam integer CLK_HZ = 12000000;

  wire rst;
  simty_board_por u_por (
    .clk_i(clk_i), .button_n_i(1'b1), .lock_i(1'b1), .rst_o(rst)
  );

  wire trap;
  /* verilator lint_off UNUSEDSIGNAL */
  wire [2:0]  trap_cause;   // reported by the LEDs only as "trapped"
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

  // D9 heartbeat, D8 host -> board, D7 board -> host, D6 controller trap,
  // D5 in reset; D4..D2 off.
  assign led_o = {heartbeat, rx_act, tx_act, trap_led, reset_led, 3'b000};
endmodule

`default_nettype wire
