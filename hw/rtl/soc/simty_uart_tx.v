// SPDX-License-Identifier: Apache-2.0
// simty_uart_tx.v - UART transmitter (8N1): bytes to the host link's
// outgoing bits, start bit, 8 data bits LSB first, one stop bit, each
// DIV = CLK_HZ / BAUD cycles (rounded to the nearest).
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
  output wire       ready_o,   // idle: takes data_i when valid_i
  output wire       tx_o
);
  localparam integer DIV = (CLK_HZ + BAUD / 2) / BAUD;
  localparam integer CW = $clog2(DIV + 1);
  localparam integer FULL_I = DIV - 1;
  localparam [CW-1:0] FULL = FULL_I[CW-1:0];

  reg [8:0]    shift_q;    // {stop, data}: the bits after the start bit
  reg [3:0]    left_q;     // bits still to send, 0 = idle
  reg [CW-1:0] count_q;
  reg          line_q;

  always @(posedge clk_i) begin
    if (rst_i) begin
      left_q <= 4'd0;
      line_q <= 1'b1;
    end else if (left_q == 4'd0) begin
      if (valid_i) begin
        shift_q <= {1'b1, data_i};
        left_q <= 4'd10;
        count_q <= FULL;
        line_q <= 1'b0;
      end
    end else if (count_q == 0) begin
      count_q <= FULL;
      left_q <= left_q - 4'd1;
      // After the stop bit the line stays high (shift_q fills with 1s).
      shift_q <= {1'b1, shift_q[8:1]};
      line_q <= shift_q[0];
    end else begin
      count_q <= count_q - 1'b1;
    end
  end

  assign ready_o = left_q == 4'd0;
  assign tx_o = line_q;
endmodule

`default_nettype wire
