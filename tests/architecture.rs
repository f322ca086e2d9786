//! The layering rules of the source tree, checked on its text:
//!
//! * no two files of `src/` import each other, directly or through a loop of
//!   imports (from their `use crate::…`/`use super::…` lines, grouped
//!   `use a::{b, c}` included, and the `crate::…`/`super::…` paths in their
//!   code; a child module naming its parent is not an import: the parent
//!   declares the child);
//! * `rules` and `ai` know nothing of the terminal (no ratatui, no crossterm);
//! * `rules` uses no other module of the crate (standard library only);
//! * the layers: `rules` ← `notation` ← `ai` ← `net` (and the tools beside
//!   it: `arena`, `learn`, `nboard`) ← `ui` ← `screen`, `cli`; a module
//!   imports only the layers below its own and the helpers (`dirs`, `i18n`,
//!   `parallel`, `random`, `storage`), which import nothing of the crate;
//! * the screen is a client of the salon: outside its tests, `ui` imports
//!   only the client side of `net` (protocol, client, session, text), never
//!   the server's lobby, tables, storage or server.
//!
//! `scripts/import-loops` runs this test.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type Module = Vec<String>;

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src/ is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module a file defines: `src/ui/app.rs` → `ui::app`, `lib.rs` → the root.
fn module_of(src: &Path, path: &Path) -> Module {
    let rel = path.strip_prefix(src).expect("under src");
    let mut parts: Module = rel
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().expect("a file name");
    let stem = last.trim_end_matches(".rs");
    if parts.is_empty() && (stem == "lib" || stem == "main") {
        return Vec::new();
    }
    if stem != "mod" {
        parts.push(stem.to_string());
    }
    parts
}

