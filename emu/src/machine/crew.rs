//! The host threads that run a round's tiles (`sim.host_threads`): a crew
//! of workers that spin while rounds come in quick succession, so that
//! handing a round out costs tens of nanoseconds instead of the
//! microseconds of waking a sleeping pool's threads, and park when none
//! has come for a while.
//!
//! Why not rayon: a messaging phase runs hundreds of thousands of rounds of
//! a few microseconds each (Neighborhood 11-bit on 8x8: 701,105 rounds of
//! about 1,150 tile-cycles); rayon's hand-off took about 16 microseconds a
//! round there (every round handed out: 19.8 s of wall time against 8.7 s on
//! one thread), so rounds that small ran on the run's own thread and the
//! second thread did nothing in those phases (docs/network.md, "Several
//! host threads").
//!
//! One round is one *job*: `len` items, each run once by whichever thread
//! claims it. A claim is a compare-and-swap on one word holding the job's
//! length and its next item, so an item is claimed exactly once and only
//! while its job is current; the caller returns only once every item has
//! run, so what the job borrows outlives every use.

use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU64, AtomicUsize, Ordering};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// How long an idle worker spins for the next job before it parks. Longer
/// than the network side's stretches between the rounds of a messaging
/// phase (microseconds), short enough that a serial stretch of the run
/// (a long network phase, a report) does not keep a core busy for nothing.
const SPIN: Duration = Duration::from_micros(200);

/// The job being run: what each item does, borrowed from the caller's
/// stack for the duration of [`Crew::run`].
type Job<'a> = &'a (dyn Fn(usize) + Sync);

struct Shared {
    /// The current job's length (high 32 bits) and its next unclaimed item
    /// (low 32 bits); no job: both equal.
    ticket: AtomicU64,
    /// The current job (valid while an item of it is claimed and not done).
    job: AtomicPtr<Job<'static>>,
    /// Items of the current job run to their end.
    done: AtomicUsize,
    /// Per worker: parked, or about to park (the publisher unparks it).
    sleeping: Vec<AtomicBool>,
    stop: AtomicBool,
    /// The first panic of an item run by a worker, for the caller.
    panic: std::sync::Mutex<Option<Box<dyn std::any::Any + Send>>>,
}

impl Shared {
    /// Claims the current job's next item, if any.
    fn claim(&self) -> Option<usize> {
        let mut t = self.ticket.load(Ordering::Acquire);
        loop {
            let (len, next) = (t >> 32, t & 0xffff_ffff);
            if next >= len {
                return None;
            }
            match self
                .ticket
                .compare_exchange_weak(t, t + 1, Ordering::AcqRel, Ordering::Acquire)
            {
                Ok(_) => return Some(next as usize),
                Err(now) => t = now,
            }
        }
    }

    /// Runs item `i` of the current job (claimed by this thread).
    fn run_item(&self, i: usize) {
        // SAFETY: the item is claimed and not done, so the caller of
        // `Crew::run` that published the job is still inside `run` (it
        // returns only when every item is done) and the job it points to
        // is alive; the pointer was stored before the ticket that let the
        // claim succeed (release) and read after it (acquire).
        let job: Job<'_> = unsafe { *self.job.load(Ordering::Acquire) };
        job(i);
    }

    fn has_work(&self) -> bool {
        let t = self.ticket.load(Ordering::SeqCst);
        (t & 0xffff_ffff) < (t >> 32)
    }
}

/// A crew of host threads besides the caller's.
pub(super) struct Crew {
    shared: Arc<Shared>,
    workers: Vec<JoinHandle<()>>,
}

impl Crew {
    /// A crew that runs jobs on `threads` threads in all: the caller's and
    /// `threads - 1` workers, each with a stack of `stack` bytes.
    pub(super) fn new(threads: usize, stack: usize) -> std::io::Result<Crew> {
        let helpers = threads.saturating_sub(1);
        let shared = Arc::new(Shared {
            ticket: AtomicU64::new(0),
            job: AtomicPtr::new(std::ptr::null_mut()),
            done: AtomicUsize::new(0),
            sleeping: (0..helpers).map(|_| AtomicBool::new(false)).collect(),
            stop: AtomicBool::new(false),
            panic: std::sync::Mutex::new(None),
        });
        let mut crew = Crew {
            shared: shared.clone(),
            workers: Vec::with_capacity(helpers),
        };
        for k in 0..helpers {
            let shared = shared.clone();
            let handle = thread::Builder::new()
                .name(format!("scmp-tiles-{}", k + 1))
                .stack_size(stack)
                .spawn(move || work(&shared, k))?;
            // A crew dropped half built stops the workers it has.
            crew.workers.push(handle);
        }
        Ok(crew)
    }

