//! `docs/isa.md` must be what the table generates.

#[test]
fn reference_document_is_current() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/isa.md");
    let expected = isa_spec::doc::reference();
    if std::env::var_os("UPDATE_DOCS").is_some() {
        std::fs::write(path, &expected).expect("write docs/isa.md");
        return;
    }
    let actual = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        actual == expected,
        "docs/isa.md is stale; regenerate it with `UPDATE_DOCS=1 cargo test -p isa-spec --test doc`"
    );
}

/// `stressmarks/lib/scmp_insn.s` (GNU as macros for the SCMP mnemonics)
/// must be what the table generates.
#[test]
fn gnu_macros_are_current() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../stressmarks/lib/scmp_insn.s"
    );
    let expected = isa_spec::gnu::insn_macros();
    if std::env::var_os("UPDATE_DOCS").is_some() {
        std::fs::write(path, &expected).expect("write stressmarks/lib/scmp_insn.s");
        return;
    }
    let actual = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        actual == expected,
        "stressmarks/lib/scmp_insn.s is stale; regenerate it with `UPDATE_DOCS=1 cargo test -p isa-spec --test doc`"
    );
}
