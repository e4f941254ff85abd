//! The router cores the mesh can run (`sim.network_engine`): what it asks
//! of a core, router by router ([`RouterCore`]), the reference's answer
//! (a `Router` object per node, [`super::router`]) and which core a mesh
//! holds ([`Routers`]; the fast one is [`super::fast`]).

use super::Timing;
use super::fabric::{Fabric, Word};
use super::fast::FastCore;
use super::flit::{NetFlit, PORTS};
use super::router::{Router, VcState};
use crate::config::{AllocatorKind, NetworkEngine};

/// What the mesh asks of a router core, router by router (`r` is the
/// node id): the reference ([`Router`] objects) and the fast core
/// ([`FastCore`]) answer the same.
pub(crate) trait RouterCore {
    /// Flit `w` arrives in input VC `i` of router `r` at cycle `now` (the
    /// sender kept to the credits); a head reaching an idle VC's front is
    /// routed.
    fn accept(&mut self, r: usize, i: usize, w: Word, flits: &mut [NetFlit], t: &Timing, now: u64);
    /// A credit for output VC `o` of router `r` arrives.
    fn credit(&mut self, r: usize, o: usize);
    /// The next cycle at which router `r` can act.
    fn wake_at(&self, r: usize) -> u64;
    /// One cycle of router `r` (its stages, then when it can act next);
    /// returns whether it still holds flits.
    fn step(&mut self, r: usize, now: u64, fabric: &mut Fabric) -> bool;
    /// Flits held in router `r`'s buffers.
    fn held(&self, r: usize) -> u32;
    /// Credits of output VC `o` of router `r`.
    fn credits(&self, r: usize, o: usize) -> u16;
    /// Whether output VC `o` of router `r` is allocated to a packet.
    fn out_busy(&self, r: usize, o: usize) -> bool;
    /// Input VC `i` of router `r`, for reports.
    fn vc(&self, r: usize, i: usize) -> VcView;
    /// The flit at position `k` from the front of input VC `i` of `r`.
    fn word(&self, r: usize, i: usize, k: usize) -> Word;
}

/// An input VC as reports see it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct VcView {
    /// Flits buffered.
    pub len: usize,
    /// Where its front packet is in the pipeline.
    pub state: VcState,
    /// Output port of the front packet (once routed).
    pub out_port: u8,
    /// Class of the front packet.
    pub class: u8,
    /// Output VC of the front packet, `port * vcs + vc` (once allocated).
    pub out: u16,
}

/// The routers: the reference's objects, whose VC sets take one word (up
/// to 12 VCs a port), two (up to 25) or five, or the fast core (up to 12
/// VCs a port; wider routers run on the reference, which gives the same
/// results).
pub(super) enum Routers {
    W1(Vec<Router<1>>),
    W2(Vec<Router<2>>),
    W5(Vec<Router<5>>),
    Fast(Box<FastCore>),
    /// Out of place during [`Network::step`].
    Taken,
}

type RouterArgs = (u32, usize, usize, usize, AllocatorKind, AllocatorKind);

impl Routers {
    pub(super) fn new(
        n: usize,
        vcs: usize,
        engine: NetworkEngine,
        args: impl Fn(u32) -> RouterArgs,
    ) -> Routers {
        fn make<const W: usize>(n: usize, args: impl Fn(u32) -> RouterArgs) -> Vec<Router<W>> {
            (0..n as u32)
                .map(|id| {
                    let (id, classes, per_class, cap, va, sa) = args(id);
                    Router::new(id, classes, per_class, cap, va, sa)
                })
                .collect()
        }
        if engine == NetworkEngine::Fast && FastCore::fits(vcs) {
            let (_, classes, per_class, cap, va, sa) = args(0);
            return Routers::Fast(Box::new(FastCore::new(n, classes, per_class, cap, va, sa)));
        }
        match PORTS * vcs {
            0..=64 => Routers::W1(make(n, args)),
            65..=128 => Routers::W2(make(n, args)),
            _ => Routers::W5(make(n, args)),
        }
    }

    /// The routers as a core, for what is not the cycle loop.
    pub(super) fn core(&self) -> &dyn RouterCore {
        match self {
            Routers::W1(r) => r,
            Routers::W2(r) => r,
            Routers::W5(r) => r,
            Routers::Fast(r) => r.as_ref(),
            Routers::Taken => unreachable!("the routers are in place between steps"),
        }
    }
}

/// The reference: each router an object (see [`Router`]).
impl<const W: usize> RouterCore for Vec<Router<W>> {
    #[inline(always)]
    fn accept(&mut self, r: usize, i: usize, w: Word, flits: &mut [NetFlit], t: &Timing, now: u64) {
        self[r].accept(i, w, flits, t, now);
    }

    #[inline(always)]
    fn credit(&mut self, r: usize, o: usize) {
        self[r].credit(o);
    }

    #[inline(always)]
    fn wake_at(&self, r: usize) -> u64 {
        self[r].wake_at
    }

    #[inline(always)]
    fn step(&mut self, r: usize, now: u64, fabric: &mut Fabric) -> bool {
        self[r].step(now, fabric);
        self[r].is_busy()
    }

    fn held(&self, r: usize) -> u32 {
        self[r].held
    }

    fn credits(&self, r: usize, o: usize) -> u16 {
        self[r].credits(o)
    }

    fn out_busy(&self, r: usize, o: usize) -> bool {
        self[r].out_busy(o)
    }

    fn vc(&self, r: usize, i: usize) -> VcView {
        let v = self[r].input(i);
        VcView {
            len: v.len as usize,
            state: self[r].state(i),
            out_port: v.out_port,
            class: v.class,
            out: v.out,
        }
    }

    fn word(&self, r: usize, i: usize, k: usize) -> Word {
        self[r].word(i, k)
    }
}
