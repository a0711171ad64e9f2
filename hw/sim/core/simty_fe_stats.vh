// SPDX-License-Identifier: Apache-2.0
// simty_fe_stats.vh - simulation-only front-end statistics, included by
// simty_core.v inside `ifdef SIMTY_FE_STATS (a core testbench built with
// RTL_TB_WARN=+define+SIMTY_FE_STATS). Where each busy warp's cycles go
// (issued, not ready, dependency, bank, empty buffer: redirect, fetch in
// flight, waiting to be steered) and why each redirect happened, printed
// at the end of the run; with two warps, the no-issue cycles by both
// warps' states. Reads simty_core's signals and its stage modules'
// internals by name (docs/performance.md, "IPC at 2x32: the front end").
  integer st_iss, st_rr1, st_dep, st_bank, st_nrdy, st_fe, st_redq, st_empty, st_other,
          st_cyc, st_lost;
  integer rd_hold, rd_stale, rd_end, rd_mis, rd_job, rd_n, rd_jalr, rd_br, rd_div;
  integer wi;
  initial begin
    st_iss = 0; st_rr1 = 0; st_dep = 0; st_bank = 0; st_nrdy = 0; st_fe = 0;
    st_redq = 0; st_empty = 0; st_other = 0; st_cyc = 0; st_lost = 0;
    rd_hold = 0; rd_stale = 0; rd_end = 0; rd_mis = 0; rd_job = 0; rd_n = 0;
    rd_jalr = 0; rd_br = 0; rd_div = 0;
  end
  // With two warps: the cycles without an issue by both warps' states.
  generate
    if (WARPS == 2) begin : gen_fe_pair
      integer combo [0:63];
      integer rc [0:1];
      integer ci, wj;
      initial for (ci = 0; ci < 64; ci = ci + 1) combo[ci] = 0;
      always @(posedge clk_i) if (!rst_i && |busy_q && !issue) begin
        for (wj = 0; wj < 2; wj = wj + 1) begin
          if (!(busy_q[wj] && !u_ctrl.ended_q[wj])) rc[wj] = 0;
          else if (!sched_ready[wj]) rc[wj] = 1;
          else if (u_sched.at_rr1[wj]) rc[wj] = 2;
          else if (ib_valid[wj]) rc[wj] = u_sched.dep[wj] ? 3 : 4;
          else if (redir_q && redir_warp_q == wj[WARP_BITS-1:0]) rc[wj] = 5;
          else if (fe_busy && fe_warp == wj[WARP_BITS-1:0]) rc[wj] = 6;
          else rc[wj] = 7;
        end
        combo[rc[0] * 8 + rc[1]] = combo[rc[0] * 8 + rc[1]] + 1;
      end
      final begin
        $display("fe-stats: no-issue cycles by (warp0, warp1) state: 0 idle 1 not ready 2 issued last cycle 3 dependency 4 other 5 redirect 6 fetch 7 empty");
        for (ci = 0; ci < 64; ci = ci + 1)
          if (combo[ci] > 0) $display("fe-stats:   %0d%0d %0d", ci / 8, ci % 8, combo[ci]);
      end
    end
  endgenerate
  always @(posedge clk_i) if (!rst_i && |busy_q) begin
    st_cyc = st_cyc + 1;
    if (!issue) st_lost = st_lost + 1;
    for (wi = 0; wi < WARPS; wi = wi + 1) if (busy_q[wi] && !u_ctrl.ended_q[wi]) begin
      if (issue && issue_warp == wi[WARP_BITS-1:0]) st_iss = st_iss + 1;
      else if (!sched_ready[wi]) st_nrdy = st_nrdy + 1;
      else if (u_sched.at_rr1[wi]) st_rr1 = st_rr1 + 1;
      else if (ib_valid[wi]) begin
        if (u_sched.dep[wi]) st_dep = st_dep + 1;
        else if (u_sched.bank[wi]) st_bank = st_bank + 1;
        else st_other = st_other + 1;
      end
      else if (redir_q && redir_warp_q == wi[WARP_BITS-1:0]) st_redq = st_redq + 1;
      else if (fe_busy && fe_warp == wi[WARP_BITS-1:0]) st_fe = st_fe + 1;
      else st_empty = st_empty + 1;
    end
    if (u_mb.redir_valid) begin
      rd_n = rd_n + 1;
      if (u_mb.hold) rd_hold = rd_hold + 1;
      else if (u_mb.stale) rd_stale = rd_stale + 1;
      else if (ended_now) rd_end = rd_end + 1;
      else if (u_mb.u_member.ins || u_mb.u_member.rebal) rd_job = rd_job + 1;
      else if (u_mb.mb_jalr_q) rd_jalr = rd_jalr + 1;
      else if (u_mb.mb_branch_q && u_mb.divergent) rd_div = rd_div + 1;
      else if (u_mb.mb_branch_q) rd_br = rd_br + 1;
      else rd_mis = rd_mis + 1;
    end
  end
  final begin
    $display("fe-stats: busy cycles %0d, no issue %0d", st_cyc, st_lost);
    $display("fe-stats: warp-cycles issued %0d (squashed later included), not ready %0d, issued last cycle %0d, dependency %0d, bank %0d, another warp picked %0d",
             st_iss, st_nrdy, st_rr1, st_dep, st_bank, st_other);
    $display("fe-stats: warp-cycles with an empty buffer: redirect cycle %0d, fetch in flight %0d, waiting to be steered %0d",
             st_redq, st_fe, st_empty);
    $display("fe-stats: redirects %0d: hold %0d stale %0d end %0d job %0d jalr %0d branch-div %0d branch %0d other %0d",
             rd_n, rd_hold, rd_stale, rd_end, rd_job, rd_jalr, rd_div, rd_br, rd_mis);
  end
