// SPDX-License-Identifier: Apache-2.0
// simty_board_ulx3s.v - board top for the Radiona ULX3S with an ECP5
// LFE5U-85F (CABGA381): the Simty SoC on the 25 MHz oscillator, its host
// link on the FT231X UART, status on the eight LEDs. The SoC and its
// status logic are common/simty_board_soc.v.
//
// Clock: the 25 MHz oscillator (pin G2) directly (PLL_CLKI_DIV = 0), or
// an EHXPLLL's CLKOP with feedback from CLKOP: CLKOP = 25 MHz /
// PLL_CLKI_DIV * PLL_CLKFB_DIV, VCO = CLKOP * PLL_CLKOP_DIV. The board
// flow computes the settings for BOARD_MHZ (simty_board_flow.py,
// ecp5_pll: `make bitstream BOARD=ulx3s BOARD_MHZ=50`) and sets CLK_HZ to
// the frequency achieved; elaboration fails when CLK_HZ does not match
// the settings. CLOCK_HZ in MMIO tells the firmware and the host the
// rate, and the UART divides it fractionally for any BAUD.
// Reset: simty_board_por after configuration, and while the PWR button
// (BTN_PWRn, pressed = 0) is held.
// Pins: ulx3s/simty_board_ulx3s.lpf (source cited there).
// Flow control: the SoC's RTS# output is left unconnected: on the ULX3S
// the FT231X's CTS# goes to the ECP5's dedicated JTAG TDO pin (V4, per
// ulx3s_v20.lpf), which the fabric cannot drive. The default 115200 baud
// needs none; at 1 Mbaud a 25 MHz controller only about keeps up
// (docs/boards.md).
// LEDs (1 = lit): LED7 heartbeat, LED6 host -> board, LED5 board -> host,
// LED4 controller trap, LED3 in reset, LED2 kernel executing, LED1 kernel
// fault, LED0 off.
`default_nettype none

module simty_board_ulx3s #(
  parameter integer WARPS = 8,
  parameter integer LANES = 8,
  parameter integer FW_SIZE = 32768,
  parameter [31:0]  CODE_SIZE = 32'h0000_4000,
  parameter [31:0]  DATA_SIZE = 32'h0002_0000,
  parameter         FW_IMAGE = "",
  parameter integer BAUD = 115200,
  parameter [31:0]  HW_BUILD = 32'd0,      // source digest (the flow sets it)
  parameter integer LINK_FIFO_DEPTH = 512,
  parameter integer CONSOLE_DEPTH = 512,
  parameter integer VCLASS = 1,           // 0: no value classifier (BOARD_VCLASS=0)
  parameter integer CLK_HZ = 25000000,    // the SoC clock (achieved)
  parameter integer PLL_CLKI_DIV = 0,     // 0: the oscillator, no PLL
  parameter integer PLL_CLKFB_DIV = 1,
  // Used by the PLL branch only.
  /* verilator lint_off UNUSEDPARAM */
  parameter integer PLL_CLKOP_DIV = 24,
  parameter integer PLL_CLKOP_CPHASE = 23
  /* verilator lint_on UNUSEDPARAM */
) (
  input  wire       clk_i,        // 25 MHz oscillator
  input  wire       btn_n_i,      // BTN_PWRn, 0 = pressed
  input  wire       uart_rx_i,    // from FT231X TXD ("ftdi_txd")
  output wire       uart_tx_o,    // to FT231X RXD ("ftdi_rxd")
  output wire [7:0] led_o,        // 1 = lit
  output wire       wifi_gpio0_o  // ESP32 GPIO0: held high
);
  localparam [63:0] OSC_HZ = 64'd25000000;

  wire clk;
  wire clk_locked;
  generate
    if (PLL_CLKI_DIV == 0) begin : gen_osc
      if (CLK_HZ != 25000000) begin : gen_bad_clock
        // Elaboration fails here: without the PLL the clock is 25 MHz.
        simty_board_ulx3s_clk_hz_must_be_25000000_without_pll u_bad ();
      end
      assign clk = clk_i;
      assign clk_locked = 1'b1;
    end else begin : gen_pll
      // CLK_HZ is OSC_HZ * CLKFB_DIV / CLKI_DIV, rounded to a hertz.
      localparam [63:0] NUM = OSC_HZ * PLL_CLKFB_DIV;
      localparam [63:0] DEN = {32'd0, PLL_CLKI_DIV};
      localparam [63:0] CLK_HZ_W = {32'd0, CLK_HZ};
      if (CLK_HZ_W * DEN + DEN / 2 < NUM || CLK_HZ_W * DEN > NUM + DEN / 2) begin : gen_bad_clock
        simty_board_ulx3s_clk_hz_does_not_match_the_pll_settings u_bad ();
      end
      // The other outputs (CLKOS*, INTLOCK, ...) are not used.
      /* verilator lint_off PINMISSING */
      EHXPLLL #(
        .PLLRST_ENA("DISABLED"), .INTFB_WAKE("DISABLED"),
        .STDBY_ENABLE("DISABLED"), .DPHASE_SOURCE("DISABLED"),
        .OUTDIVIDER_MUXA("DIVA"), .OUTDIVIDER_MUXB("DIVB"),
        .OUTDIVIDER_MUXC("DIVC"), .OUTDIVIDER_MUXD("DIVD"),
        .CLKI_DIV(PLL_CLKI_DIV), .CLKFB_DIV(PLL_CLKFB_DIV), .FEEDBK_PATH("CLKOP"),
        .CLKOP_ENABLE("ENABLED"), .CLKOP_DIV(PLL_CLKOP_DIV),
        .CLKOP_CPHASE(PLL_CLKOP_CPHASE), .CLKOP_FPHASE(0)
      ) u_pll (
        .CLKI(clk_i), .CLKFB(clk), .CLKOP(clk), .LOCK(clk_locked),
        .RST(1'b0), .STDBY(1'b0), .PHASESEL0(1'b0), .PHASESEL1(1'b0),
        .PHASEDIR(1'b0), .PHASESTEP(1'b0), .PHASELOADREG(1'b0),
        .PLLWAKESYNC(1'b0), .ENCLKOP(1'b0), .ENCLKOS(1'b0), .ENCLKOS2(1'b0),
        .ENCLKOS3(1'b0)
      );
      /* verilator lint_on PINMISSING */
    end
  endgenerate

  // An ESP32 fitted on the board resets into its boot loader when GPIO0
  // is pulled low; ULX3S designs hold it high.
  assign wifi_gpio0_o = 1'b1;

  wire rst;
  simty_board_por u_por (
    .clk_i(clk), .button_n_i(btn_n_i), .lock_i(clk_locked), .rst_o(rst)
  );

  wire heartbeat, rx_act, tx_act, trap, in_reset, busy, fault;
  /* verilator lint_off UNUSEDSIGNAL */
  wire uart_rts_n;   // the FT231X's CTS# is not a fabric pin: see above
  /* verilator lint_on UNUSEDSIGNAL */
  simty_board_soc #(
    .WARPS(WARPS), .LANES(LANES), .FW_SIZE(FW_SIZE), .CODE_SIZE(CODE_SIZE),
    .DATA_SIZE(DATA_SIZE), .FW_IMAGE(FW_IMAGE), .CLK_HZ(CLK_HZ), .BAUD(BAUD),
    .LINK_FIFO_DEPTH(LINK_FIFO_DEPTH), .CONSOLE_DEPTH(CONSOLE_DEPTH),
    .HW_BUILD(HW_BUILD), .HOT_LUTRAM(1), .SMALL_TABLES(2), .EXT_M(1), .EXT_A(1), .EXT_ZICNTR(1),
    .VCLASS(VCLASS)
  ) u_board (
    .clk_i(clk), .rst_i(rst),
    .uart_rx_i(uart_rx_i), .uart_tx_o(uart_tx_o), .uart_rts_n_o(uart_rts_n),
    .led_heartbeat_o(heartbeat), .led_rx_o(rx_act), .led_tx_o(tx_act),
    .led_trap_o(trap), .led_reset_o(in_reset), .led_busy_o(busy),
    .led_fault_o(fault)
  );

  assign led_o = {heartbeat, rx_act, tx_act, trap, in_reset, busy, fault, 1'b0};
endmodule

`default_nettype wire
