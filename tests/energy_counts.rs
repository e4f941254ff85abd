//! The energy model's instruction counts (`energy.enabled`): on every
//! program of `programs/`, the instructions counted by timing class add up
//! to the instructions retired, and the counts do not depend on how the
//! run is made (traced through the careful step, untraced through the fast
//! loop, in lockstep, with 7-cycle epochs and the optimistic runs and
//! rollbacks they bring); counting changes neither the output nor a
//! cycle; and the run's energy adds up by part.

use std::path::{Path, PathBuf};

use emu::Program;
use emu::snapshot::{RunHeader, SnapshotOptions, TraceKeep};

fn programs() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("programs");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "s"))
        .collect();
    files.sort();
    assert!(files.len() >= 10);
    files
}

fn by_class(run: &emu::snapshot::SnapshotRun) -> std::collections::BTreeMap<String, u64> {
    let e = run.result.stats.energy.as_ref().expect("energy");
    assert!(e.tiles_counted);
    e.instructions_by_class.clone().expect("counts")
}

#[test]
fn counts_add_up_and_do_not_depend_on_the_run() {
    let mut counted_nonzero = 0;
    for path in programs() {
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        counted_nonzero += check_counts(&path, &name, text) as u32;
    }
    assert!(counted_nonzero >= 10);
}

/// The same on every program with 1,000 more words of text, never run:
/// a table longer than the fast loop sums densely after an optimistic
/// run (`hart::fast::counts::DENSE_ENTRIES`, 512), so that its block
/// starts are noted one by one instead.
#[test]
fn counts_on_a_long_text_do_not_depend_on_the_run() {
    let mut counted_nonzero = 0;
    for path in programs() {
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(&path).unwrap()
            + "\n    .text\n    .rept 1000\n    nop\n    .endr\n";
        counted_nonzero += check_counts(&path, &name, text) as u32;
    }
    assert!(counted_nonzero >= 10);
}

/// Runs program `text` (from `path`) with counting on in every way and
/// checks that the counts add up, agree and change nothing of the run;
/// whether it counted any instruction.
fn check_counts(path: &Path, name: &str, text: String) -> bool {
    let header = RunHeader::parse(&text).unwrap();
    let plain = header.config().unwrap();
    let mut config = plain.clone();
    config.energy.enabled = true;
    let options = asm::Options {
        defsyms: header.defsyms.clone(),
        include_dirs: vec![path.parent().unwrap().to_path_buf()],
        ..asm::Options::default()
    };
    let elf = asm::assemble_sources(&[(format!("{name}.s"), text)], &options)
        .unwrap_or_else(|d| panic!("{name}: {d}"))
        .elf;
    let program = Program::from_elf(&elf).unwrap();
    let untraced = SnapshotOptions {
        keep: TraceKeep::None,
        ..SnapshotOptions::default()
    };
    let fast = emu::snapshot::run(&config, &program, &untraced).unwrap();
    let counts = by_class(&fast);
    let total: u64 = counts.values().sum();
    assert_eq!(
        total, fast.result.stats.instructions,
        "{name}: counts add up"
    );

    // Counting changes nothing of the run.
    let off = emu::snapshot::run(&plain, &program, &untraced).unwrap();
    assert_eq!(off.console, fast.console, "{name}: output");
    assert_eq!(off.result.end, fast.result.end, "{name}: end");
    assert_eq!(
        off.result.stats.total_cycles, fast.result.stats.total_cycles,
        "{name}: cycles"
    );
    assert_eq!(
        off.result.stats.tiles, fast.result.stats.tiles,
        "{name}: tiles"
    );
    assert!(
        off.result.stats.energy.is_none(),
        "{name}: no energy when off"
    );
    // The same counts however the run is made.
    let traced = SnapshotOptions {
        keep: TraceKeep::Full,
        trace: header.trace.clone(),
        ..SnapshotOptions::default()
    };
    let careful = emu::snapshot::run(&config, &program, &traced).unwrap();
    assert_eq!(by_class(&careful), counts, "{name}: traced");
    let lockstep = SnapshotOptions {
        lockstep: true,
        ..untraced.clone()
    };
    let l = emu::snapshot::run(&config, &program, &lockstep).unwrap();
    assert_eq!(by_class(&l), counts, "{name}: lockstep");
    let mut short = config.clone();
    short.sim.epoch_cycles = 7;
    let s = emu::snapshot::run(&short, &program, &untraced).unwrap();
    assert_eq!(by_class(&s), counts, "{name}: epoch 7");
    // The parts add up.
    let e = fast.result.stats.energy.as_ref().unwrap();
    let parts = e.tiles.total + e.nius.total + e.routers.total + e.links.total;
    assert!(
        (parts - e.total).abs() <= 1e-12 * e.total.abs().max(1e-30),
        "{name}"
    );
    for p in [&e.tiles, &e.nius, &e.routers, &e.links] {
        assert!(p.dynamic >= 0.0 && p.leakage >= 0.0);
        assert!((p.dynamic + p.leakage - p.total).abs() <= 1e-12 * p.total.max(1e-30));
    }
    if total > 0 {
        assert!(e.tiles.dynamic > 0.0, "{name}: instructions cost energy");
    }
    total > 0
}

