// SPDX-License-Identifier: Apache-2.0
// simty_uart_rate.vh - the bit timing shared by simty_uart_rx and
// simty_uart_tx (included in the module body; CLK_HZ and BAUD are the
// module's parameters): a phase accumulator adds INC every cycle and a
// bit ends when it passes MOD, MOD / INC being CLK_HZ / BAUD in lowest
// terms, so bits last floor or ceil of CLK_HZ / BAUD cycles and their
// average is the exact rate.
function automatic integer gcd(input integer x, input integer y);
  integer a, b, t, k;
  begin
    a = x;
    b = y;
    for (k = 0; k < 64; k = k + 1) begin
      if (b != 0) begin
        t = a % b;
        a = b;
        b = t;
      end
    end
    gcd = a;
  end
endfunction
localparam integer G = gcd(CLK_HZ, BAUD);
localparam integer MOD_I = CLK_HZ / G;   // accumulator units a bit
localparam integer INC_I = BAUD / G;     // units a cycle
localparam integer AW = $clog2(MOD_I + INC_I + 1);
localparam [AW-1:0] MOD = MOD_I[AW-1:0];
localparam [AW-1:0] INC = INC_I[AW-1:0];
