//! `cargo xtask`: the project's own commands (the alias is in
//! `.cargo/config.toml`).
//!
//! - `cargo xtask test [ARGS...]`: installs the external tools the tests
//!   compare us against when any is missing (Debian packages, through
//!   `apt-get`, with `sudo` when not root), then runs `cargo test
//!   --workspace ARGS...` with snapshots never written (`INSTA_UPDATE=no`
//!   unless set). The README's test command, and what `.ci/run` calls.
//! - `cargo xtask tools`: only the installation (`--check`: list what is
//!   missing and fail, install nothing).
//!
//! The list of tools is [`TOOLS`], the one place that names them.

use std::path::Path;
use std::process::{Command, ExitCode};

/// An external tool a test needs, how to tell it is there, and the Debian
/// package that brings it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Tool {
    /// What it is for, in the list printed when it is missing.
    what: &'static str,
    /// How to tell it is installed.
    probe: Probe,
    /// The Debian package.
    package: &'static str,
}

/// How to tell that a tool is installed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Probe {
    /// A command on the `PATH`.
    Command(&'static str),
    /// A file.
    File(&'static str),
}

/// Every tool the tests need; they fail (not skip) without them.
const TOOLS: &[Tool] = &[
    Tool {
        what: "GNU as, ld, objdump, readelf for RISC-V (byte-for-byte cross-checks)",
        probe: Probe::Command("riscv64-unknown-elf-as"),
        package: "binutils-riscv64-unknown-elf",
    },
    Tool {
        what: "gcc for RISC-V (compiler output assembles as GNU's; C programs)",
        probe: Probe::Command("riscv64-unknown-elf-gcc"),
        package: "gcc-riscv64-unknown-elf",
    },
    Tool {
        what: "qemu-riscv32 (differential tests of the instruction semantics)",
        probe: Probe::Command("qemu-riscv32"),
        package: "qemu-user",
    },
    Tool {
        what: "picolibc for RISC-V (C programs on a tile)",
        probe: Probe::File("/usr/lib/picolibc/riscv64-unknown-elf/picolibc.specs"),
        package: "picolibc-riscv64-unknown-elf",
    },
    Tool {
        what: "gdb-multiarch (the GDB server's tests)",
        probe: Probe::Command("gdb-multiarch"),
        package: "gdb-multiarch",
    },
    Tool {
        what: "GNU parallel (the sweep's job lists)",
        probe: Probe::Command("parallel"),
        package: "parallel",
    },
];

/// Whether `command` is an executable file in one of `path`'s directories.
fn on_path(command: &str, path: &std::ffi::OsStr) -> bool {
    std::env::split_paths(path).any(|dir| {
        let candidate = dir.join(command);
        is_executable(&candidate)
    })
}

fn is_executable(p: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        p.metadata()
            .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    }
    #[cfg(not(unix))]
    {
        p.is_file()
    }
}

/// What `cargo xtask tools` says when nothing is missing: every tool, by
/// package (silence read as "did it check?").
fn all_present(tools: &[Tool]) -> String {
    let packages: Vec<&str> = tools.iter().map(|t| t.package).collect();
    format!(
        "xtask: every tool the tests need is installed ({} packages: {})",
        packages.len(),
        packages.join(", ")
    )
}

/// The tools of `tools` that `present` does not find.
fn missing(tools: &[Tool], present: impl Fn(Probe) -> bool) -> Vec<Tool> {
    tools
        .iter()
        .copied()
        .filter(|t| !present(t.probe))
        .collect()
}

/// Whether a probe finds its tool on this machine.
fn present_here(probe: Probe) -> bool {
    match probe {
        Probe::Command(c) => on_path(c, &std::env::var_os("PATH").unwrap_or_default()),
        Probe::File(f) => Path::new(f).exists(),
    }
}

