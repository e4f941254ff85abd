//! Energy and power: the network's power and area as BookSim2 computes
//! them ([`power`], over the technology of [`tech`]), and the energy of a
//! run by part (tiles, NIUs, routers, links), `run`. docs/energy.md
//! describes the model, its sources and what it leaves out.

pub mod power;
pub mod tech;

use crate::network::Network;
use serde::Serialize;

use crate::network::flit::PORTS;
pub use power::{Activity, Area, Model, Power, Shape};
pub use tech::Tech;

/// The activity of `net` over its first `cycles` cycles: the counts the
/// power model needs, from the network's counters.
pub fn network_activity(net: &Network, cycles: u64) -> Activity {
    let c = net.counters();
    let mut switch_out = [0u64; PORTS];
    for (i, n) in c.link_flits.iter().enumerate() {
        switch_out[i % PORTS] += n;
    }
    let reads: u64 = switch_out.iter().sum();
    // Every flit sent by a router crossed one channel, and every injected
    // one the injection channel.
    Activity {
        cycles,
        channel_flits: c.flits_injected + reads,
        buffer_writes: reads + net.buffered_flits(),
        buffer_reads: reads,
        switch_in: c.switch_in,
        switch_out,
    }
}

/// The structure of a `width x height` mesh configured by `config` with
/// `classes` sets of VCs.
pub fn shape(
    config: &crate::config::NetworkConfig,
    width: u32,
    height: u32,
    classes: u32,
) -> Shape {
    Shape {
        width,
        height,
        vcs: config.num_vcs * classes,
        vc_buf_size: config.vc_buf_size,
        channel_width: config.channel_width,
        link_delay: config.link_delay,
    }
}

/// Energy of one part of the machine over a run, joules.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct PartEnergy {
    /// Switching and clock energy: what the activity and the cycles cost.
    pub dynamic: f64,
    /// Leakage over the run's time at `tile.clock_hz`.
    pub leakage: f64,
    /// The sum.
    pub total: f64,
}

/// The energy of a run by part, joules, from BookSim2's network model.
/// Tiles and NIUs have no model yet (docs/energy.md).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunEnergy {
    /// The technology (its `name`).
    pub technology: String,
    /// Routers: input buffers, crossbars, output flip-flops.
    pub routers: PartEnergy,
    /// Links: injection, router-to-router and ejection channels.
    pub links: PartEnergy,
    /// Routers and links.
    pub total: f64,
    /// The network's mean power over the run as BookSim2 reports it
    /// (watts at the technology's own clock; see docs/energy.md).
    pub power: Power,
}

impl RunEnergy {
    /// The text form (`scmp run --stats`).
    pub fn to_text(&self) -> String {
        let line = |name: &str, p: &PartEnergy| {
            format!(
                "{name:>8} {:>12.3} {:>12.3} {:>12.3}\n",
                p.dynamic * 1e9,
                p.leakage * 1e9,
                p.total * 1e9
            )
        };
        let mut s = format!(
            "energy (nJ; network only, BookSim2's model, technology: {}):\n",
            self.technology
        );
        s.push_str(&format!(
            "{:>8} {:>12} {:>12} {:>12}\n",
            "part", "dynamic", "leakage", "total"
        ));
        s.push_str(&line("routers", &self.routers));
        s.push_str(&line("links", &self.links));
        s.push_str(&format!("{:>8} {:>38.3}\n", "total", self.total * 1e9));
        s
    }
}

/// The energy of a run of `a.cycles` cycles at `clock_hz`: BookSim2's
/// powers are at the technology's clock, so a switching or clock power
/// times the cycles over that clock is the energy of the activity, and a
/// leakage power times the run's time (cycles over `clock_hz`) its leak.
pub fn run_energy(
    model: &Model,
    shape: &Shape,
    a: &Activity,
    clock_hz: u64,
) -> Result<RunEnergy, String> {
    let (p, _) = model.evaluate(shape, a)?;
    let cycles = a.cycles as f64;
    let per_cycle = cycles / model.f_clk();
    let seconds = cycles / clock_hz.max(1) as f64;
    let part = |dynamic_w: f64, leakage_w: f64| {
        let dynamic = dynamic_w * per_cycle;
        let leakage = leakage_w * seconds;
        PartEnergy {
            dynamic,
            leakage,
            total: dynamic + leakage,
        }
    };
    let routers = part(p.routers_dynamic(), p.input_leakage + p.switch_leakage);
    let links = part(p.links_dynamic(), p.channel_leakage);
    Ok(RunEnergy {
        technology: model.tech().name.clone(),
        total: routers.total + links.total,
        routers,
        links,
        power: p,
    })
}
