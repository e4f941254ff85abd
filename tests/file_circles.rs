//! No circle of files in any crate of the workspace (issue 33): the files a
//! file names (its `use` items, glob imports included, and every path it
//! writes starting with `crate`, `super`, `self`, a child module or a name
//! it imported) are the files it depends on, and that graph has no cycle.
//! A path names the file of its longest prefix that is a module with a file
//! of its own (`crate::hart::Hart` names `hart/mod.rs`, even when `Hart` is
//! re-exported there from `hart/context.rs`: the facade is what the code
//! depends on). A `mod child;` declaration is not a use; test code
//! (`#[cfg(test)]` items, `tests.rs`, `tests/` folders) is left out.
//! Paths inside macro bodies are read from their tokens.
//!
//! `syn` parses the files (the same parser rustc's proc macros use, so every
//! form of `use` tree and path is read as the compiler reads it, not by
//! pattern); `petgraph`'s Tarjan finds the strongly connected components.
//! Both were already in the lock (lalrpop, the derive macros).

use petgraph::algo::tarjan_scc;
use petgraph::graph::DiGraph;
use proc_macro2::{TokenStream, TokenTree};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use syn::visit::Visit;

/// The workspace's crates with code (`fuzz` is outside the workspace).
const CRATES: &[&str] = &[
    ".",
    "isa-spec",
    "asm",
    "emu",
    "stressmarks",
    "xtask",
    "gnudiff",
];

/// One file of a crate: where it is (relative to `src/`), its module path.
struct File {
    rel: String,
    module: Vec<String>,
    text: String,
}

/// A module path from a file's place under `src/`.
fn module_of(rel: &str) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .trim_end_matches(".rs")
        .split('/')
        .map(str::to_string)
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

fn is_test_file(rel: &str) -> bool {
    let name = rel.rsplit('/').next().unwrap_or(rel);
    name == "tests.rs" || rel.split('/').any(|p| p == "tests")
}

/// Every `.rs` file under `dir`, relative to `root`.
fn walk(root: &Path, dir: &Path, out: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).expect("a readable source folder") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            walk(root, &path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let rel = path.strip_prefix(root).expect("under src");
            out.push(rel.to_string_lossy().replace('\\', "/"));
        }
    }
}

fn crate_files(src: &Path) -> Vec<File> {
    let mut rels = Vec::new();
    walk(src, src, &mut rels);
    rels.sort();
    rels.into_iter()
        .filter(|rel| !is_test_file(rel))
        .map(|rel| File {
            module: module_of(&rel),
            text: std::fs::read_to_string(src.join(&rel)).expect("a source file"),
            rel,
        })
        .collect()
}

/// An edge: the file named, and the path that named it (for the message).
type Edges = BTreeMap<usize, BTreeSet<String>>;

/// What one file names, read with `syn`.
struct Reader<'a> {
    /// Module path of every file of the crate, to its index.
    files: &'a HashMap<Vec<String>, usize>,
    /// Every module of the crate, files and inline ones.
    modules: &'a BTreeSet<Vec<String>>,
    me: usize,
    /// The module the reader is in (the file's, then inline modules').
    module: Vec<String>,
    /// Names this file's `use` items bind, to the absolute path.
    imported: HashMap<String, Vec<String>>,
    edges: Edges,
}

fn is_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg") && {
            let tokens = a.meta.require_list().map(|l| l.tokens.to_string());
            tokens.is_ok_and(|t| {
                t.split(|c: char| !c.is_alphanumeric() && c != '_')
                    .any(|w| w == "test")
            })
        }
    })
}

