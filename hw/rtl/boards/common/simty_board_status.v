// SPDX-License-Identifier: Apache-2.0
// simty_board_status.v - status LEDs of the board tops (1 = lit; each
// top inverts for active-low LEDs):
//   heartbeat_o  blinks at about 1 Hz while the SoC is out of reset: the
//                bitstream is loaded and the clock runs
//   rx_o, tx_o   host link activity: lit for about 20 ms after the line
//                was low (a start bit or zero data bit) in that direction
//   trap_o       the controller stopped on a trap (a firmware bug: the
//                host link is dead until a reset)
//   reset_o      the power-on reset is still asserted
//   busy_o       a kernel is executing on the Simty core: lit while the
//                SoC's core_busy_o is up and for about 20 ms after, so a
//                kernel of a few microseconds still shows (and the short
//                gaps while the firmware refills a warp do not flicker)
//   fault_o      the Simty core holds a fault record (a kernel faulted):
//                lit until the firmware's next core reset (next LAUNCH or
//                RESET from the host)
`default_nettype none

module simty_board_status #(
  parameter integer CLK_HZ = 12000000
) (
  input  wire clk_i,
  input  wire rst_i,
  input  wire uart_rx_i,     // host -> FPGA line (idles high)
  input  wire uart_tx_i,     // FPGA -> host line (idles high)
  input  wire trap_i,
  input  wire busy_i,        // simty_soc core_busy_o
  input  wire fault_i,       // simty_soc core_fault_o
  output wire heartbeat_o,
  output wire rx_o,
  output wire tx_o,
  output wire trap_o,
  output wire reset_o,
  output wire busy_o,
  output wire fault_o
);
  // Half a heartbeat period = 2^(HB) cycles: 0.7 s at 12 MHz, 0.67 s at
  // 25 MHz. Activity lasts 2^(HB - 5) cycles, about 20 ms.
  localparam integer HB = $clog2(CLK_HZ) - 1;
  localparam integer ACT = HB - 5;

  reg [HB:0] beat_q = {(HB + 1){1'b0}};
  always @(posedge clk_i) begin
    if (rst_i) beat_q <= {(HB + 1){1'b0}};
    else beat_q <= beat_q + 1'b1;
  end

  // The RX pin is asynchronous to the clock: synchronise before use.
  reg [1:0] rx_sync_q = 2'b11;
  always @(posedge clk_i) rx_sync_q <= {rx_sync_q[0], uart_rx_i};

  // Each stretcher restarts while its input is active; its top bit (the
  // LED) stays set until the count wraps 2^ACT cycles after the last
  // active cycle. busy_i comes from SoC flops: no synchroniser.
  reg [ACT:0] rx_act_q = {(ACT + 1){1'b0}};
  reg [ACT:0] tx_act_q = {(ACT + 1){1'b0}};
  reg [ACT:0] busy_act_q = {(ACT + 1){1'b0}};
  always @(posedge clk_i) begin
    if (!rx_sync_q[1]) rx_act_q <= {1'b1, {ACT{1'b0}}};
    else if (rx_act_q[ACT]) rx_act_q <= rx_act_q + 1'b1;
    if (!uart_tx_i) tx_act_q <= {1'b1, {ACT{1'b0}}};
    else if (tx_act_q[ACT]) tx_act_q <= tx_act_q + 1'b1;
    if (busy_i) busy_act_q <= {1'b1, {ACT{1'b0}}};
    else if (busy_act_q[ACT]) busy_act_q <= busy_act_q + 1'b1;
  end

  assign heartbeat_o = beat_q[HB];
  assign rx_o = rx_act_q[ACT];
  assign tx_o = tx_act_q[ACT];
  assign trap_o = trap_i;
  assign reset_o = rst_i;
  assign busy_o = busy_act_q[ACT];
  assign fault_o = fault_i;
endmodule

`default_nettype wire
