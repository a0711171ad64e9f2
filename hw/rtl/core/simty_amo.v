// SPDX-License-Identifier: Apache-2.0
// simty_amo: the core's atomic unit for the A extension (lr.w, sc.w,
// amo*.w on DATA; docs/architecture.md section 3, "Atomic memory
// operations"), and the reservations of every hardware thread.
//
// An atomic is a memory instruction of the usual leader / served rule: in
// MB it is checked, coalesced and counted like a load, and its line is
// read from DATA (simty_mem). When it commits (start_i) the unit takes the
// line (rdata_i, the next cycle), then applies the served lanes' operations
// to its copy, in ascending lane order, two cycles a lane (PICK selects the
// lane, its word and operand; STEP applies it), each lane's rd getting the
// word just before its own operation (it replaces the lane's operand in
// src_q); then it writes the words it changed back in one DATA write. From the cycle after start_i until
// that write, busy_o makes the core replay every memory instruction that
// reaches MB (simty_core, "Atomics"), so no other warp's access falls
// between the read and the write: the instruction is indivisible between
// warps. The results then wait in the unit (done_o) until the core writes
// them back through GA (take_i), like the divide unit's.
//
// Reservations: one per hardware thread, a valid bit and the physical
// word address within DATA (flip-flops: every write compares against all
// of them), as a line and a word in the line. lr.w sets its thread's;
// sc.w succeeds if its thread's is valid on exactly its word and no
// earlier lane of the instruction wrote that word (which would have
// cleared it), and clears it either way. Any write to DATA by the core
// (stores, the unit's own write) clears, one cycle later, every
// reservation on a word it wrote a byte of: the core's DATA port is
// observed (wr_*_i). A dispatch clears its warp's (a new logical thread).
// Each entry has one line comparator, shared by the kill and the sc.w
// check (they never fall in one cycle; see "Reservations" below).
`default_nettype none

module simty_amo #(
  parameter integer WARPS = 4,
  parameter integer LANES = 4,
  parameter integer WARP_BITS = 2,
  parameter [31:0]  DATA_SIZE = 32'h0010_0000,
  parameter integer LANE_BITS = (LANES > 1) ? $clog2(LANES) : 1
) (
  input  wire                  clk_i,
  input  wire                  rst_i,
  // MB: the atomic commits
  input  wire                  start_i,
  input  wire [3:0]            op_i,       // simty_decode amo_op_o
  input  wire [WARP_BITS-1:0]  warp_i,
  input  wire [4:0]            rd_i,
  input  wire                  wr_i,
  input  wire [LANES-1:0]      mask_i,     // served lanes
  input  wire [31:0]           line_i,     // the line's physical address
  input  wire [32*LANES-1:0]   addr_i,     // per lane its address (logical)
  input  wire [LANE_BITS*LANES-1:0] pword_i, // per lane its word in its line
  input  wire [32*LANES-1:0]   src_i,      // per lane rs2
  // GA: the line read in MB
  input  wire [32*LANES-1:0]   rdata_i,
  // the core's DATA port as it is driven (every write clears reservations)
  input  wire                  wr_en_i,
  input  wire [31:0]           wr_addr_i,
  input  wire [4*LANES-1:0]    wr_be_i,
  // dispatch: the warp starts new logical threads
  input  wire                  disp_i,
  input  wire [WARP_BITS-1:0]  disp_warp_i,
  // from the cycle after start_i through the write
  output wire                  busy_o,
  output wire                  active_o,   // started, results not yet taken
  output wire                  we_o,       // the write: drives the DATA port
  output wire [31:0]           addr_o,
  output wire [4*LANES-1:0]    be_o,
  output wire [32*LANES-1:0]   wdata_o,
  output wire                  done_o,
  output reg  [WARP_BITS-1:0]  warp_o,
  output reg  [4:0]            rd_o,
  output reg                   wr_o,
  output reg  [LANES-1:0]      mask_o,
  output wire [32*LANES-1:0]   res_o,
  input  wire                  take_i
);

  localparam integer LB2 = (LANES > 1) ? $clog2(LANES) : 0;
  localparam integer LS  = 2 + LB2;               // line shift
  localparam integer WI  = (LB2 > 0) ? LB2 : 1;   // word index width
  localparam integer DSB = $clog2(DATA_SIZE);
  localparam integer N   = WARPS * LANES;
  localparam integer HW  = (N > 1) ? $clog2(N) : 1;  // hardware thread index
  localparam [31:0]   LMW = LANES - 1;

  localparam [3:0] LR = 4'd0, SC = 4'd1, SWAP = 4'd2, ADD = 4'd3, XOR = 4'd4,
                   AND = 4'd5, OR = 4'd6, MIN = 4'd7, MAX = 4'd8, MINU = 4'd9,
                   MAXU = 4'd10;

  localparam [2:0] IDLE = 3'd0, LATCH = 3'd1, PICK = 3'd2, STEP = 3'd3,
                   WRITE = 3'd4, DONE = 3'd5;
  reg [2:0]            state_q, state_d;
  // busy_o and we_o gate and steer the core's DATA port: flip-flops of
  // their own rather than decodes of state_q
  reg                  busy_q, we_q;
  always @* begin
    state_d = state_q;
    case (state_q)
      IDLE:  if (start_i) state_d = LATCH;
      LATCH: state_d = PICK;
      PICK:  state_d = STEP;
      STEP:  state_d = pend_q == {LANES{1'b0}} ? WRITE : PICK;
      WRITE: state_d = DONE;
      default: if (take_i) state_d = IDLE;
    endcase
  end
  reg [3:0]            op_q;
  reg                  add_q, mm_q, sgn_q, max_q;   // op_q decoded
  reg [3:1]            tl_q;         // truth table {v,s} = 11, 10, 01
  reg [LANES-1:0]      pend_q;       // served lanes still to apply
  reg [LANES-1:0]      touch_q;      // line words written
  reg [31:0]           line_q;
  reg [WI*LANES-1:0]   woff_q;       // per lane its word in the line
  reg [32*LANES-1:0]   src_q, data_q;

  // PICK: the lowest pending lane, its word in the line, its operand and
  // the word, registered for STEP (one lane takes two cycles: the
  // selection and the operation do not share a cycle, which keeps both
  // small and fast)
  reg [WI-1:0] cur_d, w_d, cur, w;
  reg [31:0]   s_d, v_d, s, v;
  // the lowest pending lane, one-hot, and the word's one-hot: AND-OR
  // selections (a priority chain of multiplexers is deeper and larger)
  wire [LANES-1:0] first = pend_q & (~pend_q + {{(LANES-1){1'b0}}, 1'b1});
  reg  [LANES-1:0] wsel;
  integer i;
  always @* begin
    cur_d = {WI{1'b0}};
    w_d   = {WI{1'b0}};
    s_d   = 32'd0;
    for (i = 0; i < LANES; i = i + 1)
      if (first[i]) begin
        cur_d = cur_d | i[WI-1:0];
        w_d   = w_d | woff_q[WI*i +: WI];
        s_d   = s_d | src_q[32*i +: 32];
      end
    v_d = 32'd0;
    for (i = 0; i < LANES; i = i + 1) begin
      wsel[i] = w_d == i[WI-1:0];
      if (wsel[i]) v_d = v_d | data_q[32*i +: 32];
    end
  end
  always @(posedge clk_i)
    if (state_q == PICK) begin
      cur <= cur_d;
      w   <= w_d;
      s   <= s_d;
      v   <= v_d;
    end
  // The operation, bit by bit: the sum for amoadd.w, else a function of
  // the two bits (v, s) given by a truth table: tt[{v, s}] (index 0, both
  // bits 0, gives 0 for every function). The logical ones and swap / sc.w
  // take theirs from the decoded op (tl_q); min / max select v or s by the
  // compare.
  wire [32:0]   dif = {1'b0, v} - {1'b0, s};        // v < s unsigned: dif[32]
  wire          ltu = dif[32];
  wire          lt  = (v[31] != s[31]) ? v[31] : ltu;
  wire          tkv = max_q ^ (sgn_q ? lt : ltu);   // min / max: the result is v
  wire [3:1]    tt  = mm_q ? (tkv ? 3'b110 : 3'b101) : tl_q;
  wire [31:0]   sum = v + s;
  reg  [31:0]   nv;
  integer b;
  always @*
    for (b = 0; b < 32; b = b + 1)
      nv[b] = add_q ? sum[b] : (v[b] & s[b] & tt[3]) | (v[b] & !s[b] & tt[2]) |
                               (!v[b] & s[b] & tt[1]);

  // Reservations. Each entry holds its word as a line (the line bits of
  // the word address within DATA, LW bits) and a word in the line (WI
  // bits). Its line is compared with one shared probe line, cl_q: the line
  // of the last DATA write (a kill is due the cycle after the write:
  // kv_q), or from start_i to the unit's own write the atomic's line (the
  // sc.w check in PICK, and STEP's reservation write). The two never
  // share a cycle: from start_i to that write nobody else writes DATA
  // (busy_o), so PICK and STEP never meet a kill (checked in
  // simulation). One comparator per entry thus serves both, and the word
  // takes a WI-bit select (kill) and a WI-bit compare (sc.w).
  localparam integer LW = DSB - LS;    // line bits of a word address
  // a lane's hardware thread, warp * LANES + lane (LANES is a power of two)
  function automatic [HW-1:0] hart(input [WARP_BITS-1:0] wp, input [WI-1:0] ln);
    /* verilator lint_off UNUSEDSIGNAL */
    reg [31:0] t;
    /* verilator lint_on UNUSEDSIGNAL */
    begin
      t = ({{(32-WARP_BITS){1'b0}}, wp} << LB2) | {{(32-WI){1'b0}}, ln};
      hart = t[HW-1:0];
    end
  endfunction
  wire [HW-1:0] h = hart(warp_o, cur);        // STEP's lane
  // sc.w's check for the lane PICK selects, registered for its STEP: the
  // probe holds the atomic's line from LATCH on, and no reservation can
  // change between the two cycles (no DATA write while busy; a STEP
  // changes only its own lane's thread's entry, and every lane is a
  // different thread), so the compare over every thread's entry ends at
  // a flop instead of in STEP's operation and the line's write enables
  wire [HW-1:0] h_d = hart(warp_o, cur_d);    // the lane PICK selects
  wire [N-1:0]  hit_d;                 // entry e is h_d and holds its word
  reg         held_q;                  // STEP: the lane's reservation holds
  always @(posedge clk_i)
    if (state_q == PICK) held_q <= hit_d != {N{1'b0}} && !touch_q[w_d];
  wire        step = state_q == STEP;
  wire        sc_ok = op_q == SC && held_q;
  wire        wrt  = op_q != LR && (op_q != SC || held_q);   // the word changes

  // The shared probe, registers (so the comparators see one source): the
  // line and the words of the last cycle's DATA write (kv_q: a kill is
  // due), or from start_i on, the atomic's line.
  reg             kv_q;
  reg [LW-1:0]    cl_q;
  reg [LANES-1:0] cw_q;
  wire            kwr = wr_en_i && wr_be_i != {4*LANES{1'b0}};
  integer k;
  always @(posedge clk_i) begin
    kv_q <= kwr;
    if (kwr) cl_q <= wr_addr_i[DSB-1:LS];
    else if (start_i && state_q == IDLE) cl_q <= line_i[DSB-1:LS];
    for (k = 0; k < LANES; k = k + 1) cw_q[k] <= wr_be_i[4*k +: 4] != 4'd0;
  end
  localparam [31:0]   LM32  = LANES - 1;
  localparam [WI-1:0] WMASK = LM32[WI-1:0];
  wire setr = step && (op_q == LR || op_q == SC);
  genvar g;
  generate
    for (g = 0; g < N; g = g + 1) begin : gen_resv
      localparam [31:0] GW = g / LANES;
      localparam [31:0] G  = g;
      reg             rv;
      reg  [LW-1:0]   rl;
      reg  [WI-1:0]   rw;
      wire            eq   = rl == cl_q;
      wire            kill = kv_q && eq && cw_q[rw & WMASK];
      wire            me   = h == G[HW-1:0];
      assign hit_d[g] = h_d == G[HW-1:0] && rv && eq && (rw & WMASK) == (w_d & WMASK);
      always @(posedge clk_i) begin
        if (kill || (disp_i && GW[WARP_BITS-1:0] == disp_warp_i)) rv <= 1'b0;
        if (setr && me) rv <= op_q == LR;
        if (rst_i) rv <= 1'b0;
        if (setr && me && op_q == LR) begin
          rl <= cl_q;
          rw <= w;
        end
      end
    end
  endgenerate

`ifndef SYNTHESIS
  // the shared probe: in PICK and STEP it holds the atomic's line, and
  // no kill is due
  always @(posedge clk_i)
    if (!rst_i && (state_q == PICK || step) && (kv_q || cl_q != line_q[DSB-1:LS])) begin
      $display("simty_amo: a DATA write's kill met an atomic's PICK or STEP");
      $fatal(1, "simty_amo: shared compare");
    end