/// The commands that install `packages` (none when there are none):
/// `apt-get update` then `apt-get install`, through `sudo` unless `root`.
fn install_commands(packages: &[&str], root: bool) -> Vec<Vec<String>> {
    if packages.is_empty() {
        return Vec::new();
    }
    let prefix: Vec<String> = if root {
        Vec::new()
    } else {
        vec!["sudo".into()]
    };
    let apt = |args: &[&str]| -> Vec<String> {
        prefix
            .iter()
            .cloned()
            .chain(args.iter().map(|s| s.to_string()))
            .collect()
    };
    let mut install = apt(&["apt-get", "install", "-y", "-qq", "--no-install-recommends"]);
    install.extend(packages.iter().map(|p| p.to_string()));
    vec![apt(&["apt-get", "update", "-qq"]), install]
}

/// Whether this process runs as root (`id -u` is 0).
fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

/// Installs what is missing; an error says what is missing and why it
/// could not be installed.
fn install_tools(check_only: bool) -> Result<(), String> {
    let need = missing(TOOLS, present_here);
    if need.is_empty() {
        eprintln!("{}", all_present(TOOLS));
        return Ok(());
    }
    let packages: Vec<&str> = need.iter().map(|t| t.package).collect();
    eprintln!("xtask: the tests need tools that are missing:");
    for t in &need {
        eprintln!("  {} ({})", t.what, t.package);
    }
    if check_only {
        return Err(format!(
            "install them: apt-get install {}",
            packages.join(" ")
        ));
    }
    if !on_path("apt-get", &std::env::var_os("PATH").unwrap_or_default()) {
        return Err(format!(
            "apt-get is not here (not a Debian or Ubuntu machine): install the equivalents of {} and run again",
            packages.join(", ")
        ));
    }
    let root = is_root();
    if !root && !on_path("sudo", &std::env::var_os("PATH").unwrap_or_default()) {
        return Err(format!(
            "not root and no sudo: as root, run apt-get install {}",
            packages.join(" ")
        ));
    }
    for cmd in install_commands(&packages, root) {
        eprintln!("xtask: {}", cmd.join(" "));
        let status = Command::new(&cmd[0])
            .args(&cmd[1..])
            .env("DEBIAN_FRONTEND", "noninteractive")
            .status()
            .map_err(|e| format!("cannot run {}: {e}", cmd[0]))?;
        if !status.success() {
            return Err(format!("`{}` failed ({status})", cmd.join(" ")));
        }
    }
    let still = missing(TOOLS, present_here);
    if !still.is_empty() {
        let names: Vec<&str> = still.iter().map(|t| t.package).collect();
        return Err(format!(
            "still missing after the installation: {}",
            names.join(", ")
        ));
    }
    Ok(())
}

/// `cargo test --workspace ARGS...`, snapshots never written unless
/// `INSTA_UPDATE` says otherwise.
fn run_tests(args: &[String]) -> Result<ExitCode, String> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.args(["test", "--workspace"]).args(args);
    if std::env::var_os("INSTA_UPDATE").is_none() {
        cmd.env("INSTA_UPDATE", "no");
    }
    let status = cmd
        .status()
        .map_err(|e| format!("cannot run cargo test: {e}"))?;
    Ok(match status.code() {
        Some(0) => ExitCode::SUCCESS,
        Some(c) => ExitCode::from(c.clamp(1, 255) as u8),
        None => ExitCode::FAILURE,
    })
}