/// The tiles' energy is the configured energy of what they did: a program
/// of known instructions, counted by hand.
#[test]
fn tile_energy_is_the_configured_energy_of_the_instructions() {
    let source = "
        .globl _start
    _start:
        li t0, 10
    1:  addi t0, t0, -1
        mul t1, t0, t0
        sw t1, -4(sp)
        lw t2, -4(sp)
        bnez t0, 1b
        li a0, 0
        li a7, 93
        ecall
    ";
    let elf = asm::assemble_sources(
        &[("t.s".to_string(), source.to_string())],
        &asm::Options::default(),
    )
    .unwrap()
    .elf;
    let program = Program::from_elf(&elf).unwrap();
    let mut config = emu::Config::default();
    config.mesh.width = 1;
    config.mesh.height = 1;
    config.energy.enabled = true;
    let untraced = SnapshotOptions {
        keep: TraceKeep::None,
        ..SnapshotOptions::default()
    };
    let run = emu::snapshot::run(&config, &program, &untraced).unwrap();
    let counts = by_class(&run);
    // li (1, an addi), then 10 times: addi, mul, sw, lw, bnez; li, li, ecall.
    assert_eq!(counts["alu"], 1 + 10 + 2, "{counts:?}");
    assert_eq!(counts["mul"], 10);
    assert_eq!(counts["store"], 10);
    assert_eq!(counts["load"], 10);
    assert_eq!(counts["branch"], 10);
    assert_eq!(counts["system"], 1);
    let k = &config.energy;
    let i = &config.instruction_energy;
    use isa_spec::TimingClass as C;
    let expected_pj = 54.0 * k.instruction_pj
        + 13.0 * i.pj(C::Alu)
        + 10.0 * (i.pj(C::Mul) + i.pj(C::Store) + i.pj(C::Load) + i.pj(C::Branch))
        + i.pj(C::System)
        + 20.0 * k.memory_access_pj;
    let e = run.result.stats.energy.as_ref().unwrap();
    assert!(
        (e.tiles.dynamic - expected_pj * 1e-12).abs() < 1e-9 * expected_pj * 1e-12,
        "{} J, expected {} pJ",
        e.tiles.dynamic,
        expected_pj
    );
}

/// `energy.technology`: a messaging program's network energy with the
/// shipped tile-pitch technology (BookSim2's 32 nm with 4.54 mm links) has
/// the same routers as the embedded technology's (its buffers, crossbar
/// and flip-flops are unchanged) and dearer links (longer wires); the
/// cycles, the tiles and the NIUs do not change. A file that is not there
/// is an error naming the key, before the run.
#[test]
fn the_technology_file_changes_the_links_and_nothing_else() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("programs/pingpong.s");
    let text = std::fs::read_to_string(&path).unwrap();
    let header = RunHeader::parse(&text).unwrap();
    let options = asm::Options {
        defsyms: header.defsyms.clone(),
        include_dirs: vec![path.parent().unwrap().to_path_buf()],
        ..asm::Options::default()
    };
    let elf = asm::assemble_sources(&[("pingpong.s".to_string(), text)], &options)
        .unwrap()
        .elf;
    let program = Program::from_elf(&elf).unwrap();
    let untraced = SnapshotOptions {
        keep: TraceKeep::None,
        ..SnapshotOptions::default()
    };
    let tech = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("profiles/tech/booksim_32nm_tile_pitch.toml")
        .display()
        .to_string();
    let run = |technology: &str| {
        let mut config = header.config().unwrap();
        config.energy.enabled = true;
        config.energy.technology = technology.to_string();
        emu::snapshot::run(&config, &program, &untraced).unwrap()
    };
    let (a, b) = (run(""), run(&tech));
    assert_eq!(a.result.stats.total_cycles, b.result.stats.total_cycles);
    let (ea, eb) = (
        a.result.stats.energy.as_ref().unwrap(),
        b.result.stats.energy.as_ref().unwrap(),
    );
    assert!(
        ea.technology
            .starts_with("BookSim2 techfile.txt: 2007 ITRS")
    );
    assert!(eb.technology.contains("4.54 mm links"), "{}", eb.technology);
    assert_eq!(
        (ea.tiles, ea.nius, ea.routers),
        (eb.tiles, eb.nius, eb.routers)
    );
    assert!(
        eb.links.dynamic > 1.5 * ea.links.dynamic && ea.links.dynamic > 0.0,
        "{:?} vs {:?}",
        ea.links,
        eb.links
    );
    // A file that cannot be read is an error before the run.
    let mut config = header.config().unwrap();
    config.energy.enabled = true;
    config.energy.technology = "/no/such/file.toml".into();
    let Err(e) = emu::snapshot::run(&config, &program, &untraced) else {
        panic!("a run with an unreadable technology file");
    };
    let e = e.to_string();
    assert!(
        e.contains("`energy.technology`") && e.contains("/no/such/file.toml"),
        "{e}"
    );
}
