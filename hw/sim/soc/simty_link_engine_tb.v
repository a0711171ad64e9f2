// SPDX-License-Identifier: Apache-2.0
// simty_link_engine_tb.v - the link engine in a small SoC for its bench
// (simty_link_engine_tb.cpp drives it): the UART FIFOs with the byte
// bridge (PHY = 0), a CODE RAM and a DATA RAM that a stand-in for the
// Simty core keeps busy in the cycles the bench asks (it reads them then,
// so a copy that relied on a RAM's held read data, or on a CODE read the
// core took, would fail), and the
// controller's bus as in simty_soc: one request, granted when the port is
// free (CODE, DATA and LINKBUF wait while a copy runs), data the cycle
// after the grant.
`default_nettype none

module simty_link_engine_tb #(
  parameter integer FIFO_DEPTH = 16
) (
  input  wire        clk_i,
  input  wire        rst_i,
  // controller bus: hold req_i until ack_o; rdata_o with ack_o
  input  wire        req_i,
  input  wire [31:0] addr_i,
  input  wire [3:0]  wstrb_i,
  input  wire [31:0] wdata_i,
  output reg         ack_o,
  output reg  [31:0] rdata_o,
  // "core" activity on CODE and DATA this cycle
  input  wire        code_busy_i,
  input  wire        data_busy_i,
  // byte bridge
  input  wire        rx_valid_i,
  input  wire [7:0]  rx_data_i,
  output wire        rx_ready_o,
  output wire        tx_valid_o,
  output wire [7:0]  tx_data_o,
  input  wire        tx_ready_i,
  output wire        copy_busy_o
);
  localparam [31:0] CODE_BASE = 32'h0001_0000, CODE_SIZE = 32'h0001_0000;
  localparam [31:0] DATA_BASE = 32'h1000_0000, DATA_SIZE = 32'h0001_0000;

  wire hit_code = (addr_i & ~(CODE_SIZE - 1)) == CODE_BASE;
  wire hit_data = (addr_i & ~(DATA_SIZE - 1)) == DATA_BASE;
  wire hit_lb = addr_i[31:15] == 17'h1E001;            // 0xF0008000
  wire hit_reg = addr_i[31:8] == 24'hF00001;           // 0xF0000100
  wire hit_uart = addr_i[31:8] == 24'hF00000;          // UART_DATA at 0xB0
  wire copy_busy;
  // As simty_soc: CODE is granted whatever the "core" does; a read it
  // took (code_busy_i wins CODE's read address) is granted again.
  wire free = hit_code ? ~copy_busy : hit_data ? ~data_busy_i & ~copy_busy :
              hit_lb ? ~copy_busy : 1'b1;
  reg pending_q, lost_q;
  wire grant = req_i & (~pending_q | lost_q) & ~ack_o & free;
  reg [2:0] sel_q;
  always @(posedge clk_i) begin
    if (rst_i) begin
      pending_q <= 1'b0;
      lost_q <= 1'b0;
      ack_o <= 1'b0;
    end else begin
      pending_q <= grant;
      lost_q <= grant & hit_code & (wstrb_i == 4'd0) & code_busy_i;
      ack_o <= pending_q & ~lost_q;
    end
    if (grant) sel_q <= hit_code ? 3'd1 : hit_data ? 3'd2 : hit_lb ? 3'd3 : hit_reg ? 3'd4 :
                        hit_uart ? 3'd5 : 3'd0;
  end

  // UART
  wire rx_valid, tx_full, tx_idle, eng_pop, eng_push, enable;
  wire [7:0] rx_data, eng_tx_data;
  /* verilator lint_off UNUSEDSIGNAL */
  wire tx_idle_u, almost_u, ovr_u, ferr_u, pin_u;
  /* verilator lint_on UNUSEDSIGNAL */
  // UART_DATA (0xB0): a pop/push by the bench while the engine is off.
  wire uart_rd = grant & hit_uart & (addr_i[7:0] == 8'hB0) & (wstrb_i == 4'd0);
  wire uart_wr = grant & hit_uart & (addr_i[7:0] == 8'hB0) & (wstrb_i != 4'd0);
  reg [31:0] uart_rdata_q;
  always @(posedge clk_i)
    if (uart_rd) uart_rdata_q <= (rx_valid & ~enable) ? {23'd0, 1'b1, rx_data} : 32'd0;
  simty_uart #(.PHY(0), .RX_DEPTH(FIFO_DEPTH), .TX_DEPTH(FIFO_DEPTH)) u_uart (
    .clk_i(clk_i), .rst_i(rst_i), .uart_rx_i(1'b1), .uart_tx_o(pin_u),
    .bridge_rx_valid_i(rx_valid_i), .bridge_rx_data_i(rx_data_i), .bridge_rx_ready_o(rx_ready_o),
    .bridge_tx_valid_o(tx_valid_o), .bridge_tx_data_o(tx_data_o), .bridge_tx_ready_i(tx_ready_i),
    .rx_valid_o(rx_valid), .rx_data_o(rx_data),
    .rx_pop_i(enable ? eng_pop : (uart_rd & rx_valid)),
    .tx_push_i(enable ? eng_push : uart_wr), .tx_data_i(enable ? eng_tx_data : wdata_i[7:0]),
    .tx_full_o(tx_full), .tx_idle_o(tx_idle_u), .rx_almost_full_o(almost_u),
    .rx_overrun_o(ovr_u), .rx_frame_err_o(ferr_u), .clear_i(2'b00)
  );
  assign tx_idle = tx_idle_u;

  // CODE and DATA
  wire m_re, m_rcode, m_wcode;
  /* verilator lint_off UNUSEDSIGNAL */
  wire [31:0] m_raddr, m_waddr;   // 64 KiB RAMs: the low half of the address
  /* verilator lint_on UNUSEDSIGNAL */
  wire [31:0] m_wdata;
  wire [3:0] m_we;
  wire [31:0] code_rdata, data_rdata, lb_rdata, reg_rdata;
  wire cpu_code = grant & hit_code, cpu_data = grant & hit_data;
  wire cpu_read = wstrb_i == 4'd0;
  simty_ram_be #(.WORDS(16384)) u_code (
    .clk_i(clk_i),
    .re_i(code_busy_i | (cpu_code & cpu_read) | (m_re & m_rcode)),
    .raddr_i(code_busy_i ? 14'd5 : copy_busy ? m_raddr[15:2] : addr_i[15:2]),
    .rdata_o(code_rdata),
    .we_i(cpu_code ? wstrb_i : (m_wcode ? m_we : 4'd0)),
    .waddr_i(copy_busy ? m_waddr[15:2] : addr_i[15:2]),
    .wdata_i(copy_busy ? m_wdata : wdata_i)
  );
  // DATA reads every cycle, as simty_soc's banks do: each master must
  // take its read data the cycle after its read.
  simty_ram_be #(.WORDS(16384)) u_data (
    .clk_i(clk_i),
    .re_i(1'b1),
    .raddr_i(data_busy_i ? 14'd7 : copy_busy ? m_raddr[15:2] : addr_i[15:2]),
    .rdata_o(data_rdata),
    .we_i(cpu_data ? wstrb_i : (m_wcode ? 4'd0 : m_we)),
    .waddr_i(copy_busy ? m_waddr[15:2] : addr_i[15:2]),
    .wdata_i(copy_busy ? m_wdata : wdata_i)
  );
  reg m_rcode_q;
  always @(posedge clk_i) if (m_re) m_rcode_q <= m_rcode;

  simty_link_engine #(.CODE_SIZE(CODE_SIZE), .DATA_SIZE(DATA_SIZE)) u_eng (
    .clk_i(clk_i), .rst_i(rst_i),
    .reg_req_i(grant & hit_reg), .reg_addr_i(addr_i[7:0]), .reg_wstrb_i(wstrb_i),
    .reg_wdata_i(wdata_i), .reg_rdata_o(reg_rdata), .enable_o(enable),
    .lb_sel_i(req_i & hit_lb), .lb_req_i(grant & hit_lb), .lb_addr_i({addr_i[14:2], 2'b00}),
    .lb_wstrb_i(wstrb_i),
    .lb_wdata_i(wdata_i), .lb_rdata_o(lb_rdata), .copy_busy_o(copy_busy),
    .rx_valid_i(rx_valid), .rx_data_i(rx_data), .rx_pop_o(eng_pop),
    .tx_push_o(eng_push), .tx_data_o(eng_tx_data), .tx_full_i(tx_full),
    .code_free_i(~code_busy_i), .data_free_i(~data_busy_i),
    .m_re_o(m_re), .m_rcode_o(m_rcode), .m_raddr_o(m_raddr),
    .m_rdata_i(m_rcode_q ? code_rdata : data_rdata),
    .m_we_o(m_we), .m_wcode_o(m_wcode), .m_waddr_o(m_waddr), .m_wdata_o(m_wdata)
  );
  assign copy_busy_o = copy_busy;

  // Read data: registered one more cycle so the bench sees it with ack_o.
  always @(posedge clk_i) begin
    if (pending_q & ~lost_q) begin
      case (sel_q)
        3'd1: rdata_o <= code_rdata;
        3'd2: rdata_o <= data_rdata;
        3'd3: rdata_o <= lb_rdata;
        3'd4: rdata_o <= reg_rdata;
        3'd5: rdata_o <= uart_rdata_q;
        default: rdata_o <= 32'd0;
      endcase
    end
  end

  // The copy never touches DATA in a cycle the "core" uses it. In CODE
  // the "core" only reads: the copy's writes go on, and a read the core
  // took (it wins the address above) must be made again, which the
  // copied data checks (word 5 would show up otherwise).
  always @(posedge clk_i) begin
    if (!rst_i && (data_busy_i && ((m_re && !m_rcode) || (!m_wcode && m_we != 0)))) begin
      $display("FAIL copy used a RAM the core held");
      $stop;
    end
  end
  /* verilator lint_off UNUSEDSIGNAL */
  wire unused = tx_idle;
  /* verilator lint_on UNUSEDSIGNAL */
endmodule

`default_nettype wire
