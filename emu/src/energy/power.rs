//! The network's power and area as BookSim2's power module computes them
//! (`src/power/power_module.cpp`, commit 28f4329): repeated-wire channels
//! with retiming flip-flops, SRAM input buffers, a matrix crossbar and
//! output flip-flops, from a technology ([`Tech`]) and the network's
//! activity over a run ([`Activity`]). The equations are BookSim2's (facts
//! carried over; docs/energy.md lists them and where we differ); every
//! power is in watts at the technology's clock (20 FO4), areas in mm².
//!
//! BookSim2 sums per channel, per router and per port; every term is linear
//! in its activity count and every channel, buffer and crossbar of a mesh is
//! alike, so the sums here are over counts of the whole network: flits over
//! any channel, buffer reads and writes, and crossbar traversals by input
//! and by output port (a traversal's power depends on whether its input and
//! its output lie in the lower half of the port numbers).
//!
//! Over 600 lines: BookSim2's power and area model in one place (channels,
//! buffers, crossbar, outputs, and the wire sizing they share), so each
//! equation stands beside the ones it uses.

use serde::Serialize;

use super::tech::{Derived, Tech};
use crate::network::flit::PORTS;

/// The network's structure, as the model sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shape {
    /// Mesh width.
    pub width: u32,
    /// Mesh height.
    pub height: u32,
    /// VCs per input port, all classes (BookSim2's `num_vcs` with one class).
    pub vcs: u32,
    /// Flits per VC buffer.
    pub vc_buf_size: u32,
    /// Bits a channel carries (BookSim2's `channel_width`).
    pub channel_width: u32,
    /// Cycles of a link: its length is this times the technology's
    /// `wire_length` (BookSim2: the channel's latency).
    pub link_delay: u32,
}

/// What the network did over a run of `cycles` cycles.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Activity {
    /// Cycles of the run (BookSim2's completion time).
    pub cycles: u64,
    /// Flits sent over any channel: injection, router-to-router and
    /// ejection channels.
    pub channel_flits: u64,
    /// Flits written into router input buffers.
    pub buffer_writes: u64,
    /// Flits read from them (each then crosses the switch).
    pub buffer_reads: u64,
    /// Crossbar traversals by input port (BookSim2's port numbers).
    pub switch_in: [u64; PORTS],
    /// Crossbar traversals by output port.
    pub switch_out: [u64; PORTS],
}

/// BookSim2's "OCN Power Summary", watts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Power {
    /// Channel wires (repeated), switching.
    pub channel_wire: f64,
    /// Channel retiming flip-flops' clock.
    pub channel_clock: f64,
    /// Channel retiming flip-flops, switching.
    pub channel_retiming: f64,
    /// Channel repeaters' leakage.
    pub channel_leakage: f64,
    /// Input buffers, reads.
    pub input_read: f64,
    /// Input buffers, writes.
    pub input_write: f64,
    /// Input buffers' leakage.
    pub input_leakage: f64,
    /// Crossbar datapath.
    pub switch: f64,
    /// Crossbar control.
    pub switch_control: f64,
    /// Crossbar leakage.
    pub switch_leakage: f64,
    /// Output flip-flops, switching.
    pub output_dff: f64,
    /// Output flip-flops' clock.
    pub output_clock: f64,
    /// Output enable.
    pub output_control: f64,
    /// The sum.
    pub total: f64,
}

