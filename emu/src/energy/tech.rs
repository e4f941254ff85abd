//! The technology file of the network's power and area model: BookSim2's
//! parameters under BookSim2's names and units, as TOML (serde), with the
//! embedded default [`DEFAULT_TECH`] equal to BookSim2's `techfile.txt`.
//! Also the quantities BookSim2 derives from them (its constructor's
//! `Cw`, `Ci`, `Co`, `FO4`, clock), in [`Derived`].

use serde::{Deserialize, Serialize};

/// The embedded default: BookSim2's `techfile.txt` (2007 ITRS, 32 nm).
pub const DEFAULT_TECH: &str = include_str!("booksim_32nm.toml");

/// A technology (see `booksim_32nm.toml` for each key's meaning and unit).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(non_snake_case)]
pub struct Tech {
    /// What the numbers are (printed with the summaries).
    pub name: String,
    /// Inverter height, metal pitches.
    pub H_INVD2: u32,
    /// Inverter width, metal pitches.
    pub W_INVD2: u32,
    /// Flip-flop height, metal pitches.
    pub H_DFQD1: u32,
    /// Flip-flop width, metal pitches.
    pub W_DFQD1: u32,
    /// NAND height, metal pitches.
    pub H_ND2D1: u32,
    /// NAND width, metal pitches.
    pub W_ND2D1: u32,
    /// SRAM cell height, metal pitches.
    pub H_SRAM: u32,
    /// SRAM cell width, metal pitches.
    pub W_SRAM: u32,
    /// Supply voltage, V.
    pub Vdd: f64,
    /// Resistance of a 1 um inverter, ohm.
    pub R: f64,
    /// SRAM bitline leakage, A.
    pub IoffSRAM: f64,
    /// PMOS off current, A/um.
    pub IoffP: f64,
    /// NMOS off current, A/um.
    pub IoffN: f64,
    /// Gate capacitance for power, F/um.
    pub Cg_pwr: f64,
    /// Drain capacitance for power, F/um.
    pub Cd_pwr: f64,
    /// Gate-drain overlap capacitance for delay, F/um.
    pub Cgdl: f64,
    /// Gate capacitance for delay, F/um.
    pub Cg: f64,
    /// Drain capacitance for delay, F/um.
    pub Cd: f64,
    /// Feature size, um per lambda.
    pub LAMBDA: f64,
    /// Metal pitch, mm.
    pub MetalPitch: f64,
    /// Wire resistance, ohm/mm.
    pub Rw: f64,
    /// Wire capacitance to ground, F/mm.
    pub Cw_gnd: f64,
    /// Wire coupling capacitance, F/mm.
    pub Cw_cpl: f64,
    /// Length of a one-cycle link, mm.
    pub wire_length: f64,
    /// Whether the mesh's channels off the edge count (as in BookSim2).
    pub edge_channels: bool,
}

impl Default for Tech {
    fn default() -> Tech {
        Tech::parse(DEFAULT_TECH, "the embedded technology")
            .expect("the embedded technology is valid")
    }
}

impl Tech {
    /// Reads a technology file; the error names `origin` and the key.
    pub fn parse(text: &str, origin: &str) -> Result<Tech, String> {
        let tech: Tech =
            toml::from_str(text).map_err(|e| format!("{origin}: {}", e.to_string().trim_end()))?;
        tech.check().map_err(|e| format!("{origin}: {e}"))?;
        Ok(tech)
    }

    /// Every physical quantity positive and finite (a zero would divide
    /// by zero in the model or give a clock of no period); cell sizes at
    /// least 1.
    fn check(&self) -> Result<(), String> {
        let floats = [
            ("Vdd", self.Vdd),
            ("R", self.R),
            ("Cg_pwr", self.Cg_pwr),
            ("Cd_pwr", self.Cd_pwr),
            ("Cg", self.Cg),
            ("Cd", self.Cd),
            ("LAMBDA", self.LAMBDA),
            ("MetalPitch", self.MetalPitch),
            ("Rw", self.Rw),
            ("Cw_gnd", self.Cw_gnd),
            ("Cw_cpl", self.Cw_cpl),
            ("wire_length", self.wire_length),
        ];
        for (key, v) in floats {
            if !(v.is_finite() && v > 0.0) {
                return Err(format!("`{key}` = {v}: must be a positive number"));
            }
        }
        let non_negative = [
            ("IoffSRAM", self.IoffSRAM),
            ("IoffP", self.IoffP),
            ("IoffN", self.IoffN),
            ("Cgdl", self.Cgdl),
        ];
        for (key, v) in non_negative {
            if !(v.is_finite() && v >= 0.0) {
                return Err(format!("`{key}` = {v}: must be a number >= 0"));
            }
        }
        let cells = [
            ("H_INVD2", self.H_INVD2),
            ("W_INVD2", self.W_INVD2),
            ("H_DFQD1", self.H_DFQD1),
            ("W_DFQD1", self.W_DFQD1),
            ("H_ND2D1", self.H_ND2D1),
            ("W_ND2D1", self.W_ND2D1),
            ("H_SRAM", self.H_SRAM),
            ("W_SRAM", self.W_SRAM),
        ];
        for (key, v) in cells {
            if v == 0 {
                return Err(format!("`{key}` = 0: a cell is at least one pitch"));
            }
        }
        Ok(())
    }

