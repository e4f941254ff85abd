//! The NIU's ejection side as a state machine, in the manner of `tables.rs`:
//! per ejection VC, the message being taken in ([`Rx`]), the events a
//! taken flit can be ([`RxEvent`]), and one transition function
//! ([`rx_transition`]). The states live in an [`Ejection`], whose only
//! way to change one is [`Ejection::apply`]; it also keeps the two bit
//! masks the machine's scheduling reads (VCs taking a message in, and those
//! whose message the tile will see). What the NIU does with a flit (store
//! it, reserve a context, ask the receive table) is `receive.rs`; it
//! decides the event, and this file what the event makes of the state.

use isa_spec::msg::{Head, MessageType, THREAD_ARGS};

/// A message being received on one ejection VC.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Rx {
    /// Expecting a head.
    Idle,
    /// A thread message into a reserved context: its pc (the flit after
    /// the head), then up to 8 arguments (`count` taken so far).
    Thread {
        context: usize,
        pc: Option<u32>,
        args: [u32; THREAD_ARGS],
        count: usize,
    },
    /// An original data message: the address flit comes next (`addr`
    /// None), then data stored at `addr`, `stride` words apart.
    DataOrig { addr: Option<u32>, stride: u32 },
    /// A send-and-receive data message whose tag (message id) comes next.
    AwaitTag { rendezvous: bool },
    /// Its data, stored into the receive entry `id`'s buffer.
    Data { id: u32, addr: u32, stride: u32 },
    /// An RTS whose tail (message id) comes next.
    Rts { node: u32, context: u8 },
    /// A CTS whose tail (message id) comes next.
    Cts { context: u8 },
    /// A message being dropped up to its tail.
    Discard,
}

impl Rx {
    /// Whether a message is being taken in.
    #[inline(always)]
    fn busy(&self) -> bool {
        !matches!(self, Rx::Idle)
    }

    /// Whether the tile will see the message (a thread start or data
    /// stored in its memory), as opposed to a handshake or a message being
    /// dropped.
    #[inline(always)]
    fn touches_tile(&self) -> bool {
        !matches!(
            self,
            Rx::Idle | Rx::Rts { .. } | Rx::Cts { .. } | Rx::Discard
        )
    }

    /// Where the next data word is stored: in a data message past its
    /// address flit.
    pub(crate) fn data_addr(&self) -> Option<u32> {
        match *self {
            Rx::Data { addr, .. }
            | Rx::DataOrig {
                addr: Some(addr), ..
            } => Some(addr),
            _ => None,
        }
    }
}

/// What a flit taken from an ejection VC was, as the NIU decided it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RxEvent {
    /// A message's head (in Idle only); a thread message's, into the
    /// context the NIU reserved for it (`context`, else unused).
    Head { head: Head, context: usize },
    /// A word of the message that does not end it: a thread message's pc
    /// or next argument, an original data message's address, or a data
    /// word stored (the address moves on a stride).
    Word(u32),
    /// A send-and-receive data message's tag found its receive entry: the
    /// data goes to `addr`, `stride` words apart.
    Tag { id: u32, addr: u32, stride: u32 },
    /// The message is over (its last flit taken, or an RTS's or CTS's id).
    End,
    /// The rest of the message is dropped up to its tail (a malformed
    /// start, a store outside memory, no receive posted).
    Drop,
}

/// The ejection machine's transitions: `event` changes `state` (in place:
/// most events move a data message's address on, and a thread message's
/// state is long). An event the NIU cannot produce in a state (it chooses
/// the event by the state) is a bug of the NIU's, and panics. (Inlined:
/// each call site's event is of one kind, so only its arms remain.)
#[inline(always)]
pub(crate) fn rx_transition(state: &mut Rx, event: RxEvent) {
    let step = |addr: u32, stride: u32| addr.wrapping_add(stride.wrapping_mul(4));
    match (&mut *state, event) {
        // A data word stored: the address moves on (most flits).
        (
            Rx::Data { addr, stride, .. }
            | Rx::DataOrig {
                addr: Some(addr),
                stride,
            },
            RxEvent::Word(_),
        ) => *addr = step(*addr, *stride),
        (Rx::Idle, RxEvent::Head { head, context }) => {
            *state = match head.ty {
                MessageType::Thread => Rx::Thread {
                    context,
                    pc: None,
                    args: [0; THREAD_ARGS],
                    count: 0,
                },
                MessageType::DataOrig => Rx::DataOrig {
                    addr: None,
                    stride: head.stride,
                },
                MessageType::Data => Rx::AwaitTag {
                    rendezvous: head.rendezvous,
                },
                MessageType::Rts => Rx::Rts {
                    node: head.node as u32,
                    context: head.context,
                },
                MessageType::Cts => Rx::Cts {
                    context: head.context,
                },
            }
        }
        // A thread message's pc, then its arguments (past a0..a7 they
        // are not kept: the sender's `send`s refuse more).
        (Rx::Thread { pc: pc @ None, .. }, RxEvent::Word(w)) => *pc = Some(w),
        (
            Rx::Thread {
                pc: Some(_),
                args,
                count,
                ..
            },
            RxEvent::Word(w),
        ) => {
            if *count < THREAD_ARGS {
                args[*count] = w;
            }
            *count += 1;
        }
        (
            Rx::DataOrig {
                addr: addr @ None, ..
            },
            RxEvent::Word(w),
        ) => *addr = Some(w),
        (Rx::AwaitTag { .. }, RxEvent::Tag { id, addr, stride }) => {
            *state = Rx::Data { id, addr, stride }
        }
        (s, RxEvent::Drop)
            if matches!(s, Rx::Idle | Rx::AwaitTag { .. }) || s.data_addr().is_some() =>
        {
            *state = Rx::Discard
        }
        (s, RxEvent::End) if s.busy() => *state = Rx::Idle,
        (s, e) => impossible(s, e),
    }
}

