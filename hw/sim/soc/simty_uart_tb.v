// SPDX-License-Identifier: Apache-2.0
// simty_uart_tb.v - self-checking bench of the link UART and its FIFOs:
// loopback through the PHY, bit-level frames at the configured baud (and
// OFF = 3% or 2% off it), glitches, framing errors, RX overrun, the bit
// timing of TX (each bit within a cycle of its ideal time, a burst at the
// exact average rate: CLK_HZ / BAUD need not be an integer), and the
// byte-bridge variant with random back-pressure. Built at 12 MHz / 1 Mbaud
// (12 cycles a bit) and 25 MHz / 3 Mbaud (8.33).
// Built with verilator --binary --timing; prints PASS/FAIL lines and ends
// with "uart: N failure(s)"; exits non-zero ($fatal) on a failure.
`timescale 1ns / 1ps
`default_nettype none

module simty_uart_tb #(
  parameter integer CLK_HZ = 12000000,
  parameter integer BAUD = 1000000,
  parameter integer OFF_PERMILLE = 30   // sender rate error tried on RX
);
  localparam integer DIV = (CLK_HZ + BAUD / 2) / BAUD;   // about, cycles a bit
  localparam real T = 1.0 * CLK_HZ / BAUD;                // exactly, cycles a bit
  localparam real OFF = OFF_PERMILLE / 1000.0;
  localparam real CLK_NS = 1.0e9 / CLK_HZ;
  localparam integer DEPTH = 16;

  reg clk = 1'b0;
  always #(CLK_NS / 2.0) clk = ~clk;
  reg rst = 1'b1;
  integer failures = 0;

  task automatic check(input cond, input [8*64-1:0] what);
    begin
      if (!cond) begin
        failures = failures + 1;
        $display("FAIL %0s at %0t", what, $time);
      end
    end
  endtask

  // ---- A: loopback (tx wired to rx) ----
  wire a_line;
  reg a_push = 0, a_pop = 0;
  reg [7:0] a_wdata = 0;
  wire a_valid, a_full, a_idle, a_ovr, a_ferr;
  wire [7:0] a_rdata;
  simty_uart #(.CLK_HZ(CLK_HZ), .BAUD(BAUD), .PHY(1), .RX_DEPTH(DEPTH), .TX_DEPTH(DEPTH)) u_a (
    .clk_i(clk), .rst_i(rst), .uart_rx_i(a_line), .uart_tx_o(a_line),
    .bridge_rx_valid_i(1'b0), .bridge_rx_data_i(8'd0), .bridge_rx_ready_o(),
    .bridge_tx_valid_o(), .bridge_tx_data_o(), .bridge_tx_ready_i(1'b0),
    .rx_valid_o(a_valid), .rx_data_o(a_rdata), .rx_pop_i(a_pop),
    .tx_push_i(a_push), .tx_data_i(a_wdata), .tx_full_o(a_full), .tx_idle_o(a_idle),
    .rx_almost_full_o(),
    .rx_overrun_o(a_ovr), .rx_frame_err_o(a_ferr), .clear_i(2'b00)
  );

  // ---- B: driven bit by bit by the bench; its TX is decoded below ----
  reg b_line = 1'b1;
  wire b_tx;
  reg b_push = 0, b_pop = 0, b_clear = 0;
  reg [7:0] b_wdata = 0;
  wire b_valid, b_full, b_idle, b_ovr, b_ferr, b_almost;
  wire [7:0] b_rdata;
  simty_uart #(.CLK_HZ(CLK_HZ), .BAUD(BAUD), .PHY(1), .RX_DEPTH(DEPTH), .TX_DEPTH(DEPTH)) u_b (
    .clk_i(clk), .rst_i(rst), .uart_rx_i(b_line), .uart_tx_o(b_tx),
    .bridge_rx_valid_i(1'b0), .bridge_rx_data_i(8'd0), .bridge_rx_ready_o(),
    .bridge_tx_valid_o(), .bridge_tx_data_o(), .bridge_tx_ready_i(1'b0),
    .rx_valid_o(b_valid), .rx_data_o(b_rdata), .rx_pop_i(b_pop),
    .tx_push_i(b_push), .tx_data_i(b_wdata), .tx_full_o(b_full), .tx_idle_o(b_idle),
    .rx_almost_full_o(b_almost),
    .rx_overrun_o(b_ovr), .rx_frame_err_o(b_ferr), .clear_i({b_clear, b_clear})
  );

  // ---- C: byte bridge ----
  reg c_in_valid = 0, c_out_ready = 0, c_push = 0, c_pop = 0;
  reg [7:0] c_in_data = 0, c_wdata = 0;
  wire c_in_ready, c_out_valid, c_valid, c_full, c_idle, c_ovr, c_ferr, c_tx;
  wire [7:0] c_out_data, c_rdata;
  simty_uart #(.CLK_HZ(CLK_HZ), .BAUD(BAUD), .PHY(0), .RX_DEPTH(DEPTH), .TX_DEPTH(DEPTH)) u_c (
    .clk_i(clk), .rst_i(rst), .uart_rx_i(1'b1), .uart_tx_o(c_tx),
    .bridge_rx_valid_i(c_in_valid), .bridge_rx_data_i(c_in_data), .bridge_rx_ready_o(c_in_ready),
    .bridge_tx_valid_o(c_out_valid), .bridge_tx_data_o(c_out_data), .bridge_tx_ready_i(c_out_ready),
    .rx_valid_o(c_valid), .rx_data_o(c_rdata), .rx_pop_i(c_pop),
    .tx_push_i(c_push), .tx_data_i(c_wdata), .tx_full_o(c_full), .tx_idle_o(c_idle),
    .rx_almost_full_o(),
    .rx_overrun_o(c_ovr), .rx_frame_err_o(c_ferr), .clear_i(2'b00)
  );

  // Send one 8N1 frame on b_line with a bit time of bit_ns.
  task automatic send_frame(input [7:0] data, input real bit_ns, input stop);
    integer k;
    begin
      b_line = 1'b0;
      #(bit_ns);
      for (k = 0; k < 8; k = k + 1) begin
        b_line = data[k];
        #(bit_ns);
      end
      b_line = stop;
      #(bit_ns);
      b_line = 1'b1;
    end
  endtask

  // Pop one byte from B's RX FIFO (it must be there) and compare.
  task automatic expect_b(input [7:0] want, input [8*64-1:0] what);
    begin
      @(negedge clk);
      check(b_valid === 1'b1 && b_rdata === want, what);
      if (b_valid !== 1'b1 || b_rdata !== want)
        $display("     got valid=%b data=%02x want %02x", b_valid, b_rdata, want);
      b_pop = 1'b1;
      @(negedge clk);
      b_pop = 1'b0;
    end
  endtask

  // TX decoder for B: records every line edge's cycle and decodes frames.
  integer cycle = 0;
  always @(posedge clk) cycle <= cycle + 1;
  reg [7:0] dec_bytes [0:63];
  integer dec_start [0:63];
  integer dec_count = 0, dec_bad_timing = 0;
  initial begin : tx_decoder
    integer start_cycle, k;
    reg [7:0] v;
    forever begin
      @(negedge b_tx);
      start_cycle = cycle;
      // sample mid-bit, measured in clock cycles from the start edge
      for (k = 0; k < 10; k = k + 1) begin
        while (cycle < start_cycle + $rtoi((k + 0.5) * T)) @(posedge clk);
        #1;
        if (k == 0 && b_tx !== 1'b0) dec_bad_timing = dec_bad_timing + 1;
        if (k >= 1 && k <= 8) v[k - 1] = b_tx;
        if (k == 9 && b_tx !== 1'b1) dec_bad_timing = dec_bad_timing + 1;
        // the line may only change within a cycle of a bit boundary
        while (cycle < start_cycle + $rtoi((k + 1) * T) - 2) begin
          @(posedge clk);
          #1;
          if (k >= 1 && k <= 8 && b_tx !== v[k - 1]) dec_bad_timing = dec_bad_timing + 1;
        end
      end
      dec_bytes[dec_count] = v;
      dec_start[dec_count] = start_cycle;
      dec_count = dec_count + 1;
    end
  end

  // Bridge side of C: random valid/ready from a LFSR.
  reg [15:0] lfsr = 16'h1D2B;
  always @(posedge clk) lfsr <= {lfsr[14:0], lfsr[15] ^ lfsr[13] ^ lfsr[12] ^ lfsr[10]};

  integer i, n, seen, rx_sent, rx_got, tx_sent, tx_got, saw_backpressure;
  reg [7:0] expect_byte;
  real bit_ns;
  initial begin
    bit_ns = 1.0e9 / BAUD;
    repeat (4) @(posedge clk);
    @(negedge clk) rst = 1'b0;

    // ---- A: 40 bytes through the loopback, more than both FIFOs hold ----
    n = 0;
    seen = 0;
    while (seen < 40) begin
      @(negedge clk);
      a_push = 1'b0;
      a_pop = 1'b0;
      if (n < 40 && !a_full) begin
        a_wdata = 8'(n * 37 + 5);
        a_push = 1'b1;
        n = n + 1;
      end
      if (a_valid && (cycle % 3 == 0)) begin
        check(a_rdata == 8'(seen * 37 + 5), "loopback byte order/value");
        a_pop = 1'b1;
        seen = seen + 1;
      end
      if (cycle > 200000) begin
        check(0, "loopback timed out");
        seen = 40;
      end
    end
    @(negedge clk) a_push = 0; a_pop = 0;
    repeat (20 * DIV) @(negedge clk);
    check(a_idle && !a_valid && !a_ovr && !a_ferr, "loopback idle, no flags");
    $display("PASS-CHECKPOINT loopback: 40 bytes");

    // ---- B RX: frames at the exact baud, and 3% slow and fast ----
    send_frame(8'hA5, bit_ns, 1'b1);
    #(bit_ns);
    expect_b(8'hA5, "rx exact baud A5");
    send_frame(8'h00, bit_ns * (1.0 + OFF), 1'b1);
    send_frame(8'hFF, bit_ns * (1.0 + OFF), 1'b1);
    send_frame(8'h3C, bit_ns * (1.0 - OFF), 1'b1);
    #(bit_ns);
    expect_b(8'h00, "rx slow 00");
    expect_b(8'hFF, "rx slow FF");
    expect_b(8'h3C, "rx fast 3C");
    // back-to-back frames, no idle time between them: exact rate, slow, fast
    for (i = 0; i < 8; i = i + 1) send_frame(8'(8'h81 + i * 8'h11), bit_ns, 1'b1);
    #(bit_ns);
    for (i = 0; i < 8; i = i + 1) expect_b(8'(8'h81 + i * 8'h11), "rx back-to-back");
    for (i = 0; i < 8; i = i + 1) send_frame(8'(8'h0F + i * 8'h31), bit_ns * (1.0 + OFF), 1'b1);
    #(bit_ns);
    for (i = 0; i < 8; i = i + 1) expect_b(8'(8'h0F + i * 8'h31), "rx back-to-back slow");
    for (i = 0; i < 8; i = i + 1) send_frame(8'(8'hF0 - i * 8'h13), bit_ns * (1.0 - OFF), 1'b1);
    #(bit_ns);
    for (i = 0; i < 8; i = i + 1) expect_b(8'(8'hF0 - i * 8'h13), "rx back-to-back fast");
    // a glitch shorter than half a bit is not a start bit
    b_line = 1'b0;
    #(bit_ns * 0.3);
    b_line = 1'b1;
    #(bit_ns * 12);
    @(negedge clk);
    check(!b_valid && !b_ferr, "glitch ignored");
    // a zero stop bit: framing error, byte dropped, next byte fine
    send_frame(8'h5A, bit_ns, 1'b0);
    #(bit_ns * 2);
    @(negedge clk);
    check(!b_valid, "framing error drops the byte");
    check(b_ferr === 1'b1, "framing error flagged");
    send_frame(8'hC3, bit_ns, 1'b1);
    #(bit_ns);
    expect_b(8'hC3, "byte after framing error");
    b_clear = 1'b1;
    @(negedge clk) b_clear = 1'b0;
    check(!b_ferr, "clear resets the framing flag");
    // almost full at 3/4 of DEPTH (the RTS# threshold), then overrun:
    // DEPTH + 2 bytes fill the RAM, its read register and the head
    // register (HEAD_REG), the next ones are lost
    for (i = 0; i < (3 * DEPTH) / 4 - 1; i = i + 1) send_frame(8'(i + 1), bit_ns, 1'b1);
    #(bit_ns);
    check(!b_almost, "not almost full below 3/4");
    for (i = (3 * DEPTH) / 4 - 1; i < (3 * DEPTH) / 4; i = i + 1) send_frame(8'(i + 1), bit_ns, 1'b1);
    #(bit_ns);
    check(b_almost === 1'b1, "almost full at 3/4 of the depth");
    for (i = (3 * DEPTH) / 4; i < DEPTH + 3; i = i + 1) send_frame(8'(i + 1), bit_ns, 1'b1);
    #(bit_ns);
    check(b_ovr === 1'b1, "overrun flagged");
    for (i = 0; i < DEPTH + 2; i = i + 1) expect_b(8'(i + 1), "bytes before the overrun kept");
    @(negedge clk);
    check(!b_valid, "overflowing bytes dropped");
    check(!b_almost, "almost-full clears as the FIFO drains");
    b_clear = 1'b1;
    @(negedge clk) b_clear = 1'b0;
    check(!b_ovr, "clear resets the overrun flag");
    $display("PASS-CHECKPOINT bit-level RX");

    // ---- B TX: exact bit timing of 6 back-to-back bytes ----
    for (i = 0; i < 6; i = i + 1) begin
      @(negedge clk);
      b_wdata = 8'(8'h96 ^ (i * 8'h25));
      b_push = 1'b1;
      @(negedge clk);
      b_push = 1'b0;
    end
    check(!b_idle, "tx busy while sending");
    repeat (6 * 10 * (DIV + 1) + 30) @(negedge clk);
    check(b_idle, "tx idle after sending");
    check(dec_count == 6, "tx frame count");
    for (i = 0; i < 6; i = i + 1)
      check(dec_bytes[i] == 8'(8'h96 ^ (i * 8'h25)), "tx byte value");
    check(dec_bad_timing == 0, "tx bit timing (each bit within a cycle of k * T)");
    // a burst at the exact rate: 5 bytes of 10 bits, within a cycle
    check(dec_start[5] - dec_start[0] >= $rtoi(50.0 * T) - 1 &&
          dec_start[5] - dec_start[0] <= $rtoi(50.0 * T) + 1, "tx burst at the exact rate");
    $display("     tx: 5 bytes in %0d cycles (%0.2f cycles a bit)", dec_start[5] - dec_start[0],
             (dec_start[5] - dec_start[0]) / 50.0);
    $display("PASS-CHECKPOINT TX timing");

    // ---- C: byte bridge, 100 bytes each way with random handshakes ----
    rx_sent = 0; rx_got = 0; tx_sent = 0; tx_got = 0; saw_backpressure = 0;
    while ((rx_got < 100 || tx_got < 100) && cycle < 400000) begin
      @(posedge clk);
      // sample the handshakes that completed at this edge
      if (c_in_valid && c_in_ready) rx_sent = rx_sent + 1;
      if (c_in_valid && !c_in_ready) saw_backpressure = 1;
      if (c_out_valid && c_out_ready) begin
        check(c_out_data == 8'(tx_got * 3 + 1), "bridge tx byte");
        tx_got = tx_got + 1;
      end
      if (c_pop) begin
        check(c_rdata == 8'(rx_got ^ 8'h5A), "bridge rx byte");
        rx_got = rx_got + 1;
      end
      if (c_push) tx_sent = tx_sent + 1;
      #1;
      c_in_valid = rx_sent < 100 && lfsr[0];
      c_in_data = 8'(rx_sent ^ 8'h5A);
      c_out_ready = lfsr[3] & lfsr[5];
      c_pop = c_valid && lfsr[7] && lfsr[8] && (cycle > 300);
      c_push = tx_sent < 100 && !c_full && lfsr[2];
      c_wdata = 8'(tx_sent * 3 + 1);
    end
    check(rx_got == 100 && tx_got == 100, "bridge moved 100 bytes each way");
    check(saw_backpressure == 1, "bridge applied back-pressure when full");
    check(!c_ovr && !c_ferr && c_tx === 1'b1, "bridge: no flags, pin idle");
    $display("PASS-CHECKPOINT byte bridge");

    $display("uart: %0d failure(s)", failures);
    if (failures != 0) $fatal(1, "uart bench failed");
    $finish;
  end

  initial begin
    #(50_000_000);
    $fatal(1, "uart bench: global time-out");
  end
endmodule

`default_nettype wire
