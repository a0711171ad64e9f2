// SPDX-License-Identifier: Apache-2.0
// simty_sim_uart_top.v - the simulated board with the real UART PHY: the
// SoC exactly as the FPGA boards build it (PHY = 1), and on the host side
// of its pins a UART like the FTDI chip's (the same simty_uart_tx and
// simty_uart_rx), so that the C++ glue keeps its byte interface while
// every byte crosses the wires bit by bit at BAUD. Slower than
// simty_sim_top; used to check the board path (`simty-sim --uart-phy`).
`default_nettype none

module simty_sim_uart_top #(
  parameter integer WARPS = 4,
  parameter integer LANES = 4,
  parameter integer FW_SIZE = 32768,
  parameter [31:0]  CODE_SIZE = 32'h0001_0000,
  parameter [31:0]  DATA_SIZE = 32'h0010_0000,
  parameter         FW_IMAGE = "",
  parameter integer CLK_HZ = 12000000,
  parameter integer BAUD = 1000000,
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
  wire to_device;     // the board's RX pin
  wire to_host;       // the board's TX pin
  wire pause_n;       // the board's RTS# (high: pause), to the host's CTS#
  /* verilator lint_off UNUSEDSIGNAL */
  wire bridge_unused_ready, bridge_unused_valid;
  wire [7:0] bridge_unused_data;
  wire core_busy_unused, core_fault_unused;   // board LEDs only
  /* verilator lint_on UNUSEDSIGNAL */

  simty_soc #(
    .WARPS(WARPS), .LANES(LANES), .FW_SIZE(FW_SIZE), .CODE_SIZE(CODE_SIZE),
    .DATA_SIZE(DATA_SIZE), .FW_IMAGE(FW_IMAGE), .CLK_HZ(CLK_HZ), .BAUD(BAUD), .HW_BUILD(HW_BUILD),
    .PHY(1), .EXT_M(1), .EXT_A(1), .EXT_ZICNTR(1),  // the simulated board is rv32ima_zicntr
    .XBAR(XBAR),
    .HOT_LUTRAM(1), .SMALL_TABLES(2)   // the core's tables as the ULX3S builds them
  ) u_soc (
    .clk_i(clk_i), .rst_i(rst_i),
    .uart_rx_i(to_device), .uart_tx_o(to_host), .uart_rts_n_o(pause_n),
    .bridge_rx_valid_i(1'b0), .bridge_rx_data_i(8'd0),
    .bridge_rx_ready_o(bridge_unused_ready), .bridge_tx_valid_o(bridge_unused_valid),
    .bridge_tx_data_o(bridge_unused_data), .bridge_tx_ready_i(1'b0),
    .ctrl_trap_o(trap_o), .ctrl_trap_cause_o(trap_cause_o),
    .ctrl_trap_pc_o(trap_pc_o),
    .core_busy_o(core_busy_unused), .core_fault_o(core_fault_unused)
  );

  // The host's UART: bytes to bits on to_device, starting no new byte
  // while the board asks for a pause (CTS flow control, as the FTDI chip)...
  wire host_tx_ready;
  simty_uart_tx #(.CLK_HZ(CLK_HZ), .BAUD(BAUD)) u_host_tx (
    .clk_i(clk_i), .rst_i(rst_i),
    .valid_i(rx_valid_i & ~pause_n), .data_i(rx_data_i), .ready_o(host_tx_ready),
    .tx_o(to_device)
  );
  assign rx_ready_o = host_tx_ready & ~pause_n;

  // ...and bits from to_host to bytes, queued for the glue (a UART cannot
  // wait: the FIFO absorbs the glue's pauses).
  wire       host_rx_valid;
  wire [7:0] host_rx_data;
  /* verilator lint_off UNUSEDSIGNAL */
  wire       host_frame_err, fifo_full_unused, fifo_empty_unused;
  wire [10:0] fifo_level_unused;
  /* verilator lint_on UNUSEDSIGNAL */
  simty_uart_rx #(.CLK_HZ(CLK_HZ), .BAUD(BAUD)) u_host_rx (
    .clk_i(clk_i), .rst_i(rst_i), .rx_i(to_host),
    .valid_o(host_rx_valid), .data_o(host_rx_data), .frame_err_o(host_frame_err)
  );
  simty_fifo #(.WIDTH(8), .DEPTH(512)) u_host_fifo (
    .clk_i(clk_i), .rst_i(rst_i),
    .push_i(host_rx_valid), .data_i(host_rx_data), .full_o(fifo_full_unused),
    .valid_o(tx_valid_o), .data_o(tx_data_o), .pop_i(tx_valid_o & tx_ready_i),
    .empty_o(fifo_empty_unused), .level_o(fifo_level_unused)
  );
endmodule

`default_nettype wire
