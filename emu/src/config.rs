//! The machine configuration: every number of the machine model, with the
//! documented defaults embedded from `default_config.toml`, overlaid by a TOML
//! file and by `section.key=value` overrides.
//!
//! The default file is the single place where a key and its documentation are
//! written: loading always starts from it (so a key missing there cannot be
//! set), and [`Config::to_documented_toml`] prints it back with the effective
//! values. serde + toml do the parsing; the overlay step checks key names and
//! value types itself so that every error names the key it is about.
//!
//! Over 600 lines: the structs of every `[section]` of `default_config.toml`
//! and the overlay that checks them belong together; the router's, NIU's and
//! timing classes' parts are a split point if it grows.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use toml::{Table, Value};

use isa_spec::TimingClass;

/// The embedded default configuration, with one comment line per key.
pub const DEFAULT_TOML: &str = include_str!("default_config.toml");

/// The whole machine configuration.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// Mesh size.
    pub mesh: MeshConfig,
    /// Tile resources.
    pub tile: TileConfig,
    /// Thread scheduler.
    pub scheduler: SchedulerConfig,
    /// Extra cycles per timing class.
    pub timing: TimingConfig,
    /// Which threads start at the entry point.
    pub boot: BootConfig,
    /// Routers and links.
    pub network: NetworkConfig,
    /// The network interface units.
    pub niu: NiuConfig,
    /// Simulation control.
    pub sim: SimConfig,
    /// The energy model of tiles and NIUs (docs/energy.md).
    pub energy: EnergyConfig,
    /// Energy of an instruction by timing class.
    pub instruction_energy: InstructionEnergy,
}

/// `[energy]`: the energy of tiles and NIUs, picojoules (docs/energy.md;
/// the network's comes from its technology file).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EnergyConfig {
    /// Whether tiles count their instructions by timing class.
    pub enabled: bool,
    /// Every instruction: its fetch from local memory.
    pub instruction_pj: f64,
    /// A data word read or written in local memory.
    pub memory_access_pj: f64,
    /// A flit an NIU injects.
    pub niu_flit_injected_pj: f64,
    /// A flit an NIU takes in.
    pub niu_flit_ejected_pj: f64,
    /// An update of a send or receive table entry.
    pub niu_table_access_pj: f64,
    /// A word the NIU moves between memory and the network (besides the
    /// memory access).
    pub niu_dma_word_pj: f64,
    /// A thread started by a thread message.
    pub niu_thread_start_pj: f64,
    /// Leakage of a tile (core, memory, NIU) per cycle.
    pub tile_leakage_pj: f64,
    /// The network's technology file (empty: the embedded one); read
    /// when a machine that counts energy is built (`Machine::new`), and by
    /// the CLI when it builds the configuration.
    pub technology: String,
}

// Every value is checked finite (`Config::validate`), so equality is one.
impl Eq for EnergyConfig {}

impl EnergyConfig {
    /// The values by key.
    fn values(&self) -> [(&'static str, f64); 8] {
        [
            ("instruction_pj", self.instruction_pj),
            ("memory_access_pj", self.memory_access_pj),
            ("niu_flit_injected_pj", self.niu_flit_injected_pj),
            ("niu_flit_ejected_pj", self.niu_flit_ejected_pj),
            ("niu_table_access_pj", self.niu_table_access_pj),
            ("niu_dma_word_pj", self.niu_dma_word_pj),
            ("niu_thread_start_pj", self.niu_thread_start_pj),
            ("tile_leakage_pj", self.tile_leakage_pj),
        ]
    }
}

/// `[instruction_energy]`: picojoules of an instruction's execution beyond
/// its fetch, one key per [`TimingClass`] (as `[timing]`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "BTreeMap<String, f64>", into = "BTreeMap<String, f64>")]
pub struct InstructionEnergy {
    pj: [f64; TimingClass::ALL.len()],
}

// Every value is checked finite (`Config::validate`).
impl Eq for InstructionEnergy {}

impl InstructionEnergy {
    /// Picojoules of an instruction of class `class`.
    pub fn pj(&self, class: TimingClass) -> f64 {
        self.pj[class as usize]
    }
}

impl TryFrom<BTreeMap<String, f64>> for InstructionEnergy {
    type Error = String;

