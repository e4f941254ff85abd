//! Watching a long `scmp run`: SIGINT and SIGTERM stop it at the current
//! cycle (the machine brings every tile and the network to the furthest
//! cycle reached and ends there, so every output file is complete up to
//! it, and the report says where each context was); a second signal ends
//! the process at once. While it runs, a progress line on stderr (cycle,
//! simulated cycles per second, tiles still running): on a terminal,
//! redrawn in place once the run has taken a few seconds; elsewhere (a
//! pipe, a file) a plain line a minute once it has taken a minute, so a
//! long run is never silent; never in CI or with `--quiet`. `--progress
//! SECONDS` asks for plain lines at that interval, wherever stderr goes.

use std::io::IsTerminal;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How long a run goes before its progress line shows.
const SHOW_AFTER: Duration = Duration::from_secs(3);
/// How often the progress line is redrawn.
const REDRAW: Duration = Duration::from_millis(250);

/// The signal that stopped the run (0: none yet).
#[derive(Clone)]
pub struct Stop(Arc<AtomicUsize>);

impl Stop {
    /// Catches SIGINT and SIGTERM: the first sets the flag, a second one
    /// ends the process at once with 128 + its number.
    pub fn install() -> std::io::Result<Stop> {
        let flag = Arc::new(AtomicUsize::new(0));
        let armed = Arc::new(AtomicBool::new(false));
        #[cfg(unix)]
        for signal in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
            // The order matters: the shutdown checks the flag the first
            // signal sets.
            signal_hook::flag::register_conditional_shutdown(signal, 128 + signal, armed.clone())?;
            signal_hook::flag::register_usize(signal, flag.clone(), signal as usize)?;
            signal_hook::flag::register(signal, armed.clone())?;
        }
        Ok(Stop(flag))
    }

    /// The signal received, if any.
    pub fn signal(&self) -> Option<usize> {
        match self.0.load(Ordering::Relaxed) {
            0 => None,
            s => Some(s),
        }
    }
}

/// The name of a signal number.
pub fn signal_name(signal: usize) -> &'static str {
    match signal as i32 {
        signal_hook::consts::SIGINT => "SIGINT",
        signal_hook::consts::SIGTERM => "SIGTERM",
        _ => "a signal",
    }
}

/// Plain progress lines on a non-terminal: the first after this long, then
/// one each as long again.
const PLAIN_EVERY: Duration = Duration::from_secs(60);

/// How progress is shown.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ProgressMode {
    /// Not at all.
    Off,
    /// A line redrawn in place (a terminal).
    Bar,
    /// A plain line every so often (not a terminal, or `--progress`).
    Lines(Duration),
}

/// How progress may be shown: never with `--quiet` (or in CI, `CI` set,
/// unless `--progress` asks); `--progress SECONDS` (`every`): plain
/// lines at that interval; else a line redrawn on a terminal, or a plain
/// line a minute elsewhere.
pub fn progress_wanted(quiet: bool, every: Option<Duration>) -> ProgressMode {
    if quiet {
        return ProgressMode::Off;
    }
    if let Some(d) = every {
        return ProgressMode::Lines(d);
    }
    if std::env::var_os("CI").is_some() {
        ProgressMode::Off
    } else if std::io::stderr().is_terminal() {
        ProgressMode::Bar
    } else {
        ProgressMode::Lines(PLAIN_EVERY)
    }
}

/// The run's monitor: stops it on a signal, draws the progress line.
pub struct Watch {
    stop: Stop,
    bar: Option<ProgressBar>,
    /// Plain lines at this interval.
    lines: Option<Duration>,
    started: Instant,
    last_draw: Instant,
    last_cycle: u64,
}

impl Watch {
    /// A monitor for `stop`, showing progress as `mode` says.
    pub fn new(stop: Stop, mode: ProgressMode) -> Watch {
        let bar = (mode == ProgressMode::Bar).then(|| {
            let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
            bar.set_style(
                ProgressStyle::with_template("{spinner} {elapsed} {msg}")
                    .expect("a valid template"),
            );
            bar
        });
        let now = Instant::now();
        Watch {
            stop,
            bar,
            lines: match mode {
                ProgressMode::Lines(every) => Some(every),
                _ => None,
            },
            started: now,
            last_draw: now,
            last_cycle: 0,
        }
    }

    /// The progress line's text.
    pub fn line(progress: &emu::Progress, cycles_per_second: f64) -> String {
        format!(
            "cycle {}, {} simulated cycles/s, {} of {} tiles running (Ctrl-C: stop with a report)",
            progress.cycle,
            si(cycles_per_second),
            progress.tiles_running,
            progress.tiles
        )
    }
}

/// `1.23 M`, `456 k`, `789`.
fn si(x: f64) -> String {
    if x >= 1e9 {
        format!("{:.2} G", x / 1e9)
    } else if x >= 1e6 {
        format!("{:.2} M", x / 1e6)
    } else if x >= 1e3 {
        format!("{:.1} k", x / 1e3)
    } else {
        format!("{x:.0}")
    }
}

impl emu::Monitor for Watch {
    fn check(&mut self, machine: &emu::Machine) -> bool {
        let stop = self.stop.signal().is_some();
        if let Some(bar) = &self.bar {
            let now = Instant::now();
            if now.duration_since(self.last_draw) >= REDRAW
                && now.duration_since(self.started) >= SHOW_AFTER
            {
                if bar.is_hidden() {
                    bar.set_draw_target(ProgressDrawTarget::stderr());
                    bar.enable_steady_tick(Duration::from_millis(200));
                }
                let p = machine.progress();
                let dt = now.duration_since(self.last_draw).as_secs_f64();
                let rate = p.cycle.saturating_sub(self.last_cycle) as f64 / dt;
                bar.set_message(Watch::line(&p, rate));
                self.last_draw = now;
                self.last_cycle = p.cycle;
            }
        }
        if let Some(every) = self.lines {
            let now = Instant::now();
            // The first after `every` from the start, as later ones.
            if now.duration_since(self.last_draw) >= every {
                let p = machine.progress();
                let dt = now.duration_since(self.last_draw).as_secs_f64();
                let rate = p.cycle.saturating_sub(self.last_cycle) as f64 / dt;
                eprintln!(
                    "scmp: {:.0} s: {}",
                    now.duration_since(self.started).as_secs_f64(),
                    Watch::line(&p, rate)
                );
                self.last_draw = now;
                self.last_cycle = p.cycle;
            }
        }
        stop
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_progress_line_says_cycle_speed_and_tiles() {
        let p = emu::Progress {
            cycle: 1_234_567,
            tiles_running: 3,
            tiles: 64,
        };
        assert_eq!(
            Watch::line(&p, 2_345_678.0),
            "cycle 1234567, 2.35 M simulated cycles/s, 3 of 64 tiles running (Ctrl-C: stop with a report)"
        );
        assert_eq!(si(950.0), "950");
        assert_eq!(si(45_600.0), "45.6 k");
    }
}
