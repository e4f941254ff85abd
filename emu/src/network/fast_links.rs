//! The fast core's links between routers (issue 29): a flit a router sends
//! to a neighbour is written at once into the neighbour's input ring,
//! behind the flits it holds and those already on their way, and the VC's
//! bit is set in the neighbour's word of arrivals for the cycle it
//! arrives; a credit going back upstream is a bit in the upstream router's
//! word of credits for the cycle it is due. Neither goes through the
//! fabric's wheels of deliveries, which keep the terminals' traffic
//! (injection, ejection and their credits) and the whole of the reference.
//!
//! Why it is exact. The reference applies a cycle's deliveries before any
//! router acts in it, and a delivery only touches the router it reaches.
//! Here the mesh asks the core, in the same phase of the same cycle, to
//! apply the arrivals of every router the fabric names for that cycle
//! ([`super::Network`], `Fabric::take_arriving`): flits join their buffers
//! as [`super::RouterCore::accept`] has them do, credits are counted in. A
//! VC of a link carries at most one flit a cycle (its upstream output port
//! sends one a cycle) and its credits come back from one input VC, one a
//! cycle, all with the same delay: so a cycle's arrivals for a router are
//! a set of VCs, one word, and a VC's flits arrive in the order they were
//! written. The fabric counts every such delivery as pending until its
//! cycle, so the cycles the mesh has work in, and with them every jump the
//! machine makes, are the same as with the wheels.

use super::flit::{PORTS, Port};

/// The links of a mesh's routers (see the module documentation).
pub(super) struct Links {
    /// Per router `r * PORTS + port`: the neighbour on that side (u32::MAX
    /// off the mesh).
    peer: Vec<u32>,
    /// Per input VC `r * 64 + i`: the ring slot the next flit sent to it
    /// takes (its ring's back, past the flits on their way).
    back: Vec<u8>,
    /// Per cycle modulo `slots` and router, `slot * n + r`: the input VCs
    /// a flit arrives in, and the output VCs a credit comes back to.
    flits_in: Vec<u64>,
    credits_in: Vec<u64>,
    /// Routers.
    n: usize,
    /// Cycles the words cover, less one (a power of two less one: the
    /// fabric's wheels' length).
    mask: usize,
    vcs: usize,
    cap: usize,
}

impl Links {
    /// The links of a `width x height` mesh of routers of `vcs` VCs a port
    /// and buffers of `cap` flits, for deliveries less than `slots` (a
    /// power of two) cycles ahead.
    pub fn new(width: u32, height: u32, vcs: usize, cap: usize, slots: usize) -> Links {
        debug_assert!(slots.is_power_of_two());
        let n = (width * height) as usize;
        let peer = (0..n as u32)
            .flat_map(|node| {
                Port::ALL.map(|p| {
                    let (x, y) = (node % width, node / width);
                    let neighbour = match p {
                        Port::East => (x + 1 < width).then(|| node + 1),
                        Port::West => (x > 0).then(|| node - 1),
                        Port::South => (y + 1 < height).then(|| node + width),
                        Port::North => (y > 0).then(|| node - width),
                        Port::Local => None,
                    };
                    neighbour.unwrap_or(u32::MAX)
                })
            })
            .collect();
        Links {
            peer,
            back: vec![0; n * 64],
            flits_in: vec![0; slots * n],
            credits_in: vec![0; slots * n],
            n,
            mask: slots - 1,
            vcs,
            cap,
        }
    }

    /// Router `r` sends a flit on output `port` (not local), VC `vc`,
    /// arriving at `at`: the neighbour's number, and the VC and ring slot
    /// (`(next * PORTS * vcs + i) * cap + slot`) the flit takes, for the
    /// caller to write.
    #[inline(always)]
    pub fn send_flit(&mut self, r: usize, port: usize, vc: usize, at: u64) -> (usize, usize) {
        let next = self.peer[r * PORTS + port] as usize;
        debug_assert!(next < self.n, "a route left the mesh");
        let i = Port::from_index(port).opposite() as usize * self.vcs + vc;
        let back = &mut self.back[next * 64 + (i & 63)];
        let k = (next * PORTS * self.vcs + i) * self.cap + *back as usize;
        *back = if *back as usize + 1 == self.cap {
            0
        } else {
            *back + 1
        };
        self.flits_in[(at as usize & self.mask) * self.n + next] |= 1 << i;
        (next, k)
    }

    /// Router `r`'s input VC `vc` of `port` (not local) freed a slot: its
    /// credit reaches the neighbour's output VC at `at`. Returns the
    /// neighbour.
    #[inline(always)]
    pub fn send_credit(&mut self, r: usize, port: usize, vc: usize, at: u64) -> usize {
        let up = self.peer[r * PORTS + port] as usize;
        debug_assert!(up < self.n, "a flit came in from off the mesh");
        let o = Port::from_index(port).opposite() as usize * self.vcs + vc;
        self.credits_in[(at as usize & self.mask) * self.n + up] |= 1 << o;
        up
    }

    /// Takes router `r`'s arrivals of cycle `now`: the input VCs with a
    /// flit, the output VCs with a credit.
    #[inline(always)]
    pub fn take(&mut self, r: usize, now: u64) -> (u64, u64) {
        let k = (now as usize & self.mask) * self.n + r;
        (
            std::mem::take(&mut self.flits_in[k]),
            std::mem::take(&mut self.credits_in[k]),
        )
    }
}