    /// One key per class, no other.
    fn try_from(mut keys: BTreeMap<String, f64>) -> Result<InstructionEnergy, String> {
        let mut pj = [0.0; TimingClass::ALL.len()];
        for class in TimingClass::ALL {
            pj[class as usize] = keys
                .remove(class.name())
                .ok_or_else(|| format!("missing key `{}`", class.name()))?;
        }
        match keys.into_keys().next() {
            Some(key) => Err(format!("unknown timing class `{key}`")),
            None => Ok(InstructionEnergy { pj }),
        }
    }
}

impl From<InstructionEnergy> for BTreeMap<String, f64> {
    fn from(e: InstructionEnergy) -> BTreeMap<String, f64> {
        TimingClass::ALL
            .into_iter()
            .map(|c| (c.name().to_string(), e.pj(c)))
            .collect()
    }
}

/// `[mesh]`
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MeshConfig {
    /// Tiles across.
    pub width: u32,
    /// Tiles down.
    pub height: u32,
}

/// `[tile]`
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TileConfig {
    /// Bytes of local memory.
    pub memory_bytes: u64,
    /// Hardware thread contexts.
    pub contexts: u32,
    /// Clock rate in Hz: what the C library's clock(), time() and
    /// gettimeofday() convert cycles with (semihosting).
    pub clock_hz: u64,
    /// Stack bytes per context.
    pub stack_bytes: u64,
}

/// `[scheduler]`
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SchedulerConfig {
    /// Cycles before preemption while another context is ready.
    pub quantum: u64,
    /// Cycles of a switch between different contexts.
    pub switch_cycles: u64,
}

/// `[timing]`: extra cycles beyond the issue cycle, one key per
/// [`TimingClass`], named by [`TimingClass::name`] (the class list in
/// `isa-spec` is the one definition of the names; the keys' defaults and
/// documentation are in `default_config.toml`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "BTreeMap<String, u32>", into = "BTreeMap<String, u32>")]
pub struct TimingConfig {
    /// Extra cycles per class, indexed by `TimingClass as usize`.
    extra: [u32; TimingClass::ALL.len()],
}

impl TimingConfig {
    /// Extra cycles of an instruction of class `class` (for a branch: when taken).
    pub fn extra(&self, class: TimingClass) -> u32 {
        self.extra[class as usize]
    }
}

impl TryFrom<BTreeMap<String, u32>> for TimingConfig {
    type Error = String;

    /// One key per class, no other.
    fn try_from(mut keys: BTreeMap<String, u32>) -> Result<TimingConfig, String> {
        let mut extra = [0; TimingClass::ALL.len()];
        for class in TimingClass::ALL {
            extra[class as usize] = keys
                .remove(class.name())
                .ok_or_else(|| format!("missing key `{}`", class.name()))?;
        }
        match keys.into_keys().next() {
            Some(key) => Err(format!("unknown timing class `{key}`")),
            None => Ok(TimingConfig { extra }),
        }
    }
}

impl From<TimingConfig> for BTreeMap<String, u32> {
    fn from(t: TimingConfig) -> BTreeMap<String, u32> {
        TimingClass::ALL
            .into_iter()
            .map(|c| (c.name().to_string(), t.extra(c)))
            .collect()
    }
}

/// Which tiles boot a thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BootTiles {
    /// Tile 0 only.
    First,
    /// Every tile (SPMD).
    All,
}

/// `[boot]`
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BootConfig {
    /// Tiles that start a thread.
    pub tiles: BootTiles,
    /// Contexts started per booted tile.
    pub threads: u32,
}

