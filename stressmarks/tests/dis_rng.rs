//! `stressmarks/lib/dis_rng.s` on the emulator against the Rust model: the
//! stream `dis_rng_test.s` prints (every routine, 10,000 values each, the
//! ranges the stressmarks use and some more) must equal `Ran1`'s, line by
//! line.

use std::fmt::Write as _;

use stressmarks::Ran1;

const COUNT: usize = 10_000;

/// What `dis_rng_test.s` prints, from the model.
fn expected_stream() -> String {
    let mut out = String::new();
    let float = |out: &mut String, v: f32| writeln!(out, "{:#010x}", v.to_bits()).unwrap();
    for seed in [0, 42] {
        let mut g = Ran1::init(seed);
        for _ in 0..10 {
            float(&mut out, g.rand_num());
        }
    }
    let mut g = Ran1::init(-1);
    for _ in 0..COUNT {
        float(&mut out, g.rand_num());
    }
    let ints = [
        (0, 499),
        (-7, 12),
        (0, 16_777_215),
        (1, 9999),
        (0, 0),
        (-1_000_000_000, 1_000_000_000),
        (0, 255),
        (0, 2047),
    ];
    let mut g = Ran1::init(-1);
    for i in 0..COUNT {
        let (lo, hi) = ints[i % ints.len()];
        writeln!(out, "{}", g.rand_int(lo, hi)).unwrap();
    }
    let floats = [(-3.4e8, 3.4e8), (0.0, 1.0), (-0.001, 5.0), (-3.4e6, 3.4e6)];
    let mut g = Ran1::init(-123_456_789);
    for i in 0..COUNT {
        let (lo, hi) = floats[i % floats.len()];
        float(&mut out, g.random_float(lo, hi));
    }
    let nonzero = [
        (-3.4e8, 3.4e8, 1e-10),
        (-3.4e10, 3.4e10, 1e-10),
        (-1.0, 1.0, 0.25),
        (-2.0, 0.5, 1.0),
    ];
    let mut g = Ran1::init(-2_147_483_647);
    for i in 0..COUNT {
        let (lo, hi, eps) = nonzero[i % nonzero.len()];
        float(&mut out, g.random_non_zero_float(lo, hi, eps));
    }
    out
}

#[test]
fn the_assembly_generator_prints_the_models_stream() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/lib");
    let sources: Vec<(String, String)> = ["dis_rng_test.s", "dis_rng.s"]
        .iter()
        .map(|name| {
            let path = format!("{dir}/{name}");
            let text = std::fs::read_to_string(&path).expect("the library sources exist");
            (path, text)
        })
        .collect();
    let elf = match asm::assemble_sources(&sources, &asm::Options::default()) {
        Ok(out) => out.elf,
        Err(d) => panic!("dis_rng does not assemble:\n{}", d.render(false)),
    };
    let program = emu::Program::from_elf(&elf).expect("the ELF loads");
    let mut builder = emu::ConfigBuilder::new();
    for key in ["mesh.width=1", "mesh.height=1", "boot.tiles=first"] {
        builder.set(key).expect("a valid key");
    }
    let config = builder.build().expect("a valid configuration");
    let mut console = emu::CapturedConsole::default();
    let result = emu::run(&config, &program, emu::RunOptions::default(), &mut console)
        .expect("the program runs");
    assert!(
        matches!(result.end, emu::RunEnd::Exit(0)),
        "the run ended with {:?}: {}",
        result.end,
        String::from_utf8_lossy(&console.stderr)
    );
    let printed = String::from_utf8(console.stdout).expect("text output");
    let expected = expected_stream();
    assert_eq!(printed.lines().count(), 20 + 4 * COUNT);
    for (n, (got, want)) in printed.lines().zip(expected.lines()).enumerate() {
        assert_eq!(got, want, "line {} of the stream differs", n + 1);
    }
    assert_eq!(printed, expected);
}
