//! `scmp noc`: the network alone under synthetic traffic (`emu::noc`), with
//! BookSim2's figures and key names, for validating the routers against it.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use emu::ConfigBuilder;
use emu::config::{NetworkConfig, NetworkEngine};
use emu::noc::{NocResult, Pattern, Traffic};
use miette::{IntoDiagnostic, Result, WrapErr, miette};

use crate::setup::EXIT_USAGE;

/// Exit status when the network stalled (nothing moved with flits held).
pub const EXIT_STALL: u8 = 3;

/// Arguments of `scmp noc`.
#[derive(clap::Args, Debug)]
pub struct NocArgs {
    /// Mesh size WIDTHxHEIGHT.
    #[arg(long, value_name = "WxH", default_value = "8x8")]
    pub mesh: String,
    /// Traffic pattern: uniform, transpose, bitcomp, neighbor, tornado,
    /// shuffle, bitrev, randperm[:SEED], diagonal, asymmetric,
    /// hotspot:NODE:FRACTION (BookSim2's definitions).
    #[arg(long, value_name = "PATTERN", default_value = "uniform")]
    pub traffic: String,
    /// Offered load in flits per node per cycle (Bernoulli injection).
    #[arg(long, value_name = "FLITS", default_value_t = 0.1)]
    pub rate: f64,
    /// Flits per packet (at least 2).
    #[arg(long, value_name = "FLITS", default_value_t = 4)]
    pub packet_size: u32,
    /// Cycles before measurement starts.
    #[arg(long, value_name = "CYCLES", default_value_t = 10_000)]
    pub warmup: u64,
    /// Cycles of measurement.
    #[arg(long, value_name = "CYCLES", default_value_t = 50_000)]
    pub cycles: u64,
    /// Cycles after measurement within which every measured packet must
    /// arrive; later, the load counts as past saturation.
    #[arg(long, value_name = "CYCLES", default_value_t = 50_000)]
    pub drain: u64,
    /// Random seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// A TOML configuration file (its `[network]` keys are used).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Router key, BookSim2's name with or without `network.`, e.g.
    /// `--set num_vcs=4 --set routing_delay=1` (repeatable; see `scmp config`).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
    /// Print the latency-load curve: rates from --step up by --step until
    /// saturation, as BookSim2 users mean it: average packet latency above
    /// --latency-limit, accepted throughput more than 5% below the offered
    /// load, or measured packets still out after --drain cycles.
    #[arg(long)]
    pub sweep: bool,
    /// With --sweep: also draw the curve (average packet latency against
    /// offered load, the saturation load marked) as an SVG file.
    #[arg(long, value_name = "FILE.svg", requires = "sweep")]
    pub plot: Option<PathBuf>,
    /// Rate step of --sweep.
    #[arg(long, value_name = "FLITS", default_value_t = 0.02)]
    pub step: f64,
    /// Packet latency beyond which --sweep stops.
    #[arg(long, value_name = "CYCLES", default_value_t = 500.0)]
    pub latency_limit: f64,
    /// Print JSON (one object, or an array with --sweep).
    #[arg(long)]
    pub json: bool,
    /// Write every flit's progress (inject, forward, eject) to FILE.
    #[arg(long, value_name = "FILE")]
    pub trace: Option<PathBuf>,
    /// Print the network's power and area as BookSim2's power module
    /// computes them (its "OCN Power Summary" and "OCN Area Summary", over
    /// the whole run); with --json, objects `power` (W) and `area` (mm²).
    /// The flit width is `channel_width` (34 bits unless set, BookSim2's
    /// default is 128).
    #[arg(long)]
    pub power: bool,
    /// With --power: the technology file (TOML, as docs/energy.md
    /// describes; default: BookSim2's techfile.txt, 32 nm).
    #[arg(long, value_name = "FILE", requires = "power")]
    pub tech: Option<PathBuf>,
}