/// An event a state cannot take.
#[cold]
#[inline(never)]
fn impossible(s: &Rx, e: RxEvent) -> ! {
    unreachable!("the NIU's ejection machine: {e:?} in state {s:?}")
}

/// The ejection VCs' machines, and which VCs are busy.
#[derive(Clone, Debug)]
pub(crate) struct Ejection {
    states: Vec<Rx>,
    /// A bit per VC taking in a message (not Idle), and per VC whose
    /// message the tile will see (a thread or data message).
    busy: u64,
    touches: u64,
}

impl Ejection {
    /// `vcs` idle VCs.
    pub fn new(vcs: usize) -> Ejection {
        Ejection {
            states: vec![Rx::Idle; vcs],
            busy: 0,
            touches: 0,
        }
    }

    /// The state of VC `vc`.
    #[inline]
    pub fn state(&self, vc: usize) -> &Rx {
        &self.states[vc]
    }

    /// Every VC's state, in VC order.
    pub fn states(&self) -> &[Rx] {
        &self.states
    }

    /// The number of VCs.
    pub fn len(&self) -> usize {
        self.states.len()
    }

    /// A bit per VC taking in a message.
    #[inline]
    pub fn busy(&self) -> u64 {
        self.busy
    }

    /// A bit per VC taking in a message the tile will see.
    #[inline]
    pub fn touching_tile(&self) -> u64 {
        self.touches
    }

    /// Applies `event` to VC `vc` (the one way a state changes) and
    /// returns the new state.
    #[inline(always)]
    pub fn apply(&mut self, vc: usize, event: RxEvent) -> &Rx {
        let state = &mut self.states[vc];
        rx_transition(state, event);
        let bit = 1u64 << vc;
        self.busy = (self.busy & !bit) | (u64::from(state.busy()) << vc);
        self.touches = (self.touches & !bit) | (u64::from(state.touches_tile()) << vc);
        state
    }

    /// Whether the masks say what the states say (checked in debug builds).
    pub fn masks_agree(&self) -> bool {
        let (mut busy, mut touches) = (0, 0);
        for (vc, s) in self.states.iter().enumerate() {
            busy |= u64::from(s.busy()) << vc;
            touches |= u64::from(s.touches_tile()) << vc;
        }
        (busy, touches) == (self.busy, self.touches)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn head(ty: MessageType) -> RxEvent {
        let mut head = Head::new(1, 0, ty);
        head.stride = 3;
        head.node = 5;
        head.context = 2;
        RxEvent::Head { head, context: 1 }
    }

    #[test]
    fn a_thread_message_collects_its_pc_and_arguments() {
        let mut e = Ejection::new(2);
        e.apply(1, head(MessageType::Thread));
        assert_eq!((e.busy(), e.touching_tile()), (0b10, 0b10));
        e.apply(1, RxEvent::Word(0x400));
        for a in 0..9 {
            e.apply(1, RxEvent::Word(100 + a));
        }
        let Rx::Thread {
            context,
            pc,
            args,
            count,
        } = *e.state(1)
        else {
            panic!("not a thread message: {:?}", e.state(1));
        };
        assert_eq!((context, pc, count), (1, Some(0x400), 9));
        assert_eq!(
            args,
            [100, 101, 102, 103, 104, 105, 106, 107],
            "a ninth is not kept"
        );
        e.apply(1, RxEvent::End);
        assert_eq!((*e.state(1), e.busy(), e.touching_tile()), (Rx::Idle, 0, 0));
        assert!(e.masks_agree());
    }

    #[test]
    fn data_addresses_move_by_the_stride() {
        let mut e = Ejection::new(1);
        e.apply(0, head(MessageType::DataOrig));
        assert_eq!(e.state(0).data_addr(), None, "the address flit comes next");
        e.apply(0, RxEvent::Word(0x100));
        e.apply(0, RxEvent::Word(0xdead));
        assert_eq!(e.state(0).data_addr(), Some(0x10c));
        let mut e = Ejection::new(1);
        e.apply(0, head(MessageType::Data));
        assert_eq!(e.touching_tile(), 1);
        e.apply(
            0,
            RxEvent::Tag {
                id: 9,
                addr: 0x200,
                stride: 1,
            },
        );
        e.apply(0, RxEvent::Word(1));
        assert_eq!(
            *e.state(0),
            Rx::Data {
                id: 9,
                addr: 0x204,
                stride: 1
            }
        );
    }

    #[test]
    fn handshakes_and_drops_are_busy_but_not_the_tiles() {
        let mut e = Ejection::new(3);
        e.apply(0, head(MessageType::Rts));
        e.apply(1, head(MessageType::Cts));
        e.apply(2, head(MessageType::Data));
        e.apply(2, RxEvent::Drop);
        assert_eq!(
            *e.state(0),
            Rx::Rts {
                node: 5,
                context: 2
            }
        );
        assert_eq!((e.busy(), e.touching_tile()), (0b111, 0));
        assert_eq!(*e.state(2), Rx::Discard, "dropped up to the tail");
        for vc in 0..3 {
            e.apply(vc, RxEvent::End);
        }
        assert_eq!(e.busy(), 0);
        assert!(e.masks_agree());
    }

    #[test]
    #[should_panic(expected = "ejection machine")]
    fn an_event_the_state_cannot_take_is_a_bug() {
        let mut e = Ejection::new(1);
        e.apply(0, RxEvent::Word(1));
    }
}