/// `[network]`: the routers and links (see [`crate::network`]). The key
/// names are BookSim2's, so that its configurations can be reproduced.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NetworkConfig {
    /// Virtual channels per message-type set on every physical channel.
    pub num_vcs: u32,
    /// Flits one VC buffer holds.
    pub vc_buf_size: u32,
    /// Cycles of route computation.
    pub routing_delay: u32,
    /// Cycles of virtual-channel allocation.
    pub vc_alloc_delay: u32,
    /// Cycles of switch allocation.
    pub sw_alloc_delay: u32,
    /// Cycles of switch traversal.
    pub st_final_delay: u32,
    /// Cycles a credit takes back to the upstream router.
    pub credit_delay: u32,
    /// Cycles a flit takes over a link between routers, and between a
    /// router and its tile's NIU.
    pub link_delay: u32,
    /// Allocator of virtual channels.
    pub vc_allocator: AllocatorKind,
    /// Allocator of the crossbar.
    pub sw_allocator: AllocatorKind,
    /// Cycles without any flit moving, while flits are held, after which the
    /// run stops with a stall report.
    pub stall_cycles: u64,
    /// Bits a channel carries, for the power model only.
    pub channel_width: u32,
}

/// `[niu]`: the network interface units (see [`crate::niu`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NiuConfig {
    /// Which organization.
    pub design: NiuDesign,
    /// Flits a transmission queue holds.
    pub queue_flits: u32,
    /// Send-table entries (modified NIU).
    pub send_table_entries: u32,
    /// Receive-table entries (modified NIU).
    pub receive_table_entries: u32,
    /// Cycles per word of NIU memory traffic.
    pub dma_cycles_per_word: u32,
    /// Cycles from the tail of a thread message to the thread being ready.
    pub thread_start_cycles: u32,
    /// How `waits`/`waitr` wait.
    pub wait: WaitMode,
    /// Whether a Ready-mode message with no posted receive faults.
    pub strict: bool,
    /// What a send that finds its transmission queue full stalls.
    pub full_queue: FullQueue,
    /// What a thread message does when every context holds a thread.
    pub context_exhausted: ContextExhausted,
}

/// What a thread message's head does when no context is free (thesis 3.4:
/// "thread messages will block at its NIU until some threads finish, or
/// the exception handler can swap threads into memory").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ContextExhausted {
    /// It waits in the ejection buffer, holding its VC, until a thread ends.
    Block,
    /// The NIU raises the context-exhaustion exception in a waiting thread's
    /// context: the runtime's handler (`scmp_swap_out`) saves that thread
    /// to its stack and frees the context for the message; the thread
    /// resumes (`scmp_swap_in`) when the thread that took its context ends.
    Swap,
}

/// What a send that finds its transmission queue full stalls (the thesis
/// does not say: 5.5 and 5.6.2 say that the issuing thread suspends, 6.2.1
/// that short queues "become a bottleneck" as nodes enqueue "more messaging
/// instructions").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FullQueue {
    /// The issuing context suspends; the others go on.
    Context,
    /// The tile's messaging port: the issuing context suspends, and every
    /// other context's messaging instructions wait too until it can go on.
    Port,
}

/// The NIU organizations of the thesis.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum NiuDesign {
    /// Active messages (thesis chapter 3).
    Original,
    /// Send-and-receive (thesis chapter 5).
    Modified,
}

/// How `waits` and `waitr` wait.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum WaitMode {
    /// The context suspends; the NIU wakes it when the entry is Complete.
    Wake,
    /// The instruction issues again every cycle until the entry is Complete.
    Poll,
}

/// An allocator policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AllocatorKind {
    /// Separable, input stage first, round-robin arbiters (BookSim2's
    /// `separable_input_first`).
    SeparableInputFirst,
    /// Separable, output stage first, round-robin arbiters (BookSim2's
    /// `separable_output_first`).
    SeparableOutputFirst,
}

/// `[sim]`
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SimConfig {
    /// Cycle limit (0: none).
    pub max_cycles: u64,
    /// Cycles between global synchronizations.
    pub epoch_cycles: u64,
    /// Host threads running the tiles of a round (0: one per host core).
    pub host_threads: u32,
    /// Tile-cycles of work a round needs before it runs on several host
    /// threads (0: every round).
    pub host_parallel_cycles: u64,
    /// Which router core simulates the network (results are the same).
    pub network_engine: NetworkEngine,
    /// Cycles between two looks of the livelock watch (0: none).
    pub spin_check_cycles: u64,
}

