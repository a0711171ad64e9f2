// SPDX-License-Identifier: Apache-2.0
// simty_mmio.v - the controller's register block at SIMTY_MMIO_BASE: a
// plain register view of the Simty core (launch inputs, busy bits, fault
// record, halt, counters, console FIFO), the block sequencer's launch and
// status registers (simty_block_seq drives the core's dispatch port), the
// core reset,
// the 64-bit timer, the host UART, the configuration (INFO) registers and
// the SoC's identification (HW_VERSION, HW_BUILD, LINK_BAUD). Offsets
// 0x100..0x1FF belong to the link engine (simty_link_engine), which the
// SoC decodes and answers; this block ignores them.
// Offsets and meanings are those of firmware/simty_mmio.h and docs/soc.md.
//
// Bus: req_i is high for exactly one cycle per access (the SoC's decoder
// guarantees it); rdata_o is valid the next cycle. Registers are 32-bit
// words: any byte enable writes the whole word. Unknown offsets read 0 and
// ignore writes. Reads with side effects (UART_DATA, CONSOLE_DATA pop;
// TIMER_LO, CTR_LO latch the high half) act once per access.
// Wait: wait_o high means the access the bus presents at addr_i (wstrb_i)
// cannot be taken this cycle; the SoC then holds it and raises req_i only
// once wait_o is low. Only a CTR_LO read of a core counter waits: until
// the core has the selected counter in its output register (ctr_valid_i),
// at most SIMTY_CTR_COUNT + 1 cycles after CTR_SEL or CTR_CLEAR (plus a
// core reset in progress), so every wait is bounded by the hardware.
// Reset: synchronous, active high.
`default_nettype none

module simty_mmio #(
  parameter integer WARPS = 4,
  parameter integer LANES = 4,
  parameter [31:0]  CODE_SIZE = 32'h0001_0000,
  parameter [31:0]  DATA_SIZE = 32'h0010_0000,
  parameter [31:0]  CLK_HZ = 32'd12_000_000,
  parameter integer CONSOLE_DEPTH = 512,   // console records buffered
  parameter integer RESET_CYCLES = 8,      // core reset pulse length
  parameter [31:0]  HW_VERSION = 32'd0,    // HW_VERSION register
  parameter [31:0]  HW_BUILD = 32'd0,      // HW_BUILD register
  parameter [31:0]  BAUD = 32'd0,          // LINK_BAUD register
  parameter [31:0]  EXTENSIONS = 32'd0     // EXTENSIONS register (SIMTY_EXT_*)
) (
  input  wire                 clk_i,
  input  wire                 rst_i,

  input  wire                 req_i,
  input  wire [15:2]          addr_i,   // byte offset in the block
  input  wire [3:0]           wstrb_i,
  input  wire [31:0]          wdata_i,
  output reg  [31:0]          rdata_o,
  output wire                 wait_o,

  // Simty core
  output wire                 core_rst_o,
  input  wire                 core_idle_i,
  output wire                 halt_o,
  output wire                 active_o,
  output wire [31:0]          launch_nthreads_o,
  output wire [31:0]          launch_args_o,
  output wire [31:0]          launch_stack_top_o,
  output wire [4:0]           launch_stack_log2_o,
  input  wire [WARPS-1:0]     warp_busy_i,
  // Block sequencer (simty_block_seq)
  output wire                 seq_start_o,    // pulse: SEQ_CTRL START
  output wire                 seq_stop_o,     // pulse: SEQ_CTRL STOP
  output wire [31:0]          seq_pc_o,
  output wire [31:0]          seq_first_o,
  input  wire [3:0]           seq_status_i,   // {stopped, done, busy, running}
  input  wire                 seq_end_i,      // pulse: the launch ended (closes ACTIVE)
  input  wire [31:0]          seq_next_i,
  input  wire [31:0]          seq_threads_done_i,
  input  wire [WARPS-1:0]     seq_held_i,
  input  wire                 fault_valid_i,
  input  wire [3:0]           fault_cause_i,
  input  wire [31:0]          fault_pc_i,
  input  wire [31:0]          fault_hart_i,
  input  wire [31:0]          fault_tid_i,
  input  wire [31:0]          fault_addr_i,
  input  wire                 retire_valid_i,   // a warp instruction executed
  output wire                 ctr_clear_o,
  output wire [3:0]           ctr_sel_o,
  input  wire [63:0]          ctr_value_i,
  input  wire                 ctr_valid_i,    // ctr_value_i is counter ctr_sel_o
  input  wire                 console_valid_i,
  input  wire [7:0]           console_byte_i,
  input  wire [31:0]          console_tid_i,
  output wire                 console_ready_o,

  // Host UART (simty_uart)
  input  wire                 uart_rx_valid_i,
  input  wire [7:0]           uart_rx_data_i,
  output wire                 uart_rx_pop_o,
  output wire                 uart_tx_push_o,
  output wire [7:0]           uart_tx_data_o,
  input  wire                 uart_tx_full_i,
  input  wire                 uart_tx_idle_i,
  input  wire                 uart_overrun_i,
  input  wire                 uart_frame_err_i,
  output wire [1:0]           uart_clear_o
);
  // Offsets: firmware/simty_mmio.h (word index = offset / 4).
  localparam [5:0] R_ID = 6'h00, R_WARPS = 6'h01, R_LANES = 6'h02,
                   R_CODE_SIZE = 6'h03, R_DATA_SIZE = 6'h04, R_CLOCK_HZ = 6'h05,
                   R_CORE_RESET = 6'h08, R_HALT = 6'h09, R_ACTIVE = 6'h0A,
                   R_NTHREADS = 6'h0C, R_ARGS = 6'h0D, R_STACK_TOP = 6'h0E,
                   R_STACK_LOG2 = 6'h0F,
                   R_SEQ_CTRL = 6'h10, R_SEQ_PC = 6'h11, R_SEQ_FIRST = 6'h12,
                   R_SEQ_STATUS = 6'h13, R_SEQ_NEXT = 6'h14, R_WARP_BUSY = 6'h15,
                   R_SEQ_DONE = 6'h16, R_SEQ_HELD = 6'h17,
                   R_FAULT_VALID = 6'h18, R_FAULT_CAUSE = 6'h19, R_FAULT_PC = 6'h1A,
                   R_FAULT_HART = 6'h1B, R_FAULT_TID = 6'h1C, R_FAULT_ADDR = 6'h1D,
                   R_CTR_SEL = 6'h20, R_CTR_LO = 6'h21, R_CTR_HI = 6'h22,
                   R_CTR_CLEAR = 6'h23,
                   R_CON_STATUS = 6'h24, R_CON_TID = 6'h25, R_CON_DATA = 6'h26,
                   R_TIMER_LO = 6'h28, R_TIMER_HI = 6'h29,
                   R_UART_DATA = 6'h2C, R_UART_STATUS = 6'h2D,
                   R_HW_VERSION = 6'h30, R_HW_BUILD = 6'h31, R_LINK_BAUD = 6'h32,
                   R_EXTENSIONS = 6'h33;
  localparam [31:0] ID_VALUE = 32'h5349_4D54;   // "SIMT"
  localparam integer RC_BITS = $clog2(RESET_CYCLES + 1);
  localparam integer CON_LW = $clog2(CONSOLE_DEPTH) + 2;

  wire [5:0] reg_index = addr_i[7:2];
  wire in_block = addr_i[15:8] == 8'd0;
  wire wr = req_i & in_block & (wstrb_i != 4'd0);
  wire rd = req_i & in_block & (wstrb_i == 4'd0);
  wire wr_reg = wr;   // write strobes for one register: wr & index match
  wire rd_uart_data = rd & (reg_index == R_UART_DATA);
  wire rd_con_data = rd & (reg_index == R_CON_DATA);
  wire rd_ctr_lo = rd & (reg_index == R_CTR_LO);
  wire rd_timer_lo = rd & (reg_index == R_TIMER_LO);

  // ---- Registers written by the firmware ----
  reg [RC_BITS-1:0]   reset_count_q;
  reg                 halt_q, active_q;
  reg [31:0]          nthreads_q, args_q, stack_top_q;
  reg [4:0]           stack_log2_q;
  reg [31:0]          seq_pc_q, seq_first_q;
  reg [3:0]           ctr_sel_q;
  reg [31:0]          ctr_hi_q;
  reg                 ctr_clear_q;
  reg [63:0]          timer_q;
  reg [31:0]          timer_hi_q;
  reg [63:0]          window_q;   // `cycles`: counts while ACTIVE is set
  reg [63:0]          idle_q;     // `sched_idle_cycles`: ACTIVE, no issue

  wire core_resetting = reset_count_q != {RC_BITS{1'b0}};

  always @(posedge clk_i) begin
    if (rst_i) begin
      reset_count_q <= RESET_CYCLES[RC_BITS-1:0];
      halt_q <= 1'b0;
      active_q <= 1'b0;
      ctr_sel_q <= 4'd0;
      ctr_clear_q <= 1'b0;
      timer_q <= 64'd0;
      window_q <= 64'd0;
      idle_q <= 64'd0;
    end else begin
      timer_q <= timer_q + 64'd1;
      ctr_clear_q <= 1'b0;
      if (core_resetting) reset_count_q <= reset_count_q - 1'b1;
      if (active_q) window_q <= window_q + 64'd1;
      if (active_q & ~retire_valid_i) idle_q <= idle_q + 64'd1;
      // The sequencer closes the launch window when its launch ends.
      if (seq_end_i) active_q <= 1'b0;
      if (wr_reg) begin
        case (reg_index)
          R_CORE_RESET: if (wdata_i[0]) reset_count_q <= RESET_CYCLES[RC_BITS-1:0];
          R_HALT: halt_q <= wdata_i[0];
          R_ACTIVE: active_q <= wdata_i[0];
          // START opens the launch window (the first block goes out 2
          // cycles later); a START the sequencer ignores (busy) does too.
          R_SEQ_CTRL: if (wdata_i[0]) active_q <= 1'b1;
          R_CTR_SEL: ctr_sel_q <= wdata_i[3:0];
          R_CTR_CLEAR: begin
            ctr_clear_q <= 1'b1;
            window_q <= 64'd0;
            idle_q <= 64'd0;
          end
          default: ;
        endcase
      end
    end
  end

  // Plain data registers: no reset needed, the firmware writes each one
  // before a launch.
  always @(posedge clk_i) begin
    if (wr_reg) begin
      case (reg_index)
        R_NTHREADS: nthreads_q <= wdata_i;
        R_ARGS: args_q <= wdata_i;
        R_STACK_TOP: stack_top_q <= wdata_i;
        R_STACK_LOG2: stack_log2_q <= wdata_i[4:0];
        R_SEQ_PC: seq_pc_q <= wdata_i;
        R_SEQ_FIRST: seq_first_q <= wdata_i;
        default: ;
      endcase
    end
    if (rd_ctr_lo) ctr_hi_q <= ctr_value[63:32];
    if (rd_timer_lo) timer_hi_q <= timer_q[63:32];
  end

  // `cycles` and `sched_idle_cycles` count only in the launch window, while
  // ACTIVE is 1 (docs/soc.md): from just before the first dispatch to the
  // launch's end. The core cannot see ACTIVE, so the block counts these
  // two itself: cycles of the window, and those of its cycles in which no
  // warp instruction executed (no retire pulse; the core executes at most
  // one warp instruction a cycle, so idle = cycles - warp_insts).
  localparam [3:0] CTR_CYCLES = 4'd0, CTR_SCHED_IDLE = 4'd9;
  wire own_ctr = (ctr_sel_q == CTR_CYCLES) | (ctr_sel_q == CTR_SCHED_IDLE);
  wire [63:0] ctr_value = (ctr_sel_q == CTR_CYCLES) ? window_q :
                          (ctr_sel_q == CTR_SCHED_IDLE) ? idle_q : ctr_value_i;
  // The core's counter read port is registered (ctr_valid_i): a CTR_LO
  // read of a core counter waits for it. A pending CTR_CLEAR pulse counts
  // as not valid (the core sees it at the next edge).
  assign wait_o = in_block & (reg_index == R_CTR_LO) & (wstrb_i == 4'd0) &
                  ~own_ctr & (~ctr_valid_i | ctr_clear_q);

  // ---- Console FIFO: {tid, byte} records from the core ----
  wire        con_valid;
  wire [39:0] con_head;
  wire        con_full;
  wire [CON_LW-1:0] con_level;
  /* verilator lint_off UNUSEDSIGNAL */
  wire        con_empty_unused;
  /* verilator lint_on UNUSEDSIGNAL */
  simty_fifo #(.WIDTH(40), .DEPTH(CONSOLE_DEPTH)) u_console (
    .clk_i(clk_i), .rst_i(rst_i | core_rst_o),
    .push_i(console_valid_i), .data_i({console_tid_i, console_byte_i}),
    .full_o(con_full),
    .valid_o(con_valid), .data_o(con_head), .pop_i(rd_con_data & con_valid),
    .empty_o(con_empty_unused), .level_o(con_level)
  );
  assign console_ready_o = ~con_full;

  // ---- Read data, registered: valid the cycle after req_i ----
  reg [31:0] rdata_d;
  always @* begin
    rdata_d = 32'd0;
    case (reg_index)
      R_ID: rdata_d = ID_VALUE;
      R_WARPS: rdata_d = WARPS;
      R_LANES: rdata_d = LANES;
      R_CODE_SIZE: rdata_d = CODE_SIZE;
      R_DATA_SIZE: rdata_d = DATA_SIZE;
      R_CLOCK_HZ: rdata_d = CLK_HZ;
      R_HW_VERSION: rdata_d = HW_VERSION;
      R_HW_BUILD: rdata_d = HW_BUILD;
      R_LINK_BAUD: rdata_d = BAUD;
      R_EXTENSIONS: rdata_d = EXTENSIONS;
      R_CORE_RESET: rdata_d = {31'd0, core_resetting | ~core_idle_i};
      R_HALT: rdata_d = {31'd0, halt_q};
      R_ACTIVE: rdata_d = {31'd0, active_q};
      R_NTHREADS: rdata_d = nthreads_q;
      R_ARGS: rdata_d = args_q;
      R_STACK_TOP: rdata_d = stack_top_q;
      R_STACK_LOG2: rdata_d = {27'd0, stack_log2_q};
      R_SEQ_PC: rdata_d = seq_pc_q;
      R_SEQ_FIRST: rdata_d = seq_first_q;
      R_SEQ_STATUS: rdata_d = {27'd0, fault_valid_i, seq_status_i};
      R_SEQ_NEXT: rdata_d = seq_next_i;
      R_WARP_BUSY: rdata_d[WARPS-1:0] = warp_busy_i;
      R_SEQ_DONE: rdata_d = seq_threads_done_i;
      R_SEQ_HELD: rdata_d[WARPS-1:0] = seq_held_i;
      R_FAULT_VALID: rdata_d = {31'd0, fault_valid_i};
      R_FAULT_CAUSE: rdata_d = {28'd0, fault_cause_i};
      R_FAULT_PC: rdata_d = fault_pc_i;
      R_FAULT_HART: rdata_d = fault_hart_i;
      R_FAULT_TID: rdata_d = fault_tid_i;
      R_FAULT_ADDR: rdata_d = fault_addr_i;
      R_CTR_SEL: rdata_d = {28'd0, ctr_sel_q};
      R_CTR_LO: rdata_d = ctr_value[31:0];
      R_CTR_HI: rdata_d = ctr_hi_q;
      R_CON_STATUS: rdata_d[CON_LW-1:0] = con_level;
      R_CON_TID: rdata_d = con_head[39:8];
      R_CON_DATA: rdata_d = {24'd0, con_head[7:0]};
      R_TIMER_LO: rdata_d = timer_q[31:0];
      R_TIMER_HI: rdata_d = timer_hi_q;
      // Bit 8 says whether the read popped a byte, so a firmware may
      // skip the UART_STATUS read on its receive path.
      R_UART_DATA: rdata_d = uart_rx_valid_i ? {23'd0, 1'b1, uart_rx_data_i} : 32'd0;
      R_UART_STATUS: rdata_d = {27'd0, uart_tx_idle_i, uart_frame_err_i,
                                uart_overrun_i, ~uart_tx_full_i, uart_rx_valid_i};
      default: ;
    endcase
    if (!in_block) rdata_d = 32'd0;
  end

  always @(posedge clk_i) begin
    if (rd) rdata_o <= rdata_d;
  end

  assign core_rst_o = core_resetting;
  assign halt_o = halt_q;
  assign active_o = active_q;
  assign launch_nthreads_o = nthreads_q;
  assign launch_args_o = args_q;
  assign launch_stack_top_o = stack_top_q;
  assign launch_stack_log2_o = stack_log2_q;
  wire seq_ctrl_wr = wr_reg & (reg_index == R_SEQ_CTRL);
  assign seq_start_o = seq_ctrl_wr & wdata_i[0];
  assign seq_stop_o = seq_ctrl_wr & wdata_i[1];
  assign seq_pc_o = seq_pc_q;
  assign seq_first_o = seq_first_q;
  assign ctr_clear_o = ctr_clear_q;
  assign ctr_sel_o = ctr_sel_q;
  assign uart_rx_pop_o = rd_uart_data & uart_rx_valid_i;
  assign uart_tx_push_o = wr_reg & (reg_index == R_UART_DATA);
  assign uart_tx_data_o = wdata_i[7:0];
  assign uart_clear_o = (wr_reg & (reg_index == R_UART_STATUS)) ? wdata_i[3:2] : 2'b00;
endmodule

`default_nettype wire
