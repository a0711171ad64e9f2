// SPDX-License-Identifier: Apache-2.0
// simty_link_engine.v - the host link in hardware (docs/soc.md, "Link
// engine"): frames received from the UART RX FIFO are COBS-decoded and
// CRC-checked into RX slots of the link buffer (LINKBUF); responses the
// firmware leaves in TX slots get their CRC-32 and go out COBS-encoded
// into the UART TX FIFO; a copy unit moves bytes between CODE, DATA and
// LINKBUF. Registers at MMIO offsets 0x100..0x1FF (firmware/simty_mmio.h).
//
// LINKBUF: one RAM (simty_ram_be, 1 read + 1 write port) of
// (RX_SLOTS + TX_SLOTS) slots of SIMTY_LINK_SLOT_BYTES; slot i at byte
// i * stride, RX slots first. Port priority, each cycle and each port on
// its own: the controller, then the copy (the SoC holds the controller
// off while a copy runs, so these two never meet), then RX (write port),
// then TX. A master that loses waits a cycle; no byte is ever dropped.
//
// RX: the oldest UART byte is popped only when the write port is free
// for RX and either a slot is free or the decoder is hunting for a
// delimiter. Decoding follows simty_link_decoder_feed (driver/link/
// simty_link.c), with the runt test first: on a zero, fewer than 8 bytes
// decoded is a runt (counted, slot stays free); a run cut short, or a
// size other than 12 + header length, is BAD_LENGTH; a CRC-32 residue
// other than 0xDEBB20E3 over the whole frame (body and its CRC) is
// BAD_CRC; else FRAME. A frame growing past 12 + 4096 bytes is held at
// once as BAD_LENGTH (4108 bytes decoded) and the rest is dropped up to
// the next zero. Held frames form a ring over the RX slots, so they are
// reported and released oldest first.
//
// TX: a queue of (slot, L). For its head: the CRC of slot[0..L) (one
// byte every 2 cycles), stored little-endian at slot[L..L+4), then 0x00,
// COBS(slot[0..L+4)), 0x00 into the UART TX FIFO. The encoder scans each
// run to find its length, then reads the run again to send it (3 cycles
// a byte each, plus the waits for a full UART FIFO; the wire takes over
// 100). Every byte read from the buffer is registered (byte_q) before
// the CRC, the scan's test or the FIFO sees it: the block RAM's output
// then ends in one flip-flop, not in the frame-end flag. The entry leaves
// the queue when its closing zero is in the UART FIFO.
//
// COPY: one step a cycle; a step reads the source word and writes up to
// 4 bytes (those in both the source and destination words), rotated into
// place under byte enables: 4 bytes a cycle when src and dst share their
// alignment. The read word is registered as read, before its write (no
// path from one RAM's output to another's input), and rotated on its way
// to the write port, where the data leaves a flip-flop rather than a
// block RAM's late output: the read of step k + 2 goes with the write of
// step k, so the source and destination ranges must not overlap. A
// region (CODE, DATA, LINKBUF, or none: reads 0, writes dropped) is
// fixed by each start address at COPY_GO; the address then wraps inside
// that region. DATA is used only in cycles the Simty core leaves it
// (data_free_i, from the core's registers). CODE's write port is the
// copy's alone (the core only reads CODE), so writes to CODE never wait;
// a read of CODE goes out whatever the core does, the core's fetch wins
// the read port, and a read it took (code_free_i low that cycle,
// registered) is issued again the next cycle in place of a new step. No
// decision of the copy thus waits for the core's fetch pick, which ends
// late in the cycle.
// Reset: synchronous, active high.
`default_nettype none

module simty_link_engine #(
  parameter integer RX_SLOTS = 2,              // 1 .. 6, RX + TX <= 7
  parameter integer TX_SLOTS = 4,              // 1 .. 6
  parameter [31:0]  CODE_SIZE = 32'h0001_0000,
  parameter [31:0]  DATA_SIZE = 32'h0010_0000
) (
  input  wire        clk_i,
  input  wire        rst_i,

  // Registers: req_i one cycle per access, addr_i = offset 0x100..0x1FF
  // (bits 7:2 used), rdata_o valid the next cycle.
  input  wire        reg_req_i,
  /* verilator lint_off UNUSEDSIGNAL */
  input  wire [7:0]  reg_addr_i,   // byte offset within 0x100..0x1FF
  input  wire [3:0]  reg_wstrb_i,
  /* verilator lint_on UNUSEDSIGNAL */
  input  wire [31:0] reg_wdata_i,
  output reg  [31:0] reg_rdata_o,
  output wire        enable_o,     // LINK_CTRL.ENABLE: the engine owns the FIFOs

  // Controller port to LINKBUF (one cycle, data the next). lb_sel_i:
  // the controller presents an access (from the SoC's registers, from
  // before its grant until its ready cycle): outside a copy it selects
  // the port's address and data and holds the engine's own RX and TX
  // accesses back. lb_req_i, the grant (high in one cycle of lb_sel_i,
  // never while copy_busy_o), only enables the read or write, so the
  // SoC's grant logic ends at the RAM's enables, not at its address.
  input  wire        lb_sel_i,
  input  wire        lb_req_i,
  input  wire [14:0] lb_addr_i,    // byte offset in the window (word aligned)
  input  wire [3:0]  lb_wstrb_i,
  input  wire [31:0] lb_wdata_i,
  output wire [31:0] lb_rdata_o,
  output wire        copy_busy_o,

  // UART FIFOs (simty_uart), used only while enabled.
  input  wire        rx_valid_i,
  input  wire [7:0]  rx_data_i,
  output wire        rx_pop_o,
  output wire        tx_push_o,
  output wire [7:0]  tx_data_o,
  input  wire        tx_full_i,

  // Copy master to CODE and DATA: a read returns m_rdata_i the next cycle.
  input  wire        code_free_i,  // the core leaves CODE's read port this cycle
  input  wire        data_free_i,  // the core leaves the DATA RAM this cycle
  output wire        m_re_o,
  output wire        m_rcode_o,    // 1: CODE, 0: DATA
  output wire [31:0] m_raddr_o,    // byte address, bits 1:0 zero
  input  wire [31:0] m_rdata_i,
  output wire [3:0]  m_we_o,
  output wire        m_wcode_o,
  output wire [31:0] m_waddr_o,
  output wire [31:0] m_wdata_o
);
  /* verilator lint_off UNUSEDPARAM */
`include "simty_arch.vh"
  /* verilator lint_on UNUSEDPARAM */

  localparam integer STRIDE = SIMTY_LINK_SLOT_BYTES;
  localparam integer SLOTS = RX_SLOTS + TX_SLOTS;
  localparam integer LB_WORDS = SLOTS * STRIDE / 4;
  localparam integer LB_AW = $clog2(LB_WORDS);
  localparam [12:0] CAP = 13'd4108;               // 8 + 4096 + 4
  localparam [12:0] MAX_L = 13'd4108;             // TX_SEND limit: stride - 4
  localparam [31:0] RESIDUE = 32'hDEBB20E3;
  localparam integer RSW = (RX_SLOTS > 1) ? $clog2(RX_SLOTS) : 1;
  localparam integer TSW = (TX_SLOTS > 1) ? $clog2(TX_SLOTS) : 1;
  localparam [3:0] RX_SLOTS_4 = RX_SLOTS[3:0];
  localparam [3:0] TX_SLOTS_4 = TX_SLOTS[3:0];

  // Byte offset of slot i in LINKBUF: i * 4112 = i * 4096 + i * 16.
  function automatic [14:0] slot_base(input [3:0] i);
    slot_base = {i[2:0], 12'd0} + {7'd0, i, 4'd0};
  endfunction

  // CRC-32 (IEEE, reflected), one byte, register not inverted.
  function automatic [31:0] crc_byte(input [31:0] c, input [7:0] b);
    integer k;
    reg [31:0] x;
    begin
      x = c ^ {24'd0, b};
      for (k = 0; k < 8; k = k + 1) x = x[0] ? ((x >> 1) ^ 32'hEDB88320) : (x >> 1);
      crc_byte = x;
    end
  endfunction

  function automatic [7:0] lane(input [31:0] w, input [1:0] i);
    lane = w[8 * i +: 8];
  endfunction

  // ---------------------------------------------------------------- regs
  localparam [5:0] R_CTRL = 6'h00, R_INFO = 6'h01, R_RX_STATUS = 6'h04,
                   R_RX_RELEASE = 6'h05, R_RX_FRAMES = 6'h06, R_RX_BAD_CRC = 6'h07,
                   R_RX_BAD_LENGTH = 6'h08, R_RX_RUNTS = 6'h09,
                   R_TX_SEND = 6'h10, R_TX_STATUS = 6'h11, R_TX_BUSY = 6'h12,
                   R_COPY_SRC = 6'h18, R_COPY_DST = 6'h19, R_COPY_LEN = 6'h1A,
                   R_COPY_GO = 6'h1B;
  wire [5:0] ridx = reg_addr_i[7:2];
  wire wr = reg_req_i & (reg_wstrb_i != 4'd0);
  wire rd = reg_req_i & (reg_wstrb_i == 4'd0);
  wire wr_ctrl = wr & (ridx == R_CTRL);
  wire soft_reset = wr_ctrl & reg_wdata_i[1];
  wire release_wr = wr & (ridx == R_RX_RELEASE);
  wire send_wr = wr & (ridx == R_TX_SEND);
  wire go_wr = wr & (ridx == R_COPY_GO);

  reg enable_q;
  always @(posedge clk_i) begin
    if (rst_i) enable_q <= 1'b0;
    else if (wr_ctrl) enable_q <= reg_wdata_i[0];
  end
  assign enable_o = enable_q;

  // ---------------------------------------------------------- RAM ports
  // Requests of the masters; the muxes below pick by priority.
  // (the copy owns the port while it runs; the controller then waits)
  wire        copy_busy;
  wire        cpu_sel = lb_sel_i & ~copy_busy;
  wire        cpu_rsel = cpu_sel & (lb_wstrb_i == 4'd0);
  wire        cpu_wsel = cpu_sel & (lb_wstrb_i != 4'd0);
  wire        cpu_rd = lb_req_i & cpu_rsel;
  wire        cp_lb_rd, cp_lb_wr;
  wire [14:0] cp_lb_raddr, cp_lb_waddr;
  wire [3:0]  cp_lb_we;
  wire [31:0] cp_lb_wdata;
  wire        rx_wr;
  wire [14:0] rx_waddr;
  wire [7:0]  rx_wbyte;
  wire        tx_rd, tx_wr;
  wire [14:0] tx_raddr, tx_waddr;
  wire [7:0]  tx_wbyte;

  wire rx_wr_ok = ~cpu_wsel & ~cp_lb_wr;
  wire tx_wr_ok = rx_wr_ok & ~rx_wr;
  wire tx_rd_ok = ~cpu_rsel & ~cp_lb_rd;

  // Byte addresses; the RAM takes the word index.
  /* verilator lint_off UNUSEDSIGNAL */
  wire [14:0] raddr = cpu_rsel ? lb_addr_i : cp_lb_rd ? cp_lb_raddr : tx_raddr;
  wire        re = cpu_rd | cp_lb_rd | tx_rd;
  reg  [14:0] waddr;
  /* verilator lint_on UNUSEDSIGNAL */
  reg  [3:0]  we;
  reg  [31:0] wdata;
  always @* begin
    if (cpu_wsel) begin
      waddr = lb_addr_i;
      we = lb_req_i ? lb_wstrb_i : 4'd0;
      wdata = lb_wdata_i;
    end else if (cp_lb_wr) begin
      waddr = cp_lb_waddr;
      we = cp_lb_we;
      wdata = cp_lb_wdata;
    end else if (rx_wr) begin
      waddr = rx_waddr;
      we = 4'd1 << rx_waddr[1:0];
      wdata = {4{rx_wbyte}};
    end else begin
      waddr = tx_waddr;
      we = tx_wr ? (4'd1 << tx_waddr[1:0]) : 4'd0;
      wdata = {4{tx_wbyte}};
    end
  end
  // Words past the slots (the rest of the 32 KiB window) read 0. Writes
  // there need no check: they fall past the RAM's words or into words no
  // read returns, and a comparator on the write enable would sit at the
  // end of the controller's address path, the SoC's critical one.
  wire r_in = {2'b00, raddr[14:2]} < LB_WORDS[14:0];
  reg  r_in_q;
  always @(posedge clk_i) if (re) r_in_q <= r_in;
  wire [31:0] ram_rdata;
  simty_ram_be #(.WORDS(LB_WORDS)) u_linkbuf (
    .clk_i(clk_i),
    .re_i(re), .raddr_i(raddr[LB_AW+1:2]), .rdata_o(ram_rdata),
    .we_i(we), .waddr_i(waddr[LB_AW+1:2]), .wdata_i(wdata)
  );
  wire [31:0] lb_rdata = r_in_q ? ram_rdata : 32'd0;
  assign lb_rdata_o = lb_rdata;

  // ------------------------------------------------------------------ RX
  localparam [1:0] D_CODE = 2'd0, D_DATA = 2'd1, D_HUNT = 2'd2;
  localparam [1:0] K_FRAME = 2'd0, K_BAD_CRC = 2'd1, K_BAD_LENGTH = 2'd2;
  reg [1:0]     dstate_q;
  reg [12:0]    len_q;         // bytes decoded into the slot
  reg [7:0]     code_q, left_q;
  reg [31:0]    rcrc_q;
  reg [15:0]    hlen_q;        // header length field
  reg [RSW-1:0] wslot_q, rslot_q;
  reg [3:0]     held_q;        // frames held, 0 .. RX_SLOTS
  reg [1:0]     kind_q [0:RX_SLOTS-1];
  reg [12:0]    flen_q [0:RX_SLOTS-1];
  reg [31:0]    n_frames_q, n_bad_crc_q, n_bad_len_q, n_runts_q;

  wire slot_free = held_q < RX_SLOTS_4;
  wire rx_pop = enable_q & rx_valid_i & rx_wr_ok & ((dstate_q == D_HUNT) | slot_free);
  wire [7:0] b = rx_data_i;
  wire in_data = rx_pop & (b != 8'd0) & (dstate_q == D_DATA);
  // A byte to store: a run's data byte, or the zero a finished short run
  // stands for (when the next code byte comes).
  wire need_store = in_data & ((left_q != 8'd0) | (code_q != 8'hFF));
  wire overflow = need_store & (len_q == CAP);
  assign rx_wr = need_store & ~overflow;
  assign rx_wbyte = (left_q == 8'd0) ? 8'd0 : b;
  assign rx_waddr = slot_base({{(4 - RSW){1'b0}}, wslot_q}) + {2'b00, len_q};
  assign rx_pop_o = rx_pop;

  // Frame end on a zero.
  wire at_end = rx_pop & (b == 8'd0) & (dstate_q == D_DATA);
  wire runt = len_q < 13'd8;
  wire [16:0] want_len = {1'b0, hlen_q} + 17'd12;
  wire bad_len = (left_q != 8'd0) | (want_len != {4'd0, len_q});
  wire bad_crc = rcrc_q != RESIDUE;
  wire commit = (at_end & ~runt) | overflow;
  wire [1:0] commit_kind = (overflow | bad_len) ? K_BAD_LENGTH :
                           bad_crc ? K_BAD_CRC : K_FRAME;
  wire rx_release = release_wr & (held_q != 4'd0);

  function automatic [RSW-1:0] rnext(input [RSW-1:0] s);
    rnext = ({{(32 - RSW){1'b0}}, s} == RX_SLOTS - 1) ? {RSW{1'b0}} : s + 1'b1;
  endfunction

  always @(posedge clk_i) begin
    if (rst_i | soft_reset) begin
      dstate_q <= D_CODE;
      wslot_q <= {RSW{1'b0}};
      rslot_q <= {RSW{1'b0}};
      held_q <= 4'd0;
    end else begin
      if (rx_pop) begin
        if (b == 8'd0) begin
          dstate_q <= D_CODE;
        end else begin
          case (dstate_q)
            D_CODE: begin
              dstate_q <= D_DATA;
              code_q <= b;
              left_q <= b - 8'd1;
              len_q <= 13'd0;
              rcrc_q <= 32'hFFFF_FFFF;
            end
            D_DATA: begin
              if (overflow) begin
                dstate_q <= D_HUNT;
              end else begin
                if (rx_wr) begin
                  len_q <= len_q + 13'd1;
                  rcrc_q <= crc_byte(rcrc_q, rx_wbyte);
                  if (len_q == 13'd4) hlen_q[7:0] <= rx_wbyte;
                  if (len_q == 13'd5) hlen_q[15:8] <= rx_wbyte;
                end
                if (left_q == 8'd0) begin
                  code_q <= b;
                  left_q <= b - 8'd1;
                end else begin
                  left_q <= left_q - 8'd1;
                end
              end
            end
            default: ;   // D_HUNT: dropped
          endcase
        end
      end
      if (commit) wslot_q <= rnext(wslot_q);
      if (rx_release) rslot_q <= rnext(rslot_q);
      held_q <= held_q + {3'd0, commit} - {3'd0, rx_release};
    end
    if (commit) begin
      kind_q[wslot_q] <= commit_kind;
      flen_q[wslot_q] <= len_q;
    end
  end

  always @(posedge clk_i) begin
    if (rst_i) begin
      n_frames_q <= 32'd0;
      n_bad_crc_q <= 32'd0;
      n_bad_len_q <= 32'd0;
      n_runts_q <= 32'd0;
    end else begin
      if (commit & (commit_kind == K_FRAME)) n_frames_q <= n_frames_q + 32'd1;
      if (commit & (commit_kind == K_BAD_CRC)) n_bad_crc_q <= n_bad_crc_q + 32'd1;
      if (commit & (commit_kind == K_BAD_LENGTH)) n_bad_len_q <= n_bad_len_q + 32'd1;
      if (at_end & runt) n_runts_q <= n_runts_q + 32'd1;
    end
  end

  // ------------------------------------------------------------------ TX
  // Send queue: entries stay until their frame is in the UART FIFO.
  reg [3:0]     q_slot_q [0:TX_SLOTS-1];
  reg [12:0]    q_len_q [0:TX_SLOTS-1];
  reg [TSW-1:0] q_head_q, q_tail_q;
  reg [3:0]     q_count_q;
  reg [TX_SLOTS-1:0] busy_q;
  wire q_full = q_count_q >= TX_SLOTS_4;
  wire [12:0] send_len = reg_wdata_i[28:16];
  wire [3:0]  send_slot = reg_wdata_i[3:0];
  wire send_ok = send_wr & ~q_full & (send_slot < TX_SLOTS_4) & (send_len <= MAX_L);
  wire tx_done;

  function automatic [TSW-1:0] tnext(input [TSW-1:0] s);
    tnext = ({{(32 - TSW){1'b0}}, s} == TX_SLOTS - 1) ? {TSW{1'b0}} : s + 1'b1;
  endfunction

  // A *_RD state reads a byte; its *_LAT state registers it in byte_q.
  localparam [3:0] T_IDLE = 4'd0, T_CRC_RD = 4'd1, T_CRC_LAT = 4'd2, T_CRC_WR = 4'd3,
                   T_LEAD = 4'd4, T_SCAN_RD = 4'd5, T_SCAN_LAT = 4'd6, T_CODE = 4'd7,
                   T_DATA_RD = 4'd8, T_DATA_LAT = 4'd9, T_DATA_PUSH = 4'd10,
                   T_TAIL = 4'd11, T_SCAN_TEST = 4'd12;
  reg [3:0]  tstate_q;
  reg [3:0]  tslot_q;     // TX slot being sent
  reg [12:0] tlen_q;      // L
  reg [12:0] pos_q;       // CRC pass: next byte; encoder: next byte to send
  reg [12:0] sp_q;        // encoder: scan pointer = end of the current run
  reg [7:0]  run_q;       // bytes in the current run
  reg        last_q;      // the current run ends the frame
  reg        fullrun_q;   // the current run is 254 bytes (no zero follows)
  reg [31:0] tcrc_q;
  reg [1:0]  k_q;         // CRC byte being stored
  reg [7:0]  byte_q;      // the byte last read: to the CRC, the scan or the FIFO
  reg        crc_pend_q;  // byte_q is still to go into tcrc_q

  wire [14:0] tbase = slot_base(RX_SLOTS_4 + tslot_q);
  wire [12:0] tn = tlen_q + 13'd4;
  wire [31:0] tcrc_out = ~tcrc_q;
  wire scan_end = (sp_q == tn) | (run_q == 8'd254);
  wire [12:0] rd_off = ((tstate_q == T_SCAN_RD) | (tstate_q == T_SCAN_LAT)) ? sp_q : pos_q;
  assign tx_rd = ((tstate_q == T_CRC_RD) & (pos_q != tlen_q)) |
                 ((tstate_q == T_SCAN_RD) & ~scan_end) |
                 ((tstate_q == T_DATA_RD) & (pos_q != sp_q));
  assign tx_raddr = tbase + {2'b00, rd_off};
  assign tx_wr = tstate_q == T_CRC_WR;
  assign tx_waddr = tbase + {2'b00, tlen_q} + {13'd0, k_q};
  assign tx_wbyte = lane(tcrc_out, k_q);
  wire [7:0] tbyte = lane(lb_rdata, rd_off[1:0]);   // base is 16-aligned

  reg        push;
  reg [7:0]  push_data;
  always @* begin
    push = 1'b0;
    push_data = 8'd0;
    if (enable_q & ~tx_full_i) begin
      case (tstate_q)
        T_LEAD, T_TAIL: push = 1'b1;
        T_CODE: begin
          push = 1'b1;
          push_data = run_q + 8'd1;
        end
        T_DATA_PUSH: begin
          push = 1'b1;
          push_data = byte_q;
        end
        default: ;
      endcase
    end
  end
  assign tx_push_o = push;
  assign tx_data_o = push_data;
  assign tx_done = push & (tstate_q == T_TAIL);

  // ENABLE = 0 stops a send at its next push into the UART FIFO (and
  // keeps a new one from starting); a read in flight always completes.
  always @(posedge clk_i) begin
    if (rst_i | soft_reset) begin
      tstate_q <= T_IDLE;
    end else begin
      case (tstate_q)
        T_IDLE: if (enable_q & (q_count_q != 4'd0)) begin
          tslot_q <= q_slot_q[q_head_q];
          tlen_q <= q_len_q[q_head_q];
          pos_q <= 13'd0;
          tcrc_q <= 32'hFFFF_FFFF;
          crc_pend_q <= 1'b0;
          tstate_q <= T_CRC_RD;
        end
        T_CRC_RD: begin
          if (crc_pend_q) tcrc_q <= crc_byte(tcrc_q, byte_q);
          crc_pend_q <= 1'b0;
          if (pos_q == tlen_q) begin
            k_q <= 2'd0;
            tstate_q <= T_CRC_WR;
          end else if (tx_rd_ok) begin
            tstate_q <= T_CRC_LAT;
          end
        end
        T_CRC_LAT: begin
          byte_q <= tbyte;
          crc_pend_q <= 1'b1;
          pos_q <= pos_q + 13'd1;
          tstate_q <= T_CRC_RD;
        end
        T_CRC_WR: if (tx_wr_ok) begin
          k_q <= k_q + 2'd1;
          if (k_q == 2'd3) tstate_q <= T_LEAD;
        end
        T_LEAD: if (push) begin
          pos_q <= 13'd0;
          sp_q <= 13'd0;
          run_q <= 8'd0;
          tstate_q <= T_SCAN_RD;
        end
        T_SCAN_RD: begin
          if (scan_end) begin
            last_q <= sp_q == tn;
            fullrun_q <= run_q == 8'd254;
            tstate_q <= T_CODE;
          end else if (tx_rd_ok) begin
            tstate_q <= T_SCAN_LAT;
          end
        end
        T_SCAN_LAT: begin
          byte_q <= tbyte;
          tstate_q <= T_SCAN_TEST;
        end
        T_SCAN_TEST: begin
          if (byte_q == 8'd0) begin
            last_q <= 1'b0;
            fullrun_q <= 1'b0;
            tstate_q <= T_CODE;
          end else begin
            sp_q <= sp_q + 13'd1;
            run_q <= run_q + 8'd1;
            tstate_q <= T_SCAN_RD;
          end
        end
        T_CODE: if (push) tstate_q <= T_DATA_RD;
        T_DATA_RD: begin
          if (pos_q == sp_q) begin
            if (last_q) begin
              tstate_q <= T_TAIL;
            end else begin
              // Skip the zero the run's code stands for, unless full.
              pos_q <= sp_q + {12'd0, ~fullrun_q};
              sp_q <= sp_q + {12'd0, ~fullrun_q};
              run_q <= 8'd0;
              tstate_q <= T_SCAN_RD;
            end
          end else if (tx_rd_ok) begin
            tstate_q <= T_DATA_LAT;
          end
        end
        T_DATA_LAT: begin
          byte_q <= tbyte;
          tstate_q <= T_DATA_PUSH;
        end
        T_DATA_PUSH: if (push) begin
          pos_q <= pos_q + 13'd1;
          tstate_q <= T_DATA_RD;
        end
        T_TAIL: if (push) tstate_q <= T_IDLE;
        default: tstate_q <= T_IDLE;
      endcase
    end
  end

  // Queue bookkeeping and the TX_BUSY bits.
  always @(posedge clk_i) begin
    if (rst_i | soft_reset) begin
      q_head_q <= {TSW{1'b0}};
      q_tail_q <= {TSW{1'b0}};
      q_count_q <= 4'd0;
      busy_q <= {TX_SLOTS{1'b0}};
    end else begin
      if (send_ok) q_tail_q <= tnext(q_tail_q);
      if (tx_done) q_head_q <= tnext(q_head_q);
      q_count_q <= q_count_q + {3'd0, send_ok} - {3'd0, tx_done};
      // A slot's bit: set by its send, cleared when its frame is out
      // (a send of the same slot in the same cycle wins).
      if (tx_done) busy_q[tslot_q[TSW-1:0]] <= 1'b0;
      if (send_ok) busy_q[send_slot[TSW-1:0]] <= 1'b1;
    end
    if (send_ok) begin
      q_slot_q[q_tail_q] <= send_slot;
      q_len_q[q_tail_q] <= send_len;
    end
  end

  // ---------------------------------------------------------------- COPY
  localparam [1:0] G_NONE = 2'd0, G_CODE = 2'd1, G_DATA = 2'd2, G_LB = 2'd3;
  function automatic [1:0] region(input [31:0] a);
    if ((a & ~(CODE_SIZE - 32'd1)) == SIMTY_CODE_BASE) region = G_CODE;
    else if ((a & ~(DATA_SIZE - 32'd1)) == SIMTY_DATA_BASE) region = G_DATA;
    else if (a[31:15] == SIMTY_LINKBUF_BASE[31:15]) region = G_LB;
    else region = G_NONE;
  endfunction

  reg [31:0] c_src_reg_q, c_dst_reg_q;
  reg [24:0] c_len_reg_q;
  reg [31:0] c_src_q, c_dst_q;
  reg [24:0] c_left_q;
  reg        c_nz_q;          // c_left_q != 0, kept as a flop of its own
  reg [1:0]  c_sreg_q, c_dreg_q;
  // Pipeline: issue (read) -> R (the read word arrives and is registered
  // with its rotation) -> W (rotated and written from that register). W
  // has one spare entry (S) for a write that waits for DATA; a step is
  // issued only if its data will find room.
  reg        pend_q;          // R: a read issued last cycle
  reg        lost_q;          // ... of CODE, which the core's fetch took
  reg [31:2] pend_waddr_q;
  reg [31:2] pend_raddr_q;
  reg [3:0]  pend_be_q;
  reg [1:0]  pend_rot_q;
  reg        wv_q, sv_q;      // W and S hold a write
  reg [31:2] w_addr_q, s_addr_q;
  reg [31:0] w_data_q, s_data_q;
  reg [3:0]  w_be_q, s_be_q;
  reg [1:0]  w_rot_q, s_rot_q;

  // From flops through one LUT: the SoC's grant and memory selects use it.
  assign copy_busy = c_nz_q | pend_q | wv_q;
  assign copy_busy_o = copy_busy;

  // The step at the current addresses.
  wire [1:0] s_off = c_src_q[1:0];
  wire [1:0] d_off = c_dst_q[1:0];
  wire [2:0] s_room = 3'd4 - {1'b0, s_off};
  wire [2:0] d_room = 3'd4 - {1'b0, d_off};
  wire [2:0] room = (s_room < d_room) ? s_room : d_room;
  wire [2:0] n = (c_left_q < {22'd0, room}) ? c_left_q[2:0] : room;
  wire [3:0] n_mask = (4'd1 << n) - 4'd1;            // n = 4: 16 - 1 = 15
  wire [3:0] step_be = n_mask << d_off;
  wire [1:0] step_rot = d_off - s_off;

  // Only DATA makes the copy wait; CODE reads are retried instead.
  wire src_free = (c_sreg_q != G_DATA) | data_free_i;
  wire dst_free = (c_dreg_q != G_DATA) | data_free_i;

  // R: the word of the read issued last cycle; a lost read is issued
  // again this cycle (retry), in place of a new step.
  wire [31:0] pend_data = (c_sreg_q == G_LB) ? lb_rdata :
                          (c_sreg_q == G_NONE) ? 32'd0 : m_rdata_i;
  wire        r_ok = pend_q & ~lost_q;
  wire        retry = pend_q & lost_q;

  // W: the write, from registers only: the word rotated left by rot bytes.
  wire w_do = wv_q & dst_free;
  /* verilator lint_off UNUSEDSIGNAL */
  wire [63:0] w_data_2 = {w_data_q, w_data_q} << {w_rot_q, 3'd0};
  /* verilator lint_on UNUSEDSIGNAL */
  wire [31:0] w_wdata = w_data_2[63:32];
  // Entries in W/S after this cycle, before the step issued now lands.
  wire [1:0] n_after = {1'b0, wv_q} + {1'b0, sv_q} - {1'b0, w_do} + {1'b0, r_ok};
  wire issue = c_nz_q & ~retry & src_free & (n_after <= 2'd1);
  wire rd_go = issue | retry;
  wire [31:2] rd_addr = retry ? pend_raddr_q : c_src_q[31:2];

  assign cp_lb_rd = issue & (c_sreg_q == G_LB);
  assign cp_lb_raddr = {c_src_q[14:2], 2'b00};
  assign cp_lb_wr = w_do & (c_dreg_q == G_LB);
  assign cp_lb_waddr = {w_addr_q[14:2], 2'b00};
  assign cp_lb_we = w_be_q;
  assign cp_lb_wdata = w_wdata;
  assign m_re_o = rd_go & ((c_sreg_q == G_CODE) | (c_sreg_q == G_DATA));
  assign m_rcode_o = c_sreg_q == G_CODE;
  assign m_raddr_o = {rd_addr, 2'b00};
  assign m_we_o = (w_do & ((c_dreg_q == G_CODE) | (c_dreg_q == G_DATA))) ? w_be_q : 4'd0;
  assign m_wcode_o = c_dreg_q == G_CODE;
  assign m_waddr_o = {w_addr_q, 2'b00};
  assign m_wdata_o = w_wdata;

  always @(posedge clk_i) begin
    if (wr & (ridx == R_COPY_SRC)) c_src_reg_q <= reg_wdata_i;
    if (wr & (ridx == R_COPY_DST)) c_dst_reg_q <= reg_wdata_i;
    if (wr & (ridx == R_COPY_LEN)) c_len_reg_q <= reg_wdata_i[24:0];
    if (issue) begin
      pend_waddr_q <= c_dst_q[31:2];
      pend_raddr_q <= c_src_q[31:2];
      pend_be_q <= step_be;
      pend_rot_q <= step_rot;
    end
    // W takes S, else R's data, when it empties; S takes R's data when W
    // stays full.
    if (~wv_q | w_do) begin
      if (sv_q) begin
        w_addr_q <= s_addr_q;
        w_be_q <= s_be_q;
        w_rot_q <= s_rot_q;
        w_data_q <= s_data_q;
      end else begin
        w_addr_q <= pend_waddr_q;
        w_be_q <= pend_be_q;
        w_rot_q <= pend_rot_q;
        w_data_q <= pend_data;
      end
    end
    if (r_ok & wv_q & (sv_q ? w_do : ~w_do)) begin
      s_addr_q <= pend_waddr_q;
      s_be_q <= pend_be_q;
      s_rot_q <= pend_rot_q;
      s_data_q <= pend_data;
    end
    if (rst_i) begin
      c_left_q <= 25'd0;
      c_nz_q <= 1'b0;
      pend_q <= 1'b0;
      lost_q <= 1'b0;
      wv_q <= 1'b0;
      sv_q <= 1'b0;
    end else begin
      pend_q <= rd_go;
      // The core's fetch took CODE's read port from this read.
      lost_q <= rd_go & (c_sreg_q == G_CODE) & ~code_free_i;
      wv_q <= n_after != 2'd0;
      sv_q <= n_after == 2'd2;
      if (issue) begin
        c_src_q <= c_src_q + {29'd0, n};
        c_dst_q <= c_dst_q + {29'd0, n};
        c_left_q <= c_left_q - {22'd0, n};
        c_nz_q <= c_left_q != {22'd0, n};     // n <= c_left_q
      end
      if (go_wr & ~copy_busy) begin
        c_src_q <= c_src_reg_q;
        c_dst_q <= c_dst_reg_q;
        c_left_q <= c_len_reg_q;
        c_nz_q <= c_len_reg_q != 25'd0;
        c_sreg_q <= region(c_src_reg_q);
        c_dreg_q <= region(c_dst_reg_q);
      end
    end
  end

  // ----------------------------------------------------------- read data
  reg [31:0] rdata_d;
  always @* begin
    rdata_d = 32'd0;
    case (ridx)
      R_CTRL: rdata_d = {31'd0, enable_q};
      R_INFO: rdata_d = {STRIDE[15:0], 4'd0, TX_SLOTS_4, 4'd0, RX_SLOTS_4};
      R_RX_STATUS: if (held_q != 4'd0)
        rdata_d = {3'd0, flen_q[rslot_q], 10'd0, kind_q[rslot_q],
                   {(3 - RSW){1'b0}}, rslot_q, 1'b1};
      R_RX_FRAMES: rdata_d = n_frames_q;
      R_RX_BAD_CRC: rdata_d = n_bad_crc_q;
      R_RX_BAD_LENGTH: rdata_d = n_bad_len_q;
      R_RX_RUNTS: rdata_d = n_runts_q;
      R_TX_STATUS: rdata_d = {16'd0, 4'd0, q_count_q, 6'd0, q_count_q == 4'd0, q_full};
      R_TX_BUSY: rdata_d[TX_SLOTS-1:0] = busy_q;
      R_COPY_SRC: rdata_d = c_src_reg_q;
      R_COPY_DST: rdata_d = c_dst_reg_q;
      R_COPY_LEN: rdata_d = {7'd0, c_len_reg_q};
      R_COPY_GO: rdata_d = {31'd0, copy_busy};
      default: ;
    endcase
  end
  always @(posedge clk_i) if (rd) reg_rdata_o <= rdata_d;
endmodule

`default_nettype wire
