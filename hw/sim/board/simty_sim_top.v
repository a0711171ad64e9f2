// SPDX-License-Identifier: Apache-2.0
// simty_sim_top.v - the simulated board: the same SoC the FPGA boards use,
// with only the UART PHY replaced by a byte bridge (PHY = 0) that the
// C++ glue, simty_sim_main.cpp, connects to a socket.
`default_nettype none

module simty_sim_top #(
  parameter integer WARPS = 4,
  parameter integer LANES = 4,
  parameter integer FW_SIZE = 32768,
  parameter [31:0]  CODE_SIZE = 32'h0001_0000,
  parameter [31:0]  DATA_SIZE = 32'h0010_0000,
  parameter         FW_IMAGE = "",
  parameter integer CLK_HZ = 12000000,
  parameter integer BAUD = 3000000,
  parameter [31:0]  HW_BUILD = 32'd0,  // source digest (HW_BUILD register)
  parameter integer XBAR = 0          // the core's crossbar: 0 full, 1 rotate
) (
  input  wire        clk_i,
  input  wire        rst_i,
  input  wire        rx_valid_i,     // host -> device byte
  input  wire [7:0]  rx_data_i,
  output wire        rx_ready_o,
  output wire        tx_valid_o,     // device -> host byte
  output wire [7:0]  tx_data_o,
  input  wire        tx_ready_i,
  output wire        trap_o,
  output wire [2:0]  trap_cause_o,
  output wire [31:0] trap_pc_o
);
  /* verilator lint_off UNUSEDSIGNAL */
  wire uart_tx_unused;   // the pin is idle: the bridge carries the bytes
  wire uart_rts_unused;
  wire core_busy_unused, core_fault_unused;   // board LEDs only
  /* verilator lint_on UNUSEDSIGNAL */

  simty_soc #(
    .WARPS(WARPS), .LANES(LANES), .FW_SIZE(FW_SIZE), .CODE_SIZE(CODE_SIZE),
    .DATA_SIZE(DATA_SIZE), .FW_IMAGE(FW_IMAGE), .CLK_HZ(CLK_HZ), .BAUD(BAUD), .HW_BUILD(HW_BUILD),
    .PHY(0), .EXT_M(1), .EXT_A(1), .EXT_ZICNTR(1),  // the simulated board is rv32ima_zicntr
    .XBAR(XBAR),
    .HOT_LUTRAM(1), .SMALL_TABLES(2)   // the core's tables as the ULX3S builds them
  ) u_soc (
    .clk_i(clk_i), .rst_i(rst_i),
    .uart_rx_i(1'b1), .uart_tx_o(uart_tx_unused), .uart_rts_n_o(uart_rts_unused),
    .bridge_rx_valid_i(rx_valid_i), .bridge_rx_data_i(rx_data_i),
    .bridge_rx_ready_o(rx_ready_o), .bridge_tx_valid_o(tx_valid_o),
    .bridge_tx_data_o(tx_data_o), .bridge_tx_ready_i(tx_ready_i),
    .ctrl_trap_o(trap_o), .ctrl_trap_cause_o(trap_cause_o),
    .ctrl_trap_pc_o(trap_pc_o),
    .core_busy_o(core_busy_unused), .core_fault_o(core_fault_unused)
  );
endmodule

`default_nettype wire
