//! The transition functions checked against the thesis's claims, and the
//! tables driven through them.

use super::*;

/// The thesis's claims about the tables, checked over every (state,
/// event) pair rather than restated as a second table.
#[test]
fn send_entries_follow_table_5_1() {
    for state in SendState::ALL {
        for event in SendEvent::ALL {
            let step = send_transition(state, event);
            if let SendStep::To(to) = step {
                // Only sendh creates an entry, only rms removes one.
                assert_eq!(state == SendState::Empty, event == SendEvent::Sendh);
                assert_eq!(to == SendState::Empty, event == SendEvent::Rms);
                // Entries only move forward through the table.
                assert!(to as u8 > state as u8 || to == SendState::Empty);
            }
            // Threads see Complete as done, In Use and In Progress as
            // not yet (they are alike to a thread), Empty as nothing.
            if event == SendEvent::Waits {
                let expect = match state {
                    SendState::Complete => SendStep::Stay,
                    SendState::Empty => SendStep::Refuse,
                    _ => SendStep::Wait,
                };
                assert_eq!(step, expect, "{state:?}");
            }
        }
    }
}

#[test]
fn receive_entries_follow_table_5_2() {
    use ReceiveState::*;
    for state in ReceiveState::ALL {
        for event in ReceiveEvent::ALL {
            let step = receive_transition(state, event);
            let to = match step {
                ReceiveStep::To(to) | ReceiveStep::Answer(to) => Some(to),
                _ => None,
            };
            // Entries are created by str or an RTS, removed by rmr.
            if to.is_some() && state == Empty {
                assert!(matches!(
                    event,
                    ReceiveEvent::Str { .. } | ReceiveEvent::Rts { .. }
                ));
            }
            if to == Some(Empty) {
                assert_eq!(event, ReceiveEvent::Rmr);
            }
            // RTS Received is only ever recorded for an absent id, and
            // a CTS answers exactly when both str and RTS have come.
            if to == Some(RtsReceived) {
                assert_eq!(state, Empty);
            }
            let answered = matches!(step, ReceiveStep::Answer(_));
            let meets = matches!(
                (state, event),
                (RtsReceived, ReceiveEvent::Str { .. }) | (InUse, ReceiveEvent::Rts { .. })
            );
            assert_eq!(answered, meets, "{state:?} {event:?}");
            // Only data finding no posted receive is discarded, and
            // nothing removes a transfer under way or an RTS record.
            if step == ReceiveStep::Discard {
                assert!(matches!(
                    event,
                    ReceiveEvent::ReadyData | ReceiveEvent::RendezvousData
                ));
                assert_ne!(state, InProgress);
            }
            if matches!(state, InProgress | RtsReceived) {
                assert_ne!(to, Some(Empty));
            }
            // Complete only from In Progress, once the data is stored.
            if to == Some(Complete) {
                assert_eq!((state, event), (InProgress, ReceiveEvent::Stored));
            }
        }
    }
}

#[test]
fn send_entries_go_in_use_in_progress_complete_empty() {
    let mut t = SendTable::new(2);
    assert_eq!(t.state(7), SendState::Empty);
    assert_eq!(t.apply(7, SendEvent::Waits), Ok(SendStep::Refuse));
    assert_eq!(
        t.apply(7, SendEvent::Sendh),
        Ok(SendStep::To(SendState::InUse))
    );
    assert_eq!(t.state(7), SendState::InUse);
    assert_eq!(t.apply(7, SendEvent::Sendh), Ok(SendStep::Wait));
    assert_eq!(t.apply(7, SendEvent::Rms), Ok(SendStep::Refuse));
    t.apply(7, SendEvent::HeadAtFront).unwrap();
    assert_eq!(t.state(7), SendState::InProgress);
    assert_eq!(t.apply(7, SendEvent::Waits), Ok(SendStep::Wait));
    t.apply(7, SendEvent::TailSent).unwrap();
    assert_eq!(t.state(7), SendState::Complete);
    assert_eq!(t.apply(7, SendEvent::Waits), Ok(SendStep::Stay));
    t.apply(7, SendEvent::Rms).unwrap();
    assert_eq!(t.state(7), SendState::Empty);
    assert!(t.is_empty());
}