`endif

  // The sequence
  integer l;
  always @(posedge clk_i) begin
    if (rst_i) begin
      state_q <= IDLE;
      busy_q  <= 1'b0;
      we_q    <= 1'b0;
    end else begin
      state_q <= state_d;
      busy_q  <= state_d == LATCH || state_d == PICK || state_d == STEP ||
                 state_d == WRITE;
      we_q    <= state_d == WRITE;
    end
    if (start_i && state_q == IDLE) begin
      op_q    <= op_i;
      add_q   <= op_i == ADD;
      mm_q    <= op_i == MIN || op_i == MAX || op_i == MINU || op_i == MAXU;
      sgn_q   <= op_i == MIN || op_i == MAX;
      max_q   <= op_i == MAX || op_i == MAXU;
      case (op_i)
        XOR:     tl_q <= 3'b011;
        AND:     tl_q <= 3'b100;
        OR:      tl_q <= 3'b111;
        SWAP, SC: tl_q <= 3'b101;                       // s
        default: tl_q <= 3'b000;                        // unused
      endcase
      warp_o  <= warp_i;
      rd_o    <= rd_i;
      wr_o    <= wr_i;
      mask_o  <= mask_i;
      pend_q  <= mask_i;
      line_q  <= line_i;
      src_q   <= src_i;
      touch_q <= {LANES{1'b0}};
      for (l = 0; l < LANES; l = l + 1)
        woff_q[WI*l +: WI] <= pword_i[LANE_BITS*l +: WI] & LMW[WI-1:0];
    end
    if (state_q == LATCH) data_q <= rdata_i;
    // by lane and by word, with equality enables (indexed writes would
    // synthesize as shifters)
    if (state_q == PICK)
      for (l = 0; l < LANES; l = l + 1)
        if (cur_d == l[WI-1:0]) pend_q[l] <= 1'b0;
    if (step)
      for (l = 0; l < LANES; l = l + 1) begin
        // a lane's result replaces its operand, used up in PICK
        if (cur == l[WI-1:0])
          src_q[32*l +: 32] <= op_q == SC ? {31'd0, !sc_ok} : v;
        if (wrt && w == l[WI-1:0]) begin
          data_q[32*l +: 32] <= nv;
          touch_q[l] <= 1'b1;
        end
      end
  end

  assign busy_o   = busy_q;
  assign active_o = state_q != IDLE;
  assign done_o   = state_q == DONE;
  assign we_o     = we_q;
  assign addr_o   = line_q;
  generate
    for (g = 0; g < LANES; g = g + 1) begin : gen_be
      assign be_o[4*g +: 4] = {4{touch_q[g]}};
    end
  endgenerate
  assign wdata_o  = data_q;
  assign res_o    = src_q;
  wire unused = &{1'b0, wr_addr_i[31:DSB], wr_addr_i[LS-1:0], line_i[31:DSB],
                  line_i[LS-1:0], addr_i, dif[31:0]};

endmodule

`default_nettype wire
