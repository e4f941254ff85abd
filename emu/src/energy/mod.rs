//! Energy and power: the network's power and area as BookSim2 computes
//! them ([`power`], over the technology of [`tech`]), and the energy of a
//! run by part (tiles, NIUs, routers, links), `run`. docs/energy.md
//! describes the model, its sources and what it leaves out.

pub mod power;
pub mod tech;

use crate::network::Network;
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
pub fn shape(config: &crate::config::NetworkConfig, width: u32, height: u32, classes: u32) -> Shape {
    Shape {
        width,
        height,
        vcs: config.num_vcs * classes,
        vc_buf_size: config.vc_buf_size,
        channel_width: config.channel_width,
        link_delay: config.link_delay,
    }
}