impl Power {
    /// The components with BookSim2's labels, in its order (no total).
    pub fn components(&self) -> [(&'static str, f64); 13] {
        [
            ("Channel Wire Power", self.channel_wire),
            ("Channel Clock Power", self.channel_clock),
            ("Channel Retiming Power", self.channel_retiming),
            ("Channel Leakage Power", self.channel_leakage),
            ("Input Read Power", self.input_read),
            ("Input Write Power", self.input_write),
            ("Input Leakage Power", self.input_leakage),
            ("Switch Power", self.switch),
            ("Switch Control Power", self.switch_control),
            ("Switch Leakage Power", self.switch_leakage),
            ("Output DFF Power", self.output_dff),
            ("Output Clk Power", self.output_clock),
            ("Output Control Power", self.output_control),
        ]
    }

    /// Leakage: the part that flows whether or not anything switches.
    pub fn leakage(&self) -> f64 {
        self.channel_leakage + self.input_leakage + self.switch_leakage
    }

    /// The links' share (channels), without leakage.
    pub fn links_dynamic(&self) -> f64 {
        self.channel_wire + self.channel_clock + self.channel_retiming
    }

    /// The routers' share (buffers, crossbar, outputs), without leakage.
    pub fn routers_dynamic(&self) -> f64 {
        self.input_read
            + self.input_write
            + self.switch
            + self.switch_control
            + self.output_dff
            + self.output_clock
            + self.output_control
    }
}

/// BookSim2's "OCN Area Summary", mm².
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Area {
    /// Channels: repeaters and retiming flip-flops.
    pub channel: f64,
    /// Crossbars.
    pub switch: f64,
    /// Input buffers.
    pub input: f64,
    /// Output flip-flops.
    pub output: f64,
    /// The sum.
    pub total: f64,
}

/// A repeated wire as BookSim2 sizes it for a length: repeater size `k`,
/// `m` pipeline stages (retiming flip-flops), `n` repeaters per stage.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Wire {
    /// Repeater size (multiples of a 1 um inverter).
    pub k: f64,
    /// Pipeline stages.
    pub m: f64,
    /// Repeaters per stage.
    pub n: f64,
}

/// The model for one technology.
#[derive(Debug)]
pub struct Model {
    t: Tech,
    d: Derived,
    /// The wires sized so far, by length (its bits): a run evaluates the
    /// model at its end, and sizing a wire is a search.
    wires: std::sync::Mutex<Vec<(u64, Option<Wire>)>>,
}

impl Clone for Model {
    fn clone(&self) -> Model {
        Model {
            t: self.t.clone(),
            d: self.d,
            wires: std::sync::Mutex::new(self.wires_sized().clone()),
        }
    }
}

/// A router's ports in a 2-D mesh (BookSim2: `2n + 1`).
const PORTS_F: f64 = PORTS as f64;

impl Model {
    /// The model of `tech`.
    pub fn new(tech: &Tech) -> Model {
        Model {
            t: tech.clone(),
            d: tech.derived(),
            wires: Default::default(),
        }
    }

    /// The wires sized so far (a panic elsewhere cannot leave them half
    /// written: each is pushed whole).
    fn wires_sized(&self) -> std::sync::MutexGuard<'_, Vec<(u64, Option<Wire>)>> {
        self.wires.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The technology.
    pub fn tech(&self) -> &Tech {
        &self.t
    }

    /// The technology's clock, Hz (every power here is at this clock).
    pub fn f_clk(&self) -> f64 {
        self.d.f_clk
    }

    /// Channels the model counts: every node's injection and ejection
    /// channel, and the mesh's (four a router as BookSim2 counts them,
    /// or only those between neighbours: `Tech::edge_channels`).
    pub fn channels(&self, s: &Shape) -> u64 {
        let (w, h) = (s.width as u64, s.height as u64);
        let mesh = if self.t.edge_channels {
            4 * w * h
        } else {
            2 * (w - 1) * h + 2 * w * (h - 1)
        };
        2 * w * h + mesh
    }

    /// BookSim2's `wireOptimize`: the repeated wire of length `l` mm with
    /// the least `M^4 x power` (64 bits at activity 0.2) whose stage delay
    /// meets 80% of the clock, searched over K = 1, 1.1, .. < 10, N and M
    /// = 1 .. 39 in that order (the first of equals wins). `None` when no
    /// wire meets the clock.
    ///
    /// Sized once per length in the model's life. The same answer with
    /// fewer candidates: for given K and N the
    /// metric grows with M (`M^4` times a power that does not shrink, its
    /// terms' coefficients not negative), so once it is not below the best
    /// so far no larger M can win, and the rest of that M loop is left out
    /// (some 140,000 candidates become a few thousand). A technology with
    /// a negative or non-finite coefficient gets the whole search.
    pub fn wire(&self, l: f64) -> Option<Wire> {
        if let Some((_, w)) = self.wires_sized().iter().find(|(b, _)| *b == l.to_bits()) {
            return *w;
        }
        let (t, d) = (&self.t, &self.d);
        let w = 64.0;
        let alpha = 0.2;
        let vvf = t.Vdd * t.Vdd * d.f_clk;
        let monotone = [d.ci + d.co, d.cw * l, self.wire_dff(1.0, w, alpha), vvf]
            .iter()
            .all(|c| c.is_finite() && *c >= 0.0);
        let w = self.wire_search(l, monotone);
        self.wires_sized().push((l.to_bits(), w));
        w
    }