impl Reader<'_> {
    /// The absolute path a written path means, if it is one of this crate's.
    fn absolute(&self, segs: &[String]) -> Option<Vec<String>> {
        let first = segs.first()?;
        let mut out;
        let mut rest = segs;
        match first.as_str() {
            "crate" | "$crate" => {
                out = Vec::new();
                rest = &segs[1..];
            }
            "self" | "super" => {
                out = self.module.clone();
                while let Some(s) = rest.first() {
                    match s.as_str() {
                        "self" => {}
                        "super" => {
                            out.pop()?;
                        }
                        _ => break,
                    }
                    rest = &rest[1..];
                }
            }
            _ => {
                let mut child = self.module.clone();
                child.push(first.clone());
                if self.modules.contains(&child) {
                    out = child;
                    rest = &segs[1..];
                } else if let Some(path) = self.imported.get(first) {
                    out = path.clone();
                    rest = &segs[1..];
                } else {
                    return None;
                }
            }
        }
        out.extend(rest.iter().cloned());
        Some(out)
    }

    /// Record the file `segs` names (its longest prefix that has a file).
    fn name(&mut self, segs: &[String]) {
        let Some(abs) = self.absolute(segs) else {
            return;
        };
        for len in (0..=abs.len()).rev() {
            if let Some(&file) = self.files.get(&abs[..len]) {
                if file != self.me {
                    self.edges.entry(file).or_default().insert(segs.join("::"));
                }
                return;
            }
        }
    }

    /// The names a `use` tree binds and the paths it names.
    fn tree(&mut self, prefix: &mut Vec<String>, tree: &syn::UseTree, bind: bool) {
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                self.tree(prefix, &p.tree, bind);
                prefix.pop();
            }
            syn::UseTree::Name(n) => self.leaf(prefix, n.ident.to_string(), None, bind),
            syn::UseTree::Rename(r) => self.leaf(
                prefix,
                r.ident.to_string(),
                Some(r.rename.to_string()),
                bind,
            ),
            syn::UseTree::Glob(_) => {
                if !bind {
                    prefix.push("*".to_string());
                    self.name(prefix);
                    prefix.pop();
                }
            }
            syn::UseTree::Group(g) => {
                for t in &g.items {
                    self.tree(prefix, t, bind);
                }
            }
        }
    }

    fn leaf(&mut self, prefix: &[String], ident: String, rename: Option<String>, bind: bool) {
        let mut full = prefix.to_vec();
        if ident != "self" {
            full.push(ident.clone());
        }
        if bind {
            let name = rename.unwrap_or_else(|| full.last().cloned().unwrap_or(ident));
            // Resolve against what is known before this item; a path of
            // another crate resolves to nothing and binds nothing.
            if let Some(abs) = self.absolute(&full) {
                self.imported.insert(name, abs);
            }
        } else {
            self.name(&full);
        }
    }

    /// Paths written inside a macro's tokens: `crate :: a :: b`, `super :: x`.
    fn tokens(&mut self, stream: TokenStream) {
        let trees: Vec<TokenTree> = stream.into_iter().collect();
        let mut i = 0;
        while i < trees.len() {
            match &trees[i] {
                TokenTree::Group(g) => self.tokens(g.stream()),
                TokenTree::Ident(id) => {
                    let mut segs = vec![id.to_string()];
                    let dollar =
                        i > 0 && matches!(&trees[i - 1], TokenTree::Punct(p) if p.as_char() == '$');
                    if dollar && segs[0] == "crate" {
                        segs[0] = "$crate".to_string();
                    }
                    let mut j = i + 1;
                    while let [
                        TokenTree::Punct(a),
                        TokenTree::Punct(b),
                        TokenTree::Ident(next),
                        ..,
                    ] = &trees[j..]
                    {
                        if a.as_char() != ':' || b.as_char() != ':' {
                            break;
                        }
                        segs.push(next.to_string());
                        j += 3;
                    }
                    if segs.len() > 1 {
                        self.name(&segs);
                        i = j;
                        continue;
                    }
                }
                _ => {}
            }
            i += 1;
        }
    }
}

/// First pass: the names each `use` binds (at any depth of the file).
struct Binder<'r, 'a>(&'r mut Reader<'a>);

impl<'ast> Visit<'ast> for Binder<'_, '_> {
    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        if !is_test(&u.attrs) {
            self.0.tree(&mut Vec::new(), &u.tree, true);
        }
    }
    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        if !is_test(&m.attrs) {
            syn::visit::visit_item_mod(self, m);
        }
    }
}