/// The text without `//` comments (doc comments included).
fn code_of(text: &str) -> String {
    text.lines()
        .map(|l| l.find("//").map_or(l, |i| &l[..i]))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The trees of the `use` declarations: `a::{b, c}` for `use a::{b, c};`.
fn use_trees(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find("use ") {
        let before = &rest[..i];
        let line_start = before.rfind('\n').map_or(0, |n| n + 1);
        let prefix = before[line_start..].trim();
        let is_decl = prefix.is_empty() || prefix == "pub" || prefix.starts_with("pub(");
        let after = &rest[i + 4..];
        if is_decl && let Some(end) = after.find(';') {
            out.push(after[..end].trim().to_string());
            rest = &after[end..];
        } else {
            rest = after;
        }
    }
    out
}

/// The `crate::…` and `super::…` paths written in the code.
fn inline_paths(code: &str) -> Vec<String> {
    let bytes = code.as_bytes();
    let is_word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut out = Vec::new();
    for start in ["crate::", "super::"] {
        let mut from = 0;
        while let Some(i) = code[from..].find(start).map(|i| i + from) {
            from = i + start.len();
            if i > 0 && (is_word(bytes[i - 1]) || bytes[i - 1] == b':') {
                continue;
            }
            let mut end = i + start.len();
            loop {
                let word = bytes[end..].iter().take_while(|b| is_word(**b)).count();
                if word == 0 {
                    break;
                }
                end += word;
                if code[end..].starts_with("::") {
                    end += 2;
                } else {
                    break;
                }
            }
            if end > i + start.len() {
                out.push(code[i..end].trim_end_matches(':').to_string());
            }
        }
    }
    out
}

/// The paths a use tree names: `a::{b, c::{d}}` → `a::b`, `a::c::d`.
fn paths_of(tree: &str) -> Vec<Module> {
    let tree = tree.trim();
    let Some(open) = tree.find("::{").filter(|_| tree.ends_with('}')) else {
        let path = tree.split(" as ").next().unwrap_or("").trim();
        return vec![path.split("::").map(|p| p.trim().to_string()).collect()];
    };
    let head: Module = tree[..open].split("::").map(str::to_string).collect();
    let body = &tree[open + 3..tree.len() - 1];
    let (mut out, mut depth, mut current) = (Vec::new(), 0, String::new());
    for ch in body.chars().chain([',']) {
        if ch == ',' && depth == 0 {
            if !current.trim().is_empty() {
                for p in paths_of(&current) {
                    out.push(head.iter().cloned().chain(p).collect());
                }
            }
            current.clear();
            continue;
        }
        depth += i32::from(ch == '{') - i32::from(ch == '}');
        current.push(ch);
    }
    out
}

struct Tree {
    /// Module → its file.
    files: BTreeMap<Module, PathBuf>,
    /// Module → the modules it imports.
    edges: BTreeMap<Module, BTreeSet<Module>>,
    /// Module → its code without comments.
    code: BTreeMap<Module, String>,
}

/// The crate's own `src/`.
fn tree() -> Tree {
    tree_of(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"))
}

fn tree_of(src: &Path) -> Tree {
    let mut paths = Vec::new();
    rust_files(src, &mut paths);
    let files: BTreeMap<Module, PathBuf> = paths
        .iter()
        .map(|p| (module_of(src, p), p.clone()))
        .collect();
    let resolve = |parts: &[String]| -> Option<Module> {
        (1..=parts.len())
            .rev()
            .map(|k| parts[..k].to_vec())
            .find(|m| files.contains_key(m))
    };
    let mut edges = BTreeMap::new();
    let mut code = BTreeMap::new();
    for (module, path) in &files {
        let text = code_of(&std::fs::read_to_string(path).expect("a readable source file"));
        let is_dir_module = path.ends_with("mod.rs") || path.ends_with("lib.rs");
        let parent: &[String] = if is_dir_module {
            module
        } else {
            &module[..module.len().saturating_sub(1)]
        };
        let mut targets = BTreeSet::new();
        for tree in use_trees(&text).iter().chain(&inline_paths(&text)) {
            for parts in paths_of(tree) {
                let mut parts: Module = parts.into_iter().filter(|p| p != "self").collect();
                let target: Module = match parts.first().map(String::as_str) {
                    Some("crate") => parts.split_off(1),
                    Some("super") => {
                        let mut base = module[..module.len().saturating_sub(1)].to_vec();
                        let mut rest = &parts[..];
                        while rest.first().is_some_and(|p| p == "super") {
                            rest = &rest[1..];
                            if rest.first().is_some_and(|p| p == "super") {
                                base.pop();
                            }
                        }
                        base.into_iter().chain(rest.iter().cloned()).collect()
                    }
                    _ => continue,
                };
                if let Some(t) = resolve(&target)
                    && t != *module
                    && !(t.len() < module.len() && module.starts_with(&t) && t == parent)
                {
                    targets.insert(t);
                }
            }
        }
        edges.insert(module.clone(), targets);
        code.insert(module.clone(), text);
    }
    Tree { files, edges, code }
}

/// The modules `from` reaches through its imports.
fn reach(edges: &BTreeMap<Module, BTreeSet<Module>>, from: &Module) -> BTreeSet<Module> {
    let mut seen = BTreeSet::new();
    let mut stack = vec![from.clone()];
    while let Some(m) = stack.pop() {
        for t in edges.get(&m).into_iter().flatten() {
            if seen.insert(t.clone()) {
                stack.push(t.clone());
            }
        }
    }
    seen
}

/// Each import loop of `t`: its files.
fn loops(t: &Tree) -> Vec<String> {
    let reached: BTreeMap<&Module, BTreeSet<Module>> =
        t.files.keys().map(|m| (m, reach(&t.edges, m))).collect();
    let mut loops: BTreeSet<Vec<String>> = BTreeSet::new();
    for (m, r) in &reached {
        if r.contains(*m) {
            let mut members: Vec<String> = t
                .files
                .iter()
                .filter(|(o, _)| r.contains(*o) && reached[o].contains(*m))
                .map(|(_, p)| p.display().to_string())
                .collect();
            members.sort();
            loops.insert(members);
        }
    }
    loops
        .iter()
        .map(|l| format!("import loop: {}", l.join(" ")))
        .collect()
}

#[test]
fn no_two_source_files_import_each_other_directly_or_through_a_loop() {
    let report = loops(&tree());
    assert!(report.is_empty(), "{}", report.join("\n"));
}

/// The tree of a made-up `src/` of `files` (path, text), written to a
/// folder of its own named after `name` and removed again.
fn scratch_tree(name: &str, files: &[(&str, &str)]) -> Tree {
    let dir = std::env::temp_dir().join(format!("reversi-{name}-{}", std::process::id()));
    for (path, text) in files {
        let p = dir.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    let t = tree_of(&dir);
    std::fs::remove_dir_all(&dir).unwrap();
    t
}

#[test]
fn a_loop_through_three_files_is_found_and_a_child_naming_its_parent_is_not_one() {
    let t = scratch_tree(
        "loops",
        &[
            ("lib.rs", "pub mod a;\npub mod b;\npub mod c;\npub mod d;\n"),
            ("a.rs", "use crate::b::{self, X};\n"),
            ("b.rs", "fn f() { super::c::g(); }\n"),
            ("c.rs", "use crate::{a::Y, d};\nmod e;\n"),
            ("c/e.rs", "use super::Z;\n"),
            ("d.rs", "// use crate::a;\n"),
        ],
    );
    let report = loops(&t);
    assert_eq!(report.len(), 1, "{report:?}");
    for f in ["a.rs", "b.rs", "c.rs"] {
        assert!(report[0].contains(f), "{report:?}");
    }
    assert!(!report[0].contains("d.rs") && !report[0].contains("e.rs"));
}

#[test]
fn rules_and_ai_know_nothing_of_the_terminal() {
    let t = tree();
    for (module, code) in &t.code {
        if !matches!(module.first().map(String::as_str), Some("rules" | "ai")) {
            continue;
        }
        for name in ["ratatui", "crossterm"] {
            assert!(
                !code.contains(name),
                "{} names {name}",
                t.files[module].display()
            );
        }
    }
}

#[test]
fn rules_use_no_other_module_of_the_crate() {
    let t = tree();
    for (module, targets) in &t.edges {
        if module.first().is_some_and(|m| m == "rules") {
            for target in targets {
                assert!(
                    target.first().is_some_and(|m| m == "rules"),
                    "{} imports {}",
                    t.files[module].display(),
                    target.join("::")
                );
            }
        }
    }
}

/// The layers of the crate, lowest first: a module imports only modules of
/// the layers below its own, and the helpers.
const LAYERS: [&[&str]; 6] = [
    &["rules"],
    &["notation"],
    &["ai"],
    &["net", "arena", "learn", "nboard"],
    &["ui"],
    &["screen", "cli"],
];

/// Modules any layer may use; they use no other module of the crate.
const HELPERS: [&str; 5] = ["dirs", "i18n", "parallel", "random", "storage"];

/// The modules of `net` the screen may use: the client side of the salon.
const CLIENT_SIDE: [&str; 4] = ["protocol", "client", "session", "text"];

/// Whether `module` is a test module (a `tests.rs` file, or a file under a
/// `tests` folder), which may start a real server.
fn is_test(module: &Module) -> bool {
    module.iter().any(|m| m == "tests")
}

/// Each import of `t` that breaks the layers, and each top-level module
/// that has no layer.
fn layer_breaks(t: &Tree) -> Vec<String> {
    let layer = |m: &str| LAYERS.iter().position(|l| l.contains(&m));
    let mut out = Vec::new();
    for (module, targets) in &t.edges {
        let Some(top) = module.first() else {
            continue; // the crate root declares every module
        };
        let file = t.files[module].display();
        let own = layer(top);
        if own.is_none() && !HELPERS.contains(&top.as_str()) {
            out.push(format!("{file}: the module {top} has no layer"));
            continue;
        }
        for target in targets {
            let Some(to) = target.first().filter(|t| *t != top) else {
                continue;
            };
            let allowed = match (own, layer(to)) {
                (_, None) => HELPERS.contains(&to.as_str()) && own.is_some(),
                (Some(from), Some(below)) => below < from,
                (None, Some(_)) => false,
            };
            if !allowed {
                out.push(format!("{file} imports {}", target.join("::")));
            }
            if top == "ui"
                && to == "net"
                && !is_test(module)
                && target
                    .get(1)
                    .is_some_and(|m| !CLIENT_SIDE.contains(&m.as_str()))
            {
                out.push(format!(
                    "{file} imports {}, a module of the server",
                    target.join("::")
                ));
            }
        }
    }
    out
}

#[test]
fn each_layer_imports_only_the_layers_below_it_and_the_helpers() {
    let report = layer_breaks(&tree());
    assert!(report.is_empty(), "{}", report.join("\n"));
}

#[test]
fn imports_against_the_layers_are_found() {
    let t = scratch_tree(
        "layers",
        &[
            ("lib.rs", "pub mod ai;\npub mod net;\npub mod ui;\n"),
            ("rules.rs", "use crate::random;\n"),
            ("random.rs", "use crate::rules::Color;\n"),
            ("ai.rs", "use crate::{rules::Move, arena::Reference};\n"),
            ("arena.rs", "use crate::ai::Engine;\n"),
            (
                "net.rs",
                "pub mod protocol;\npub mod store;\nfn f() { crate::ui::run(); }\n",
            ),
            ("net/protocol.rs", "use crate::rules::Color;\n"),
            ("net/store.rs", "use super::super::rules::Game;\n"),
            (
                "ui.rs",
                "use crate::net::{protocol::Side, store::Store};\nmod tests;\n",
            ),
            ("ui/tests.rs", "use crate::net::store::Store;\n"),
            ("extra.rs", "use crate::rules::Game;\n"),
        ],
    );
    let mut report = layer_breaks(&t);
    report.sort();
    let want = [
        "ai.rs imports arena",
        "extra.rs: the module extra has no layer",
        "net.rs imports ui",
        "random.rs imports rules",
        "ui.rs imports net::store, a module of the server",
    ];
    assert_eq!(report.len(), want.len(), "{report:#?}");
    for (got, want) in report.iter().zip(want) {
        assert!(got.ends_with(want), "{got} is not {want}");
    }
}

#[test]
fn the_parser_reads_grouped_uses_and_paths_in_code() {
    let code = code_of(
        "use super::{app::{App, Msg}, keys};\npub(crate) use crate::rules::Game as G;\n\
         fn f() { super::view::boxed(); x::crate::no(); } // crate::comment\n",
    );
    let trees = use_trees(&code);
    assert_eq!(trees.len(), 2);
    let paths: Vec<String> = trees
        .iter()
        .flat_map(|t| paths_of(t))
        .map(|p| p.join("::"))
        .collect();
    assert_eq!(
        paths,
        [
            "super::app::App",
            "super::app::Msg",
            "super::keys",
            "crate::rules::Game"
        ]
    );
    let inline = inline_paths(&code);
    assert!(inline.contains(&"super::view::boxed".to_string()));
    assert!(
        !inline
            .iter()
            .any(|p| p.contains("no") || p.contains("comment"))
    );
}