/// The two router cores (docs/network.md, section 3). Every result is the
/// same with either: the reference is the specification, the fast core is
/// checked against it by a differential test.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum NetworkEngine {
    /// `network/router.rs`: one object per router, written to be read.
    Reference,
    /// `network/fast.rs`: every router's state in flat arrays (the
    /// default).
    #[default]
    Fast,
}

impl NetworkEngine {
    /// The other engine.
    pub fn other(self) -> NetworkEngine {
        match self {
            NetworkEngine::Reference => NetworkEngine::Fast,
            NetworkEngine::Fast => NetworkEngine::Reference,
        }
    }
}

/// A configuration error; the message names the key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError(pub String);

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ConfigError {}

fn err(message: String) -> ConfigError {
    ConfigError(message)
}

/// Builds a configuration from the defaults, then TOML texts, then
/// `key=value` overrides, in that order.
#[derive(Clone, Debug)]
pub struct ConfigBuilder {
    table: Table,
}

impl Default for ConfigBuilder {
    fn default() -> Self {
        ConfigBuilder::new()
    }
}

impl ConfigBuilder {
    /// Starts from the embedded defaults.
    pub fn new() -> ConfigBuilder {
        let table = DEFAULT_TOML
            .parse::<Table>()
            .expect("the embedded default configuration parses");
        ConfigBuilder { table }
    }

    /// Overlays a TOML document (`origin` names it in errors).
    pub fn file(&mut self, text: &str, origin: &str) -> Result<&mut Self, ConfigError> {
        let table: Table = text
            .parse()
            .map_err(|e: toml::de::Error| err(format!("{origin}: {}", e.to_string().trim_end())))?;
        for (section, value) in table {
            let Value::Table(keys) = value else {
                return Err(err(format!(
                    "{origin}: `{section}` must be a section ([{section}]), found a value"
                )));
            };
            for (key, value) in keys {
                self.set_value(&format!("{section}.{key}"), value)
                    .map_err(|e| err(format!("{origin}: {}", e.0)))?;
            }
        }
        Ok(self)
    }

    /// Applies one `section.key=value` override; the value is TOML (an
    /// unquoted word is taken as a string).
    pub fn set(&mut self, assignment: &str) -> Result<&mut Self, ConfigError> {
        let Some((key, text)) = assignment.split_once('=') else {
            return Err(err(format!(
                "`--set {assignment}`: expected section.key=value"
            )));
        };
        let key = key.trim();
        let text = text.trim();
        let value = match format!("v = {text}").parse::<Table>() {
            Ok(mut t) => t.remove("v").expect("the key just written"),
            Err(_) => Value::String(text.to_string()),
        };
        self.set_value(key, value)?;
        Ok(self)
    }

    fn set_value(&mut self, key: &str, value: Value) -> Result<(), ConfigError> {
        let (section, name) = key.split_once('.').ok_or_else(|| {
            err(format!(
                "unknown configuration key `{key}` (keys are section.key)"
            ))
        })?;
        let Some(Value::Table(keys)) = self.table.get_mut(section) else {
            return Err(err(format!(
                "unknown configuration key `{key}`: no section `{section}` (sections: {})",
                self.table.keys().cloned().collect::<Vec<_>>().join(", ")
            )));
        };
        let Some(old) = keys.get_mut(name) else {
            return Err(err(format!(
                "unknown configuration key `{key}` (keys of [{section}]: {})",
                keys.keys().cloned().collect::<Vec<_>>().join(", ")
            )));
        };
        if old.type_str() != value.type_str() {
            return Err(err(format!(
                "configuration key `{key}`: expected {}, found {} `{value}`",
                article(old.type_str()),
                article(value.type_str())
            )));
        }
        *old = value;
        Ok(())
    }