    /// [`Model::wire`]'s search, leaving out the larger M of a (K, N) once
    /// the metric reaches the best so far when `prune` (the metric grows
    /// with M), else every candidate.
    fn wire_search(&self, l: f64, prune: bool) -> Option<Wire> {
        let (t, d) = (&self.t, &self.d);
        let w = 64.0;
        let alpha = 0.2;
        let mut best = 100_000_000.0;
        let mut found = None;
        // The same accumulated steps as BookSim2's loop, so that the same
        // candidates are tried.
        let mut k = 1.0f64;
        while k < 10.0 {
            let mut n = 1.0f64;
            while n < 40.0 {
                let mut m = 1.0f64;
                while m < 40.0 {
                    let seg = l / (n * m);
                    let k0 = t.R * (d.co_delay + d.ci_delay);
                    let k1 = t.R / k * d.cw + k * t.Rw * d.ci_delay;
                    let k2 = 0.5 * t.Rw * d.cw;
                    let tw = k0 + k1 * seg + k2 * (seg * seg);
                    let power =
                        alpha * w * self.repeated_wire(l, k, m, n) + self.wire_dff(m, w, alpha);
                    let metric = m * m * m * m * power;
                    if prune && metric >= best {
                        break;
                    }
                    if n * tw < 0.8 * d.t_clk && metric < best {
                        best = metric;
                        found = Some(Wire { k, m, n });
                    }
                    m += 1.0;
                }
                n += 1.0;
            }
            k += 0.1;
        }
        found
    }

    /// Power of one bit of repeated wire switching every cycle.
    fn repeated_wire(&self, l: f64, k: f64, m: f64, n: f64) -> f64 {
        let (t, d) = (&self.t, &self.d);
        let segments = m * n;
        let ca = k * (d.ci + d.co) + d.cw * (l / segments);
        0.5 * ca * t.Vdd * t.Vdd * d.f_clk * m * n
    }

    /// Leakage of one bit of repeated wire.
    fn repeated_wire_leak(&self, k: f64, m: f64, n: f64) -> f64 {
        let t = &self.t;
        k * 0.5 * (t.IoffN + 2.0 * t.IoffP) * t.Vdd * m * n
    }

    /// Clock power of `m` banks of `width` flip-flops.
    fn wire_clock(&self, m: f64, width: f64) -> f64 {
        let (t, d) = (&self.t, &self.d);
        let columns = t.H_DFQD1 as f64 * t.MetalPitch / d.channel_pitch;
        let clock_length = width * d.channel_pitch;
        let c_clk = (1.0 + 5.0 / 16.0 * (1.0 + d.co_delay / d.ci_delay))
            * (clock_length * d.cw * columns + width * d.ci_delay);
        m * c_clk * (t.Vdd * t.Vdd) * d.f_clk
    }

    /// Switching power of `m` banks of `width` flip-flops at activity `alpha`.
    fn wire_dff(&self, m: f64, width: f64, alpha: f64) -> f64 {
        let (t, d) = (&self.t, &self.d);
        let c_din = 2.0 * 0.8 * (d.ci + d.co) + 2.0 * (2.0 / 3.0 * 0.8 * d.co);
        let c_clk = 2.0 * 0.8 * (d.ci + d.co) + 2.0 * (2.0 / 3.0 * 0.8 * t.Cg_pwr);
        let c_int = (alpha * 0.5) * c_din + alpha * c_clk;
        c_int * m * width * (t.Vdd * t.Vdd) * d.f_clk
    }

    /// Word line, decoders and bit-line drivers of a buffer access.
    fn word_line(&self, width: f64, depth: f64, channel_width: f64) -> f64 {
        let (t, d) = (&self.t, &self.d);
        let c_cell = 2.0 * (4.0 * t.LAMBDA) * t.Cg_pwr + 6.0 * t.MetalPitch * d.cw;
        let c_wl = width * c_cell;
        let w_array = 8.0 * t.MetalPitch + depth;
        let x = 1.0 + (5.0 / 16.0) * (1.0 + d.co / d.ci);
        let c_predecode = x * (d.cw * w_array * d.ci);
        let c_decode = x * c_wl;
        let h_array = 6.0 * width * t.MetalPitch;
        let y = (1.0 + 0.25) * (1.0 + d.co / d.ci);
        let c_precharge = y * (d.cw * h_array + 3.0 * channel_width * d.ci);
        let c_wren = y * (d.cw * h_array + 2.0 * channel_width * d.ci);
        let c_bd = c_precharge + c_wren;
        let c_wd = 2.0 * c_predecode + c_decode;
        (c_bd + c_wd) * t.Vdd * t.Vdd * d.f_clk
    }

