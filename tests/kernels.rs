//! Every kernel set the CPU has (`rules::KernelSet`) runs the same search:
//! the same best moves, values, depths and node counts for midgame searches
//! (learned and hand-written evaluations, with and without ProbCut, 8×8,
//! 6×6 and Anti Reversi) and for exact and selective solves. The command
//! line honours `REVERSI_KERNELS` and refuses, naming it, a set it does not
//! know or the CPU lacks. (Perft and the kernels themselves are checked on
//! every set by tests/perft.rs and tests/reference.rs.)

mod common_ai;

use common_ai::{Rng, random_position};
use reversi::ai::{Engine, Limits, SearchResult};
use reversi::rules::kernels::KERNEL_SET_NAMES;
use reversi::rules::{BoardSize, KernelSet, Position, Rules, Scoring};
use std::process::{Command, Output};
use std::sync::atomic::AtomicBool;

/// The search of `p` by a fresh engine with the kernel set `set`.
fn search(
    set: KernelSet,
    learned: bool,
    p: &Position,
    rules: &Rules,
    limits: &Limits,
) -> SearchResult {
    let mut engine = Engine::new(16);
    engine.set_kernels(set);
    assert_eq!(engine.kernels(), set);
    if !learned {
        engine.set_weights(None);
    }
    let stop = AtomicBool::new(false);
    engine.search(p, rules, limits, &stop, 0, &mut |_| {})
}

/// Searches `count` random positions of `empties` (a range) with every set
/// and checks that all agree with the portable set; returns the nodes
/// searched.
fn same_on_every_set(
    rng: &mut Rng,
    rules: &Rules,
    learned: bool,
    (empties, count): (std::ops::Range<u32>, usize),
    limits: &Limits,
) -> u64 {
    let sets = KernelSet::available();
    let mut nodes = 0;
    let mut done = 0;
    while done < count {
        let n = empties.start + rng.below((empties.end - empties.start) as usize) as u32;
        let Some(p) = random_position(rng, rules.size, n) else {
            continue;
        };
        let reference = search(sets[0], learned, &p, rules, limits);
        for &set in &sets[1..] {
            let r = search(set, learned, &p, rules, limits);
            assert_eq!(
                (r.best_move, r.score, r.depth, r.nodes, &r.pv),
                (
                    reference.best_move,
                    reference.score,
                    reference.depth,
                    reference.nodes,
                    &reference.pv
                ),
                "{set} against portable, {rules} {p:?}"
            );
        }
        nodes += reference.nodes;
        done += 1;
    }
    nodes
}

#[test]
fn every_kernel_set_searches_the_same_midgame_tree() {
    let mut rng = Rng::new(65);
    let eight = Rules::standard(BoardSize::Eight);
    let selective = Limits {
        selectivity: 2,
        ..Limits::depth(8)
    };
    for (rules, learned, limits) in [
        (eight, true, Limits::depth(6)),
        (eight, true, selective),
        (eight, false, Limits::depth(5)),
        (
            Rules {
                anti: true,
                ..Rules::standard(BoardSize::Six)
            },
            false,
            Limits::depth(6),
        ),
    ] {
        let nodes = same_on_every_set(&mut rng, &rules, learned, (24..48, 6), &limits);
        assert!(nodes > 5_000, "{rules}: {nodes} nodes");
    }
}

#[test]
fn every_kernel_set_solves_the_same_endgame_tree() {
    let mut rng = Rng::new(66);
    let ffo = Rules {
        scoring: Scoring::EmptiesToWinner,
        ..Rules::standard(BoardSize::Eight)
    };
    // Exact solves through every tier of the solver, and the selective
    // (endgame ProbCut) iterations from 21 empties.
    let nodes = same_on_every_set(&mut rng, &ffo, true, (10..19, 6), &Limits::exact());
    assert!(nodes > 10_000, "{nodes} nodes");
    let nodes = same_on_every_set(&mut rng, &ffo, true, (21..22, 2), &Limits::exact());
    assert!(nodes > 100_000, "{nodes} nodes");
    let six = Rules::standard(BoardSize::Six);
    same_on_every_set(&mut rng, &six, false, (10..16, 6), &Limits::exact());
}

/// `reversi args` with `REVERSI_KERNELS` set to `kernels`.
fn run(kernels: &str, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_reversi"))
        .args(args)
        .env("REVERSI_KERNELS", kernels)
        .output()
        .expect("the reversi binary runs")
}

#[test]
fn reversi_kernels_forces_a_set_and_refuses_an_unknown_or_missing_one() {
    let available = KernelSet::available();
    for name in KERNEL_SET_NAMES {
        let has = available.iter().any(|s| s.name() == name);
        let out = run(name, &["perft", "5", "--only"]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        if has {
            assert!(out.status.success(), "{name}: {stderr}");
            assert!(
                String::from_utf8_lossy(&out.stdout).contains("1396"),
                "{name}"
            );
            let out = run(name, &["bench", "--only", "eval"]);
            let stdout = String::from_utf8_lossy(&out.stdout);
            assert!(out.status.success(), "{name} bench: {stdout}");
            assert!(stdout.starts_with(&format!("kernels {name} (")), "{stdout}");
        } else {
            assert_eq!(out.status.code(), Some(2), "{name}: {stderr}");
            assert!(
                stderr.contains("REVERSI_KERNELS") && stderr.contains(name),
                "{stderr}"
            );
        }
    }
    let out = run("sse9", &["perft", "1"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(out.stdout.is_empty());
    assert!(
        stderr.starts_with("reversi: REVERSI_KERNELS: unknown kernel set 'sse9'"),
        "{stderr}"
    );
    // Unset or empty: the best set the CPU has.
    let out = run("", &["bench", "--only", "eval"]);
    let best = KernelSet::detected().name();
    assert!(
        String::from_utf8_lossy(&out.stdout).starts_with(&format!("kernels {best} (")),
        "{out:?}"
    );
}