    /// The configuration, after range checks that name the offending key.
    pub fn build(&self) -> Result<Config, ConfigError> {
        let config: Config =
            Value::Table(self.table.clone())
                .try_into()
                .map_err(|e: toml::de::Error| {
                    err(format!("configuration: {}", e.to_string().trim_end()))
                })?;
        config.validate()?;
        Ok(config)
    }
}

fn article(type_str: &str) -> String {
    match type_str {
        "integer" | "array" => format!("an {type_str}"),
        _ => format!("a {type_str}"),
    }
}

impl Default for Config {
    fn default() -> Self {
        ConfigBuilder::new()
            .build()
            .expect("the embedded default configuration is valid")
    }
}

/// `Ok` when `ok`, else the error of configuration key `key`.
fn check(ok: bool, key: &str, what: String) -> Result<(), ConfigError> {
    if ok {
        Ok(())
    } else {
        Err(err(format!("configuration key `{key}`: {what}")))
    }
}

impl Config {
    /// Checks value ranges; errors name the key.
    pub fn validate(&self) -> Result<(), ConfigError> {
        self.validate_tiles()?;
        self.validate_network()?;
        self.validate_costs()
    }

    /// [`Config::validate`] of the mesh, the tiles, the scheduler, the boot
    /// and the simulation's own keys.
    fn validate_tiles(&self) -> Result<(), ConfigError> {
        let max = isa_spec::msg::MAX_MESH_DIM;
        check(
            (1..=max).contains(&self.mesh.width),
            "mesh.width",
            format!("{} is not in 1..={max}", self.mesh.width),
        )?;
        check(
            (1..=max).contains(&self.mesh.height),
            "mesh.height",
            format!("{} is not in 1..={max}", self.mesh.height),
        )?;
        let m = self.tile.memory_bytes;
        check(
            m >= 4096 && m.is_multiple_of(4096) && m <= 1 << 31,
            "tile.memory_bytes",
            format!("{m} is not a multiple of 4096 in 4096..=2147483648"),
        )?;
        let max_ctx = isa_spec::msg::MAX_CONTEXTS;
        check(
            (1..=max_ctx).contains(&self.tile.contexts),
            "tile.contexts",
            format!("{} is not in 1..={max_ctx}", self.tile.contexts),
        )?;
        let s = self.tile.stack_bytes;
        check(
            s >= 16 && s.is_multiple_of(16),
            "tile.stack_bytes",
            format!("{s} is not a positive multiple of 16"),
        )?;
        check(
            s * self.tile.contexts as u64 <= m,
            "tile.stack_bytes",
            format!(
                "{} contexts x {s} bytes of stack do not fit in {m} bytes of memory",
                self.tile.contexts
            ),
        )?;
        check(
            (1..=u32::MAX as u64).contains(&self.tile.clock_hz),
            "tile.clock_hz",
            format!("{} is not in 1..=4294967295", self.tile.clock_hz),
        )?;
        check(
            self.scheduler.quantum >= 1,
            "scheduler.quantum",
            "must be at least 1".into(),
        )?;
        check(
            (1..=self.tile.contexts).contains(&self.boot.threads),
            "boot.threads",
            format!(
                "{} is not in 1..={} (tile.contexts)",
                self.boot.threads, self.tile.contexts
            ),
        )?;
        check(
            self.sim.epoch_cycles >= 1,
            "sim.epoch_cycles",
            "must be at least 1".into(),
        )?;
        check(
            self.sim.host_threads <= 1024,
            "sim.host_threads",
            format!("{} is not in 0..=1024", self.sim.host_threads),
        )?;
        Ok(())
    }