    /// The quantities the model derives from the technology.
    pub fn derived(&self) -> Derived {
        let cw = 2.0 * self.Cw_cpl + 2.0 * self.Cw_gnd;
        // A 1 um inverter: NMOS 1 um, PMOS 2 um.
        let ci_delay = 3.0 * (self.Cg + self.Cgdl);
        let co_delay = 3.0 * self.Cd;
        let fo4 = self.R * (3.0 * self.Cd + 12.0 * self.Cg + 12.0 * self.Cgdl);
        let t_clk = 20.0 * fo4;
        Derived {
            cw,
            ci_delay,
            co_delay,
            ci: 3.0 * self.Cg_pwr,
            co: 3.0 * self.Cd_pwr,
            t_clk,
            f_clk: 1.0 / t_clk,
            channel_pitch: 2.0 * self.MetalPitch,
            crossbar_pitch: 2.0 * self.MetalPitch,
        }
    }
}

/// What the model derives from a technology (BookSim2's constructor).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Derived {
    /// Wire capacitance, F/mm: both neighbours and both layers.
    pub cw: f64,
    /// Input capacitance of a 1 um inverter, for delay, F.
    pub ci_delay: f64,
    /// Output capacitance of a 1 um inverter, for delay, F.
    pub co_delay: f64,
    /// Input capacitance of a 1 um inverter, for power, F.
    pub ci: f64,
    /// Output capacitance of a 1 um inverter, for power, F.
    pub co: f64,
    /// Clock period: 20 fanout-of-4 delays, s.
    pub t_clk: f64,
    /// Clock frequency, Hz (every power of the model is at this clock).
    pub f_clk: f64,
    /// Pitch of a channel's wires, mm.
    pub channel_pitch: f64,
    /// Pitch of a crossbar's wires, mm.
    pub crossbar_pitch: f64,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The embedded file is BookSim2's techfile.txt, number for number
    /// (its text, as BookSim2 writes it, parsed here).
    #[test]
    fn default_is_booksim_techfile() {
        let t = Tech::default();
        let booksim = [
            ("Vdd", t.Vdd, "0.9"),
            ("R", t.R, "606.321"),
            ("IoffSRAM", t.IoffSRAM, "0.00000032"),
            ("IoffP", t.IoffP, "0.00000102"),
            ("IoffN", t.IoffN, "0.00000102"),
            ("Cg_pwr", t.Cg_pwr, "0.000000000000000534"),
            ("Cd_pwr", t.Cd_pwr, "0.000000000000000267"),
            ("Cgdl", t.Cgdl, "0.0000000000000001068"),
            ("Cg", t.Cg, "0.000000000000000534"),
            ("Cd", t.Cd, "0.000000000000000267"),
            ("LAMBDA", t.LAMBDA, "0.016"),
            ("MetalPitch", t.MetalPitch, "0.000080"),
            ("Rw", t.Rw, "0.720044"),
            ("Cw_gnd", t.Cw_gnd, "0.000000000000267339"),
            ("Cw_cpl", t.Cw_cpl, "0.000000000000267339"),
            ("wire_length", t.wire_length, "2.0"),
        ];
        for (key, ours, text) in booksim {
            assert_eq!(ours, text.parse::<f64>().unwrap(), "{key}");
        }
        let cells = [
            t.H_INVD2, t.W_INVD2, t.H_DFQD1, t.W_DFQD1, t.H_ND2D1, t.W_ND2D1, t.H_SRAM, t.W_SRAM,
        ];
        assert_eq!(cells, [8, 3, 8, 16, 8, 3, 8, 6]);
        assert!(t.edge_channels);
        // 20 FO4 of this technology: about 103 ps.
        let d = t.derived();
        assert!((d.t_clk - 1.0297e-10).abs() < 1e-13, "{}", d.t_clk);
    }

    #[test]
    fn errors_name_the_key() {
        let missing = DEFAULT_TECH.replace("Vdd = 0.9\n", "");
        let e = Tech::parse(&missing, "f.toml").unwrap_err();
        assert!(e.contains("f.toml") && e.contains("Vdd"), "{e}");
        let zero = DEFAULT_TECH.replace("R = 606.321", "R = 0.0");
        let e = Tech::parse(&zero, "f.toml").unwrap_err();
        assert!(e.contains("`R`"), "{e}");
        let unknown = format!("{DEFAULT_TECH}\nVcc = 1.0\n");
        let e = Tech::parse(&unknown, "f.toml").unwrap_err();
        assert!(e.contains("Vcc"), "{e}");
        let cell = DEFAULT_TECH.replace("W_SRAM = 6", "W_SRAM = 0");
        assert!(Tech::parse(&cell, "f").unwrap_err().contains("W_SRAM"));
    }
}
