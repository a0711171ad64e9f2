// SPDX-License-Identifier: Apache-2.0
// simty_ctrl_cpu.v - the SoC controller: a small multi-cycle RV32I hart
// that runs the firmware (link protocol, kernel loads, warp dispatch).
//
// Built for few iCE40 LUTs rather than speed: one bus for fetch and data,
// the register file in one block RAM read port (two EBRs), one ALU adder
// plus a pc adder, and a shifter that moves 8 or 1 bits per cycle.
//
// The bus request comes from registers (the state, addr_q, pc4_q,
// simple_q and, for the write strobes, the decode of ir_q), never from
// the ALU: the adder, the branch compare and the next-pc mux end at
// registers, and the SoC's address decode and RAM enables start from
// them. It also says which requests are fetches and gives a load or
// store's address the cycle before its request (the adder's sum in
// S_EXEC), so the SoC decodes a request's target from registers too.
// An instruction whose successor is the next word and that touches
// no memory (I-type and register-register ALU without shifts, LUI,
// AUIPC) requests that fetch from its last cycle (address pc4_q); a
// load requests it from S_LOAD, which writes the loaded word; every other
// one requests the next access from the state it moves to. With a bus
// that answers the cycle after a request (the SoC's block RAMs) an
// instruction takes: 2 cycles for I-type ALU, LUI, AUIPC; 3 for
// register-register ALU, JAL and JALR; 4 for branches; loads 5, stores 6;
// shifts 3 or 4 plus amount/8 + amount%8.
//
// Paths are kept short for the SoC's clock. The execute cycle has one
// carry chain on each path: a branch's target (pc + imm) is registered
// in S_RS1, which every branch passes, so the compare only selects it or
// pc + 4 (pc4_q); a trap does not hold the pc or the address (trap_pc_q
// keeps its own). Read data from the bus ends at registers: a load's
// word at ld_q (its bytes are selected in S_LOAD), a fetched word at
// ir_q and, through the decode of its register fields, the register
// file's read register. Instructions come from one memory only
// (FETCH_BASE, 2^FETCH_LOG2 bytes: the firmware memory), and the fetch
// reads that memory's read data (fetch_rdata_i) rather than the SoC's
// read-data multiplexer over every slave; a fetch from anywhere else
// traps.
//
// No CSRs, no interrupts (the firmware polls). ecall, ebreak, any other
// SYSTEM encoding, illegal encodings, a jump or taken branch to a
// misaligned target, a misaligned load or store and a fetch outside the
// instruction memory all stop the hart with
// trap_o set until reset: the firmware never does these on purpose, so a
// trap is a firmware bug and the SoC reports it rather than hiding it.
//
// Reset: synchronous, active high. x0 is never written and the register
// file starts at zero (block RAM initial contents), so x0 reads 0.
`default_nettype none

module simty_ctrl_cpu #(
  parameter [31:0] RESET_PC = 32'h0000_0000,
  parameter [31:0] FETCH_BASE = 32'h0000_0000,   // aligned to its size
  parameter integer FETCH_LOG2 = 16              // instruction memory bytes
) (
  input  wire        clk_i,
  input  wire        rst_i,

  // Bus: a request holds valid and every field until the cycle ready is
  // high; read data is sampled in that cycle. Ready must come at the
  // earliest the cycle after the request is first seen (a slave registers
  // its acceptance): the request's first cycle may be the last cycle of
  // the previous instruction, which does not look at ready. Address is
  // word aligned; wstrb 0 means read.
  output wire        bus_valid_o,
  output wire [31:0] bus_addr_o,
  output wire [3:0]  bus_wstrb_o,
  output wire [31:0] bus_wdata_o,
  input  wire [31:0] bus_rdata_i,
  input  wire        bus_ready_i,
  // What the request is, for an address decode from registers: a fetch
  // (bus_fetch_o) is from the instruction memory (the hart traps on a
  // fetch from anywhere else, whatever it reads), and a load or store's
  // address is known a cycle before its request: bus_daddr_o in the
  // cycle bus_dnext_o is high; the next request that is not a fetch is
  // at that address (when that cycle's instruction is a load or store).
  // bus_maddr_o is that address from a register: equal to bus_addr_o
  // whenever a request that is not a fetch is presented, without the
  // fetch address's select, for the slaves that take only loads and
  // stores.
  output wire        bus_fetch_o,
  output wire        bus_dnext_o,
  output wire [31:0] bus_daddr_o,
  output wire [31:0] bus_maddr_o,
  // The instruction memory's read data, valid when a fetch's ready is.
  input  wire [31:0] fetch_rdata_i,

  output wire        trap_o,
  output wire [2:0]  trap_cause_o,   // TRAP_* below
  // The pc of the instruction in progress; in S_TRAP the trapping
  // instruction's (cause 6: the address fetched).
  output wire [31:0] trap_pc_o
);
  localparam [2:0] TRAP_ECALL = 3'd1;
  localparam [2:0] TRAP_EBREAK = 3'd2;
  localparam [2:0] TRAP_ILLEGAL = 3'd3;
  localparam [2:0] TRAP_MISALIGNED_JUMP = 3'd4;
  localparam [2:0] TRAP_MISALIGNED_ACCESS = 3'd5;
  localparam [2:0] TRAP_FETCH = 3'd6;

  localparam [2:0] S_FETCH = 3'd0;   // bus read of the instruction
  localparam [2:0] S_RS1 = 3'd1;     // rs2 arrives, rs1 is read
  localparam [2:0] S_EXEC = 3'd2;    // operands ready: ALU, branch, address
  localparam [2:0] S_MEM = 3'd3;     // load or store on the bus
  localparam [2:0] S_SHIFT = 3'd4;   // shift opb_q by shamt_q
  localparam [2:0] S_TRAP = 3'd5;
  localparam [2:0] S_LOAD = 3'd6;    // write the loaded word, fetch next

  reg [2:0]  state_q, state_d;
  reg [31:0] pc_q, pc_d;
  reg [31:0] addr_q, addr_d;    // the bus address: pc or load/store address
  reg [31:2] pc4_q;             // pc_q + 4: the early fetch, fall-through
  reg [31:0] tgt_q;             // pc_q + imm, a branch's target in S_EXEC
  reg [31:0] trap_pc_q;
  reg [31:0] ir_q, ir_d;
  reg [31:0] opb_q, opb_d;      // rs2 (store data), or the shift operand
  reg [4:0]  shamt_q, shamt_d;
  reg [2:0]  trap_cause_q, trap_cause_d;
  reg [31:0] ld_q;              // a load's word, as read (S_LOAD)
  reg [1:0]  ld_off_q;          // its byte offset
  // What the request is, registered from the next state so that the
  // SoC's selects start at flops: in S_MEM (a load or store, not a
  // fetch), and the store's byte strobes there (0: a read). ir_q and
  // f3 hold while S_MEM is entered or kept, and addr_q is loaded with
  // addr_d, so both equal their decode of state_q and addr_q.
  reg        mem_q;
  reg [3:0]  wstrb_q;

  // ---- Register file: one synchronous read port, one write port ----
  // Every read that is used happens at least a cycle after the last
  // write (writes end an instruction, reads start the next), so no
  // read-during-write bypass is needed.
  (* no_rw_check *)
  reg [31:0] rf_q [0:31];
  reg [31:0] rf_rdata_q;
  reg [4:0]  rf_raddr;
  reg        rf_we;
  reg [31:0] rf_wdata;
  wire [4:0] rd = ir_q[11:7];

  integer i;
  initial begin
    for (i = 0; i < 32; i = i + 1) rf_q[i] = 32'd0;
  end

  always @(posedge clk_i) begin
    rf_rdata_q <= rf_q[rf_raddr];
    if (rf_we) rf_q[rd] <= rf_wdata;
  end

  // Register-register, branch and store formats need rs2: it is read in
  // the fetch cycle and rs1 one cycle later, so that rs1 always comes
  // straight from the RAM into the ALU in S_EXEC.
  // Major opcodes (bits 6:2), for the fetched word's decode and ir_q's.
  localparam [4:0] OPC_LOAD = 5'b00000, OPC_FENCE = 5'b00011, OPC_OPIMM = 5'b00100,
                   OPC_AUIPC = 5'b00101, OPC_STORE = 5'b01000, OPC_OP = 5'b01100,
                   OPC_LUI = 5'b01101, OPC_BRANCH = 5'b11000, OPC_JALR = 5'b11001,
                   OPC_JAL = 5'b11011, OPC_SYSTEM = 5'b11100;
  wire [4:0] fetch_opc = fetch_rdata_i[6:2];
  wire fetch_needs_rs2 = (fetch_opc == OPC_OP) | (fetch_opc == OPC_BRANCH) |
                         (fetch_opc == OPC_STORE);

  // Falls through to the next word, no memory access, cannot trap: the
  // fetch of pc + 4 is requested from S_EXEC. Decoded from the fetched
  // word into simple_q, so the bus address's select in S_EXEC starts at
  // a flop, not at ir_q's decode.
  wire [2:0] fetch_f3 = fetch_rdata_i[14:12];
  wire [6:0] fetch_f7 = fetch_rdata_i[31:25];
  wire fetch_simple = (fetch_rdata_i[1:0] == 2'b11) & (fetch_f3[1:0] != 2'b01) &
                      ((fetch_opc == OPC_LUI) | (fetch_opc == OPC_AUIPC) |
                       (fetch_opc == OPC_OPIMM) |
                       ((fetch_opc == OPC_OP) &
                        ((fetch_f7 == 7'b0000000) |
                         ((fetch_f7 == 7'b0100000) & (fetch_f3 == 3'b000)))));
  reg simple_q;   // ir_q's instruction is fetch_simple

  // ---- Decode of ir_q ----
  wire [4:0] opc = ir_q[6:2];
  wire [2:0] f3 = ir_q[14:12];
  wire [6:0] f7 = ir_q[31:25];
  wire is_load = opc == OPC_LOAD;
  wire is_fence = opc == OPC_FENCE;
  wire is_opimm = opc == OPC_OPIMM;
  wire is_auipc = opc == OPC_AUIPC;
  wire is_store = opc == OPC_STORE;
  wire is_op = opc == OPC_OP;
  wire is_lui = opc == OPC_LUI;
  wire is_branch = opc == OPC_BRANCH;
  wire is_jalr = opc == OPC_JALR;
  wire is_jal = opc == OPC_JAL;
  wire is_system = opc == OPC_SYSTEM;
  wire is_alu = is_op | is_opimm;
  wire is_shift = is_alu & (f3[1:0] == 2'b01);
  wire is_jump = is_jal | is_jalr;

  wire f7_zero = f7 == 7'b0000000;
  wire f7_alt = f7 == 7'b0100000;
  reg legal;
  always @* begin
    case (1'b1)
      is_load: legal = (f3 != 3'b011) & (f3[2:1] != 2'b11);
      is_store: legal = ~f3[2] & (f3[1:0] != 2'b11);
      is_branch: legal = f3[2:1] != 2'b01;
      is_jalr: legal = f3 == 3'b000;
      is_op: legal = f7_zero | (f7_alt & (f3 == 3'b000 | f3 == 3'b101));
      is_opimm: legal = f3 == 3'b001 ? f7_zero :
                        f3 == 3'b101 ? (f7_zero | f7_alt) : 1'b1;
      is_fence: legal = f3[2:1] == 2'b00;
      is_auipc, is_lui, is_jal: legal = 1'b1;
      default: legal = 1'b0;   // SYSTEM traps too, with its own cause
    endcase
    if (ir_q[1:0] != 2'b11) legal = 1'b0;
  end

  wire [31:0] imm_i = {{21{ir_q[31]}}, ir_q[30:20]};
  wire [31:0] imm_s = {{21{ir_q[31]}}, ir_q[30:25], ir_q[11:7]};
  wire [31:0] imm_b = {{20{ir_q[31]}}, ir_q[7], ir_q[30:25], ir_q[11:8], 1'b0};
  wire [31:0] imm_u = {ir_q[31:12], 12'b0};
  wire [31:0] imm_j = {{12{ir_q[31]}}, ir_q[19:12], ir_q[20], ir_q[30:21], 1'b0};
  wire [31:0] imm = is_store ? imm_s :
                    is_branch ? imm_b :
                    (is_lui | is_auipc) ? imm_u :
                    is_jal ? imm_j : imm_i;

  // ---- ALU (S_EXEC) ----
  wire [31:0] rs1 = rf_rdata_q;
  wire [31:0] op_a = (is_auipc | is_jal) ? pc_q : rs1;
  wire [31:0] op_b = (is_op | is_branch) ? opb_q : imm;
  wire [2:0] alu_f3 = is_alu ? f3 : 3'b000;
  wire alu_sub = is_branch | (is_alu & f3[2:1] == 2'b01) |
                 (is_op & f3 == 3'b000 & ir_q[30]);
  wire [32:0] sum = {1'b0, op_a} + {1'b0, op_b ^ {32{alu_sub}}} +
                    {32'd0, alu_sub};
  wire ltu = ~sum[32];
  wire lt = (op_a[31] ^ op_b[31]) ? op_a[31] : ltu;
  wire [31:0] xor_ab = op_a ^ op_b;
  wire eq = xor_ab == 32'd0;

  reg [31:0] alu_out;
  always @* begin
    case (alu_f3)
      3'b010: alu_out = {31'd0, lt};
      3'b011: alu_out = {31'd0, ltu};
      3'b100: alu_out = xor_ab;
      3'b110: alu_out = op_a | op_b;
      3'b111: alu_out = op_a & op_b;
      default: alu_out = sum[31:0];
    endcase
  end

  wire taken = ((f3[2] ? (f3[1] ? ltu : lt) : eq) ^ f3[0]) & is_branch;
  wire [31:0] pc4 = {pc4_q, 2'b00};
  wire [31:0] next_pc = is_jump ? {sum[31:1], 1'b0} : taken ? tgt_q : pc4;
  wire jump_misaligned = is_jump ? sum[1] : taken & tgt_q[1];
  wire [31:0] exec_wdata = is_lui ? imm : is_jump ? pc4 : alu_out;
  wire exec_writes = (is_alu & ~is_shift) | is_lui | is_auipc | is_jump;

  wire fetch_inside = (addr_q >> FETCH_LOG2) == (FETCH_BASE >> FETCH_LOG2);

  // ---- Load and store lanes (S_MEM from addr_q, S_LOAD from ld_q) ----
  wire misaligned_access = (f3[1:0] == 2'b01 & sum[0]) |
                           (f3[1:0] == 2'b10 & sum[1:0] != 2'b00);
  // A store's byte strobes for the address being loaded into addr_q:
  // bus_wstrb_o is a register (wstrb_q, below).
  reg [3:0] store_strb_d;
  always @* begin
    case (f3[1:0])
      2'b00: store_strb_d = 4'b0001 << addr_d[1:0];
      2'b01: store_strb_d = addr_d[1] ? 4'b1100 : 4'b0011;
      default: store_strb_d = 4'b1111;
    endcase
  end
  wire [31:0] store_data = f3[1:0] == 2'b00 ? {4{opb_q[7:0]}} :
                           f3[1:0] == 2'b01 ? {2{opb_q[15:0]}} : opb_q;

  wire [7:0] ld_b0 = ld_off_q[1] ? (ld_off_q[0] ? ld_q[31:24] : ld_q[23:16])
                                 : (ld_off_q[0] ? ld_q[15:8] : ld_q[7:0]);
  wire [7:0] ld_b1 = ld_off_q[1] ? ld_q[31:24] : ld_q[15:8];
  wire ld_sign = ~f3[2] & (f3[0] ? ld_b1[7] : ld_b0[7]);
  wire [31:0] load_data = f3[1] ? ld_q :
                          f3[0] ? {{16{ld_sign}}, ld_b1, ld_b0} :
                                  {{24{ld_sign}}, ld_b0};

  // ---- Shifter: 8 bits a cycle while 8 or more remain, then 1 ----
  wire shift_right = f3[2];
  wire shift_fill = shift_right & ir_q[30] & opb_q[31];
  wire shift_big = shamt_q[4] | shamt_q[3];
  wire [31:0] shifted = shift_right ?
      (shift_big ? {{8{shift_fill}}, opb_q[31:8]} : {shift_fill, opb_q[31:1]}) :
      (shift_big ? {opb_q[23:0], 8'd0} : {opb_q[30:0], 1'b0});

  // ---- Control ----
  always @* begin
    state_d = state_q;
    pc_d = pc_q;
    addr_d = addr_q;
    ir_d = ir_q;
    opb_d = opb_q;
    shamt_d = shamt_q;
    trap_cause_d = trap_cause_q;
    rf_raddr = fetch_needs_rs2 ? fetch_rdata_i[24:20] : fetch_rdata_i[19:15];
    rf_we = 1'b0;
    rf_wdata = exec_wdata;
    case (state_q)
      S_FETCH: begin
        if (bus_ready_i) begin
          ir_d = fetch_rdata_i;
          state_d = fetch_needs_rs2 ? S_RS1 : S_EXEC;
          if (!fetch_inside) begin
            state_d = S_TRAP;
            trap_cause_d = TRAP_FETCH;
          end
        end
      end
      S_RS1: begin
        opb_d = rf_rdata_q;
        rf_raddr = ir_q[19:15];
        state_d = S_EXEC;
      end
      S_EXEC: begin
        // The pc and the address load without waiting for the trap
        // checks; rd is written even by an instruction that traps (the
        // hart halts, nothing reads it again).
        state_d = S_FETCH;
        pc_d = next_pc;
        addr_d = (is_load | is_store) ? sum[31:0] : next_pc;
        rf_we = exec_writes & (rd != 5'd0);
        if (is_system) begin
          state_d = S_TRAP;
          trap_cause_d = ir_q == 32'h0000_0073 ? TRAP_ECALL :
                         ir_q == 32'h0010_0073 ? TRAP_EBREAK : TRAP_ILLEGAL;
        end else if (!legal) begin
          state_d = S_TRAP;
          trap_cause_d = TRAP_ILLEGAL;
        end else if (jump_misaligned) begin
          state_d = S_TRAP;
          trap_cause_d = TRAP_MISALIGNED_JUMP;
        end else if (is_load | is_store) begin
          if (misaligned_access) begin
            state_d = S_TRAP;
            trap_cause_d = TRAP_MISALIGNED_ACCESS;
          end else begin
            state_d = S_MEM;
          end
        end else if (is_shift) begin
          state_d = S_SHIFT;
          opb_d = rs1;
          shamt_d = op_b[4:0];
        end
      end
      S_MEM: begin
        // A load's word goes to ld_q as read; S_LOAD selects its bytes
        // and writes them while it requests the next fetch, so the bus's
        // read data ends at a register and no cycle is added.
        if (bus_ready_i) begin
          addr_d = pc_q;
          state_d = is_load ? S_LOAD : S_FETCH;
        end
      end
      S_LOAD: begin
        rf_wdata = load_data;
        rf_we = rd != 5'd0;
        state_d = S_FETCH;
      end
      S_SHIFT: begin
        rf_wdata = opb_q;
        if (shamt_q == 5'd0) begin
          rf_we = rd != 5'd0;
          state_d = S_FETCH;
        end else begin
          opb_d = shifted;
          shamt_d = shamt_q - (shift_big ? 5'd8 : 5'd1);
        end
      end
      default: ;  // S_TRAP: halted until reset
    endcase
  end

  always @(posedge clk_i) begin
    if (rst_i) begin
      state_q <= S_FETCH;
      pc_q <= RESET_PC;
      addr_q <= RESET_PC;
      trap_cause_q <= 3'd0;
    end else begin
      state_q <= state_d;
      pc_q <= pc_d;
      addr_q <= addr_d;
      trap_cause_q <= trap_cause_d;
    end
    if (rst_i) begin
      mem_q <= 1'b0;
      wstrb_q <= 4'd0;
    end else begin
      mem_q <= state_d == S_MEM;
      wstrb_q <= (state_d == S_MEM && is_store) ? store_strb_d : 4'd0;
    end
    // pc_q changes only in S_EXEC, which a fetch cycle always precedes;
    // ir_q is loaded at the end of the fetch, and a branch spends S_RS1
    // between the two, so tgt_q holds its target in S_EXEC.
    pc4_q <= pc_q[31:2] + 30'd1;
    tgt_q <= pc_q + imm;
    if (state_q == S_MEM) begin
      ld_q <= bus_rdata_i;
      ld_off_q <= addr_q[1:0];
    end
    if (state_q != S_TRAP) trap_pc_q <= pc_q;
    ir_q <= ir_d;
    // ir_q loads the fetched word only at the end of S_FETCH.
    if (state_q == S_FETCH) simple_q <= fetch_simple;
    opb_q <= opb_d;
    shamt_q <= shamt_d;
  end

  // S_FETCH, S_MEM and S_LOAD request from addr_q (S_LOAD: the next
  // fetch, at the pc); S_EXEC of a fetch_simple instruction (simple_q)
  // requests the fetch of pc4_q (addr_d's value then).
  wire exec_issue = (state_q == S_EXEC) & simple_q;
  assign bus_valid_o = (state_q == S_FETCH) | (state_q == S_MEM) |
                       (state_q == S_LOAD) | exec_issue;
  assign bus_addr_o = {exec_issue ? pc4_q : addr_q[31:2], 2'b00};
  assign bus_fetch_o = ~mem_q;
  assign bus_dnext_o = state_q == S_EXEC;
  assign bus_daddr_o = sum[31:0];
  assign bus_maddr_o = {addr_q[31:2], 2'b00};
  assign bus_wstrb_o = wstrb_q;
  assign bus_wdata_o = store_data;   // opb_q holds rs2 in S_EXEC and S_MEM
  assign trap_o = state_q == S_TRAP;
  assign trap_cause_o = trap_cause_q;
  assign trap_pc_o = trap_o ? trap_pc_q : pc_q;
endmodule

`default_nettype wire