impl<'ast> Visit<'ast> for Reader<'_> {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        let attrs = match item {
            syn::Item::Fn(i) => &i.attrs,
            syn::Item::Impl(i) => &i.attrs,
            syn::Item::Mod(i) => &i.attrs,
            syn::Item::Use(i) => &i.attrs,
            syn::Item::Const(i) => &i.attrs,
            syn::Item::Static(i) => &i.attrs,
            syn::Item::Struct(i) => &i.attrs,
            syn::Item::Enum(i) => &i.attrs,
            syn::Item::Trait(i) => &i.attrs,
            syn::Item::Macro(i) => &i.attrs,
            _ => return syn::visit::visit_item(self, item),
        };
        if !is_test(attrs) {
            syn::visit::visit_item(self, item);
        }
    }
    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        self.module.push(m.ident.to_string());
        syn::visit::visit_item_mod(self, m);
        self.module.pop();
    }
    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        self.tree(&mut Vec::new(), &u.tree, false);
    }
    fn visit_path(&mut self, p: &'ast syn::Path) {
        let segs: Vec<String> = p.segments.iter().map(|s| s.ident.to_string()).collect();
        self.name(&segs);
        syn::visit::visit_path(self, p);
    }
    /// `pub(crate)`, `pub(super)`, `pub(in path)` name no dependency.
    fn visit_visibility(&mut self, _: &'ast syn::Visibility) {}
    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        self.tokens(m.tokens.clone());
        syn::visit::visit_macro(self, m);
    }
}

/// Every inline `mod name { .. }` of a file, as module paths.
fn inline_modules(file: &syn::File, base: &[String], out: &mut BTreeSet<Vec<String>>) {
    fn items(list: &[syn::Item], base: &[String], out: &mut BTreeSet<Vec<String>>) {
        for item in list {
            if let syn::Item::Mod(m) = item {
                let mut path = base.to_vec();
                path.push(m.ident.to_string());
                out.insert(path.clone());
                if let Some((_, inner)) = &m.content {
                    items(inner, &path, out);
                }
            }
        }
    }
    items(&file.items, base, out);
}

/// Where an edge from the file of module `from` to the file of module `to`
/// lands in the module tree: the two children of their nearest common module
/// that hold them, or `None` when one file is that module's own root file
/// (a module's root is its face: its parts may use it and it uses them).
fn lift(from: &[String], to: &[String]) -> Option<(Vec<String>, Vec<String>)> {
    let common = from.iter().zip(to).take_while(|(a, b)| a == b).count();
    if common == from.len() || common == to.len() {
        return None;
    }
    Some((from[..=common].to_vec(), to[..=common].to_vec()))
}

/// The circles of one crate: among the parts of every module (its child
/// files and child folders, each folder taken whole), a cycle of uses. Each
/// circle is its file-to-file lines, `a.rs -> b.rs (the paths named)`.
fn circles(files: &[File]) -> Vec<Vec<String>> {
    let parsed: Vec<syn::File> = files
        .iter()
        .map(|f| syn::parse_file(&f.text).unwrap_or_else(|e| panic!("{}: {e}", f.rel)))
        .collect();
    let by_module: HashMap<Vec<String>, usize> = files
        .iter()
        .enumerate()
        .map(|(i, f)| (f.module.clone(), i))
        .collect();
    let mut modules: BTreeSet<Vec<String>> = by_module.keys().cloned().collect();
    for (f, p) in files.iter().zip(&parsed) {
        inline_modules(p, &f.module, &mut modules);
    }
    let mut graph = DiGraph::<Vec<String>, ()>::new();
    let mut nodes = HashMap::new();
    let mut node = |graph: &mut DiGraph<Vec<String>, ()>, m: Vec<String>| {
        *nodes.entry(m.clone()).or_insert_with(|| graph.add_node(m))
    };
    // The file-to-file lines behind each part-to-part edge.
    let mut lines: BTreeMap<(Vec<String>, Vec<String>), Vec<String>> = BTreeMap::new();
    for (i, (f, p)) in files.iter().zip(&parsed).enumerate() {
        let mut reader = Reader {
            files: &by_module,
            modules: &modules,
            me: i,
            module: f.module.clone(),
            imported: HashMap::new(),
            edges: Edges::new(),
        };
        Binder(&mut reader).visit_file(p);
        reader.visit_file(p);
        for (&to, paths) in &reader.edges {
            let Some((a, b)) = lift(&f.module, &files[to].module) else {
                continue;
            };
            let (na, nb) = (node(&mut graph, a.clone()), node(&mut graph, b.clone()));
            graph.update_edge(na, nb, ());
            let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
            lines.entry((a, b)).or_default().push(format!(
                "{} -> {} ({})",
                f.rel,
                files[to].rel,
                paths.join(", ")
            ));
        }
    }
    let mut found = Vec::new();
    for scc in tarjan_scc(&graph) {
        if scc.len() < 2 {
            continue;
        }
        let members: BTreeSet<&Vec<String>> = scc.iter().map(|n| &graph[*n]).collect();
        let mut circle = Vec::new();
        for ((a, b), l) in &lines {
            if members.contains(a) && members.contains(b) {
                circle.extend(l.iter().cloned());
            }
        }
        circle.sort();
        found.push(circle);
    }
    found.sort();
    found
}

