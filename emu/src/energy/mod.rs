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

/// The model of the embedded technology, made once (it keeps the wires it
/// sizes: `Model::wire`).
pub fn default_model() -> &'static Model {
    static MODEL: std::sync::OnceLock<Model> = std::sync::OnceLock::new();
    MODEL.get_or_init(|| Model::new(&Tech::default()))
}

/// The model of the technology file at `path` (the embedded technology
/// when empty), made once per path in a process (`energy.technology`).
pub fn model_for(path: &str) -> Result<&'static Model, String> {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    if path.is_empty() {
        return Ok(default_model());
    }
    static MODELS: OnceLock<Mutex<HashMap<String, &'static Model>>> = OnceLock::new();
    let mut models = MODELS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if let Some(model) = models.get(path) {
        return Ok(model);
    }
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read the technology file {path}: {e}"))?;
    let tech = Tech::parse(&text, path)?;
    // A handful of technologies per process at most: kept for its life.
    let model: &'static Model = Box::leak(Box::new(Model::new(&tech)));
    models.insert(path.to_string(), model);
    Ok(model)
}

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

/// The energy of a run by part, joules: tiles and NIUs from `[energy]`,
/// routers and links from BookSim2's network model (docs/energy.md).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunEnergy {
    /// The network's technology (its `name`).
    pub technology: String,
    /// Tiles: instructions (fetch and execution), memory accesses; leakage
    /// (with their NIUs').
    pub tiles: PartEnergy,
    /// Whether the tiles counted their instructions (`energy.enabled`);
    /// if not, `tiles.dynamic` is 0 for want of counts, not of energy.
    pub tiles_counted: bool,
    /// The instructions retired by timing class (when counted).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub instructions_by_class: Option<std::collections::BTreeMap<String, u64>>,
    /// NIUs: flits, table updates, DMA words (with their memory accesses),
    /// thread starts.
    pub nius: PartEnergy,
    /// What the NIUs did.
    pub niu_activity: NiuActivity,
    /// Routers: input buffers, crossbars, output flip-flops.
    pub routers: PartEnergy,
    /// Links: injection, router-to-router and ejection channels.
    pub links: PartEnergy,
    /// All four parts.
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
            "energy (nJ; routers and links: BookSim2's model, technology {}; tiles and NIUs: [energy]):\n",
            self.technology
        );
        s.push_str(&format!(
            "{:>8} {:>12} {:>12} {:>12}\n",
            "part", "dynamic", "leakage", "total"
        ));
        s.push_str(&line("tiles", &self.tiles));
        s.push_str(&line("NIUs", &self.nius));
        s.push_str(&line("routers", &self.routers));
        s.push_str(&line("links", &self.links));
        s.push_str(&format!("{:>8} {:>38.3}\n", "total", self.total * 1e9));
        if !self.tiles_counted {
            s.push_str("  (tiles' instructions not counted: energy.enabled = false)\n");
        }
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
        tiles: PartEnergy::default(),
        tiles_counted: false,
        instructions_by_class: None,
        nius: PartEnergy::default(),
        niu_activity: NiuActivity::default(),
        total: routers.total + links.total,
        routers,
        links,
        power: p,
    })
}

/// What the NIUs did over a run (the energy model's activity).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct NiuActivity {
    /// Flits injected.
    pub flits_injected: u64,
    /// Flits taken in.
    pub flits_ejected: u64,
    /// Send- and receive-table entry updates.
    pub table_accesses: u64,
    /// Words moved by DMA.
    pub dma_words: u64,
    /// Threads started by thread messages.
    pub thread_starts: u64,
}

impl NiuActivity {
    /// The activity of `nius` on `net`.
    pub fn of(nius: &[crate::niu::Niu], net: &Network) -> NiuActivity {
        let c = net.counters();
        let mut a = NiuActivity {
            flits_injected: c.flits_injected,
            flits_ejected: c.flits_ejected,
            ..NiuActivity::default()
        };
        let thread = isa_spec::msg::MessageType::Thread as usize;
        for n in nius {
            a.table_accesses += n.counters.table_accesses;
            a.dma_words += n.counters.dma_words;
            a.thread_starts += n.counters.messages_received[thread];
        }
        a
    }
}

/// Adds the tiles' and the NIUs' energy to `e` (from `[energy]` and
/// `[instruction_energy]`): `classes` the instructions retired by timing
/// class over all tiles (none when not counted: the tiles' dynamic energy
/// is then unknown and left out, `tiles_counted` false), `cycles` the run's.
pub fn add_tiles_and_nius(
    e: &mut RunEnergy,
    config: &crate::config::Config,
    classes: Option<&[u64; isa_spec::TimingClass::ALL.len()]>,
    niu: &NiuActivity,
    cycles: u64,
) {
    use isa_spec::TimingClass;
    let k = &config.energy;
    let pj = 1e-12;
    let memory_words = |c: &[u64; TimingClass::ALL.len()]| {
        c[TimingClass::Load as usize]
            + c[TimingClass::Store as usize]
            + 2 * c[TimingClass::Atomic as usize]
    };
    let tiles_dynamic = classes.map(|c| {
        let instructions: f64 = TimingClass::ALL
            .iter()
            .map(|class| {
                c[*class as usize] as f64
                    * (k.instruction_pj + config.instruction_energy.pj(*class))
            })
            .sum();
        (instructions + memory_words(c) as f64 * k.memory_access_pj) * pj
    });
    let tiles_leakage = k.tile_leakage_pj * config.tiles() as f64 * cycles as f64 * pj;
    let dynamic = tiles_dynamic.unwrap_or(0.0);
    e.tiles = PartEnergy {
        dynamic,
        leakage: tiles_leakage,
        total: dynamic + tiles_leakage,
    };
    e.tiles_counted = tiles_dynamic.is_some();
    e.instructions_by_class = classes.map(|c| {
        TimingClass::ALL
            .iter()
            .map(|class| (class.name().to_string(), c[*class as usize]))
            .collect()
    });
    let niu_dynamic = (niu.flits_injected as f64 * k.niu_flit_injected_pj
        + niu.flits_ejected as f64 * k.niu_flit_ejected_pj
        + niu.table_accesses as f64 * k.niu_table_access_pj
        + niu.dma_words as f64 * (k.niu_dma_word_pj + k.memory_access_pj)
        + niu.thread_starts as f64 * k.niu_thread_start_pj)
        * pj;
    e.nius = PartEnergy {
        dynamic: niu_dynamic,
        leakage: 0.0,
        total: niu_dynamic,
    };
    e.niu_activity = *niu;
    e.total = e.tiles.total + e.nius.total + e.routers.total + e.links.total;
}