    /// Bit-line capacitance of a buffer of `depth` words.
    fn bit_line(&self, depth: f64) -> f64 {
        let (t, d) = (&self.t, &self.d);
        depth * (4.0 * t.LAMBDA * t.Cd_pwr + 8.0 * t.MetalPitch * d.cw)
    }

    /// A bit read.
    fn bit_read(&self, depth: f64) -> f64 {
        let (t, d) = (&self.t, &self.d);
        self.bit_line(depth) * (t.Vdd * t.Vdd) * d.f_clk
    }

    /// A bit written. BookSim2 adds the cell's internal switching as an
    /// energy (no clock factor) to a power: about 2e-15, kept as it is.
    fn bit_write(&self, depth: f64) -> f64 {
        let (t, d) = (&self.t, &self.d);
        let c_cc = 2.0 * (d.co + d.ci);
        0.5 * c_cc * (t.Vdd * t.Vdd) + self.bit_line(depth) * (t.Vdd * t.Vdd) * d.f_clk
    }

    /// The crossbar's input and output wire capacitances and their
    /// cross-point and driver loads.
    fn crossbar_caps(&self, width: f64, inputs: f64, outputs: f64) -> (f64, f64) {
        let d = &self.d;
        let w_xbar = width * outputs * d.crossbar_pitch;
        let h_xbar = width * inputs * d.crossbar_pitch;
        (w_xbar * d.cw, h_xbar * d.cw)
    }

    /// The switched capacitance of a traversal, as the input side (by the
    /// output `to`) and the output side (by the input `from`); BookSim2's
    /// `powerCrossbar` is `0.5 (Cin + Cout) V² f`.
    fn crossbar_side(&self, width: f64, ports: f64, to: Option<f64>, from: Option<f64>) -> f64 {
        let d = &self.d;
        let (inputs, outputs) = (ports, ports);
        let (cw_in, cw_out) = self.crossbar_caps(width, inputs, outputs);
        let w_xbar = width * outputs * d.crossbar_pitch;
        let cxi = (1.0 / 16.0) * cw_out;
        let cxo = 4.0 * cxi * (d.co_delay / d.ci_delay);
        let cti = (1.0 / 16.0) * cw_in;
        let cto = 4.0 * cti * (d.co_delay / d.ci_delay);
        if let Some(to) = to {
            let c_input_driver =
                5.0 / 16.0 * (1.0 + d.co_delay / d.ci_delay) * (0.5 * d.cw * w_xbar + cti);
            let mut c_in = c_input_driver + cw_in + cti + (outputs * cxi);
            if to < outputs / 2.0 {
                c_in -= 0.5 * cw_in + outputs / 2.0 * cxi;
            }
            c_in
        } else {
            let from = from.expect("one side");
            let mut c_out = cw_out + cto + (inputs * cxo);
            if from < inputs / 2.0 {
                c_out -= 0.5 * cw_out + (inputs / 2.0 * cxo);
            }
            c_out
        }
    }

    /// Crossbar control per traversal.
    fn crossbar_control(&self, width: f64, inputs: f64, outputs: f64) -> f64 {
        let (t, d) = (&self.t, &self.d);
        let w_xbar = width * outputs * d.crossbar_pitch;
        let h_xbar = width * inputs * d.crossbar_pitch;
        let cw_in = w_xbar * d.cw;
        let cti = (5.0 / 16.0) * cw_in;
        let c_ctrl = width * cti + (w_xbar + h_xbar) * d.cw;
        let c_drive = (5.0 / 16.0) * (1.0 + d.co_delay / d.ci_delay) * c_ctrl;
        (c_drive + c_ctrl) * (t.Vdd * t.Vdd) * d.f_clk
    }