    /// [`Config::validate`] of the network and the NIUs.
    fn validate_network(&self) -> Result<(), ConfigError> {
        let n = &self.network;
        check(
            (1..=16).contains(&n.num_vcs),
            "network.num_vcs",
            format!("{} is not in 1..=16", n.num_vcs),
        )?;
        check(
            (1..=64).contains(&n.vc_buf_size),
            "network.vc_buf_size",
            format!("{} is not in 1..=64", n.vc_buf_size),
        )?;
        for (key, value, min) in [
            ("routing_delay", n.routing_delay, 0),
            ("vc_alloc_delay", n.vc_alloc_delay, 0),
            ("sw_alloc_delay", n.sw_alloc_delay, 0),
            ("st_final_delay", n.st_final_delay, 0),
            ("credit_delay", n.credit_delay, 1),
            ("link_delay", n.link_delay, 1),
        ] {
            check(
                (min..=64).contains(&value),
                &format!("network.{key}"),
                format!("{value} is not in {min}..=64"),
            )?;
        }
        let u = &self.niu;
        check(
            (2..=4096).contains(&u.queue_flits),
            "niu.queue_flits",
            format!(
                "{} is not in 2..=4096 (a header takes two flits)",
                u.queue_flits
            ),
        )?;
        for (key, value) in [
            ("send_table_entries", u.send_table_entries),
            ("receive_table_entries", u.receive_table_entries),
        ] {
            check(
                (1..=4096).contains(&value),
                &format!("niu.{key}"),
                format!("{value} is not in 1..=4096"),
            )?;
        }
        check(
            (1..=1000).contains(&u.dma_cycles_per_word),
            "niu.dma_cycles_per_word",
            format!("{} is not in 1..=1000", u.dma_cycles_per_word),
        )?;
        check(
            (1..=1000).contains(&u.thread_start_cycles),
            "niu.thread_start_cycles",
            format!("{} is not in 1..=1000", u.thread_start_cycles),
        )?;
        check(
            n.stall_cycles >= 1,
            "network.stall_cycles",
            "must be at least 1".into(),
        )?;
        check(
            (1..=4096).contains(&n.channel_width),
            "network.channel_width",
            format!("{} is not in 1..=4096 bits", n.channel_width),
        )?;
        Ok(())
    }

    /// [`Config::validate`] of the energy and timing costs.
    fn validate_costs(&self) -> Result<(), ConfigError> {
        for (key, v) in self.energy.values() {
            check(
                v.is_finite() && v >= 0.0,
                &format!("energy.{key}"),
                format!("{v} is not a number of picojoules >= 0"),
            )?;
        }
        for class in TimingClass::ALL {
            let v = self.instruction_energy.pj(class);
            check(
                v.is_finite() && v >= 0.0,
                &format!("instruction_energy.{}", class.name()),
                format!("{v} is not a number of picojoules >= 0"),
            )?;
        }
        for class in TimingClass::ALL {
            let extra = self.timing.extra(class);
            check(
                extra <= 1000,
                &format!("timing.{}", class.name()),
                format!("{extra} is more than 1000 cycles"),
            )?;
        }
        Ok(())
    }

    /// Number of tiles.
    pub fn tiles(&self) -> u32 {
        self.mesh.width * self.mesh.height
    }