/// The `[network]` keys and the engine that simulates them
/// (`sim.network_engine`).
fn network_config(args: &NocArgs) -> Result<(NetworkConfig, NetworkEngine)> {
    let mut builder = ConfigBuilder::new();
    if let Some(path) = &args.config {
        let text = std::fs::read_to_string(path)
            .into_diagnostic()
            .wrap_err_with(|| format!("cannot read the configuration file {}", path.display()))?;
        builder
            .file(&text, &path.display().to_string())
            .map_err(|e| miette!("{e}"))?;
    }
    for assignment in &args.set {
        let qualified = if assignment.contains('.') {
            assignment.clone()
        } else {
            format!("network.{assignment}")
        };
        builder.set(&qualified).map_err(|e| miette!("{e}"))?;
    }
    let config = builder.build().map_err(|e| miette!("{e}"))?;
    Ok((config.network, config.sim.network_engine))
}

fn traffic(args: &NocArgs, rate: f64) -> Result<Traffic> {
    let (w, h) = args
        .mesh
        .split_once(['x', 'X'])
        .ok_or_else(|| miette!("--mesh {}: expected WIDTHxHEIGHT, e.g. 8x8", args.mesh))?;
    let dim = |v: &str| -> Result<u32> {
        v.trim()
            .parse::<u32>()
            .ok()
            .filter(|n| (1..=isa_spec::msg::MAX_MESH_DIM).contains(n))
            .ok_or_else(|| {
                miette!(
                    "--mesh {}: `{v}` is not a number in 1..={}",
                    args.mesh,
                    isa_spec::msg::MAX_MESH_DIM
                )
            })
    };
    let t = Traffic {
        width: dim(w)?,
        height: dim(h)?,
        pattern: Pattern::parse(&args.traffic).map_err(|e| miette!("--traffic: {e}"))?,
        rate,
        packet_size: args.packet_size,
        warmup: args.warmup,
        cycles: args.cycles,
        drain: args.drain,
        seed: args.seed,
    };
    t.check().map_err(|e| miette!("{e}"))?;
    Ok(t)
}

fn print_result(out: &mut dyn Write, r: &NocResult) -> std::io::Result<()> {
    writeln!(
        out,
        "{} mesh, {} traffic, {} flits/node/cycle offered, {}-flit packets",
        r.mesh, r.traffic, r.rate, r.packet_size
    )?;
    let line = |out: &mut dyn Write, name: &str, s: &emu::noc::Summary| {
        writeln!(
            out,
            "{name} average = {:.4} (min = {}, max = {})",
            s.avg, s.min, s.max
        )
    };
    line(out, "Packet latency", &r.packet_latency)?;
    line(out, "Network latency", &r.network_latency)?;
    line(out, "Flit latency", &r.flit_latency)?;
    writeln!(
        out,
        "Accepted flit rate average = {:.5} (min = {:.5}, max = {:.5})",
        r.accepted_flit_rate, r.accepted_flit_rate_nodes.min, r.accepted_flit_rate_nodes.max
    )?;
    writeln!(out, "Offered flit rate = {:.5}", r.offered_flit_rate)?;
    writeln!(out, "Hops average = {:.4}", r.hops)?;
    writeln!(
        out,
        "Packets measured = {}, arrived = {}{}",
        r.packets_measured,
        r.packets_arrived,
        if r.saturated {
            " (saturated: not all arrived within the drain limit)"
        } else {
            ""
        }
    )?;
    let stalls: Vec<String> = r.stalls.iter().map(|(k, v)| format!("{k} = {v}")).collect();
    writeln!(out, "Stalled flit-cycles: {}", stalls.join(", "))?;
    writeln!(
        out,
        "Simulated {} cycles in {:.3} s ({:.0} cycles/s)",
        r.cycles, r.wall_seconds, r.cycles_per_second
    )
}

