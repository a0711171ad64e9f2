// simty_tb_top: the core testbench's Verilated top. simty_core plus the two
// synchronous RAMs of docs/core.md ("Interface"), whose contents live on
// the C side (simty_tb.c loads the ELF there and dumps symbols from it) and
// are reached through DPI at the clock edge:
//
//   simty_tb_imem_read   one CODE word, for an imem_en_o cycle
//   simty_tb_dmem_access one DATA line: read the old contents, then write
//                        the enabled bytes (read-before-write)
//
// Both check the request against the contract (aligned, inside the
// populated memory) and report a violation to the bench, which stops.
// Keeping the read data in flops here rather than on the model's inputs
// lets Verilator evaluate the logic behind them once per clock, with the
// rest of the clocked logic, instead of again on every input change
// (docs/performance.md, "Simulation speed").
`default_nettype none

module simty_tb_top #(
  parameter integer WARPS = 4,
  parameter integer LANES = 4,
  parameter [31:0]  CODE_SIZE = 32'h0001_0000,
  parameter [31:0]  DATA_SIZE = 32'h0010_0000
) (
  input  wire clk_i,
  input  wire rst_i,
  input  wire [31:0] launch_nthreads_i,
  input  wire [31:0] launch_args_i,
  input  wire [31:0] launch_stack_top_i,
  input  wire [4:0]  launch_stack_log2_i,
  input  wire                   dispatch_valid_i,
  output wire                   dispatch_ready_o,
  input  wire [WARP_BITS-1:0]   dispatch_warp_i,
  input  wire [31:0]            dispatch_pc_i,
  input  wire [31:0]            dispatch_base_tid_i,
  input  wire [LANES-1:0]       dispatch_mask_i,
  output wire [WARPS-1:0]       warp_busy_o,
  input  wire        halt_i,
  output wire        fault_valid_o,
  output wire [3:0]  fault_cause_o,
  output wire [31:0] fault_pc_o,
  output wire [31:0] fault_hart_o,
  output wire [31:0] fault_tid_o,
  output wire [31:0] fault_addr_o,
  output wire        idle_o,
  input  wire        ctr_clear_i,
  input  wire [3:0]  ctr_sel_i,
  output wire [63:0] ctr_value_o,
  output wire        ctr_valid_o,
  output wire        console_valid_o,
  output wire [7:0]  console_byte_o,
  output wire [31:0] console_tid_o,
  input  wire        console_ready_i,
  output wire                   retire_valid_o,
  output wire [WARP_BITS-1:0]   retire_warp_o,
  output wire [31:0]            retire_pc_o,
  output wire [LANES-1:0]       retire_mask_o
);
  localparam integer WARP_BITS = (WARPS > 1) ? $clog2(WARPS) : 1;

  import "DPI-C" function int simty_tb_imem_read(input int addr);
  import "DPI-C" function void simty_tb_dmem_access(
    input int addr, input bit [4*LANES-1:0] be, input bit [32*LANES-1:0] wdata,
    output bit [32*LANES-1:0] rdata);

  wire                imem_en;
  wire [31:0]         imem_addr;
  reg  [31:0]         imem_q;
  wire                dmem_en;
  wire [31:0]         dmem_addr;
  wire [4*LANES-1:0]  dmem_be;
  wire [32*LANES-1:0] dmem_wdata;
  reg  [32*LANES-1:0] dmem_q;
  reg  [32*LANES-1:0] line;

  // Outside reset only, like the core's own memories: a request held
  // during reset is not part of the protocol. Read data holds between
  // requests.
  always @(posedge clk_i) begin
    if (imem_en && !rst_i) imem_q <= simty_tb_imem_read(imem_addr);
    if (dmem_en && !rst_i) begin
      simty_tb_dmem_access(dmem_addr, dmem_be, dmem_wdata, line);
      dmem_q <= line;
    end
  end

  simty_core #(
    .WARPS (WARPS), .LANES (LANES), .CODE_SIZE (CODE_SIZE), .DATA_SIZE (DATA_SIZE)
  ) u_core (
    .clk_i (clk_i), .rst_i (rst_i),
    .launch_nthreads_i (launch_nthreads_i), .launch_args_i (launch_args_i),
    .launch_stack_top_i (launch_stack_top_i),
    .launch_stack_log2_i (launch_stack_log2_i),
    .dispatch_valid_i (dispatch_valid_i), .dispatch_ready_o (dispatch_ready_o),
    .dispatch_warp_i (dispatch_warp_i), .dispatch_pc_i (dispatch_pc_i),
    .dispatch_base_tid_i (dispatch_base_tid_i),
    .dispatch_mask_i (dispatch_mask_i), .warp_busy_o (warp_busy_o),
    .halt_i (halt_i), .fault_valid_o (fault_valid_o),
    .fault_cause_o (fault_cause_o), .fault_pc_o (fault_pc_o),
    .fault_hart_o (fault_hart_o), .fault_tid_o (fault_tid_o),
    .fault_addr_o (fault_addr_o), .idle_o (idle_o),
    .ctr_clear_i (ctr_clear_i), .ctr_sel_i (ctr_sel_i),
    .ctr_value_o (ctr_value_o), .ctr_valid_o (ctr_valid_o),
    .console_valid_o (console_valid_o), .console_byte_o (console_byte_o),
    .console_tid_o (console_tid_o), .console_ready_i (console_ready_i),
    .imem_en_o (imem_en), .imem_addr_o (imem_addr), .imem_rdata_i (imem_q),
    .dmem_en_o (dmem_en), .dmem_addr_o (dmem_addr), .dmem_be_o (dmem_be),
    .dmem_wdata_o (dmem_wdata), .dmem_rdata_i (dmem_q),
    .retire_valid_o (retire_valid_o), .retire_warp_o (retire_warp_o),
    .retire_pc_o (retire_pc_o), .retire_mask_o (retire_mask_o)
  );
endmodule
