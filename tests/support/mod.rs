//! Helpers shared by the integration tests: the GNU RISC-V tools, section
//! bytes of ELF files, a small deterministic random generator.
#![allow(dead_code)]

pub mod objdump;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use object::{Object, ObjectSection};

/// Panics with instructions when a required external tool is missing: the
/// tests that need it must not pass silently.
pub fn require_tool(tool: &str, package: &str) {
    let ok = Command::new(tool)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        ok,
        "`{tool}` is needed by this test: install the Debian package `{package}` (`cargo xtask test` does)"
    );
}

pub fn require_gnu() {
    require_tool("riscv64-unknown-elf-as", "binutils-riscv64-unknown-elf");
    require_tool("riscv64-unknown-elf-ld", "binutils-riscv64-unknown-elf");
}

/// Compiles and links the C file `source` with gcc and Debian's picolibc
/// as the README says (semihosting, `c/scmp-picolibc.ld`, `-O2`) into
/// `out`. Fails when gcc or picolibc is missing.
pub fn build_with_picolibc(source: &Path, out: &Path) {
    let specs = Path::new("/usr/lib/picolibc/riscv64-unknown-elf/picolibc.specs");
    assert!(
        specs.exists(),
        "picolibc is missing: apt-get install picolibc-riscv64-unknown-elf (`cargo xtask test` does)"
    );
    let root = env!("CARGO_MANIFEST_DIR");
    let gcc = Command::new("riscv64-unknown-elf-gcc")
        .args(["-march=rv32g", "-mabi=ilp32d", "--specs=picolibc.specs"])
        .args(["--oslib=semihost", "--crt0=semihost", "-O2"])
        .arg(format!("-L{root}/c"))
        .arg("-Tscmp-picolibc.ld")
        .arg(source)
        .arg("-lm")
        .arg("-o")
        .arg(out)
        .output()
        .expect("riscv64-unknown-elf-gcc runs (apt-get install gcc-riscv64-unknown-elf)");
    assert!(
        gcc.status.success(),
        "{}",
        String::from_utf8_lossy(&gcc.stderr)
    );
}

/// The `scmp` binary as the tests run it: `scmp cc`'s support directory
/// is one for the test run, beside the build (not the user's cache).
pub fn scmp() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_scmp"));
    c.env(
        "SCMP_CACHE_DIR",
        Path::new(env!("CARGO_TARGET_TMPDIR")).join("scmp-cache"),
    );
    c
}

/// A scratch directory, removed when dropped.
pub struct Scratch(pub PathBuf);

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Scratch {
    pub fn new(tag: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("scmp-test-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create scratch dir");
        Scratch(dir)
    }
    pub fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn run(cmd: &mut Command) -> Result<(), String> {
    let out = cmd.output().map_err(|e| format!("{cmd:?}: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{cmd:?} failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

/// Allocated sections of an ELF file by name: (address, bytes).
pub fn sections(elf: &[u8]) -> BTreeMap<String, (u64, Vec<u8>)> {
    let file = object::File::parse(elf).expect("valid ELF");
    file.sections()
        .filter(|s| s.address() != 0 && s.kind() != object::SectionKind::UninitializedData)
        .map(|s| {
            (
                s.name().unwrap_or("?").to_string(),
                (s.address(), s.data().unwrap_or(&[]).to_vec()),
            )
        })
        .collect()
}

/// Assembles with GNU as (`-march=rv32g -mabi=ilp32d -mno-relax`) and links
/// with GNU ld (`--no-relax`) putting each section at the given address.
pub fn gnu_build(
    dir: &Scratch,
    sources: &[(String, String)],
    includes: &[&Path],
    placement: &[(String, u64)],
) -> Result<Vec<u8>, String> {
    let mut objects = Vec::new();
    for (i, (_, text)) in sources.iter().enumerate() {
        let src = dir.path(&format!("in{i}.s"));
        std::fs::write(&src, text).map_err(|e| e.to_string())?;
        let obj = dir.path(&format!("in{i}.o"));
        let mut cmd = Command::new("riscv64-unknown-elf-as");
        cmd.args(["-march=rv32g", "-mabi=ilp32d", "-mno-relax", "-o"])
            .arg(&obj)
            .arg(&src);
        for inc in includes {
            cmd.arg("-I").arg(inc);
        }
        run(&mut cmd)?;
        objects.push(obj);
    }
    let out = dir.path("gnu.elf");
    let mut cmd = Command::new("riscv64-unknown-elf-ld");
    cmd.args(["-m", "elf32lriscv", "--no-relax", "-e", "_start", "-o"])
        .arg(&out);
    for (name, addr) in placement {
        cmd.arg(format!("--section-start={name}={addr:#x}"));
    }
    cmd.args(&objects);
    run(&mut cmd)?;
    std::fs::read(&out).map_err(|e| e.to_string())
}

/// Compares two section maps for the named sections; on a difference,
/// describes the first few differing words with the listing lines.
pub fn compare_sections(
    ours: &BTreeMap<String, (u64, Vec<u8>)>,
    gnu: &BTreeMap<String, (u64, Vec<u8>)>,
    names: &[&str],
    lines: &[asm::listing::ListLine],
) -> Result<(), String> {
    let mut report = String::new();
    for name in names {
        let (a, b) = (ours.get(*name), gnu.get(*name));
        match (a, b) {
            (None, None) => {}
            (Some((oa, ob)), Some((ga, gb))) => {
                if oa != ga {
                    report += &format!("{name}: at {oa:#x} here, {ga:#x} in GNU's\n");
                }
                if ob != gb {
                    report += &format!("{name}: {} bytes here, {} in GNU's\n", ob.len(), gb.len());
                    let mut shown = 0;
                    for i in (0..ob.len().max(gb.len())).step_by(4) {
                        let w = |v: &Vec<u8>| {
                            v.get(i..i + 4)
                                .map(|s| u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
                        };
                        if w(ob) != w(gb) {
                            let addr = oa + i as u64;
                            let line = lines
                                .iter()
                                .rfind(|l| {
                                    l.addr <= addr
                                        && !l.bytes.is_empty()
                                        && addr < l.addr + l.bytes.len() as u64
                                })
                                .map(|l| format!("{}:{}: {}", l.file, l.line, l.text.trim()))
                                .unwrap_or_default();
                            let dis = |x: Option<u32>| {
                                x.and_then(isa_spec::Inst::decode)
                                    .map(|d| d.display(addr as u32).to_string())
                                    .unwrap_or_default()
                            };
                            report += &format!(
                                "  {addr:#x}: ours {:08x?} ({}) gnu {:08x?} ({})  <- {line}\n",
                                w(ob),
                                dis(w(ob)),
                                w(gb),
                                dis(w(gb))
                            );
                            shown += 1;
                            if shown == 8 {
                                break;
                            }
                        }
                    }
                }
            }
            (a, b) => {
                report += &format!(
                    "{name}: present here {}, in GNU's {}\n",
                    a.is_some(),
                    b.is_some()
                )
            }
        }
    }
    if report.is_empty() {
        Ok(())
    } else {
        Err(report)
    }
}

/// splitmix64: deterministic, seedable, no dependencies.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % ((hi - lo + 1) as u64)) as i64
    }
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.next() as usize % items.len()]
    }
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}