fn noc_inner(args: NocArgs) -> Result<ExitCode> {
    let (config, engine) = network_config(&args)?;
    // The same reader as `energy.technology` (an empty path: the embedded
    // technology).
    let model = if args.power {
        let path = args.tech.as_ref().map(|p| p.display().to_string());
        Some(emu::energy::model_for(path.as_deref().unwrap_or("")).map_err(|e| miette!("{e}"))?)
    } else {
        None
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut trace_file = match &args.trace {
        Some(path) => Some(BufWriter::new(
            File::create(path)
                .into_diagnostic()
                .wrap_err_with(|| format!("cannot create the trace file {}", path.display()))?,
        )),
        None => None,
    };
    let rates: Vec<f64> = if args.sweep {
        if !(args.step > 0.0 && args.step <= 1.0) {
            return Err(miette!("--step {} is not in (0, 1]", args.step));
        }
        (1..)
            .map(|k| k as f64 * args.step)
            .take_while(|r| *r <= 1.0 + 1e-9)
            .collect()
    } else {
        vec![args.rate]
    };
    let mut results = Vec::new();
    for rate in rates {
        let t = traffic(&args, (rate * 1e6).round() / 1e6)?;
        let result = match trace_file.as_mut() {
            Some(f) => {
                let mut sink = |e: &emu::network::NetEvent| {
                    let _ = writeln!(f, "{}", e.line());
                };
                emu::noc::run(&config, engine, &t, Some(&mut sink))
            }
            None => emu::noc::run(&config, engine, &t, None),
        };
        let mut r = match result {
            Ok(r) => r,
            Err(report) => {
                eprintln!("error: {report}");
                return Ok(ExitCode::from(EXIT_STALL));
            }
        };
        if let Some(model) = &model {
            let shape = emu::energy::shape(&config, t.width, t.height, 1);
            let (power, area) = model
                .evaluate(&shape, &r.activity)
                .map_err(|e| miette!("{e}"))?;
            r.power = Some(power);
            r.area = Some(area);
        }
        let why = saturation(&r, args.latency_limit);
        let stop = args.sweep && why.is_some();
        if !args.json {
            if args.sweep {
                if results.is_empty() {
                    writeln!(
                        out,
                        "{:>6} {:>10} {:>10} {:>10} {:>9}",
                        "rate", "packet_lat", "network_lat", "accepted", "saturated"
                    )
                    .into_diagnostic()?;
                }
                writeln!(
                    out,
                    "{:>6.3} {:>10.2} {:>10.2} {:>10.4} {:>9}",
                    r.rate,
                    r.packet_latency.avg,
                    r.network_latency.avg,
                    r.accepted_flit_rate,
                    why.map_or("no".to_string(), |w| format!("yes ({w})"))
                )
                .into_diagnostic()?;
            } else {
                print_result(&mut out, &r).into_diagnostic()?;
                if let (Some(p), Some(a)) = (&r.power, &r.area) {
                    let text =
                        emu::energy::power::summary_text(p, a, r.cycles, config.channel_width);
                    write!(out, "{text}").into_diagnostic()?;
                }
            }
        }
        results.push(r);
        if stop {
            break;
        }
    }
    if let Some(path) = &args.plot {
        let saturated_at = results
            .iter()
            .find(|r| saturation(r, args.latency_limit).is_some())
            .map(|r| r.rate);
        plot(path, &args, &results, saturated_at)?;
    }
    if args.json {
        let text = if args.sweep {
            serde_json::to_string_pretty(&results)
        } else {
            serde_json::to_string_pretty(&results[0])
        }
        .into_diagnostic()?;
        writeln!(out, "{text}").into_diagnostic()?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Why a load counts as saturated, as BookSim2 users mean it (none: it
/// does not): the average packet latency above `limit` (BookSim2's
/// `latency_thres`, 500 by default), the network accepting more than 5%
/// less than is offered, or measured packets still out after the drain.
pub fn saturation(r: &emu::noc::NocResult, limit: f64) -> Option<&'static str> {
    if r.packet_latency.avg > limit {
        Some("latency")
    } else if r.accepted_flit_rate < 0.95 * r.offered_flit_rate {
        Some("accepted < offered")
    } else if r.saturated {
        Some("did not drain")
    } else {
        None
    }
}

/// The latency-load curve as an SVG: average packet latency against the
/// offered load, the y-axis fitted to the points below saturation (a
/// saturated point above it is drawn at the top edge, labelled with its
/// value and "off scale"), and the first
/// saturated load marked with a dashed line.
fn plot(
    path: &std::path::Path,
    args: &NocArgs,
    results: &[emu::noc::NocResult],
    saturated_at: Option<f64>,
) -> Result<()> {
    use plotters::prelude::*;
    let error = |e: &dyn std::fmt::Display| miette!("cannot draw {}: {e}", path.display());
    let below: Vec<(f64, f64)> = results
        .iter()
        .filter(|r| saturated_at.is_none_or(|s| r.rate < s))
        .map(|r| (r.rate, r.packet_latency.avg))
        .collect();
    let top = below.iter().map(|p| p.1).fold(10.0, f64::max) * 1.5;
    let right = results.iter().map(|r| r.rate).fold(0.0, f64::max) * 1.05 + 1e-3;
    let root = SVGBackend::new(path, (800, 560)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| error(&e))?;
    let title = format!(
        "{} mesh, {} traffic, {}-flit packets: latency against offered load",
        args.mesh, args.traffic, args.packet_size
    );
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 18))
        .margin(16)
        .x_label_area_size(44)
        .y_label_area_size(56)
        .build_cartesian_2d(0f64..right, 0f64..top)
        .map_err(|e| error(&e))?;
    chart
        .configure_mesh()
        .x_desc("offered load (flits/node/cycle)")
        .y_desc("average packet latency (cycles)")
        .draw()
        .map_err(|e| error(&e))?;
    let blue = RGBColor(31, 119, 180);
    let points: Vec<(f64, f64)> = results
        .iter()
        .map(|r| (r.rate, r.packet_latency.avg.min(top)))
        .collect();
    chart
        .draw_series(LineSeries::new(points.clone(), blue.stroke_width(2)))
        .map_err(|e| error(&e))?
        .label("average packet latency")
        .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], blue.stroke_width(2)));
    chart
        .draw_series(points.into_iter().map(|p| Circle::new(p, 3, blue.filled())))
        .map_err(|e| error(&e))?;
    // A point above the top is drawn at the edge: its real value beside it.
    let clipped = results
        .iter()
        .filter(|r| r.packet_latency.avg > top)
        .map(|r| {
            Text::new(
                format!("{:.2} (off scale)", r.packet_latency.avg),
                (r.rate - right * 0.02, top * 0.985),
                ("sans-serif", 12).into_font().color(&blue),
            )
        });
    chart.draw_series(clipped).map_err(|e| error(&e))?;
    if let Some(s) = saturated_at {
        let red = RGBColor(214, 39, 40);
        let dashes = (0..20).map(|k| {
            let y0 = top * k as f64 / 20.0;
            PathElement::new([(s, y0), (s, y0 + top / 40.0)], red.stroke_width(2))
        });
        chart.draw_series(dashes).map_err(|e| error(&e))?;
        chart
            .draw_series(std::iter::once(Text::new(
                format!("saturated at {s:.3}"),
                (s - right * 0.2, top * 0.95),
                ("sans-serif", 14).into_font().color(&red),
            )))
            .map_err(|e| error(&e))?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .draw()
        .map_err(|e| error(&e))?;
    root.present().map_err(|e| error(&e))
}

/// Runs `scmp noc`.
pub fn noc(args: NocArgs) -> ExitCode {
    match noc_inner(args) {
        Ok(code) => code,
        Err(report) => {
            eprintln!("{report:?}");
            ExitCode::from(EXIT_USAGE)
        }
    }
}
