// SPDX-License-Identifier: Apache-2.0
// simty_block_seq.v - the block sequencer: the grid dispatcher in
// hardware, between the register block (simty_mmio) and the Simty core's
// dispatch port (docs/soc.md, "Block sequencer").
//
// The firmware programs a launch once (entry pc, first logical id, the
// launch's thread count; the core's launch inputs stay in simty_mmio) and
// pulses start_i. The sequencer then hands the blocks of LANES
// consecutive logical ids first, first + LANES, ... to the warps as they
// are free, the lowest free warp first, masks the lanes of the last block
// that lie at or past nthreads, and stops when every id is out. It counts
// the threads of the blocks that ended (a warp it gave a block to whose
// WARP_BUSY bit fell), and ends the launch when every block has ended:
// done_o rises and end_o pulses once (the register block then closes the
// launch window, ACTIVE). stop_i (abort) hands out nothing more; halt_i
// and fault_i hold every offer back. Everything else (faults, time-out,
// counters, when to start and stop) is the firmware's.
//
// Timing: the offer (dispatch_*_o) is registered (its base is the next-id
// register, its pc the SEQ_PC register). It is computed from
// registered state only: the warp is the lowest one whose busy bit is 0
// in the cycle before the offer. In the cycle after the core takes a
// block the offer is down (the warp's busy bit and the next id settle),
// so a dispatch takes 2 cycles at the least; a warp that frees is offered
// its next block in the next cycle. Logical ids go out in increasing
// order, one block per dispatch, whatever warp takes them.
//
// Widths: ids and counts are 32 bits; the thread count is at most 2^32-1
// and the ids handed out never pass it (no wrap at 2^31 or 2^32).
// Reset: synchronous, active high; the SoC also resets the sequencer with
// the core (CORE_RESET), which forgets the launch.
`default_nettype none

module simty_block_seq #(
  parameter integer WARPS = 4,
  parameter integer LANES = 4,
  parameter integer WARP_BITS = (WARPS > 1) ? $clog2(WARPS) : 1
) (
  input  wire                 clk_i,
  input  wire                 rst_i,

  // From the register block.
  input  wire                 start_i,      // pulse: start a launch (ignored while busy_o)
  input  wire                 stop_i,       // pulse: hand out nothing more
  input  wire [31:0]          pc_i,         // entry pc of every block
  input  wire [31:0]          first_i,      // first logical id (low bits ignored)
  input  wire [31:0]          nthreads_i,   // ids run from first_i to nthreads_i - 1
  input  wire                 halt_i,
  input  wire                 fault_i,

  // Simty core's dispatch port.
  output reg                  dispatch_valid_o,
  input  wire                 dispatch_ready_i,
  output reg  [WARP_BITS-1:0] dispatch_warp_o,
  output wire [31:0]          dispatch_pc_o,
  output wire [31:0]          dispatch_base_tid_o,
  output reg  [LANES-1:0]     dispatch_mask_o,
  input  wire [WARPS-1:0]     warp_busy_i,

  // Status.
  output wire                 running_o,    // ids left to hand out (not stopped)
  output wire                 busy_o,       // running_o, or a block handed out not ended
  output reg                  done_o,       // the last launch ended: every block ran
  output reg                  stopped_o,    // the last launch was stopped (stop_i)
  output reg                  end_o,        // pulse: the launch just ended (done_o rises)
  output reg  [31:0]          next_o,       // next id to hand out (nthreads once all out)
  output reg  [31:0]          done_threads_o, // threads of the blocks that ended
  output reg  [WARPS-1:0]     held_o        // warps holding a block from this launch
);
  localparam integer LANE_BITS = (LANES > 1) ? $clog2(LANES) : 0;
  localparam [31:0]  LANES32 = LANES;
  localparam integer CW = (WARPS > 1) ? $clog2(WARPS + 1) : 1;

  reg         launch_q;   // a launch in progress
  reg  [31:0] left_q;     // ids still to hand out
  reg         part_q;     // a partial block is held (by part_warp_q)
  reg  [WARP_BITS-1:0] part_warp_q;
  reg  [LANE_BITS:0]   part_n_q;   // its threads (< LANES)

  wire go = dispatch_valid_o & dispatch_ready_i;
  // The offer holds the last ids (left_q <= LANES).
  wire last_block = ~(|left_q[31:LANE_BITS]) | (left_q == LANES32);
  wire [31:0] first_al = first_i & ~(LANES32 - 32'd1);
  // Ids to hand out: nthreads - first, 0 when first is past nthreads (the
  // subtraction's borrow).
  wire [32:0] left_diff = {1'b0, nthreads_i} - {1'b0, first_al};
  wire [31:0] left_start = left_diff[32] ? 32'd0 : left_diff[31:0];

  // The lowest free warp.
  wire [WARPS-1:0] free = ~warp_busy_i;
  reg  [WARP_BITS-1:0] pick;
  integer i;
  always @* begin
    pick = {WARP_BITS{1'b0}};
    for (i = WARPS - 1; i >= 0; i = i - 1)
      if (free[i]) pick = i[WARP_BITS-1:0];
  end

  // The mask of the block starting at the next id: the last block's ids
  // left are at most LANES, so its low bits tell.
  wire [LANE_BITS:0] left_low = left_q[LANE_BITS:0];
  reg [LANES-1:0] mask_d;
  integer l;
  always @* begin
    for (l = 0; l < LANES; l = l + 1)
      mask_d[l] = ~last_block | ({{(31-LANE_BITS){1'b0}}, left_low} > l);
  end

  // Blocks that ended this cycle: warps that held one and are no longer
  // busy; each adds LANES threads but the partial block's warp.
  wire [WARPS-1:0] freed = held_o & ~warp_busy_i;
  reg  [CW-1:0] n_freed;
  integer k;
  always @* begin
    n_freed = {CW{1'b0}};
    for (k = 0; k < WARPS; k = k + 1)
      n_freed = n_freed + {{(CW-1){1'b0}}, freed[k]};
  end
  wire part_freed = part_q & freed[part_warp_q];
  // At most WARPS x LANES threads end in one cycle: FW bits.
  localparam integer FW = CW + LANE_BITS + 1;
  localparam [FW-1:0] LANES_FW = LANES32[FW-1:0];
  wire [FW-1:0] part_nfw = {{(FW-LANE_BITS-1){1'b0}}, part_n_q};
  wire [FW-1:0] freed_threads = ({1'b0, n_freed, {LANE_BITS{1'b0}}}) -
                                (part_freed ? LANES_FW - part_nfw : {FW{1'b0}});
  reg [WARPS-1:0] taken;   // the warp taking a block this cycle, one-hot
  integer t;
  always @* begin
    for (t = 0; t < WARPS; t = t + 1)
      taken[t] = go & ({{(32-WARP_BITS){1'b0}}, dispatch_warp_o} == t);
  end
  wire [WARPS-1:0] held_next = (held_o & warp_busy_i) | taken;
  wire all_out = left_q == 32'd0;

  assign running_o = launch_q & ~all_out;
  assign busy_o = launch_q | (|held_o);
  assign dispatch_pc_o = pc_i;
  // The next id is a register that changes only when a block is taken,
  // after which the offer is down for a cycle: it is the offer's base.
  assign dispatch_base_tid_o = next_o;

  always @(posedge clk_i) begin
    end_o <= 1'b0;
    if (rst_i) begin
      launch_q <= 1'b0;
      left_q <= 32'd0;
      next_o <= 32'd0;
      done_threads_o <= 32'd0;
      held_o <= {WARPS{1'b0}};
      part_q <= 1'b0;
      done_o <= 1'b0;
      stopped_o <= 1'b0;
      dispatch_valid_o <= 1'b0;
    end else if (start_i & ~busy_o) begin
      launch_q <= 1'b1;
      left_q <= left_start;
      next_o <= first_al;
      done_threads_o <= 32'd0;
      part_q <= 1'b0;
      done_o <= 1'b0;
      stopped_o <= 1'b0;
      dispatch_valid_o <= 1'b0;
    end else begin
      held_o <= held_next;
      done_threads_o <= done_threads_o + {{(32-FW){1'b0}}, freed_threads};
      if (part_freed) part_q <= 1'b0;
      if (go) begin
        if (last_block) begin
          next_o <= nthreads_i;   // = next_o + left_q
          left_q <= 32'd0;
          part_q <= left_q != LANES32;
          part_warp_q <= dispatch_warp_o;
          part_n_q <= left_q[LANE_BITS:0];
        end else begin
          next_o <= next_o + LANES32;
          left_q <= left_q - LANES32;
        end
      end
      // The next offer, from this cycle's registered state; none in the
      // cycle after a block is taken (its warp's busy bit and the next id
      // are registered at this edge).
      dispatch_valid_o <= launch_q & ~all_out & ~go & ~stop_i & ~halt_i & ~fault_i &
                          (|free);
      dispatch_warp_o <= pick;
      dispatch_mask_o <= mask_d;
      if (stop_i & launch_q) begin
        launch_q <= 1'b0;
        stopped_o <= 1'b1;
      end else if (launch_q & all_out & ~dispatch_valid_o & (held_next == {WARPS{1'b0}})) begin
        // Every id out, nothing offered, every block ended.
        launch_q <= 1'b0;
        done_o <= 1'b1;
        end_o <= 1'b1;
      end
    end
  end
endmodule

`default_nettype wire