const USAGE: &str = "usage: cargo xtask test [CARGO TEST ARGS...]   install missing tools, then cargo test --workspace
       cargo xtask tools [--check]               install missing tools (--check: only list them)";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("test") => install_tools(false).and_then(|()| run_tests(&args[1..])),
        Some("tools") => {
            let check = args[1..].iter().any(|a| a == "--check");
            install_tools(check).map(|()| ExitCode::SUCCESS)
        }
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("xtask: error: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_missing_is_said() {
        let text = all_present(TOOLS);
        assert!(text.starts_with("xtask: every tool the tests need is installed ("));
        for t in TOOLS {
            assert!(text.contains(t.package), "{text}");
        }
    }

    #[test]
    fn only_missing_tools_are_installed() {
        let none_missing = missing(TOOLS, |_| true);
        assert!(none_missing.is_empty());
        assert!(install_commands(&[], false).is_empty());
        let gdb_missing = missing(TOOLS, |p| p != Probe::Command("gdb-multiarch"));
        let packages: Vec<&str> = gdb_missing.iter().map(|t| t.package).collect();
        assert_eq!(packages, ["gdb-multiarch"]);
        let files_missing = missing(TOOLS, |p| matches!(p, Probe::Command(_)));
        assert_eq!(files_missing[0].package, "picolibc-riscv64-unknown-elf");
    }

    #[test]
    fn sudo_only_when_not_root() {
        let as_user = install_commands(&["parallel", "qemu-user"], false);
        assert_eq!(as_user[0], ["sudo", "apt-get", "update", "-qq"]);
        assert_eq!(
            as_user[1],
            [
                "sudo",
                "apt-get",
                "install",
                "-y",
                "-qq",
                "--no-install-recommends",
                "parallel",
                "qemu-user"
            ]
        );
        let as_root = install_commands(&["parallel"], true);
        assert_eq!(as_root[0][0], "apt-get");
        assert_eq!(as_root[1].last().map(String::as_str), Some("parallel"));
    }

    #[test]
    fn a_command_is_found_on_the_path_only_when_executable() {
        let dir = std::env::temp_dir().join(format!("xtask-path-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let tool = dir.join("some-tool");
        std::fs::write(&tool, "#!/bin/sh\n").unwrap();
        let path = std::env::join_paths([&dir]).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&tool, std::fs::Permissions::from_mode(0o644)).unwrap();
            assert!(!on_path("some-tool", &path));
            std::fs::set_permissions(&tool, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        assert!(on_path("some-tool", &path));
        assert!(!on_path("other-tool", &path));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// The README's second command is this one, and CI runs exactly it.
    #[test]
    fn the_readme_and_ci_run_this_command() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
        let block = readme
            .split("## The two commands")
            .nth(1)
            .and_then(|s| s.split("```sh").nth(1))
            .and_then(|s| s.split("```").next())
            .expect("the README's two-commands block");
        let commands: Vec<&str> = block
            .lines()
            .map(|l| l.split('#').next().unwrap().trim())
            .filter(|l| !l.is_empty())
            .collect();
        assert_eq!(commands.len(), 2, "{commands:?}");
        assert_eq!(commands[1], "cargo xtask test");
        let ci = std::fs::read_to_string(root.join(".ci/run")).unwrap();
        assert!(
            ci.lines().any(|l| l.trim() == "cargo xtask test"),
            ".ci/run calls `cargo xtask test`"
        );
        let alias = std::fs::read_to_string(root.join(".cargo/config.toml")).unwrap();
        assert!(alias.contains("xtask = \"run --quiet --package xtask --\""));
    }

    /// What users read lives in the repository: the README and docs/ point
    /// at no file outside it, and every relative link in them resolves.
    #[test]
    fn user_docs_point_only_inside_the_repository() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut files = vec![root.join("README.md")];
        for e in std::fs::read_dir(root.join("docs")).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "md") {
                files.push(p);
            }
        }
        for f in &files {
            let text = std::fs::read_to_string(f).unwrap();
            for bad in ["../shared", "shared/design", "../seeds"] {
                assert!(!text.contains(bad), "{} names {bad}", f.display());
            }
            // Markdown links `](target)` to files resolve from the file.
            for part in text.split("](").skip(1) {
                let target = part.split(')').next().unwrap().split('#').next().unwrap();
                if target.is_empty() || target.contains("://") {
                    continue;
                }
                let base = f.parent().unwrap();
                assert!(
                    base.join(target).exists(),
                    "{}: the link {target} leads nowhere",
                    f.display()
                );
            }
        }
    }
}
