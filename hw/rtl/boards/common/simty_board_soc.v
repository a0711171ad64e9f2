// SPDX-License-Identifier: Apache-2.0
// simty_board_soc.v - what every FPGA board top instantiates: the Simty
// SoC with its UART PHY (PHY = 1; the byte bridge tied off) and the
// status LED logic (simty_board_status). A top adds only its clock
// (oscillator or PLL), its reset (simty_board_por), its pins and which
// LED shows which status bit.
//
// Status outputs: 1 = lit (a top inverts for active-low LEDs); meanings
// in simty_board_status.v and docs/boards.md.
// Reset: synchronous, active high (the SoC's convention).
`default_nettype none

module simty_board_soc #(
  parameter integer WARPS = 1,
  parameter integer LANES = 4,
  parameter integer FW_SIZE = 16384,
  parameter [31:0]  CODE_SIZE = 32'h0000_0800,
  parameter [31:0]  DATA_SIZE = 32'h0000_0800,
  parameter         FW_IMAGE = "",
  parameter integer CLK_HZ = 12000000,
  parameter integer BAUD = 115200,
  parameter integer LINK_FIFO_DEPTH = 512,
  parameter integer CONSOLE_DEPTH = 64,
  parameter [31:0]  HW_BUILD = 32'd0,   // source digest (HW_BUILD register)
  parameter integer LINK_ENGINE = 1,    // 0: no link engine (saves LINKBUF's RAM)
  parameter integer HOT_LUTRAM = 0,     // 1: the core's hot tables in LUT RAM (ECP5)
  parameter integer SMALL_TABLES = 1,   // the core's small tables: 2 LUT RAM (ECP5)
  parameter integer EXT_M = 0,          // the core's M extension
  parameter integer EXT_A = 0,          // the core's A extension (atomics)
  parameter integer EXT_ZICNTR = 0,     // the core's Zicntr counters
  parameter integer VCLASS = 1          // 0: no value classifier (uniform/affine read 0)
) (
  input  wire clk_i,
  input  wire rst_i,
  input  wire uart_rx_i,       // from the FTDI chip's TXD
  output wire uart_tx_o,       // to the FTDI chip's RXD
  output wire uart_rts_n_o,    // 1 = pause, to the FTDI chip's CTS#
  output wire led_heartbeat_o, // about 1 Hz blink: clock and bitstream alive
  output wire led_rx_o,        // host -> board traffic (about 20 ms a burst)
  output wire led_tx_o,        // board -> host traffic
  output wire led_trap_o,      // the controller trapped (firmware bug)
  output wire led_reset_o,     // the power-on reset is asserted
  output wire led_busy_o,      // a kernel is executing (stretched, 20 ms)
  output wire led_fault_o      // the core holds a fault record
);
  wire trap, core_busy, core_fault;
  /* verilator lint_off UNUSEDSIGNAL */
  wire [2:0]  trap_cause;   // the LEDs say only "trapped"
  wire [31:0] trap_pc;
  wire        bridge_rx_ready, bridge_tx_valid;   // PHY = 1: no bridge
  wire [7:0]  bridge_tx_data;
  /* verilator lint_on UNUSEDSIGNAL */

  simty_soc #(
    .WARPS(WARPS), .LANES(LANES), .FW_SIZE(FW_SIZE), .CODE_SIZE(CODE_SIZE),
    .DATA_SIZE(DATA_SIZE), .FW_IMAGE(FW_IMAGE), .CLK_HZ(CLK_HZ), .BAUD(BAUD),
    .PHY(1), .LINK_FIFO_DEPTH(LINK_FIFO_DEPTH), .CONSOLE_DEPTH(CONSOLE_DEPTH),
    .LINK_ENGINE(LINK_ENGINE), .HW_BUILD(HW_BUILD), .HOT_LUTRAM(HOT_LUTRAM),
    .SMALL_TABLES(SMALL_TABLES),
    .EXT_M(EXT_M), .EXT_A(EXT_A), .EXT_ZICNTR(EXT_ZICNTR),
    .VCLASS(VCLASS)
  ) u_soc (
    .clk_i(clk_i), .rst_i(rst_i),
    .uart_rx_i(uart_rx_i), .uart_tx_o(uart_tx_o), .uart_rts_n_o(uart_rts_n_o),
    .bridge_rx_valid_i(1'b0), .bridge_rx_data_i(8'd0),
    .bridge_rx_ready_o(bridge_rx_ready), .bridge_tx_valid_o(bridge_tx_valid),
    .bridge_tx_data_o(bridge_tx_data), .bridge_tx_ready_i(1'b0),
    .ctrl_trap_o(trap), .ctrl_trap_cause_o(trap_cause), .ctrl_trap_pc_o(trap_pc),
    .core_busy_o(core_busy), .core_fault_o(core_fault)
  );

  simty_board_status #(.CLK_HZ(CLK_HZ)) u_status (
    .clk_i(clk_i), .rst_i(rst_i), .uart_rx_i(uart_rx_i), .uart_tx_i(uart_tx_o),
    .trap_i(trap), .busy_i(core_busy), .fault_i(core_fault),
    .heartbeat_o(led_heartbeat_o), .rx_o(led_rx_o), .tx_o(led_tx_o),
    .trap_o(led_trap_o), .reset_o(led_reset_o), .busy_o(led_busy_o),
    .fault_o(led_fault_o)
  );
endmodule

`default_nettype wire
