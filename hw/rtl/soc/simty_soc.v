// SPDX-License-Identifier: Apache-2.0
// simty_soc.v - the Simty SoC that every board and the simulated board
// use: the Simty core, the controller core running the firmware, the
// firmware, code and data RAMs from the one memory map (simty_arch.vh),
// the MMIO register block, the link engine (simty_link_engine: frames,
// CRC and copies in hardware, off until the firmware enables it) and the
// host link (UART pins, or a byte bridge when PHY = 0: the only
// difference of the simulated board).
//
// Memory ports:
//   FW RAM    controller only (code, data, stack of the firmware).
//   CODE RAM  Simty instruction port (read) and the controller's word
//             port (host WRITE/READ of kernels).
//   DATA RAM  LANES banks of 32-bit words: Simty reads or writes one line
//             (word i of the line in bank i); the controller one word.
//   LINKBUF   inside the link engine (simty_link_engine), at
//             SIMTY_LINKBUF_BASE: the controller's word port.
// Simty always wins a RAM port: a controller access to DATA waits for a
// cycle in which the core does not use that RAM; a read of CODE that the
// core's fetch takes is made again the next cycle; CODE's write port is
// never the core's. The firmware only touches CODE and DATA while no
// launch runs (the protocol's BUSY rule), so in practice it never waits.
// The link engine's copy unit uses DATA in the cycles the core leaves it
// and reads CODE again when the fetch took the port; while a copy runs,
// the controller's accesses to CODE, DATA and LINKBUF wait (so the copy
// and the controller never meet on a port).
//
// Controller bus: every access takes two cycles (request, then ready with
// data), whatever the target, except that a CODE read the core's fetch
// took is granted again (a cycle more each time), a CTR_LO read of a core
// counter waits (no grant) until the core's registered counter port holds
// the selected counter (simty_mmio wait_o, at most about 14 cycles), and
// CODE, DATA and LINKBUF accesses wait while a link-engine copy runs.
// Addresses outside FW, CODE, DATA, MMIO and LINKBUF read 0 and ignore
// writes.
// Reset: synchronous, active high (rst_i), everywhere.
`default_nettype none

module simty_soc #(
  parameter integer WARPS = 4,
  parameter integer LANES = 4,
  parameter integer FW_SIZE = 32768,            // bytes, power of two
  parameter [31:0]  CODE_SIZE = 32'h0001_0000,  // bytes, power of two
  parameter [31:0]  DATA_SIZE = 32'h0010_0000,  // bytes, power of two
  parameter         FW_IMAGE = "",              // $readmemh firmware image
                                                // (simulation: +fw=FILE wins)
  parameter integer CLK_HZ = 12000000,
  parameter integer BAUD = 115200,
  parameter integer PHY = 1,                    // 1 = UART, 0 = byte bridge
  parameter integer LINK_FIFO_DEPTH = 512,
  parameter integer CONSOLE_DEPTH = 512,
  parameter integer LINK_ENGINE = 1,            // 0: no link engine, no LINKBUF
                                                // (its registers read 0)
  parameter integer LINK_RX_SLOTS = 2,          // link engine slots (LINKBUF
  parameter integer LINK_TX_SLOTS = 4,          //   = their sum * 4112 bytes)
  parameter [31:0]  HW_BUILD = 32'd0,           // source digest, 0 = unknown
  parameter integer HOT_LUTRAM = 0,             // core tables in LUT RAM (ECP5)
  parameter integer SMALL_TABLES = 1,           // core small tables' storage
  parameter integer EXT_M = 0,                  // core: M extension
  parameter integer EXT_A = 0,                  // core: A extension (atomics)
  parameter integer EXT_ZICNTR = 0,             // core: Zicntr counters
  parameter integer VCLASS = 1,                 // 0: no value classifier (the
                                                // uniform/affine counters read 0)
  parameter integer XBAR = 0,                   // core: memory crossbar, 0 full,
                                                // 1 rotate (EXTENSIONS bit 8)
  parameter integer DATA_WREG = 1               // DATA banks written a cycle
                                                // after the request (timing)
) (
  input  wire        clk_i,
  input  wire        rst_i,

  // Only one of the two link interfaces is used, as PHY selects.
  /* verilator lint_off UNUSEDSIGNAL */
  input  wire        uart_rx_i,
  output wire        uart_tx_o,
  output wire        uart_rts_n_o,   // 0: send more; 1: pause (to the FTDI's CTS#)
  input  wire        bridge_rx_valid_i,
  input  wire [7:0]  bridge_rx_data_i,
  output wire        bridge_rx_ready_o,
  output wire        bridge_tx_valid_o,
  output wire [7:0]  bridge_tx_data_o,
  input  wire        bridge_tx_ready_i,
  /* verilator lint_on UNUSEDSIGNAL */

  // The controller stopped on a trap: a firmware bug (LED or sim report).
  output wire        ctrl_trap_o,
  output wire [2:0]  ctrl_trap_cause_o,
  output wire [31:0] ctrl_trap_pc_o,

  // Simty core status, for LEDs (docs/soc.md, "Ports of simty_soc"):
  //   core_busy_o   a kernel is executing: a warp holds threads that have
  //                 not ended (WARP_BUSY != 0) and the core is neither
  //                 halted (HALT) nor stopped by a fault. May fall
  //                 between blocks while the firmware refills a warp.
  //   core_fault_o  the core holds a fault record (FAULT_VALID); the
  //                 firmware clears it with the CORE_RESET it issues at
  //                 the next LAUNCH or RESET.
  output wire        core_busy_o,
  output wire        core_fault_o
);
  // The whole contract comes in; the SoC uses the memory map part.
  /* verilator lint_off UNUSEDPARAM */
`include "simty_arch.vh"
  /* verilator lint_on UNUSEDPARAM */

  localparam integer WARP_BITS = (WARPS > 1) ? $clog2(WARPS) : 1;
  localparam integer LANE_BITS = (LANES > 1) ? $clog2(LANES) : 0;
  localparam integer FW_WORDS = FW_SIZE / 4;
  localparam integer CODE_WORDS = CODE_SIZE / 4;
  localparam integer DATA_ROWS = DATA_SIZE / (4 * LANES);
  localparam integer FW_AW = $clog2(FW_WORDS);
  localparam integer CODE_AW = $clog2(CODE_WORDS);
  localparam integer DATA_RW = $clog2(DATA_ROWS);   // row index bits
  localparam [31:0] FW_SIZE_W = FW_SIZE;

  // ---- Controller ----
  wire        cpu_valid;
  /* verilator lint_off UNUSEDSIGNAL */
  wire [31:0] cpu_addr;    // the request's address (FW: fetches, loads, stores)
  /* verilator lint_on UNUSEDSIGNAL */
  wire [31:0] cpu_maddr;   // a load or store's, from a register (the other slaves)
  wire [3:0]  cpu_wstrb;
  wire [31:0] cpu_wdata;
  reg  [31:0] cpu_rdata;
  wire        cpu_ready;

  // The controller fetches from the firmware memory only, straight from
  // its read data (fw_rdata); loads and stores read through cpu_rdata.
  wire [31:0] fw_rdata;
  simty_ctrl_cpu #(
    .RESET_PC(SIMTY_FW_BASE), .FETCH_BASE(SIMTY_FW_BASE), .FETCH_LOG2($clog2(FW_SIZE))
  ) u_ctrl (
    .clk_i(clk_i), .rst_i(rst_i),
    .bus_valid_o(cpu_valid), .bus_addr_o(cpu_addr), .bus_wstrb_o(cpu_wstrb),
    .bus_wdata_o(cpu_wdata), .bus_rdata_i(cpu_rdata), .bus_ready_i(cpu_ready),
    .bus_fetch_o(cpu_fetch), .bus_dnext_o(cpu_dnext), .bus_daddr_o(cpu_daddr),
    .bus_maddr_o(cpu_maddr),
    .fetch_rdata_i(fw_rdata),
    .trap_o(ctrl_trap_o), .trap_cause_o(ctrl_trap_cause_o),
    .trap_pc_o(ctrl_trap_pc_o)
  );

  // ---- Simty core ----
  wire        core_rst;
  wire [31:0] launch_nthreads, launch_args, launch_stack_top;
  wire [4:0]  launch_stack_log2;
  wire        dispatch_valid, dispatch_ready;
  wire [WARP_BITS-1:0] dispatch_warp;
  wire [31:0] dispatch_pc, dispatch_base_tid;
  wire [LANES-1:0] dispatch_mask;
  wire [WARPS-1:0] warp_busy;
  wire        halt;
  wire        fault_valid;
  wire [3:0]  fault_cause;
  wire [31:0] fault_pc, fault_hart, fault_tid, fault_addr;
  wire        core_idle;
  wire        ctr_clear;
  wire [3:0]  ctr_sel;
  wire [63:0] ctr_value;
  wire        ctr_valid;
  wire        console_valid, console_ready;
  wire [7:0]  console_byte;
  wire [31:0] console_tid;
  wire        imem_en;
  wire [31:0] imem_rdata;
  /* verilator lint_off UNUSEDSIGNAL */
  wire        dmem_en;     // the byte enables carry it (DATA RAM below)
  /* verilator lint_on UNUSEDSIGNAL */
  wire        dmem_busy;   // registered superset of dmem_en
  // The core faults instead of leaving populated CODE and DATA, so the
  // RAM index is all the SoC needs of these addresses; likewise the
  // controller's row and the bank-shifted line are used in part.
  /* verilator lint_off UNUSEDSIGNAL */
  wire [31:0] imem_addr;
  wire [31:0] dmem_addr;
  wire [31:0] cpu_row;
  wire [32*LANES-1:0] data_line;
  /* verilator lint_on UNUSEDSIGNAL */
  wire [4*LANES-1:0]  dmem_be;
  wire [32*LANES-1:0] dmem_wdata;
  wire [32*LANES-1:0] dmem_rdata;
  wire                 retire_valid;   // counts issue for sched_idle_cycles
  /* verilator lint_off UNUSEDSIGNAL */
  // The rest of the retire port feeds traces in the core's own bench.
  wire [WARP_BITS-1:0] retire_warp;
  wire [31:0]          retire_pc;
  wire [LANES-1:0]     retire_mask;
  wire                 active;
  /* verilator lint_on UNUSEDSIGNAL */

  simty_core #(
    .WARPS(WARPS), .LANES(LANES), .CODE_SIZE(CODE_SIZE), .DATA_SIZE(DATA_SIZE),
    .HOT_LUTRAM(HOT_LUTRAM), .SMALL_TABLES(SMALL_TABLES), .EXT_M(EXT_M), .EXT_A(EXT_A), .EXT_ZICNTR(EXT_ZICNTR),
    .VCLASS(VCLASS), .XBAR(XBAR)
  ) u_core (
    .clk_i(clk_i), .rst_i(rst_i | core_rst),
    .launch_nthreads_i(launch_nthreads), .launch_args_i(launch_args),
    .launch_stack_top_i(launch_stack_top), .launch_stack_log2_i(launch_stack_log2),
    .dispatch_valid_i(dispatch_valid), .dispatch_ready_o(dispatch_ready),
    .dispatch_warp_i(dispatch_warp), .dispatch_pc_i(dispatch_pc),
    .dispatch_base_tid_i(dispatch_base_tid), .dispatch_mask_i(dispatch_mask),
    .warp_busy_o(warp_busy),
    .halt_i(halt), .fault_valid_o(fault_valid), .fault_cause_o(fault_cause),
    .fault_pc_o(fault_pc), .fault_hart_o(fault_hart), .fault_tid_o(fault_tid),
    .fault_addr_o(fault_addr), .idle_o(core_idle),
    .ctr_clear_i(ctr_clear), .ctr_sel_i(ctr_sel), .ctr_value_o(ctr_value),
    .ctr_valid_o(ctr_valid),
    .console_valid_o(console_valid), .console_byte_o(console_byte),
    .console_tid_o(console_tid), .console_ready_i(console_ready),
    .imem_en_o(imem_en), .imem_addr_o(imem_addr), .imem_rdata_i(imem_rdata),
    .dmem_en_o(dmem_en), .dmem_busy_o(dmem_busy), .dmem_addr_o(dmem_addr), .dmem_be_o(dmem_be),
    .dmem_wdata_o(dmem_wdata), .dmem_rdata_i(dmem_rdata),
    .retire_valid_o(retire_valid), .retire_warp_o(retire_warp),
    .retire_pc_o(retire_pc), .retire_mask_o(retire_mask)
  );

  // ---- Controller bus decode ----
  localparam [2:0] SEL_NONE = 3'd0, SEL_FW = 3'd1, SEL_CODE = 3'd2,
                   SEL_DATA = 3'd3, SEL_MMIO = 3'd4, SEL_LINKREG = 3'd5,
                   SEL_LINKBUF = 3'd6;

  // Each region's size is a power of two and its base a multiple of it
  // (the map puts FW at 0, CODE at 64 KiB, DATA at 256 MiB; the sizes
  // stay within the windows), so a hit is an equality on the high bits,
  // and the RAM index is the address's low bits. The decode starts from
  // registers: a fetch (cpu_fetch) is always from FW, the controller's
  // instruction memory (one outside it reads FW and traps the
  // controller, touching nothing); a load or store's regions are
  // decoded from its address the cycle before its request (cpu_daddr,
  // while cpu_dnext) and registered, so the grant, the RAM enables and
  // the slaves' requests wait for no address compare. Only loads and
  // stores reach the slaves other than FW: they take the address from
  // the controller's register (cpu_maddr), not through the fetch
  // address's select, and LINKBUF's port multiplexers follow the
  // registered hit (lb_sel_i), the grant only enabling its access.
  wire        cpu_fetch, cpu_dnext;
  wire [31:0] cpu_daddr;
  reg dhit_fw_q, dhit_code_q, dhit_data_q, dhit_mmio_q, dhit_linkreg_q, dhit_linkbuf_q;
  // The MMIO window's lower half holds the registers (0x100..0x1FF the
  // link engine's), its upper half LINKBUF.
  wire d_mmio = cpu_daddr[31:15] == {SIMTY_MMIO_BASE[31:16], 1'b0};
  always @(posedge clk_i) begin
    if (cpu_dnext) begin
      dhit_fw_q <= (cpu_daddr & ~(FW_SIZE_W - 32'd1)) == SIMTY_FW_BASE;
      dhit_code_q <= (cpu_daddr & ~(CODE_SIZE - 32'd1)) == SIMTY_CODE_BASE;
      dhit_data_q <= (cpu_daddr & ~(DATA_SIZE - 32'd1)) == SIMTY_DATA_BASE;
      dhit_mmio_q <= d_mmio;
      dhit_linkreg_q <= d_mmio & (cpu_daddr[14:8] == 7'd1);
      dhit_linkbuf_q <= cpu_daddr[31:15] == SIMTY_LINKBUF_BASE[31:15];
    end
  end
  wire hit_fw = cpu_fetch | dhit_fw_q;
  wire hit_code = ~cpu_fetch & dhit_code_q;
  wire hit_data = ~cpu_fetch & dhit_data_q;
  wire hit_mmio = ~cpu_fetch & dhit_mmio_q;
  wire hit_linkreg = ~cpu_fetch & dhit_linkreg_q;
  wire hit_linkbuf = ~cpu_fetch & dhit_linkbuf_q;
  wire cpu_read = cpu_wstrb == 4'd0;

  reg       pending_q;        // granted last cycle: this cycle is ready
  reg       code_lost_q;      // ... unless the core's fetch took CODE's read
  reg [2:0] sel_q;
  reg [LANE_BITS:0] bank_q;   // one spare bit so LANES = 1 works
  wire mmio_wait;
  wire copy_busy;
  // CODE: the core only reads it, so the controller's writes never wait;
  // its reads go out at once, the core's fetch wins CODE's read port, and
  // a read the fetch took is granted again the next cycle (code_lost_q).
  // The grant thus never waits for the core's fetch pick (imem_en), which
  // ends late in the cycle.
  wire port_free = hit_code ? ~copy_busy : hit_data ? ~dmem_busy & ~copy_busy :
                   hit_linkbuf ? ~copy_busy : hit_mmio ? ~mmio_wait : 1'b1;
  wire grant = cpu_valid & (~pending_q | code_lost_q) & port_free;

  wire [2:0] sel = hit_fw ? SEL_FW : hit_code ? SEL_CODE : hit_data ? SEL_DATA :
                   hit_linkreg ? SEL_LINKREG : hit_mmio ? SEL_MMIO :
                   hit_linkbuf ? SEL_LINKBUF : SEL_NONE;
  wire [LANE_BITS:0] cpu_bank;
  generate
    if (LANES > 1) begin : gen_bank
      assign cpu_bank = {1'b0, cpu_maddr[2 +: LANE_BITS]};
    end else begin : gen_one_bank
      assign cpu_bank = 1'b0;
    end
  endgenerate
  assign cpu_row = cpu_maddr >> (2 + LANE_BITS);

  always @(posedge clk_i) begin
    if (rst_i) begin
      pending_q <= 1'b0;
      code_lost_q <= 1'b0;
    end else begin
      pending_q <= grant;
      code_lost_q <= grant & hit_code & cpu_read & imem_en;
    end
    if (grant) begin
      sel_q <= sel;
      bank_q <= cpu_bank;
    end
  end
  assign cpu_ready = pending_q & ~code_lost_q;

  // ---- FW RAM ----
  simty_ram_be #(.WORDS(FW_WORDS), .INIT_FILE(FW_IMAGE), .INIT_PLUSARG("fw")) u_fw_ram (
    .clk_i(clk_i),
    .re_i(grant & hit_fw & cpu_read), .raddr_i(cpu_addr[FW_AW+1:2]),
    .rdata_o(fw_rdata),
    .we_i((grant & hit_fw) ? cpu_wstrb : 4'd0), .waddr_i(cpu_addr[FW_AW+1:2]),
    .wdata_i(cpu_wdata)
  );

  // ---- CODE RAM ----
  wire [31:0] code_rdata;
  wire cpu_code = grant & hit_code;
  // The link engine's copy master (m_*): only while copy_busy; the core's
  // fetch wins the read port (the engine reads again what it lost), the
  // write port is the copy's; the controller waits meanwhile.
  wire        m_re, m_rcode, m_wcode;
  wire [31:0] m_raddr, m_waddr, m_wdata;
  /* verilator lint_off UNUSEDSIGNAL */
  wire [31:0] m_rdata;   // unused when LINK_ENGINE = 0
  /* verilator lint_on UNUSEDSIGNAL */
  wire [3:0]  m_we;
  wire m_code_re = m_re & m_rcode;
  wire [3:0] m_code_we = m_wcode ? m_we : 4'd0;
  wire [3:0] m_data_we = m_wcode ? 4'd0 : m_we;
  simty_ram_be #(.WORDS(CODE_WORDS)) u_code_ram (
    .clk_i(clk_i),
    .re_i(imem_en | (cpu_code & cpu_read) | m_code_re),
    .raddr_i(imem_en ? imem_addr[CODE_AW+1:2] :
             copy_busy ? m_raddr[CODE_AW+1:2] : cpu_maddr[CODE_AW+1:2]),
    .rdata_o(code_rdata),
    .we_i(cpu_code ? cpu_wstrb : m_code_we),
    .waddr_i(copy_busy ? m_waddr[CODE_AW+1:2] : cpu_maddr[CODE_AW+1:2]),
    .wdata_i(copy_busy ? m_wdata : cpu_wdata)
  );
  assign imem_rdata = code_rdata;

  // ---- DATA RAM: LANES banks ----
  // The core owns DATA whenever its MB stage holds a load or store
  // (dmem_busy, from its registers), even if the access then does not
  // happen: the banks' address and data selects and the others' grants
  // never wait for the core's late dmem_en (mask -> leader -> line
  // compares); the byte enables, zero unless dmem_en and a store, are
  // the only late input. The banks read every cycle, at the row the
  // selects give: each reader of DATA samples the read data exactly the
  // cycle after its read (the core's GA stage and AMO unit's LATCH, the
  // controller's S_MEM ready cycle, the copy's R step) and none relies on
  // it being held, so a read nobody asked for is harmless, and the read
  // enable waits for no grant.
  // With DATA_WREG each bank registers its write port (simty_ram_be WREG):
  // the store merge's byte enables and data end at flip-flops, and the
  // bank writes them the next cycle; a read in that cycle, by any master,
  // takes the pending bytes from the register, so the masters see the
  // same memory as without it and no grant waits for the write.
  wire cpu_data = grant & hit_data;
  wire [DATA_RW-1:0] core_row = dmem_addr[2 + LANE_BITS +: DATA_RW];
  // A copy reads and writes different rows in one cycle.
  /* verilator lint_off UNUSEDSIGNAL */
  wire [31:0] m_rrow = m_raddr >> (2 + LANE_BITS);
  wire [31:0] m_wrow = m_waddr >> (2 + LANE_BITS);
  /* verilator lint_on UNUSEDSIGNAL */
  wire [LANE_BITS:0] m_rbank, m_wbank;
  generate
    if (LANES > 1) begin : gen_m_bank
      assign m_rbank = {1'b0, m_raddr[2 +: LANE_BITS]};
      assign m_wbank = {1'b0, m_waddr[2 +: LANE_BITS]};
    end else begin : gen_m_one_bank
      assign m_rbank = 1'b0;
      assign m_wbank = 1'b0;
    end
  endgenerate
  wire [DATA_RW-1:0] data_rrow = dmem_busy ? core_row :
                                 copy_busy ? m_rrow[DATA_RW-1:0] : cpu_row[DATA_RW-1:0];
  wire [DATA_RW-1:0] data_wrow = dmem_busy ? core_row :
                                 copy_busy ? m_wrow[DATA_RW-1:0] : cpu_row[DATA_RW-1:0];
  genvar b;
  generate
    for (b = 0; b < LANES; b = b + 1) begin : gen_data_bank
      wire cpu_bank_hit = cpu_data & (cpu_bank == b);
      wire [3:0] m_bank_we = (m_wbank == b) ? m_data_we : 4'd0;
      simty_ram_be #(.WORDS(DATA_ROWS), .WREG(DATA_WREG)) u_bank (
        .clk_i(clk_i),
        .re_i(1'b1),
        .raddr_i(data_rrow),
        .rdata_o(dmem_rdata[32 * b +: 32]),
        .we_i(dmem_busy ? dmem_be[4 * b +: 4] : (cpu_bank_hit ? cpu_wstrb : m_bank_we)),
        .waddr_i(data_wrow),
        .wdata_i(dmem_busy ? dmem_wdata[32 * b +: 32] : copy_busy ? m_wdata : cpu_wdata)
      );
    end
  endgenerate
  assign data_line = dmem_rdata >> {bank_q, 5'd0};
  wire [31:0] data_word = data_line[31:0];
  // The copy's read data, the cycle after its read.
  reg              m_rcode_q;
  reg [LANE_BITS:0] m_rbank_q;
  always @(posedge clk_i) begin
    if (m_re) begin
      m_rcode_q <= m_rcode;
      m_rbank_q <= m_rbank;
    end
  end
  /* verilator lint_off UNUSEDSIGNAL */
  wire [32*LANES-1:0] m_data_line = dmem_rdata >> {m_rbank_q, 5'd0};
  /* verilator lint_on UNUSEDSIGNAL */
  assign m_rdata = m_rcode_q ? code_rdata : m_data_line[31:0];

  // ---- Block sequencer: the core's dispatch port ----
  wire        seq_start, seq_stop, seq_running, seq_busy, seq_done, seq_stopped, seq_end;
  wire [31:0] seq_pc, seq_first, seq_next, seq_threads_done;
  wire [WARPS-1:0] seq_held;
  simty_block_seq #(.WARPS(WARPS), .LANES(LANES)) u_seq (
    .clk_i(clk_i), .rst_i(rst_i | core_rst),
    .start_i(seq_start), .stop_i(seq_stop), .pc_i(seq_pc), .first_i(seq_first),
    .nthreads_i(launch_nthreads), .halt_i(halt), .fault_i(fault_valid),
    .dispatch_valid_o(dispatch_valid), .dispatch_ready_i(dispatch_ready),
    .dispatch_warp_o(dispatch_warp), .dispatch_pc_o(dispatch_pc),
    .dispatch_base_tid_o(dispatch_base_tid), .dispatch_mask_o(dispatch_mask),
    .warp_busy_i(warp_busy),
    .running_o(seq_running), .busy_o(seq_busy), .done_o(seq_done), .stopped_o(seq_stopped),
    .end_o(seq_end), .next_o(seq_next), .done_threads_o(seq_threads_done),
    .held_o(seq_held)
  );

  // ---- MMIO and host link ----
  wire [31:0] mmio_rdata;
  wire        rx_valid, rx_pop, tx_push, tx_full, tx_idle, rx_overrun, rx_frame_err;
  wire        rx_almost_full;
  wire [7:0]  rx_data, tx_data;
  wire [1:0]  uart_clear;
  wire        link_enable;
  wire        mmio_rx_pop, mmio_tx_push, eng_rx_pop, eng_tx_push;
  wire [7:0]  mmio_tx_data, eng_tx_data;
  wire [31:0] linkreg_rdata, linkbuf_rdata;

  simty_mmio #(
    .WARPS(WARPS), .LANES(LANES), .CODE_SIZE(CODE_SIZE), .DATA_SIZE(DATA_SIZE),
    .CLK_HZ(CLK_HZ), .CONSOLE_DEPTH(CONSOLE_DEPTH), .HW_VERSION(SIMTY_VERSION_CODE),
    .HW_BUILD(HW_BUILD), .BAUD(BAUD),
    // SIMTY_EXT_M = 1, SIMTY_EXT_A = 2, SIMTY_EXT_ZICNTR = 4 (hw/arch/simty_arch.h);
    // bit 8 the rotate crossbar (SIMTY_EXT_XBAR_ROTATE)
    .EXTENSIONS((EXT_M != 0 ? 32'd1 : 32'd0) | (EXT_A != 0 ? 32'd2 : 32'd0) |
                (EXT_ZICNTR != 0 ? 32'd4 : 32'd0) | (XBAR != 0 ? 32'h100 : 32'd0))
  ) u_mmio (
    .clk_i(clk_i), .rst_i(rst_i),
    .req_i(grant & hit_mmio), .addr_i(cpu_maddr[15:2]), .wstrb_i(cpu_wstrb),
    .wdata_i(cpu_wdata), .rdata_o(mmio_rdata), .wait_o(mmio_wait),
    .core_rst_o(core_rst), .core_idle_i(core_idle), .halt_o(halt),
    .active_o(active),
    .launch_nthreads_o(launch_nthreads), .launch_args_o(launch_args),
    .launch_stack_top_o(launch_stack_top), .launch_stack_log2_o(launch_stack_log2),
    .warp_busy_i(warp_busy),
    .seq_start_o(seq_start), .seq_stop_o(seq_stop), .seq_pc_o(seq_pc),
    .seq_first_o(seq_first),
    .seq_status_i({seq_stopped, seq_done, seq_busy, seq_running}), .seq_end_i(seq_end),
    .seq_next_i(seq_next), .seq_threads_done_i(seq_threads_done), .seq_held_i(seq_held),
    .fault_valid_i(fault_valid), .fault_cause_i(fault_cause),
    .fault_pc_i(fault_pc), .fault_hart_i(fault_hart), .fault_tid_i(fault_tid),
    .fault_addr_i(fault_addr), .retire_valid_i(retire_valid),
    .ctr_clear_o(ctr_clear), .ctr_sel_o(ctr_sel), .ctr_value_i(ctr_value),
    .ctr_valid_i(ctr_valid),
    .console_valid_i(console_valid), .console_byte_i(console_byte),
    .console_tid_i(console_tid), .console_ready_o(console_ready),
    // With the link engine enabled, UART_DATA sees an empty FIFO (reads
    // 0) and its writes go nowhere.
    .uart_rx_valid_i(rx_valid & ~link_enable), .uart_rx_data_i(rx_data),
    .uart_rx_pop_o(mmio_rx_pop),
    .uart_tx_push_o(mmio_tx_push), .uart_tx_data_o(mmio_tx_data), .uart_tx_full_i(tx_full),
    .uart_tx_idle_i(tx_idle), .uart_overrun_i(rx_overrun),
    .uart_frame_err_i(rx_frame_err), .uart_clear_o(uart_clear)
  );

  generate
    if (LINK_ENGINE != 0) begin : gen_engine
      simty_link_engine #(
        .RX_SLOTS(LINK_RX_SLOTS), .TX_SLOTS(LINK_TX_SLOTS),
        .CODE_SIZE(CODE_SIZE), .DATA_SIZE(DATA_SIZE)
      ) u_engine (
        .clk_i(clk_i), .rst_i(rst_i),
        .reg_req_i(grant & hit_linkreg), .reg_addr_i(cpu_maddr[7:0]), .reg_wstrb_i(cpu_wstrb),
        .reg_wdata_i(cpu_wdata), .reg_rdata_o(linkreg_rdata), .enable_o(link_enable),
        .lb_sel_i(hit_linkbuf), .lb_req_i(grant & hit_linkbuf),
        .lb_addr_i({cpu_maddr[14:2], 2'b00}),
        .lb_wstrb_i(cpu_wstrb), .lb_wdata_i(cpu_wdata), .lb_rdata_o(linkbuf_rdata),
        .copy_busy_o(copy_busy),
        .rx_valid_i(rx_valid), .rx_data_i(rx_data), .rx_pop_o(eng_rx_pop),
        .tx_push_o(eng_tx_push), .tx_data_o(eng_tx_data), .tx_full_i(tx_full),
        .code_free_i(~imem_en), .data_free_i(~dmem_busy),
        .m_re_o(m_re), .m_rcode_o(m_rcode), .m_raddr_o(m_raddr), .m_rdata_i(m_rdata),
        .m_we_o(m_we), .m_wcode_o(m_wcode), .m_waddr_o(m_waddr), .m_wdata_o(m_wdata)
      );
    end else begin : gen_no_engine
      // Small boards (iCE40: LINKBUF alone is 48 block RAMs): the v1 link
      // through UART_DATA only; LINK_INFO reads 0.
      assign linkreg_rdata = 32'd0;
      assign link_enable = 1'b0;
      assign linkbuf_rdata = 32'd0;
      assign copy_busy = 1'b0;
      assign eng_rx_pop = 1'b0;
      assign eng_tx_push = 1'b0;
      assign eng_tx_data = 8'd0;
      assign m_re = 1'b0;
      assign m_rcode = 1'b0;
      assign m_raddr = 32'd0;
      assign m_we = 4'd0;
      assign m_wcode = 1'b0;
      assign m_waddr = 32'd0;
      assign m_wdata = 32'd0;
    end
  endgenerate
  assign rx_pop = link_enable ? eng_rx_pop : mmio_rx_pop;
  // A UART_DATA store reaches the TX FIFO a cycle after its bus cycle:
  // the controller's address decode then ends at a register instead of
  // running on into the FIFO's level counter (the ULX3S's critical path).
  // The firmware's next status read comes two cycles later at the soonest,
  // so TX_READY never lags behind a push.
  reg       mmio_tx_push_q;
  reg [7:0] mmio_tx_data_q;
  always @(posedge clk_i) begin
    if (rst_i) mmio_tx_push_q <= 1'b0;
    else mmio_tx_push_q <= mmio_tx_push;
    mmio_tx_data_q <= mmio_tx_data;
  end
  assign tx_push = link_enable ? eng_tx_push : mmio_tx_push_q;
  assign tx_data = link_enable ? eng_tx_data : mmio_tx_data_q;

  simty_uart #(
    .CLK_HZ(CLK_HZ), .BAUD(BAUD), .PHY(PHY),
    .RX_DEPTH(LINK_FIFO_DEPTH), .TX_DEPTH(LINK_FIFO_DEPTH)
  ) u_link (
    .clk_i(clk_i), .rst_i(rst_i),
    .uart_rx_i(uart_rx_i), .uart_tx_o(uart_tx_o),
    .bridge_rx_valid_i(bridge_rx_valid_i), .bridge_rx_data_i(bridge_rx_data_i),
    .bridge_rx_ready_o(bridge_rx_ready_o), .bridge_tx_valid_o(bridge_tx_valid_o),
    .bridge_tx_data_o(bridge_tx_data_o), .bridge_tx_ready_i(bridge_tx_ready_i),
    .rx_valid_o(rx_valid), .rx_data_o(rx_data), .rx_pop_i(rx_pop),
    .tx_push_i(tx_push), .tx_data_i(tx_data), .tx_full_o(tx_full),
    .tx_idle_o(tx_idle), .rx_almost_full_o(rx_almost_full),
    .rx_overrun_o(rx_overrun), .rx_frame_err_o(rx_frame_err),
    .clear_i(uart_clear)
  );

  // ---- Status outputs ----
  // Warps that a fault or HALT stopped stay busy until CORE_RESET (the
  // firmware leaves them so until the next launch): they run nothing.
  assign core_busy_o = (|warp_busy) & ~halt & ~fault_valid;
  assign core_fault_o = fault_valid;

  // Hardware flow control towards the host (RTS#, active low); the byte
  // bridge has its own back-pressure and the pin then stays low.
  assign uart_rts_n_o = (PHY != 0) & rx_almost_full;

  // ---- Read data back to the controller ----
  always @* begin
    case (sel_q)
      SEL_FW: cpu_rdata = fw_rdata;
      SEL_CODE: cpu_rdata = code_rdata;
      SEL_DATA: cpu_rdata = data_word;
      SEL_MMIO: cpu_rdata = mmio_rdata;
      SEL_LINKREG: cpu_rdata = linkreg_rdata;
      SEL_LINKBUF: cpu_rdata = linkbuf_rdata;
      default: cpu_rdata = 32'd0;
    endcase
  end
endmodule

`default_nettype wire