#[test]
fn tables_have_a_capacity() {
    let mut s = SendTable::new(2);
    s.apply(1, SendEvent::Sendh).unwrap();
    assert!(!s.is_full());
    s.apply(2, SendEvent::Sendh).unwrap();
    assert!(s.is_full());
    assert_eq!(s.apply(3, SendEvent::Sendh), Err(TableFull));
    assert_eq!(s.state(3), SendState::Empty);
    // A full table still answers events that create nothing.
    assert_eq!(s.apply(3, SendEvent::Rms), Ok(SendStep::Refuse));
    let mut r = ReceiveTable::new(1);
    let post = ReceiveEvent::Str {
        addr: 0x100,
        stride: 1,
    };
    r.apply(5, post).unwrap();
    assert!(r.is_full());
    let rts = ReceiveEvent::Rts {
        node: 1,
        context: 0,
    };
    assert_eq!(r.apply(6, rts), Err(TableFull));
    r.apply(5, ReceiveEvent::Rmr).unwrap();
    assert!(!r.is_full());
}

#[test]
fn receive_entries_through_ready_and_rendezvous() {
    let mut t = ReceiveTable::new(4);
    // str first: In Use, data In Progress, Complete.
    let (step, e) = t
        .apply(
            1,
            ReceiveEvent::Str {
                addr: 0x200,
                stride: 2,
            },
        )
        .unwrap();
    assert_eq!(step, ReceiveStep::To(ReceiveState::InUse));
    assert_eq!(e.map(|e| (e.addr, e.stride)), Some((0x200, 2)));
    let (step, e) = t.apply(1, ReceiveEvent::ReadyData).unwrap();
    assert_eq!(step, ReceiveStep::To(ReceiveState::InProgress));
    assert_eq!(e.map(|e| e.addr), Some(0x200), "the buffer for the data");
    assert_eq!(
        t.apply(1, ReceiveEvent::ReadyData).unwrap().0,
        ReceiveStep::Wait
    );
    t.apply(1, ReceiveEvent::Stored).unwrap();
    assert_eq!(t.state(1), ReceiveState::Complete);
    // RTS first: RTS Received with its source, then str: In Progress
    // with the buffer, answered.
    let rts = ReceiveEvent::Rts {
        node: 9,
        context: 3,
    };
    t.apply(2, rts).unwrap();
    let e = *t.get(2).unwrap();
    assert_eq!(
        (e.state, e.r_node, e.r_context),
        (ReceiveState::RtsReceived, 9, 3)
    );
    assert_eq!(t.apply(2, rts).unwrap().0, ReceiveStep::Wait);
    let (step, e) = t
        .apply(
            2,
            ReceiveEvent::Str {
                addr: 0x400,
                stride: 1,
            },
        )
        .unwrap();
    assert_eq!(step, ReceiveStep::Answer(ReceiveState::InProgress));
    let e = e.unwrap();
    assert_eq!((e.addr, e.stride, e.r_node, e.r_context), (0x400, 1, 9, 3));
    assert_eq!(
        t.apply(2, ReceiveEvent::RendezvousData).unwrap().0,
        ReceiveStep::Stay
    );
    assert_eq!(
        t.apply(2, ReceiveEvent::Rmr).unwrap().0,
        ReceiveStep::Refuse
    );
    t.apply(1, ReceiveEvent::Rmr).unwrap();
    assert_eq!(t.len(), 1);
    assert_eq!(t.state(1), ReceiveState::Empty);
    assert_eq!(
        t.apply(1, ReceiveEvent::ReadyData).unwrap().0,
        ReceiveStep::Discard
    );
}

#[test]
fn queues_go_empty_waiting_ready_empty() {
    let mut q = QueueState::Empty;
    assert_eq!(
        q.on(QueueEvent::Head(Some(4))),
        QueueStep::To(QueueState::Waiting(4))
    );
    assert_eq!(q.on(QueueEvent::Cts(5)), QueueStep::Refuse);
    assert_eq!(q, QueueState::Waiting(4));
    assert_eq!(q.on(QueueEvent::Cts(4)), QueueStep::To(QueueState::Ready));
    assert_eq!(q.on(QueueEvent::Cts(4)), QueueStep::Refuse);
    assert_eq!(q.on(QueueEvent::TailSent), QueueStep::To(QueueState::Empty));
    assert_eq!(
        q.on(QueueEvent::Head(None)),
        QueueStep::To(QueueState::Ready)
    );
}
