/* SPDX-License-Identifier: Apache-2.0 */
// simty_sim_main.cpp - Verilator glue of the simulated board: clocks the
// SoC (simty_sim_top), moves bytes between its byte bridge and the host
// socket (simty_sim_link.c) through the FTDI bridge's USB timing
// (simty_sim_usb.c) at the UART's rate, optional waveform, cycle report
// on exit (--verbose; the default with --port). With --serve the board
// stays up across host connections, as a real board does: its memories,
// counters and a running launch outlive a host that disconnects.
// Configuration comes from the build: SIM_WARPS, SIM_LANES, SIM_CLK_HZ,
// SIM_BAUD, SIM_TRACE (0 none, 1 VCD, 2 FST), SIM_FW_WORDS, SIM_UART_PHY
// (1: the top is simty_sim_uart_top, built with the same class name).
#include <chrono>
#include <csignal>
#include <cstdio>
#include <memory>
#include <vector>

#include "Vsimty_sim_top.h"
#include "simty_sim_link.h"
#include "simty_sim_opts.h"
#include "simty_sim_usb.h"
#include "verilated.h"
#if SIM_TRACE == 1
#include "verilated_vcd_c.h"
typedef VerilatedVcdC Trace;
#elif SIM_TRACE == 2
#include "verilated_fst_c.h"
typedef VerilatedFstC Trace;
#endif

// Socket polls happen every PUMP_CYCLES cycles: often enough for
// sub-millisecond link latency, rarely enough to cost nothing.
static const unsigned PUMP_CYCLES = 1024;
// The USB model hands packets over at this granularity (a power of two,
// far below a frame: 2.6 us at 25 MHz).
static const unsigned USB_CYCLES = 64;
// Serving with no host connected, each pump waits this long for one: an
// idle board nobody talks to costs little CPU (and runs slower).
static const int IDLE_WAIT_MS = 5;
static volatile std::sig_atomic_t g_stop = 0;
static void on_signal(int) { g_stop = 1; }