    /// Runs `f(i)` for every `i` in `0..len`, each once, on the crew and
    /// the calling thread; returns when all have run. A panic in an item
    /// is raised again here.
    pub(super) fn run(&mut self, len: usize, f: &(dyn Fn(usize) + Sync)) {
        assert!(len < 1 << 32, "a job of {len} items");
        let s = &*self.shared;
        debug_assert!(!s.has_work(), "one job at a time");
        // SAFETY (of the lifetime's erasure): the pointer is dereferenced
        // only by a thread holding a claimed item of this job, and this
        // function does not return before every item is done (below).
        let job: Job<'static> = unsafe { std::mem::transmute::<Job<'_>, Job<'static>>(f) };
        let slot: *const Job<'static> = &job;
        s.job.store(slot.cast_mut(), Ordering::Release);
        s.done.store(0, Ordering::Relaxed);
        s.ticket.store((len as u64) << 32, Ordering::SeqCst);
        for (k, sleeping) in s.sleeping.iter().enumerate() {
            if sleeping.swap(false, Ordering::SeqCst) {
                self.workers[k].thread().unpark();
            }
        }
        let mut mine = 0;
        // A panic here must not return before the workers are done with
        // the job: caught, and raised again once they are.
        let own = catch_unwind(AssertUnwindSafe(|| {
            while let Some(i) = s.claim() {
                mine += 1;
                f(i);
            }
        }));
        if own.is_err() {
            // The item that panicked counts as done; take the rest.
            while s.claim().is_some() {
                mine += 1;
            }
        }
        s.done.fetch_add(mine, Ordering::AcqRel);
        while s.done.load(Ordering::Acquire) < len {
            std::hint::spin_loop();
        }
        if let Err(p) = own {
            resume_unwind(p);
        }
        if let Some(p) = s.panic.lock().map(|mut p| p.take()).unwrap_or(None) {
            resume_unwind(p);
        }
    }
}

impl Drop for Crew {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        for w in &self.workers {
            w.thread().unpark();
        }
        for w in self.workers.drain(..) {
            let _ = w.join();
        }
    }
}

/// A worker's loop: run items while there are any, spin for more, park.
fn work(s: &Shared, k: usize) {
    let mut idle_since: Option<Instant> = None;
    let mut spins = 0u32;
    while !s.stop.load(Ordering::Relaxed) {
        if let Some(i) = s.claim() {
            if let Err(p) = catch_unwind(AssertUnwindSafe(|| s.run_item(i))) {
                if let Ok(mut slot) = s.panic.lock() {
                    slot.get_or_insert(p);
                }
            }
            s.done.fetch_add(1, Ordering::AcqRel);
            idle_since = None;
            continue;
        }
        std::hint::spin_loop();
        spins = spins.wrapping_add(1);
        if spins % 64 != 0 {
            continue;
        }
        let since = *idle_since.get_or_insert_with(Instant::now);
        if since.elapsed() < SPIN {
            continue;
        }
        // Park, unless a job came in between (the publisher stores the
        // ticket before it looks at `sleeping`, this thread sets
        // `sleeping` before it looks at the ticket: one of the two sees
        // the other).
        s.sleeping[k].store(true, Ordering::SeqCst);
        if s.has_work() || s.stop.load(Ordering::SeqCst) {
            s.sleeping[k].store(false, Ordering::SeqCst);
        } else {
            thread::park();
        }
        idle_since = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicU32;

    #[test]
    fn every_item_runs_once_in_every_job() {
        let mut crew = Crew::new(3, 1 << 20).unwrap();
        for round in 0..2_000usize {
            let len = round % 17;
            let counts: Vec<AtomicU32> = (0..len).map(|_| AtomicU32::new(0)).collect();
            crew.run(len, &|i| {
                counts[i].fetch_add(1, Ordering::Relaxed);
            });
            assert!(counts.iter().all(|c| c.load(Ordering::Relaxed) == 1), "round {round}");
            if round % 500 == 0 {
                // Let the workers park, and the next job wake them.
                thread::sleep(SPIN * 3);
            }
        }
    }

    #[test]
    fn the_work_is_shared() {
        let mut crew = Crew::new(2, 1 << 20).unwrap();
        let caller = thread::current().id();
        let others = AtomicU32::new(0);
        // Items long enough that the worker, spinning, takes some of them.
        for _ in 0..50 {
            crew.run(64, &|_| {
                if thread::current().id() != caller {
                    others.fetch_add(1, Ordering::Relaxed);
                }
                thread::sleep(Duration::from_micros(50));
            });
        }
        assert!(others.load(Ordering::Relaxed) > 0);
    }

    #[test]
    fn a_panic_in_an_item_reaches_the_caller() {
        let mut crew = Crew::new(2, 1 << 20).unwrap();
        let r = catch_unwind(AssertUnwindSafe(|| {
            crew.run(8, &|i| {
                thread::sleep(Duration::from_micros(100));
                assert!(i != 5, "item five");
            })
        }));
        assert!(r.is_err());
        // The crew is usable afterwards.
        let n = AtomicU32::new(0);
        crew.run(10, &|_| {
            n.fetch_add(1, Ordering::Relaxed);
        });
        assert_eq!(n.load(Ordering::Relaxed), 10);
    }
}