#[test]
fn no_crate_has_a_circle_of_files() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut report = Vec::new();
    for krate in CRATES {
        let src: PathBuf = root.join(krate).join("src");
        for circle in circles(&crate_files(&src)) {
            let files: BTreeSet<&str> = circle
                .iter()
                .flat_map(|l| l.split(" (").next().unwrap_or("").split(" -> "))
                .collect();
            report.push(format!(
                "a circle of {} files in {krate}/src: {}\n  {}",
                files.len(),
                files.into_iter().collect::<Vec<_>>().join(", "),
                circle.join("\n  ")
            ));
        }
    }
    assert!(
        report.is_empty(),
        "{} circle(s):\n{}",
        report.len(),
        report.join("\n")
    );
}

fn file(rel: &str, text: &str) -> File {
    File {
        rel: rel.to_string(),
        module: module_of(rel),
        text: text.to_string(),
    }
}

#[test]
fn the_check_sees_each_kind_of_naming() {
    // Two siblings naming each other through `super::*` (a glob of the
    // parent's module path reaching a sibling) and `use`: a circle. The
    // parent and its parts naming each other is not one.
    let found = circles(&[
        file("lib.rs", "mod a; use a::b::Thing;"),
        file(
            "a/mod.rs",
            "mod b; mod c; pub use b::Thing; pub struct Parent;",
        ),
        file(
            "a/b.rs",
            "use super::c::*; use super::Parent; pub struct Thing;",
        ),
        file("a/c.rs", "pub fn f() -> super::b::Thing { todo!() }"),
    ]);
    assert_eq!(
        found,
        [[
            "a/b.rs -> a/c.rs (super::c::*)",
            "a/c.rs -> a/b.rs (super::b::Thing)"
        ]]
    );
    // Folders taken whole: a file of one folder naming a file of another
    // and back, through an imported module's name, a path in an
    // expression and a macro's tokens.
    let found = circles(&[
        file("lib.rs", "mod x; mod y;"),
        file("x/mod.rs", "mod p;"),
        file("x/p.rs", "use crate::y; fn f() { y::q::g(); }"),
        file("y/mod.rs", "mod q;"),
        file("y/q.rs", "fn g() { m!(crate::x::p::f); }"),
    ]);
    assert_eq!(
        found,
        [[
            "x/p.rs -> y/mod.rs (crate::y)",
            "x/p.rs -> y/q.rs (y::q::g)",
            "y/q.rs -> x/p.rs (crate::x::p::f)"
        ]]
    );
    // One way only, test code, visibility and `mod` declarations: none.
    let found = circles(&[
        file("lib.rs", "mod x; mod y;"),
        file(
            "x.rs",
            "use crate::y::g; pub(in crate::y) fn h() {} #[cfg(test)] mod tests { use crate::x; }",
        ),
        file(
            "y.rs",
            "pub fn g() {} #[cfg(test)] fn t() { crate::x::h(); }",
        ),
    ]);
    assert!(found.is_empty(), "{found:?}");
}