    /// Crossbar leakage.
    fn crossbar_leak(&self, width: f64, inputs: f64, outputs: f64) -> f64 {
        let (t, d) = (&self.t, &self.d);
        let (cw_in, cw_out) = self.crossbar_caps(width, inputs, outputs);
        let cxi = (1.0 / 16.0) * cw_out;
        let cti = (1.0 / 16.0) * cw_in;
        0.5 * (t.IoffN + 2.0 * t.IoffP)
            * width
            * (inputs * outputs * cxi + inputs * cti + outputs * cti)
            / d.ci
    }

    /// Output enable per traversal.
    fn output_control(&self, width: f64, channel_width: f64) -> f64 {
        let (t, d) = (&self.t, &self.d);
        let w_outmod = channel_width * d.channel_pitch;
        let c_enable = (1.0 + 5.0 / 16.0) * (1.0 + d.co / d.ci) * (w_outmod * d.cw + width * d.ci);
        c_enable * (t.Vdd * t.Vdd) * d.f_clk
    }

    /// The power and area of a network of shape `s` that did `a`; an
    /// error when no repeated wire of the technology meets its clock over
    /// a link's length.
    pub fn evaluate(&self, s: &Shape, a: &Activity) -> Result<(Power, Area), String> {
        let t = &self.t;
        let cw = s.channel_width as f64;
        let nodes = s.width as f64 * s.height as f64;
        let time = a.cycles.max(1) as f64;
        let rate = |count: u64| count as f64 / time;
        let mut p = Power::default();
        let mut area = Area::default();
        let pitch2 = t.MetalPitch * t.MetalPitch;

        // Channels.
        let length = s.link_delay as f64 * t.wire_length;
        let wire = self.wire(length).ok_or_else(|| {
            format!(
                "no repeated wire of the technology `{}` meets its clock over a {length} mm link",
                t.name
            )
        })?;
        let channels = self.channels(s) as f64;
        let flits = rate(a.channel_flits);
        p.channel_wire = self.repeated_wire(length, wire.k, wire.m, wire.n) * flits * cw;
        p.channel_clock = channels * self.wire_clock(wire.m, cw);
        p.channel_retiming = self.wire_dff(wire.m, cw, flits);
        p.channel_leakage = channels * self.repeated_wire_leak(wire.k, wire.m, wire.n) * cw;
        let a_dff = wire.m * t.W_DFQD1 as f64 * t.H_DFQD1 as f64;
        let a_inv = wire.m * wire.n * (t.W_INVD2 as f64 + 3.0 * wire.k) * t.H_INVD2 as f64;
        area.channel = channels * cw * (a_dff + a_inv) * pitch2;

        // Input buffers: one per input port, every VC's slots.
        let inputs = nodes * PORTS_F;
        let depth = s.vcs as f64 * s.vc_buf_size as f64;
        let wl = self.word_line(cw, depth, cw);
        p.input_read = rate(a.buffer_reads) * (wl + self.bit_read(depth) * cw);
        p.input_write = rate(a.buffer_writes) * (wl + self.bit_write(depth) * cw);
        p.input_leakage = inputs * depth * t.IoffSRAM * t.Vdd * cw;
        area.input = inputs * (cw * t.H_SRAM as f64) * (depth * t.W_SRAM as f64) * pitch2;

        // Crossbars and output flip-flops.
        let v2f = t.Vdd * t.Vdd * self.d.f_clk;
        let mut switched = 0.0;
        for port in 0..PORTS {
            let c_in = self.crossbar_side(cw, PORTS_F, Some(port as f64), None);
            let c_out = self.crossbar_side(cw, PORTS_F, None, Some(port as f64));
            switched += rate(a.switch_out[port]) * c_in + rate(a.switch_in[port]) * c_out;
        }
        let traversals = rate(a.switch_out.iter().sum());
        p.switch = cw * 0.5 * switched * v2f;
        p.switch_control = traversals * self.crossbar_control(cw, PORTS_F, PORTS_F);
        p.switch_leakage = nodes * self.crossbar_leak(cw, PORTS_F, PORTS_F);
        p.output_clock = inputs * self.wire_clock(1.0, cw);
        p.output_dff = traversals * self.wire_dff(1.0, cw, 1.0);
        p.output_control = traversals * self.output_control(cw, cw);
        let d = &self.d;
        area.switch = nodes * (PORTS_F * cw * d.crossbar_pitch) * (PORTS_F * cw * d.crossbar_pitch);
        area.output = nodes * cw * PORTS_F * t.W_DFQD1 as f64 * t.H_DFQD1 as f64 * pitch2;

        p.total = p.components().iter().map(|(_, v)| v).sum();
        area.total = area.channel + area.switch + area.input + area.output;
        Ok((p, area))
    }
}

