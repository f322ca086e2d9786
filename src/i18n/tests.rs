//! The catalogues against the code, plural forms and number formats.

use super::*;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The message ids a catalogue defines (terms, `-name`, are not messages),
/// each with the `$variables` its text names.
fn catalogue_ids(text: &str) -> BTreeMap<String, BTreeSet<String>> {
    let mut ids: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        let starts_entry = line.starts_with(|c: char| c.is_ascii_alphabetic());
        if starts_entry {
            let id = line
                .split('=')
                .next()
                .unwrap_or_default()
                .trim()
                .to_string();
            assert!(
                !ids.contains_key(&id),
                "{id} is defined twice in a catalogue"
            );
            ids.insert(id.clone(), BTreeSet::new());
            current = Some(id);
        } else if line.starts_with('#') || line.starts_with('-') {
            current = None;
        }
        if let Some(id) = &current {
            let vars = ids.get_mut(id).expect("inserted above");
            let mut rest = line;
            while let Some(at) = rest.find('$') {
                rest = &rest[at + 1..];
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-')
                    .collect();
                vars.insert(name);
            }
        }
    }
    ids
}

/// The ids the code asks for: the first string literal inside a call of
/// `tr(`, `tr!(` or `tr_args(` (after the language, across line breaks),
/// outside comments.
fn ids_in_code(text: &str, found: &mut BTreeSet<String>) {
    let code: String = text
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    for call in ["tr(", "tr!(", "tr_args("] {
        let mut from = 0;
        while let Some(at) = code[from..].find(call) {
            let start = from + at;
            from = start + call.len();
            let before = code[..start].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                continue;
            }
            let rest = &code[from..];
            let call = &rest[..rest.find(')').unwrap_or(rest.len())];
            let rest = call.find('"').map_or("", |q| &call[q..]);
            if let Some(literal) = rest.strip_prefix('"')
                && let Some(end) = literal.find('"')
            {
                found.insert(literal[..end].to_string());
            }
        }
    }
}

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("the sources are readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Every id the sources use, this test file left out.
fn used_ids() -> BTreeSet<String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut used = BTreeSet::new();
    for file in files {
        if file.ends_with("i18n/tests.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&file).expect("a source file is readable");
        ids_in_code(&text, &mut used);
    }
    used
}

#[test]
fn every_id_used_is_in_every_catalogue_and_every_id_is_used() {
    let used = used_ids();
    assert!(used.contains("lang-name"), "the scan finds the calls");
    for lang in Lang::ALL {
        let defined: BTreeSet<String> = catalogue_ids(catalogue(lang)).into_keys().collect();
        let missing: Vec<_> = used.difference(&defined).collect();
        let unused: Vec<_> = defined.difference(&used).collect();
        assert!(missing.is_empty(), "{lang}.ftl lacks {missing:?}");
        assert!(unused.is_empty(), "{lang}.ftl holds unused ids {unused:?}");
    }
}

#[test]
fn the_catalogues_parse_and_name_the_same_arguments() {
    for lang in Lang::ALL {
        if let Err((_, errors)) = FluentResource::try_new(catalogue(lang).to_string()) {
            panic!("{lang}.ftl has syntax errors: {errors:?}");
        }
    }
    let en = catalogue_ids(EN);
    let fr = catalogue_ids(FR);
    for (id, vars) in &en {
        assert_eq!(Some(vars), fr.get(id), "the arguments of {id}");
    }
}

#[test]
fn the_scan_reads_each_form_of_call() {
    let mut found = BTreeSet::new();
    ids_in_code(
        "let a = tr(lang, \"one\"); tr!(lang, \"two\", n = 1); tr_args( l, \"three\", &[]);\n\
         // tr(lang, \"commented\")\n tr(Lang::Fr, \"four\"); attr(\"not-one\");\n\
         tr!(\n    app.lang,\n    \"five\",\n    n = 2\n);",
        &mut found,
    );
    let want: BTreeSet<String> = ["one", "two", "three", "four", "five"]
        .map(String::from)
        .into();
    assert_eq!(found, want);
}

const PLURALS: &str = "discs = { $n ->\n    [one] { $n } disc\n   *[other] { $n } discs\n}\n\
                       time = { $s } s\n";
const PLURALS_FR: &str = "discs = { $n ->\n    [one] { $n } pion\n   *[other] { $n } pions\n}\n\
                          time = { $s } s\n";

#[test]
fn plurals_follow_each_language() {
    let en = bundle(Lang::En, PLURALS);
    let fr = bundle(Lang::Fr, PLURALS_FR);
    let say = |b: &Bundle, n: i64| format(b, "discs", &[("n", Arg::Int(n))]);
    assert_eq!(say(&en, 0), "0 discs");
    assert_eq!(say(&en, 1), "1 disc");
    assert_eq!(say(&en, 2), "2 discs");
    // French counts zero as singular.
    assert_eq!(say(&fr, 0), "0 pion");
    assert_eq!(say(&fr, 1), "1 pion");
    assert_eq!(say(&fr, 2), "2 pions");
    assert_eq!(say(&fr, 1234), "1\u{202f}234 pions");
    assert_eq!(say(&en, 1234), "1,234 discs");
    let time = |b: &Bundle| format(b, "time", &[("s", Arg::decimal(12.34, 1))]);
    assert_eq!(time(&en), "12.3 s");
    assert_eq!(time(&fr), "12,3 s");
}

#[test]
fn numbers_are_written_per_language() {
    assert_eq!(format_number(Lang::En, 1_234_567.0, 0), "1,234,567");
    assert_eq!(
        format_number(Lang::Fr, 1_234_567.0, 0),
        "1\u{202f}234\u{202f}567"
    );
    assert_eq!(format_number(Lang::En, 0.5, 2), "0.50");
    assert_eq!(format_number(Lang::Fr, -3.25, 1), "-3,2");
    assert_eq!(format_number(Lang::Fr, -0.01, 1), "0,0");
    assert_eq!(format_number(Lang::En, 999.0, 0), "999");
}

#[test]
fn a_missing_message_shows_its_id() {
    assert_eq!(tr(Lang::Fr, "no-such-message"), "no-such-message");
}

#[test]
fn the_locale_variables_choose_in_posix_order() {
    let env = |pairs: &'static [(&'static str, &'static str)]| {
        move |name: &str| {
            pairs
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| (*v).to_string())
        }
    };
    assert_eq!(Lang::from_vars(env(&[])), Lang::En);
    assert_eq!(Lang::from_vars(env(&[("LANG", "fr_FR.UTF-8")])), Lang::Fr);
    assert_eq!(Lang::from_vars(env(&[("LANG", "fr_CA")])), Lang::Fr);
    assert_eq!(
        Lang::from_vars(env(&[("LANG", "fr_FR.UTF-8"), ("LC_MESSAGES", "C")])),
        Lang::En
    );
    assert_eq!(
        Lang::from_vars(env(&[("LANG", "en_GB"), ("LC_ALL", "fr_BE.UTF-8")])),
        Lang::Fr
    );
    // An empty variable counts as unset.
    assert_eq!(
        Lang::from_vars(env(&[("LC_ALL", ""), ("LANG", "fr")])),
        Lang::Fr
    );
    assert_eq!(Lang::from_vars(env(&[("LANG", "de_DE.UTF-8")])), Lang::En);
    assert_eq!(Lang::from_code("FR"), Some(Lang::Fr));
    assert_eq!(Lang::from_code("de"), None);
}

/// Each call says its language: two threads asking at once each get theirs.
#[test]
fn each_call_speaks_the_language_it_is_given() {
    let ask = |lang: Lang| {
        std::thread::spawn(move || {
            (0..200)
                .map(|n| crate::tr!(lang, "moves-played", n = n % 3))
                .collect::<Vec<_>>()
        })
    };
    let (fr, en) = (ask(Lang::Fr), ask(Lang::En));
    let (fr, en) = (fr.join().unwrap(), en.join().unwrap());
    assert!(
        fr.iter()
            .all(|s| s.ends_with("joué") || s.ends_with("joués")),
        "{fr:?}"
    );
    assert!(en.iter().all(|s| s.ends_with("played")), "{en:?}");
    assert_eq!(tr(Lang::Fr, "lang-name"), "Français");
    assert_eq!(tr(Lang::En, "lang-name"), "English");
    assert_eq!(int(Lang::Fr, 1234), "1\u{202f}234");
    assert_eq!(decimal(Lang::En, 12.34, 1), "12.3");
}
