//! The learned evaluation and its pipeline: the evaluation is symmetric and
//! antisymmetric for any weights, self-play is deterministic and resumable,
//! `relabel` resumes, `train` fits games and labels and writes weights that
//! load, and bad input gets clear errors.

use reversi::ai::pattern::class_map;
use reversi::ai::{Engine, PatternWeights};
use reversi::learn::selfplay::{GameRecord, SelfPlayConfig, play_game};
use reversi::random;
use reversi::rules::{BoardSize, Position, Symmetry};
use std::process::Command;

fn xorshift(x: &mut random::Rng) -> u64 {
    random::next(x)
}

fn random_weights(seed: u64, phases: usize) -> PatternWeights {
    let mut x = random::seeded(seed);
    let count = class_map().1;
    PatternWeights::from_classes(
        (0..phases)
            .map(|_| {
                (0..count)
                    .map(|_| (xorshift(&mut x) % 401) as i16 - 200)
                    .collect()
            })
            .collect(),
    )
}

#[test]
fn any_weights_evaluate_symmetrically_and_flip_sign_when_the_sides_swap() {
    let w = random_weights(5, 4);
    let mut x = random::seeded(99);
    for _ in 0..300 {
        let mut p = Position::initial(BoardSize::Eight);
        let plies = xorshift(&mut x) % 58;
        for _ in 0..plies {
            let moves = p.moves_list();
            if moves.is_empty() {
                break;
            }
            p = p.play_unchecked(moves[(xorshift(&mut x) % moves.len() as u64) as usize]);
        }
        let v = w.eval(p.player(), p.opponent());
        assert_eq!(w.eval(p.opponent(), p.player()), -v, "{p:?}");
        for s in Symmetry::ALL {
            let q = s.position(&p);
            assert_eq!(w.eval(q.player(), q.opponent()), v, "{s:?} {p:?}");
        }
    }
}

#[test]
fn self_play_games_are_deterministic_legal_and_round_trip() {
    let config = SelfPlayConfig {
        depth: 2,
        exact: 8,
        random_min: 4,
        random_max: 10,
        seed: 3,
    };
    let mut engine = Engine::new(1);
    for i in 0..4 {
        let g = play_game(&mut engine, &config, i);
        assert!((4..=10).contains(&g.random_plies));
        let again = play_game(&mut Engine::new(1), &config, i);
        assert_eq!(g, again, "game {i} depends only on the seed and index");
        let line = g.to_line();
        let back = GameRecord::parse_line(&line).expect("a written game reads back");
        assert_eq!(back.margin, g.margin);
        assert_eq!(back.positions().last(), g.positions().last());
    }
    // A line cut short, a wrong result or an illegal move is refused.
    let line = play_game(&mut engine, &config, 9).to_line();
    let (body, _) = line.rsplit_once(' ').unwrap();
    assert!(GameRecord::parse_line(body).is_none());
    assert!(GameRecord::parse_line(&format!("{body} +65")).is_none());
    assert!(GameRecord::parse_line("4 f5f5 +0").is_none());
}