    /// The default file's text with this configuration's values: every key
    /// with its documentation comment, readable back with `--config`.
    pub fn to_documented_toml(&self) -> String {
        let values = Value::try_from(self).expect("a configuration serializes");
        let mut out = String::new();
        let mut section = String::new();
        for line in DEFAULT_TOML.lines() {
            let trimmed = line.trim();
            if let Some(name) = trimmed.strip_prefix('[').and_then(|s| s.strip_suffix(']')) {
                section = name.to_string();
            } else if let Some((key, _)) = trimmed.split_once('=')
                && !trimmed.starts_with('#')
            {
                let key = key.trim();
                let value = &values[section.as_str()][key];
                out.push_str(&format!("{key} = {value}\n"));
                continue;
            }
            out.push_str(line);
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_match_the_machine_description() {
        let c = Config::default();
        assert_eq!((c.mesh.width, c.mesh.height), (8, 8));
        assert_eq!(c.tile.memory_bytes, 8 << 20);
        assert_eq!(c.tile.contexts, 16);
        assert_eq!(c.scheduler.quantum, 64);
        assert_eq!(c.scheduler.switch_cycles, 3);
        let t = |class| c.timing.extra(class);
        use TimingClass::*;
        assert_eq!(
            (
                t(Load),
                t(Branch),
                t(Jump),
                t(Mul),
                t(Div),
                t(FpAdd),
                t(FpMul),
                t(FpDiv)
            ),
            (1, 1, 1, 2, 32, 2, 3, 19)
        );
    }

    #[test]
    fn every_timing_class_has_a_documented_key() {
        for class in TimingClass::ALL {
            let key = format!("\n{} = ", class.name());
            let at = DEFAULT_TOML.find(&key).unwrap_or_else(|| panic!("{key}"));
            let before = DEFAULT_TOML[..at].lines().last().unwrap();
            assert!(before.starts_with("# "), "{} has no doc line", class.name());
        }
    }

    #[test]
    fn every_key_has_a_doc_comment() {
        let mut previous = "";
        for line in DEFAULT_TOML.lines() {
            if !line.starts_with('#') && !line.starts_with('[') && line.contains('=') {
                assert!(previous.starts_with("# "), "undocumented: {line}");
            }
            previous = line;
        }
    }

    #[test]
    fn documented_toml_reads_back() {
        let mut b = ConfigBuilder::new();
        b.set("mesh.width=3")
            .unwrap()
            .set("boot.tiles=all")
            .unwrap();
        let c = b.build().unwrap();
        let text = c.to_documented_toml();
        let mut again = ConfigBuilder::new();
        again.file(&text, "printed").unwrap();
        assert_eq!(again.build().unwrap(), c);
        assert!(text.contains("width = 3\n"));
        assert!(text.contains("tiles = \"all\"\n"));
    }

    #[test]
    fn energy_keys_are_checked() {
        let c = Config::default();
        assert!(!c.energy.enabled);
        assert_eq!(c.instruction_energy.pj(TimingClass::Mul), 3.1);
        assert_eq!(c.network.channel_width, 34);
        for bad in [
            "energy.instruction_pj=-1.0",
            "instruction_energy.fp_mul=nan",
            "network.channel_width=0",
        ] {
            let key = bad.split('=').next().unwrap();
            let e = ConfigBuilder::new().set(bad).unwrap().build().unwrap_err();
            assert!(e.0.contains(&format!("`{key}`")), "{e}");
        }
    }

    #[test]
    fn errors_name_the_key() {
        let e = ConfigBuilder::new().set("mesh.depth=3").unwrap_err();
        assert!(e.0.contains("`mesh.depth`"), "{e}");
        let e = ConfigBuilder::new().set("nope.x=3").unwrap_err();
        assert!(e.0.contains("`nope.x`"), "{e}");
        let e = ConfigBuilder::new().set("mesh.width=wide").unwrap_err();
        assert!(
            e.0.contains("`mesh.width`") && e.0.contains("integer"),
            "{e}"
        );
        let e = ConfigBuilder::new()
            .set("mesh.width=65")
            .unwrap()
            .build()
            .unwrap_err();
        assert!(
            e.0.contains("`mesh.width`") && e.0.contains("65 is not in 1..=64"),
            "{e}"
        );
        let e = ConfigBuilder::new()
            .set("mesh.height=0")
            .unwrap()
            .build()
            .unwrap_err();
        assert!(e.0.contains("`mesh.height`"), "{e}");
        let mut big = ConfigBuilder::new();
        big.set("mesh.width=64")
            .unwrap()
            .set("mesh.height=64")
            .unwrap();
        let big = big.build().unwrap();
        assert_eq!((big.mesh.width, big.mesh.height), (64, 64));
        let e = ConfigBuilder::new()
            .set("boot.tiles=some")
            .unwrap()
            .build()
            .unwrap_err();
        assert!(e.0.contains("some"), "{e}");
        let e = ConfigBuilder::new()
            .file("[tile]\nmemory = 5\n", "f.toml")
            .unwrap_err();
        assert!(
            e.0.contains("f.toml") && e.0.contains("`tile.memory`"),
            "{e}"
        );
        let e = ConfigBuilder::new()
            .set("tile.memory_bytes=-1")
            .unwrap()
            .build()
            .unwrap_err();
        assert!(e.0.contains("memory_bytes"), "{e}");
    }
}