int main(int argc, char **argv) {
  simty_sim_opts opt;
  int rc = simty_sim_parse(argc, argv, &opt);
  if (rc != 0) return rc > 0 ? 0 : 1;
  if ((opt.warps && opt.warps != SIM_WARPS) || (opt.lanes && opt.lanes != SIM_LANES)) {
    std::fprintf(stderr, "simty-sim: this binary is %dx%d, not %dx%d\n", SIM_WARPS,
                 SIM_LANES, opt.warps ? opt.warps : SIM_WARPS, opt.lanes ? opt.lanes : SIM_LANES);
    return 1;
  }
  if (opt.uart_phy != SIM_UART_PHY) {
    std::fprintf(stderr, "simty-sim: this binary is the board %s the UART PHY\n",
                 SIM_UART_PHY ? "with" : "without");
    return 1;
  }
  if (opt.wave != SIMTY_SIM_WAVE_NONE && opt.wave != SIM_TRACE) {
    std::fprintf(stderr, "simty-sim: this binary cannot write %s waveforms\n",
                 opt.wave == SIMTY_SIM_WAVE_VCD ? "VCD" : "FST");
    return 1;
  }

  if (simty_sim_check_image(argc, argv, SIM_FW_WORDS) != 0) return 1;

  auto ctx = std::make_unique<VerilatedContext>();
  ctx->commandArgs(argc, argv);
  auto top = std::make_unique<Vsimty_sim_top>(ctx.get());
#if SIM_TRACE
  std::unique_ptr<Trace> trace;
  if (opt.wave) {
    ctx->traceEverOn(true);
    trace = std::make_unique<Trace>();
    top->trace(trace.get(), 99);
    trace->open(opt.wave_file);
  }
#endif

  static simty_sim_link link;
  if ((opt.serve          ? simty_sim_link_serve(&link, opt.port)
       : opt.port >= 0      ? simty_sim_link_listen(&link, opt.port)
                            : simty_sim_link_use_fd(&link, opt.fd)) != 0)
    return 1;
  unsigned long long connections = opt.serve ? 0 : 1;
  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);

  // A byte on the wire takes 10 bit times (8N1); with the UART PHY the
  // bits themselves take that time.
  // byte_cycles + byte_frac/SIM_BAUD cycles a byte: the fraction is
  // carried over so that the average is the wire's exact rate.
  const bool pace = opt.paced && !SIM_UART_PHY;
  const unsigned long long byte_cycles = pace ? 10ull * SIM_CLK_HZ / SIM_BAUD : 0;
  const unsigned long long byte_frac = pace ? 10ull * SIM_CLK_HZ % SIM_BAUD : 0;
  unsigned long long rx_frac = 0, tx_frac = 0;
  auto byte_time = [&](unsigned long long &acc) {
    acc += byte_frac;
    if (acc >= SIM_BAUD) {
      acc -= SIM_BAUD;
      return byte_cycles + 1;
    }
    return byte_cycles;
  };
  unsigned long long next_rx_ok = 0, next_tx_ok = 0;
  // The USB side: host bytes usable by the UART up to a running count,
  // board bytes handed to the host in packets.
  static simty_sim_usb usb;
  simty_sim_usb_init(&usb, opt.usb, SIM_CLK_HZ);
  const bool usb_on = opt.usb != SIMTY_SIM_USB_OFF;
  uint64_t usable = 0;        // host bytes that have reached the chip
  uint8_t packet[SIMTY_SIM_USB_RXBUF];
  unsigned long long cycle = 0;
  int exit_code = 0;
  // --profile: cycles per controller word address (trap_pc_o is the pc of
  // the instruction in progress at every cycle, the trapping one at a trap).
  std::vector<uint64_t> profile(opt.profile ? SIM_FW_WORDS : 0);
  auto t0 = std::chrono::steady_clock::now();

  top->clk_i = 0;
  top->rst_i = 1;
  top->tx_ready_i = 0;
  top->rx_valid_i = 0;
  for (;;) {
    if (cycle == 8) top->rst_i = 0;
    uint8_t in = 0;
    // Bytes the UART has taken so far: those read from the host minus
    // those still queued.
    bool have_in = cycle >= next_rx_ok &&
                   (!usb_on || link.bytes_in - simty_sim_queue_count(&link.to_device) <
                                   usable) &&
                   simty_sim_queue_peek(&link.to_device, &in);
    top->rx_valid_i = have_in;
    top->rx_data_i = in;
    top->tx_ready_i = cycle >= next_tx_ok &&
                      (usb_on ? simty_sim_usb_rx_room(&usb) != 0
                              : simty_sim_queue_count(&link.to_host) < SIMTY_SIM_QUEUE);
    top->clk_i = 0;
    top->eval();
#if SIM_TRACE
    if (trace) trace->dump(static_cast<uint64_t>(2 * cycle));
#endif
    // Handshakes complete at the coming rising edge.
    if (have_in && top->rx_ready_o) {
      simty_sim_queue_pop(&link.to_device);
      next_rx_ok = cycle + byte_time(rx_frac);
    }
    if (top->tx_ready_i && top->tx_valid_o) {
      if (usb_on)
        simty_sim_usb_rx_byte(&usb, top->tx_data_o, cycle);
      else
        simty_sim_queue_push(&link.to_host, top->tx_data_o);
      next_tx_ok = cycle + byte_time(tx_frac);
    }
    top->clk_i = 1;
    top->eval();
#if SIM_TRACE
    if (trace) trace->dump(static_cast<uint64_t>(2 * cycle + 1));
#endif
    cycle++;
    if (opt.profile) {
      uint32_t word = top->trap_pc_o >> 2;
      if (word < SIM_FW_WORDS) profile[word]++;
    }

    if (top->trap_o) {
      std::fprintf(stderr, "simty-sim: controller trap, cause %u at pc 0x%08x\n",
                   (unsigned)top->trap_cause_o, (unsigned)top->trap_pc_o);
      exit_code = 3;
      break;
    }
    if (usb_on && (cycle & (USB_CYCLES - 1)) == 0) {
      usable = simty_sim_usb_usable(&usb, cycle);
      uint32_t room = SIMTY_SIM_QUEUE - simty_sim_queue_count(&link.to_host);
      uint32_t n;
      while ((n = simty_sim_usb_to_host(&usb, cycle, packet, room)) != 0) {
        for (uint32_t i = 0; i < n; i++) simty_sim_queue_push(&link.to_host, packet[i]);
        room -= n;
      }
    }
    if (cycle % PUMP_CYCLES == 0) {
      if (link.fd >= 0 && simty_sim_link_pump(&link) < 0) std::perror("simty-sim: link");
      if (usb_on) simty_sim_usb_host_sent(&usb, link.bytes_in, cycle);
      // The host hung up and every byte it sent has reached the firmware.
      if (link.peer_closed && simty_sim_queue_count(&link.to_device) == 0) {
        if (!opt.serve) break;
        simty_sim_link_hangup(&link);
        if (opt.verbose) std::fprintf(stderr, "simty-sim: host disconnected at cycle %llu\n", cycle);
      }
      if (opt.serve && link.fd < 0) {
        // Nobody on the wire: the board's output is lost, as on a UART.
        link.to_host.head = link.to_host.tail;
        int r = simty_sim_link_accept(&link, IDLE_WAIT_MS);
        if (r < 0) std::perror("simty-sim: accept");
        if (r > 0) {
          connections++;
          if (opt.verbose)
            std::fprintf(stderr, "simty-sim: host connected (connection %llu) at cycle %llu\n",
                         connections, cycle);
        }
      }
      if (g_stop) break;
      if (opt.max_cycles && cycle >= opt.max_cycles) {
        std::fprintf(stderr, "simty-sim: stopped at --max-cycles\n");
        exit_code = 4;
        break;
      }
    }
  }
  simty_sim_link_flush(&link, 1000);
  simty_sim_link_close(&link);
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  top->final();
#if SIM_TRACE
  if (trace) trace->close();
#endif
  if (opt.profile) {
    FILE *f = std::fopen(opt.profile, "w");
    if (!f) {
      std::perror(opt.profile);
    } else {
      for (size_t w = 0; w < profile.size(); w++)
        if (profile[w]) std::fprintf(f, "%08zx %llu\n", w * 4, (unsigned long long)profile[w]);
      std::fclose(f);
    }
  }
  if (opt.verbose || exit_code != 0)
    std::fprintf(stderr,
                 "simty-sim: %llu cycles in %.3f s (%.0f cycles/s), %llu bytes in, %llu out, "
                 "%llu USB packets in\n",
                 cycle, secs, secs > 0 ? cycle / secs : 0.0,
                 (unsigned long long)link.bytes_in, (unsigned long long)link.bytes_out,
                 (unsigned long long)usb.packets_in);
  return exit_code;
}
