// simty_board_status.v - status LEDs of the board tops (1 = lit; each
// top inverts for active-low LEDs):
//   heartbeat_o  blinks at about 1 Hz while the SoC is out of reset: the
//                bitstream is loaded and the clock runs
//   rx_o, tx_o   host link activity: lit for about 20 ms after the line
//                was low (a start bit or zero data bit) in that direction
//   trap_o       the controller stopped on a trap (a firmware bug: the
//                host link is dead until a reset)
//   reset_o      the power-on reset is still asserted
// The SoC does not yet bring the launch window (MMIO ACTIVE) or the
// core's fault record out to a port, so there are no "launch running"
// or "fault" LEDs here: see docs/boards.md.
`default_nettype none

module simty_board_status #(
  parameter integer CLK_HZ = 12000000
) (
  input  wire clk_i,
  input  wire rst_i,
  input  wire uart_rx_i,     // host -> FPGA line (idles high)
  input  wire uart_tx_i,     // FPGA -> host line (idles high)
  input  wire trap_i,
  output wire heartbeat_o,
  output wire rx_o,
  output wire tx_o,
  output wire trap_o,
  output wire reset_o
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

  reg [ACT:0] rx_act_q = {(ACT + 1){1'b0}};
  reg [ACT:0] tx_act_q = {(ACT + 1){1'b0}};
  always @(posedge clk_i) begin
    if (!rx_sync_q[1]) rx_act_q <= {1'b1, {ACT{1'b0}}};
    else if (rx_act_q[ACT]) rx_act_q <= rx_act_q + 1'b1;
    if (!uart_tx_i) tx_act_q <= {1'b1, {ACT{1'b0}}};
    else if (tx_act_q[ACT]) tx_act_q <= tx_act_q + 1'b1;
  end

  assign heartbeat_o = beat_q[HB];
  assign rx_o = rx_act_q[ACT];
  assign tx_o = tx_act_q[ACT];
  assign trap_o = trap_i;
  assign reset_o = rst_i;
endmodule

`default_nettype wire
