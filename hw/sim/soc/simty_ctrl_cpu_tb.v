// SPDX-License-Identifier: Apache-2.0
// simty_ctrl_cpu_tb.v - self-checking bench of the controller core: 64 KiB
// of RAM with random wait states, and a test port that logs signature
// words, characters, and ends the run on a controller trap.
//
// Plusargs: +hex=FILE ($readmemh image of the program, words from 0),
// +waitstates (random bus latency instead of the SoC's one cycle).
// The run ends at the first trap: the bench prints "TRAP cause pc" and
// $finish-es; the program ends itself with ecall. Signature words written
// to 0xF000_0004 print as "SIG xxxxxxxx"; bytes to 0xF000_0008 as text.
`default_nettype none

module simty_ctrl_cpu_tb (
  input wire clk_i
);
  reg [31:0] mem_q [0:16383];
  reg [8*256-1:0] hex_file;
  reg wait_random;
  initial begin
    if (!$value$plusargs("hex=%s", hex_file)) begin
      $display("FAIL: no +hex=FILE");
      $finish;
    end
    $readmemh(hex_file, mem_q);
    wait_random = $test$plusargs("waitstates") != 0;
  end

  reg [3:0] rst_count_q = 4'd0;
  wire rst = rst_count_q != 4'd15;
  always @(posedge clk_i) if (rst) rst_count_q <= rst_count_q + 4'd1;

  wire        bus_valid;
  wire [31:0] bus_addr;
  wire [3:0]  bus_wstrb;
  wire [31:0] bus_wdata;
  reg  [31:0] bus_rdata_q;
  reg         bus_ready_q;
  wire        bus_fetch, bus_dnext;
  reg         fetch_q;   // the request being answered is a fetch
  wire [31:0] bus_daddr, bus_maddr;
  wire        trap;
  wire [2:0]  trap_cause;
  wire [31:0] trap_pc;

  // Instructions come from the RAM (FETCH_BASE 0, 64 KiB) on the one bus.
  simty_ctrl_cpu #(.FETCH_BASE(32'h0000_0000), .FETCH_LOG2(16)) u_cpu (
    .clk_i(clk_i), .rst_i(rst),
    .bus_valid_o(bus_valid), .bus_addr_o(bus_addr), .bus_wstrb_o(bus_wstrb),
    .bus_wdata_o(bus_wdata), .bus_rdata_i(fetch_q ? 32'hDEADBEEF : bus_rdata_q),
    .bus_ready_i(bus_ready_q),
    .bus_fetch_o(bus_fetch), .bus_dnext_o(bus_dnext), .bus_daddr_o(bus_daddr),
    .bus_maddr_o(bus_maddr),
    .fetch_rdata_i(fetch_q ? bus_rdata_q : 32'hDEADBEEF),
    .trap_o(trap), .trap_cause_o(trap_cause), .trap_pc_o(trap_pc)
  );

  // The SoC decodes a load or store's target from the address given the
  // cycle before (bus_daddr while bus_dnext): every request that is not
  // a fetch must be at that address, and its data slaves take the
  // address from bus_maddr, as this bench's memory does for a request
  // that is not a fetch. As in the SoC, a fetch's data goes
  // only to fetch_rdata_i and a load's only to bus_rdata_i (the other
  // gets garbage), so a request flagged wrongly breaks the programs.
  reg [31:0] daddr_q;
  always @(posedge clk_i) begin
    if (bus_dnext) daddr_q <= bus_daddr;
    if (bus_valid && !bus_ready_q) fetch_q <= bus_fetch;
    if (!rst && bus_valid && !bus_fetch &&
        (bus_addr[31:2] != daddr_q[31:2] || bus_maddr != bus_addr)) begin
      $display("FAIL: load or store at %08x, announced %08x, maddr %08x",
               bus_addr, daddr_q, bus_maddr);
      $finish;
    end
  end

  // A 16-bit LFSR decides the wait states; 0 extra in the SoC-like mode.
  reg [15:0] lfsr_q = 16'hACE1;
  always @(posedge clk_i) lfsr_q <= {lfsr_q[14:0], lfsr_q[15] ^ lfsr_q[13] ^ lfsr_q[12] ^ lfsr_q[10]};
  wire grant = !wait_random || lfsr_q[1:0] != 2'b00;

  wire [31:0] addr = bus_fetch ? bus_addr : bus_maddr;
  wire is_ram = addr[31:16] == 16'h0000;
  wire is_test = addr[31:16] == 16'hF000;
  integer b;
  always @(posedge clk_i) begin
    bus_ready_q <= 1'b0;
    bus_rdata_q <= 32'hDEADBEEF;   // data outside a ready cycle is garbage
    if (!rst && bus_valid && !bus_ready_q && grant) begin
      bus_ready_q <= 1'b1;
      if (is_ram) begin
        bus_rdata_q <= mem_q[addr[15:2]];
        for (b = 0; b < 4; b = b + 1)
          if (bus_wstrb[b]) mem_q[addr[15:2]][8*b +: 8] <= bus_wdata[8*b +: 8];
      end else if (is_test && bus_wstrb != 4'b0) begin
        if (addr[3:0] == 4'h4) $display("SIG %08x", bus_wdata);
        if (addr[3:0] == 4'h8) $write("%c", bus_wdata[7:0]);
      end else if (!is_test) begin
        $display("FAIL: bus access outside RAM at %08x", addr);
        $finish;
      end else begin
        bus_rdata_q <= 32'd0;
      end
    end
  end

  always @(posedge clk_i) begin
    if (trap) begin
      $display("TRAP %0d %08x", trap_cause, trap_pc);
      $finish;
    end
  end
endmodule

`default_nettype wire
