// SPDX-License-Identifier: Apache-2.0
// simty_uart_tx.v - UART transmitter (8N1): bytes to the host link's
// outgoing bits, start bit, 8 data bits LSB first, one stop bit, at
// exactly BAUD on average even when CLK_HZ / BAUD is not an integer: a
// phase accumulator adds BAUD / g each cycle and a bit ends when it
// reaches CLK_HZ / g (g = their greatest common divisor), so each bit
// lasts floor or ceil(CLK_HZ / BAUD) cycles (25 MHz / 3 Mbaud: 9, 8, 8).
// Back-to-back bytes follow each other with no idle cycle, the phase
// carried over, so a burst runs at the exact rate.
// Reset: synchronous, active high; the line idles high.
`default_nettype none

module simty_uart_tx #(
  parameter integer CLK_HZ = 12000000,
  parameter integer BAUD = 115200
) (
  input  wire       clk_i,
  input  wire       rst_i,
  input  wire       valid_i,
  input  wire [7:0] data_i,
  output wire       ready_o,   // takes data_i when valid_i
  output wire       tx_o
);
`include "simty_uart_rate.vh"

  reg [8:0]    shift_q;    // {stop, data}: the bits after the start bit
  reg [3:0]    left_q;     // bits still to send (the current one included), 0 = idle
  reg [AW-1:0] acc_q;      // phase within the current bit
  reg          line_q;

  wire [AW-1:0] acc_sum = acc_q + INC;
  wire          tick = acc_sum >= MOD;   // the current bit ends this cycle
  // Idle, or the stop bit ends this cycle: a new byte starts at the edge.
  wire          take = (left_q == 4'd0) | ((left_q == 4'd1) & tick);

  always @(posedge clk_i) begin
    if (rst_i) begin
      left_q <= 4'd0;
      line_q <= 1'b1;
      acc_q <= {AW{1'b0}};
    end else begin
      if (left_q == 4'd0) acc_q <= {AW{1'b0}};
      else acc_q <= tick ? acc_sum - MOD : acc_sum;
      if (take & valid_i) begin
        shift_q <= {1'b1, data_i};
        left_q <= 4'd10;
        line_q <= 1'b0;
      end else if ((left_q != 4'd0) & tick) begin
        left_q <= left_q - 4'd1;
        // After the stop bit the line stays high (shift_q fills with 1s).
        shift_q <= {1'b1, shift_q[8:1]};
        line_q <= shift_q[0];
      end
    end
  end

  assign ready_o = take;
  assign tx_o = line_q;
endmodule

`default_nettype wire