fn reversi(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_reversi"))
        .args(args)
        .output()
        .expect("the binary runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn selfplay_resumes_and_train_writes_loadable_weights() {
    let dir = std::env::temp_dir().join(format!("reversi-learn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let whole = dir.join("whole.txt");
    let part = dir.join("part.txt");
    let common = [
        "--depth",
        "2",
        "--exact",
        "8",
        "--random",
        "6..12",
        "--threads",
        "2",
    ];
    let run = |file: &std::path::Path, games: &str| {
        let mut args = vec![
            "selfplay",
            "--out",
            file.to_str().unwrap(),
            "--games",
            games,
        ];
        args.extend(common);
        reversi(&args)
    };
    assert!(run(&whole, "12").0);
    assert!(run(&part, "5").0);
    // A kill in the middle of a line: the cut line is dropped on resume.
    let mut text = std::fs::read_to_string(&part).unwrap();
    text.push_str("7 f5d6c3");
    std::fs::write(&part, text).unwrap();
    let (ok, _, err) = run(&part, "12");
    assert!(ok, "{err}");
    assert_eq!(
        std::fs::read_to_string(&part).unwrap(),
        std::fs::read_to_string(&whole).unwrap(),
        "a resumed run gives the same file"
    );
    // Other settings on an existing file: refused, file untouched.
    let (ok, _, err) = reversi(&["selfplay", "--out", part.to_str().unwrap(), "--depth", "3"]);
    assert!(!ok && err.contains("other settings"), "{err}");

    let weights = dir.join("w.rvw");
    let (ok, out, err) = reversi(&[
        "train",
        whole.to_str().unwrap(),
        "--out",
        weights.to_str().unwrap(),
        "--phases",
        "2",
        "--epochs",
        "20",
    ]);
    assert!(ok, "{err}");
    assert!(out.contains("valid-MAE"), "{out}");
    let w = PatternWeights::from_bytes(&std::fs::read(&weights).unwrap()).expect("loads");
    assert_eq!(w.phases(), 2);
    // The written weights play.
    let spec = format!("depth:2,weights:{}", weights.display());
    let (ok, out, err) = reversi(&[
        "match",
        "--a",
        &spec,
        "--b",
        "depth:2,eval:hand",
        "--games",
        "2",
    ]);
    assert!(ok, "{out}{err}");

    // A corrupt weights file and a malformed games file: clear errors.
    let mut bytes = std::fs::read(&weights).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 1;
    std::fs::write(&weights, bytes).unwrap();
    let (ok, _, err) = reversi(&["solve", "--weights", weights.to_str().unwrap(), "-"]);
    assert!(!ok && err.contains("corrupt"), "{err}");
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "# header\n3 f5f5 +2\n").unwrap();
    let (ok, _, err) = reversi(&["train", bad.to_str().unwrap(), "--out", "/dev/null"]);
    assert!(!ok && err.contains("bad.txt:2:"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

/// `relabel` on a small self-play file: a run cut in the middle of a game's
/// lines resumes to the same file as an uninterrupted run, other settings
/// are refused, and `train` fits the labels, from zero or from given weights.
#[test]
fn relabel_resumes_and_train_reads_the_labels() {
    let dir = std::env::temp_dir().join(format!("reversi-relabel-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let games = dir.join("games.txt");
    let (ok, _, err) = reversi(&[
        "selfplay",
        "--out",
        games.to_str().unwrap(),
        "--games",
        "10",
        "--depth",
        "2",
        "--exact",
        "8",
        "--threads",
        "2",
    ]);
    assert!(ok, "{err}");
    let relabel_with = |out: &std::path::Path, extra: &[&str]| {
        let mut args = vec![
            "relabel",
            games.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--exact",
            "10",
            "--per-game",
            "6",
        ];
        args.extend(extra);
        reversi(&args)
    };
    let relabel = |out: &std::path::Path, max: &str| {
        relabel_with(out, &["--max-games", max, "--depth", "3", "--threads", "2"])
    };
    let whole = dir.join("whole.txt");
    let part = dir.join("part.txt");
    let (ok, _, err) = relabel(&whole, "10");
    assert!(ok, "{err}");
    let text = std::fs::read_to_string(&whole).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("# reversi relabel v1 depth=3 exact=10"));
    assert_eq!(lines.len(), 1 + 60, "six positions from each of ten games");
    // Four games, then a kill in the middle of the fifth game's lines.
    assert!(relabel(&part, "4").0);
    let mut cut = std::fs::read_to_string(&part).unwrap();
    cut.push_str(lines[25]);
    cut.push('\n');
    cut.push_str(&lines[26][..30]);
    std::fs::write(&part, cut).unwrap();
    let (ok, _, err) = relabel(&part, "10");
    assert!(ok, "{err}");
    assert_eq!(std::fs::read_to_string(&part).unwrap(), text);
    // Other settings on an existing file: refused.
    let (ok, _, err) = reversi(&[
        "relabel",
        games.to_str().unwrap(),
        "--out",
        part.to_str().unwrap(),
        "--depth",
        "4",
    ]);
    assert!(!ok && err.contains("other settings"), "{err}");

    let weights = dir.join("w.rvw");
    let train = |extra: &[&str]| {
        let mut args = vec![
            "train",
            whole.to_str().unwrap(),
            "--out",
            weights.to_str().unwrap(),
            "--phases",
            "2",
            "--epochs",
            "10",
            "--validation",
            "0.3",
        ];
        args.extend(extra);
        reversi(&args)
    };
    let (ok, out, err) = train(&[]);
    assert!(ok, "{err}");
    assert!(err.contains("1 labels files"), "{err}");
    assert!(
        out.contains("valid-MAE") && !out.contains("init-MAE"),
        "{out}"
    );
    let first = std::fs::read(&weights).unwrap();
    // From the weights just written: regularised towards them.
    let prior = dir.join("prior.rvw");
    std::fs::write(&prior, &first).unwrap();
    let (ok, out, err) = train(&["--init", prior.to_str().unwrap()]);
    assert!(ok, "{err}");
    assert!(out.contains("init-MAE"), "{out}");
    assert!(PatternWeights::from_bytes(&std::fs::read(&weights).unwrap()).is_ok());
    // A prior with another number of phases is spread over them; with no
    // pass, the spread prior is written as it is.
    let spread = dir.join("spread.rvw");
    let spread_train = |phases: &str, epochs: &str| {
        reversi(&[
            "train",
            whole.to_str().unwrap(),
            "--out",
            spread.to_str().unwrap(),
            "--phases",
            phases,
            "--epochs",
            epochs,
            "--init",
            prior.to_str().unwrap(),
        ])
    };
    let (ok, _, err) = spread_train("3", "10");
    assert!(ok && err.contains("2 phases spread over 3"), "{err}");
    let (ok, out, err) = spread_train("5", "0");
    assert!(ok && out.contains("init-MAE"), "{err}");
    let prior_weights = PatternWeights::from_bytes(&first).unwrap();
    assert_eq!(
        PatternWeights::from_bytes(&std::fs::read(&spread).unwrap()).unwrap(),
        prior_weights.spread(5)
    );
    let (ok, _, err) = reversi(&[
        "train",
        whole.to_str().unwrap(),
        "--out",
        spread.to_str().unwrap(),
        "--epochs",
        "0",
    ]);
    assert!(!ok && err.contains("--epochs 0 needs --init"), "{err}");
    // Split by parity from the unsplit prior: four sets, and that file is
    // then a prior for --parity only.
    let (ok, out, err) = train(&["--init", prior.to_str().unwrap(), "--parity"]);
    assert!(ok, "{err}");
    assert_eq!(out.lines().filter(|l| l.contains("..")).count(), 4, "{out}");
    assert_eq!(out.matches(" even ").count(), 2, "{out}");
    assert_eq!(out.matches(" odd ").count(), 2, "{out}");
    let split = PatternWeights::from_bytes(&std::fs::read(&weights).unwrap()).unwrap();
    assert!(split.parity() && split.phases() == 4);
    std::fs::write(&prior, std::fs::read(&weights).unwrap()).unwrap();
    let (ok, _, err) = train(&["--init", prior.to_str().unwrap()]);
    assert!(!ok && err.contains("--parity"), "{err}");
    // Split weights spread over more bands than --parity allows: an error
    // either way, not a panic.
    let (ok, _, err) = spread_train("40", "0");
    assert!(!ok && err.contains("add --parity"), "{err}");
    assert!(train(&["--init", prior.to_str().unwrap(), "--parity"]).0);
    let (ok, _, err) = reversi(&[
        "train",
        whole.to_str().unwrap(),
        "--out",
        dir.join("unused.rvw").to_str().unwrap(),
        "--parity",
        "--phases",
        "31",
    ]);
    assert!(!ok && err.contains("30 phases"), "{err}");
    // A selective labelling search: its selectivity is in the header.
    let selective = dir.join("selective.txt");
    let (ok, _, err) = relabel_with(
        &selective,
        &["--depth", "4", "--selectivity", "4", "--threads", "1"],
    );
    assert!(ok, "{err}");
    let text = std::fs::read_to_string(&selective).unwrap();
    assert!(
        text.starts_with(
            "# reversi relabel v1 depth=4 exact=10 per-game=6 empties=0..54 seed=1 sel=4\n"
        ),
        "{text}"
    );
    assert_eq!(text.lines().count(), 1 + 60);
    // Positions of a games file by empties: two disjoint ranges add up to
    // the whole file (self-play positions have 0..=59 empties).
    let scratch = dir.join("scratch.rvw");
    let positions = |extra: &[&str]| {
        let mut args = vec![
            "train",
            games.to_str().unwrap(),
            "--out",
            scratch.to_str().unwrap(),
            "--phases",
            "1",
            "--epochs",
            "1",
        ];
        args.extend(extra);
        let (ok, _, err) = reversi(&args);
        assert!(ok, "{err}");
        let words: Vec<&str> = err.split_whitespace().collect();
        let count = |what: &str| -> usize {
            let i = words.iter().position(|w| *w == what).expect(what);
            words[i - 1].parse().unwrap()
        };
        count("training") + count("validation")
    };
    let all = positions(&[]);
    let late = positions(&["--game-empties", "0..20"]);
    let early = positions(&["--game-empties", "21..59"]);
    assert!(late > 0 && early > 0, "{late} {early}");
    assert_eq!(late + early, all);
    let (ok, _, err) = train(&["--game-empties", "30..20"]);
    assert!(!ok && err.contains("MIN"), "{err}");
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, format!("{}\n{}\n1 XO 2\n", lines[0], lines[1])).unwrap();
    let (ok, _, err) = reversi(&["train", bad.to_str().unwrap(), "--out", "/dev/null"]);
    assert!(!ok && err.contains("bad.txt:3:"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

/// A self-play file is a function of its settings and seed: the same bytes
/// on one thread or several, and the same bytes as the committed file of
/// these settings (written when the run was first made reproducible), so
/// that a change of generator, opening draw or search shows here.
#[test]
fn selfplay_files_replay_byte_for_byte_on_any_number_of_threads() {
    let dir = std::env::temp_dir().join(format!("reversi-replay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let expected = include_str!("data/selfplay-seed7.txt");
    for threads in ["1", "3"] {
        let out = dir.join(format!("games-{threads}.txt"));
        let (ok, _, err) = reversi(&[
            "selfplay",
            "--out",
            out.to_str().unwrap(),
            "--games",
            "6",
            "--depth",
            "2",
            "--exact",
            "8",
            "--random",
            "6..12",
            "--seed",
            "7",
            "--threads",
            threads,
        ]);
        assert!(ok, "{err}");
        assert_eq!(
            std::fs::read_to_string(&out).unwrap(),
            expected,
            "{threads} threads"
        );
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// `selfplay --labels`: the same file on one or two threads, a run cut in
/// the middle of a game's lines resumes to the same file, other settings
/// are refused, `--explore` and `--weights` need `--labels`, and `train`
/// reads the labels, with their line values under `--ahead`.
#[test]
fn selfplay_labels_resume_and_train_reads_them() {
    let dir = std::env::temp_dir().join(format!("reversi-playlabels-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let run = |out: &std::path::Path, games: &str, threads: &str| {
        reversi(&[
            "selfplay",
            "--labels",
            "--out",
            out.to_str().unwrap(),
            "--games",
            games,
            "--depth",
            "3",
            "--exact",
            "8",
            "--selectivity",
            "2",
            "--random",
            "4..8",
            "--explore",
            "100",
            "--threads",
            threads,
        ])
    };
    let one = dir.join("one.lab");
    let two = dir.join("two.lab");
    assert!(run(&one, "6", "1").0);
    let (ok, _, err) = run(&two, "6", "2");
    assert!(ok, "{err}");
    let text = std::fs::read_to_string(&one).unwrap();
    assert_eq!(std::fs::read_to_string(&two).unwrap(), text);
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].starts_with("# reversi relabel v1 selfplay depth=3 exact=8 sel=2"),
        "{}",
        lines[0]
    );
    // Every game labels most of its positions: six games, 40 or more each.
    assert!(lines.len() > 6 * 40, "{}", lines.len());
    let games: std::collections::BTreeSet<&str> = lines[1..]
        .iter()
        .map(|l| l.split(' ').next().unwrap())
        .collect();
    assert_eq!(games.len(), 6);
    // Three games, then a kill in the middle of the fourth game's lines.
    let part = dir.join("part.lab");
    assert!(run(&part, "3", "2").0);
    let have = std::fs::read_to_string(&part).unwrap().lines().count();
    let mut cut = std::fs::read_to_string(&part).unwrap();
    cut.push_str(lines[have]);
    cut.push('\n');
    cut.push_str(&lines[have + 1][..20]);
    std::fs::write(&part, cut).unwrap();
    let (ok, _, err) = run(&part, "6", "2");
    assert!(ok, "{err}");
    assert_eq!(std::fs::read_to_string(&part).unwrap(), text);
    let (ok, _, err) = reversi(&[
        "selfplay",
        "--labels",
        "--out",
        part.to_str().unwrap(),
        "--depth",
        "4",
    ]);
    assert!(!ok && err.contains("other settings"), "{err}");
    let (ok, _, err) = reversi(&[
        "selfplay",
        "--out",
        part.to_str().unwrap(),
        "--explore",
        "5",
    ]);
    assert!(!ok && err.contains("--labels"), "{err}");

    let weights = dir.join("w.rvw");
    let (ok, out, err) = reversi(&[
        "train",
        one.to_str().unwrap(),
        "--out",
        weights.to_str().unwrap(),
        "--phases",
        "2",
        "--epochs",
        "10",
    ]);
    assert!(ok, "{err}");
    assert!(out.contains("valid-MAE"), "{out}");

    // Every label carries its line value, and `--ahead` fits to it.
    assert!(
        lines[1..].iter().all(|l| l.split(' ').count() == 4),
        "{}",
        lines[1]
    );
    let ahead = dir.join("ahead.rvw");
    let train_ahead = |w: &str| {
        reversi(&[
            "train",
            one.to_str().unwrap(),
            "--out",
            ahead.to_str().unwrap(),
            "--phases",
            "2",
            "--epochs",
            "10",
            "--ahead",
            w,
        ])
    };
    let (ok, _, err) = train_ahead("1");
    assert!(ok, "{err}");
    assert_ne!(
        std::fs::read(&ahead).unwrap(),
        std::fs::read(&weights).unwrap()
    );
    let (ok, _, err) = train_ahead("1.5");
    assert!(!ok && err.contains("--ahead"), "{err}");

    // Other weights play and label other games; games files refuse them.
    let two_games = |name: &str, weights: Option<&std::path::Path>| {
        let out = dir.join(name);
        let mut args = vec!["selfplay", "--labels", "--out", out.to_str().unwrap()];
        args.extend(["--games", "2", "--depth", "3", "--exact", "8"]);
        if let Some(w) = weights {
            args.extend(["--weights", w.to_str().unwrap()]);
        }
        let (ok, _, err) = reversi(&args);
        assert!(ok, "{err}");
        std::fs::read_to_string(&out).unwrap()
    };
    assert_ne!(
        two_games("other.lab", Some(&weights)),
        two_games("shipped.lab", None)
    );
    let (ok, _, err) = reversi(&[
        "selfplay",
        "--out",
        dir.join("games.txt").to_str().unwrap(),
        "--weights",
        weights.to_str().unwrap(),
    ]);
    assert!(!ok && err.contains("--labels"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}