/// A number as C++'s `ostream` prints a double by default (`%g`, six
/// significant digits), as BookSim2's summaries show them.
pub fn format_g(x: f64) -> String {
    if x == 0.0 || !x.is_finite() {
        return format!("{x}");
    }
    let sci = format!("{x:.5e}");
    let (mantissa, exp) = sci.split_once('e').expect("an exponent");
    let exp: i32 = exp.parse().expect("an exponent");
    let strip = |s: String| {
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s
        }
    };
    if !(-4..6).contains(&exp) {
        let m = strip(mantissa.to_string());
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{m}e{sign}{:02}", exp.abs())
    } else {
        strip(format!("{x:.*}", (5 - exp) as usize))
    }
}

/// The two summaries as BookSim2 prints them.
pub fn summary_text(p: &Power, area: &Area, cycles: u64, channel_width: u32) -> String {
    let rule = "-----------------------------------------\n";
    let mut s = String::new();
    s.push_str(rule);
    s.push_str("- OCN Power Summary\n");
    s.push_str(&format!("- Completion Time:         {cycles}\n"));
    s.push_str(&format!("- Flit Widths:            {channel_width}\n"));
    for (label, v) in p.components() {
        let label = format!("{label}:");
        s.push_str(&format!("- {label:<25}{}\n", format_g(v)));
    }
    s.push_str(&format!("- {:<25}{}\n", "Total Power:", format_g(p.total)));
    s.push_str(rule);
    s.push('\n');
    s.push_str(rule);
    s.push_str("- OCN Area Summary\n");
    s.push_str(&format!("- Channel Area:  {}\n", format_g(area.channel)));
    s.push_str(&format!("- Switch  Area:  {}\n", format_g(area.switch)));
    s.push_str(&format!("- Input  Area:   {}\n", format_g(area.input)));
    s.push_str(&format!("- Output  Area:  {}\n", format_g(area.output)));
    s.push_str(&format!("- Total Area:    {}\n", format_g(area.total)));
    s.push_str(rule);
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_g_is_cpp_default() {
        assert_eq!(format_g(50.8424), "50.8424");
        assert_eq!(format_g(0.631689), "0.631689");
        assert_eq!(format_g(60130.0), "60130");
        assert_eq!(format_g(1.0), "1");
        assert_eq!(format_g(0.0335544), "0.0335544");
        assert_eq!(format_g(1234567.0), "1.23457e+06");
        assert_eq!(format_g(0.0000123), "1.23e-05");
        assert_eq!(format_g(0.0001), "0.0001");
        assert_eq!(format_g(0.0), "0");
    }

    /// The search that leaves out the larger M finds what the whole one
    /// does, on BookSim2's technology and one with another supply and
    /// inverter, over links of 0.1 to 12 mm.
    #[test]
    fn pruned_wire_search_is_the_whole_one() {
        let other = Tech {
            Vdd: 1.2,
            R: 3.0 * Tech::default().R,
            ..Tech::default()
        };
        let techs = [Tech::default(), other];
        for tech in &techs {
            let m = Model::new(tech);
            let (mut l, mut found) = (0.1, 0);
            while l < 12.0 {
                let (a, b) = (m.wire(l), m.wire_search(l, false));
                assert_eq!(
                    format!("{a:?}"),
                    format!("{b:?}"),
                    "{} at {l} mm",
                    tech.name
                );
                found += a.is_some() as usize;
                l += 0.7;
            }
            assert!(found >= 5, "{}: {found} lengths have a wire", tech.name);
        }
    }

    /// BookSim2 prints "L = 2 K = 8.1 M = 2 N = 1" for its techfile's
    /// one-cycle link.
    #[test]
    fn wire_of_booksim_techfile() {
        let m = Model::new(&Tech::default());
        let w = m.wire(2.0).unwrap();
        assert!(
            (w.k - 8.1).abs() < 1e-9 && w.m == 2.0 && w.n == 1.0,
            "{w:?}"
        );
    }
}
