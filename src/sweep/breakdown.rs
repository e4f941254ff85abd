//! Where a run's cycles went, per mechanism, from its statistics: every
//! tile's cycles split into parts that add up to them (instructions of
//! boot threads and of handlers, polling, the collectives, switching, and
//! idle time by what the tile waited for), as means over the tiles, plus
//! the NIU-side waits that do not take tile cycles by themselves (waiting
//! for a CTS, thread messages waiting for a free context). The sweep puts
//! them in `sweep.csv` and draws them as stacked bars.

use serde::Serialize;
use serde_json::Value;

/// The parts of a tile's cycles, in stacking order: (CSV column, legend).
pub const PARTS: [(&str, &str); 9] = [
    ("work", "instructions of boot threads"),
    ("handlers", "instructions of threads from thread messages"),
    ("polling", "polling outside the collectives (flags, slots)"),
    ("collectives", "waiting in barriers and reductions"),
    ("switching", "context switches"),
    ("waiting", "idle: waitr/waits outside the collectives"),
    ("queue", "idle: transmission queue full or NIU busy"),
    ("tables", "idle: send/receive table full or id in use"),
    ("no_thread", "idle: no thread (done, or waiting for one)"),
];

/// NIU-side waits, not parts of the tile's cycles: (CSV column, meaning).
pub const NIU_WAITS: [(&str, &str); 2] = [
    ("cts_wait", "transmission-queue cycles waiting for a CTS"),
    (
        "no_context",
        "cycles a thread message waited for a free context",
    ),
];

/// The libraries' collectives (barrier and reductions, `scmp_common.s` and
/// its transports in `am.s` and `sr.s`): wait sites in these functions
/// count as collectives.
pub fn is_collective(function: &str) -> bool {
    function.starts_with("scmp_coll")
        || function == "SCMPBarrier"
        || function.starts_with("SCMPReduce")
}

/// A run's breakdown: means per tile, in cycles.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Breakdown {
    /// [`PARTS`], in order.
    pub parts: Vec<f64>,
    /// [`NIU_WAITS`], in order.
    pub niu_waits: Vec<f64>,
}

impl Breakdown {
    /// From a run's `--stats=json` statistics; `None` when they are not
    /// there (a run that failed before the end).
    pub fn from_stats(stats: &Value) -> Option<Breakdown> {
        let tiles = stats.get("tiles")?.as_array()?;
        if tiles.is_empty() {
            return None;
        }
        let n = |v: &Value, k: &str| v.get(k).and_then(Value::as_u64).unwrap_or(0) as f64;
        let mut sum = [0.0; 14];
        for t in tiles {
            let idle = t.get("idle_by")?;
            let values = [
                n(t, "issuing"),
                n(t, "handler_issuing"),
                n(t, "polling"),
                n(t, "handler_polling"),
                n(t, "switching"),
                n(idle, "wait_send") + n(idle, "wait_receive"),
                n(idle, "queue_full") + n(idle, "niu_busy"),
                n(idle, "table_full") + n(idle, "id_in_use"),
                n(idle, "no_thread"),
                n(t, "idle"),
                0.0,
                0.0,
                0.0,
                0.0,
            ];
            for (s, v) in sum.iter_mut().zip(values) {
                *s += v;
            }
        }
        let (mut coll_polling, mut coll_idle) = (0.0, 0.0);
        for w in stats.get("wait_sites")?.as_array()? {
            let collective = w
                .get("function")
                .and_then(Value::as_str)
                .is_some_and(is_collective);
            if collective {
                coll_polling += n(w, "polling");
                coll_idle += n(w, "idle");
            }
        }
        let [
            issuing,
            handler_issuing,
            polling,
            handler_polling,
            switching,
            waits,
            queue,
            tables,
            no_thread,
            ..,
        ] = sum;
        let boot_polling = polling - handler_polling;
        // Collective waits are polling (active messages) or idle time in
        // a waitr/waits (send and receive).
        let coll_idle = coll_idle.min(waits);
        let parts = [
            issuing - handler_issuing - boot_polling,
            handler_issuing - handler_polling,
            polling - coll_polling,
            coll_polling + coll_idle,
            switching,
            waits - coll_idle,
            queue,
            tables,
            no_thread,
        ];
        let stalls = stats.get("network").and_then(|v| v.get("stalls"));
        let stall = |k: &str| stalls.map_or(0.0, |s| n(s, k));
        let count = tiles.len() as f64;
        Some(Breakdown {
            parts: parts.iter().map(|v| v.max(0.0) / count).collect(),
            niu_waits: [stall("waiting_for_cts"), stall("no_context")]
                .iter()
                .map(|v| v / count)
                .collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The parts add up to the tiles' cycles; collective waits come out of
    /// polling and idle waits by the sites' functions.
    #[test]
    fn parts_add_up_to_the_tiles_cycles() {
        let tile = |issuing: u64, idle_receive: u64| {
            serde_json::json!({
                "issuing": issuing, "handler_issuing": 30, "polling": 40,
                "handler_polling": 10, "switching": 6, "idle": idle_receive + 4,
                "idle_by": {"wait_send": 0, "wait_receive": idle_receive, "queue_full": 1,
                            "niu_busy": 1, "id_in_use": 0, "table_full": 2, "no_thread": 0},
                "cycles": issuing + 6 + idle_receive + 4,
            })
        };
        let stats = serde_json::json!({
            "tiles": [tile(100, 50), tile(200, 10)],
            "wait_sites": [
                {"pc": 4, "function": "scmp_coll_wait", "polling": 20, "idle": 30},
                {"pc": 8, "function": "amWaitFlag", "polling": 60, "idle": 0},
            ],
            "network": {"stalls": {"waiting_for_cts": 8, "no_context": 2}},
        });
        let b = Breakdown::from_stats(&stats).unwrap();
        // (100 + 6 + 54) + (200 + 6 + 14) = 380 cycles over 2 tiles.
        assert_eq!(b.parts.iter().sum::<f64>(), 190.0);
        let part = |name: &str| b.parts[PARTS.iter().position(|p| p.0 == name).unwrap()];
        assert_eq!(part("work"), (300.0 - 60.0 - 60.0) / 2.0);
        assert_eq!(part("handlers"), (60.0 - 20.0) / 2.0);
        assert_eq!(part("polling"), (80.0 - 20.0) / 2.0);
        assert_eq!(part("collectives"), (20.0 + 30.0) / 2.0);
        assert_eq!(part("waiting"), (60.0 - 30.0) / 2.0);
        assert_eq!(b.niu_waits, [4.0, 1.0]);
        assert!(Breakdown::from_stats(&serde_json::Value::Null).is_none());
    }
}
