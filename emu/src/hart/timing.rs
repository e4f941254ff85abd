//! The timing model's per-instruction costs (scmp-machine.md section 7): one
//! issue cycle plus the configured extra cycles of the instruction's timing
//! class, computed once per decoded instruction.

use isa_spec::{Opcode, TimingClass};

use crate::config::TimingConfig;

/// Cycles per opcode, from the configuration.
#[derive(Clone, Debug)]
pub struct CostTable {
    by_opcode: Vec<u32>,
    /// Extra cycles of a taken branch (added when the branch is taken).
    pub branch_taken_extra: u32,
}

impl CostTable {
    /// Builds the table.
    pub fn new(timing: &TimingConfig) -> CostTable {
        let by_opcode = Opcode::ALL
            .iter()
            .map(|op| match op.timing() {
                // A branch costs its extra cycles only when taken.
                TimingClass::Branch => 1,
                class => 1 + timing.extra(class),
            })
            .collect();
        CostTable {
            by_opcode,
            branch_taken_extra: timing.extra(TimingClass::Branch),
        }
    }

    /// Cycles of `op` (for a branch: when not taken).
    #[inline]
    pub fn cost(&self, op: Opcode) -> u32 {
        self.by_opcode[op as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;

    #[test]
    fn default_costs() {
        let t = CostTable::new(&Config::default().timing);
        assert_eq!(t.cost(Opcode::Add), 1);
        assert_eq!(t.cost(Opcode::Lw), 2);
        assert_eq!(t.cost(Opcode::Sw), 1);
        assert_eq!(t.cost(Opcode::Beq), 1);
        assert_eq!(t.branch_taken_extra, 1);
        assert_eq!(t.cost(Opcode::Jal), 2);
        assert_eq!(t.cost(Opcode::Mul), 3);
        assert_eq!(t.cost(Opcode::Div), 33);
        assert_eq!(t.cost(Opcode::FaddD), 3);
        assert_eq!(t.cost(Opcode::FcvtWS), 3);
        assert_eq!(t.cost(Opcode::FmaddS), 4);
        assert_eq!(t.cost(Opcode::FsqrtD), 20);
        assert_eq!(t.cost(Opcode::AmoaddW), 2);
    }
}
