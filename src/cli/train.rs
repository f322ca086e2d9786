//! `reversi train`: fit the pattern evaluation to games: self-play files and
//! game collections (WTHOR, GGF, Logistello's list, transcripts).
//!
//! A collection game becomes a training game labelled with its final board's
//! disc margin (empties for nobody, as self-play's): the recorded score is not
//! used, because some WTHOR games record a score their board does not have. A
//! game that is not over on its board has no label and is left out. With
//! `--wthor-theoretical`, a WTHOR game gives instead one exact label: its
//! position at the header's depth, with the recorded score under perfect play
//! (and with `--wthor-line-from`, its positions before that one, labelled
//! with the same score).

use super::UserError;
use crate::ai::PatternWeights;
use crate::learn::dataset::{Sample, sample_for_black, samples_of, validation_games};
use crate::learn::fit::{FitConfig, PhaseReport, fit};
use crate::learn::relabel::Labelled;
use crate::learn::selfplay::{self, GameRecord};
use crate::notation::collection::{self, Format, final_margin};
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `reversi train`.
#[derive(Debug, clap::Args)]
#[command(allow_negative_numbers = true)]
pub struct TrainArgs {
    /// Games files: written by `reversi selfplay` or labels written by
    /// `reversi relabel` (both recognised by their header), or collections
    /// (`.wtb`, `.ggf`, `.gam`, transcripts).
    #[arg(required = true)]
    pub games: Vec<PathBuf>,
    /// Read every collection file in this format instead of guessing it from
    /// its extension and contents.
    #[arg(long, value_enum)]
    pub format: Option<super::convert::FormatArg>,
    /// Where to write the weights (atomically).
    #[arg(long, short)]
    pub out: PathBuf,
    /// Use at most this many games (the first ones of the files).
    #[arg(long)]
    pub max_games: Option<usize>,
    /// Game phases (bands of the game; one weight set each, or two with
    /// `--parity`).
    #[arg(long, default_value_t = FitConfig::default().phases as u32, value_parser = clap::value_parser!(u32).range(1..=60))]
    pub phases: u32,
    /// Give each phase one weight set per parity of the empties (who is
    /// due the last move of the game); `--init` weights without the split
    /// are split, both halves starting from the same values.
    #[arg(long)]
    pub parity: bool,
    /// Full-batch passes over the data (0: write the `--init` weights,
    /// spread over `--phases`, as they are, with their validation error).
    #[arg(long, default_value_t = FitConfig::default().epochs as u32, value_parser = clap::value_parser!(u32).range(0..=100_000))]
    pub epochs: u32,
    /// Adam step size, in discs.
    #[arg(long, default_value_t = FitConfig::default().rate)]
    pub rate: f32,
    /// L2 regularisation as pseudo-observations per weight.
    #[arg(long, default_value_t = FitConfig::default().l2)]
    pub l2: f32,
    /// Fraction of games held out for validation.
    #[arg(long, default_value_t = 0.1)]
    pub validation: f64,
    /// Seed of the validation split.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Leave out the side-to-move bias per number of empties (it keeps its
    /// starting value: zero, or the bias of `--init`).
    #[arg(long)]
    pub no_bias: bool,
    /// Start from these weights and regularise towards them instead of
    /// towards zero. Weights with another number of phases are first spread
    /// over `--phases` (each set interpolated between the two sets whose
    /// bands' centres lie on either side of its own).
    #[arg(long, value_name = "WEIGHTS")]
    pub init: Option<PathBuf>,
    /// Threads (default: one per core).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: Option<u32>,
    /// Fit self-play labels to `(1 − W)·label + W·line value`: the line
    /// value is the label of the furthest position the game reached from
    /// the labelled one without a random move (see `reversi selfplay
    /// --labels`). Validation errors stay against the labels themselves.
    #[arg(long, value_name = "W", default_value_t = 0.0)]
    pub ahead: f64,
    /// Take from games files (labelled by their outcome) only the positions
    /// with this many empties, as MIN..MAX: late positions of well-played
    /// games, whose outcome is close to their value under perfect play.
    /// Labels files are not filtered. Default: every position.
    #[arg(long, value_name = "MIN..MAX", value_parser = super::resumable::parse_range)]
    pub game_empties: Option<(u32, u32)>,
    /// Take from WTHOR files (`.wtb`) their theoretical scores instead of
    /// their outcomes: per game, the position with as many empties as the
    /// file's header says (24 in the federation's files), labelled with
    /// Black's score under perfect play from there as recorded. One exact
    /// label per game; positions split into training and validation as a
    /// labels file's games, numbered across the WTHOR files in order.
    #[arg(long)]
    pub wthor_theoretical: bool,
    /// With `--wthor-theoretical`, also each game's positions from this many
    /// empties down to the header's depth, all labelled with the game's
    /// theoretical score (the line as played to the depth, perfectly from
    /// there). Default: the position at the depth alone.
    #[arg(long, value_name = "EMPTIES", requires = "wthor_theoretical")]
    pub wthor_line_from: Option<u8>,
}

/// Whether `path` starts with `prefix` (a file written by `reversi
/// selfplay` or `reversi relabel`).
fn starts_with(path: &std::path::Path, prefix: &[u8]) -> bool {
    use std::io::Read;
    let mut head = [0u8; 20];
    let n = std::fs::File::open(path)
        .and_then(|mut f| f.read(&mut head))
        .unwrap_or(0);
    head[..n].starts_with(prefix)
}

/// Whether `path` starts like a file written by `reversi selfplay`.
fn is_selfplay_file(path: &std::path::Path) -> bool {
    starts_with(path, b"# reversi selfplay")
}

/// Whether `path` starts like a file written by `reversi relabel`.
fn is_relabel_file(path: &std::path::Path) -> bool {
    starts_with(path, b"# reversi relabel")
}

/// The labelled positions of a `reversi relabel` file, split into training
/// and validation samples by game (the game numbers of the file), the same
/// split for the same seed and fraction.
fn read_labels(
    path: &std::path::Path,
    ahead: f64,
    fraction: f64,
    seed: u64,
    train: &mut Vec<Sample>,
    validation: &mut Vec<Sample>,
) -> Result<(), UserError> {
    use std::io::BufRead;
    let file = std::fs::File::open(path).map_err(|e| UserError::file(path, e))?;
    let mut held = Vec::new();
    for (i, line) in std::io::BufReader::new(file).lines().enumerate() {
        let line = line.map_err(|e| UserError::file(path, e))?;
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let l = Labelled::parse_line(&line).ok_or_else(|| {
            UserError::input(format!(
                "{}:{}: not a labelled position",
                path.display(),
                i + 1
            ))
        })?;
        if l.game >= held.len() {
            // The split is a prefix-stable sequence: grow it by doubling.
            held = validation_games((l.game + 1).max(2 * held.len()), fraction, seed);
        }
        let discs = |v: f64| v.round().clamp(-64.0, 64.0) as i8;
        if held[l.game] {
            validation.push(Sample::new(l.player, l.opponent, discs(l.target(0.0))));
        } else {
            train.push(Sample::new(l.player, l.opponent, discs(l.target(ahead))));
        }
    }
    Ok(())
}

/// The positions of the WTHOR files `paths` that their theoretical scores
/// label (see [`crate::notation::wthor::WthorGame::theoretical_line`], from
/// `from` empties, the header's depth when `None`), split into training and
/// validation samples by game, the games with a label numbered across the
/// files as a labels file's games. Reports the counts per file on stderr.
fn read_theoretical(
    paths: &[PathBuf],
    from: Option<u8>,
    fraction: f64,
    seed: u64,
    train: &mut Vec<Sample>,
    validation: &mut Vec<Sample>,
) -> Result<(), UserError> {
    let mut games: Vec<Vec<Sample>> = Vec::new();
    for path in paths {
        let wtb = collection::read_wtb(path).map_err(UserError::input)?;
        let depth = wtb.header.depth;
        let (before, mut positions) = (games.len(), 0);
        for g in &wtb.games {
            let line = g.theoretical_line(depth, from.unwrap_or(depth));
            if !line.is_empty() {
                positions += line.len();
                games.push(line.iter().map(|(p, b)| sample_for_black(p, *b)).collect());
            }
        }
        eprintln!(
            "{}: {} games, {} labelled by their theoretical score at {depth} empties ({positions} positions)",
            path.display(),
            wtb.games.len(),
            games.len() - before
        );
    }
    let held = validation_games(games.len(), fraction, seed);
    for (s, v) in games.into_iter().zip(held) {
        if v {
            validation.extend(s);
        } else {
            train.extend(s);
        }
    }
    Ok(())
}

/// Reads the games of `paths`, at most `max` in all, reporting per collection
/// file how many games had no label.
pub(super) fn read_games(
    paths: &[PathBuf],
    max: usize,
    format: Option<Format>,
) -> Result<Vec<GameRecord>, UserError> {
    let mut games = Vec::new();
    for path in paths {
        let room = max - games.len();
        if format.is_none() && is_selfplay_file(path) {
            let more =
                selfplay::read_games(path, room).map_err(|e| super::games_file_error(path, &e))?;
            games.extend(more);
            continue;
        }
        let records = collection::read_path(path, format).map_err(UserError::input)?;
        let total = records.len();
        let mut unfinished = 0;
        for r in &records {
            if games.len() >= max {
                break;
            }
            let Some(margin) = final_margin(r) else {
                unfinished += 1;
                continue;
            };
            games.push(GameRecord {
                random_plies: 0,
                moves: r.game.moves().to_vec(),
                margin,
            });
        }
        eprintln!(
            "{}: {total} games, {unfinished} not over on the board (left out)",
            path.display()
        );
    }
    Ok(games)
}

/// Runs `reversi train`.
pub fn run(args: &TrainArgs) -> Result<(), UserError> {
    if !(0.0..1.0).contains(&args.validation) {
        return Err(UserError::input("--validation must be in [0, 1)"));
    }
    if !(0.0..=1.0).contains(&args.ahead) {
        return Err(UserError::input("--ahead must be in [0, 1]"));
    }
    if args.epochs == 0 && args.init.is_none() {
        return Err(UserError::input("--epochs 0 needs --init"));
    }
    if args.parity && args.phases > 30 {
        return Err(UserError::input(
            "--parity allows at most 30 phases (60 weight sets)",
        ));
    }
    let prior = read_prior(args)?;
    let (train, validation) = read_samples(args)?;
    let config = FitConfig {
        phases: args.phases as usize,
        parity: args.parity,
        epochs: args.epochs as usize,
        rate: args.rate,
        l2: args.l2,
        threads: super::resumable::threads_or_cores(args.threads),
        bias: !args.no_bias,
    };
    let t = Instant::now();
    let (weights, reports) = fit(
        &train,
        &validation,
        &config,
        prior.as_ref(),
        &|r: &PhaseReport| {
            eprintln!("  phase {:2} fitted", r.phase);
        },
    );
    print_reports(&reports, prior.is_some());
    // No pass: the starting weights as they are, search models included.
    let weights = match prior {
        Some(p) if args.epochs == 0 => p,
        _ => weights,
    };
    let bytes = weights.to_bytes();
    crate::storage::atomic_write(&args.out, &bytes)
        .map_err(|e| UserError::from(anyhow::anyhow!("{}: {e}", args.out.display())))?;
    println!(
        "fitted in {:.1} s; wrote {} ({} bytes)",
        t.elapsed().as_secs_f64(),
        args.out.display(),
        bytes.len()
    );
    Ok(())
}

/// The weights of `--init`, if given, checked to have `--phases` phases
/// and split by parity for `--parity`.
fn read_prior(args: &TrainArgs) -> Result<Option<PatternWeights>, UserError> {
    let Some(path) = &args.init else {
        return Ok(None);
    };
    let w = PatternWeights::read(path)
        .map_err(|e| UserError::input(format!("{}: {e}", path.display())))?;
    // The parity split first: `--phases` is checked against `--parity`.
    let w = match (w.parity(), args.parity) {
        (true, false) => {
            return Err(UserError::input(format!(
                "{}: its phases are split by parity; add --parity",
                path.display()
            )));
        }
        (false, true) => w.split_by_parity(),
        _ => w,
    };
    let bands = w.bands();
    if bands == args.phases as usize {
        return Ok(Some(w));
    }
    eprintln!(
        "{}: {bands} phases spread over {} by interpolation",
        path.display(),
        args.phases
    );
    Ok(Some(w.spread(args.phases as usize)))
}

/// The training and validation samples of every input file: labels files
/// split by position, games split by game. Reports the counts on stderr.
fn read_samples(args: &TrainArgs) -> Result<(Vec<Sample>, Vec<Sample>), UserError> {
    let start = Instant::now();
    let mut train: Vec<Sample> = Vec::new();
    let mut validation: Vec<Sample> = Vec::new();
    let (label_files, game_files): (Vec<PathBuf>, Vec<PathBuf>) = args
        .games
        .iter()
        .cloned()
        .partition(|p| args.format.is_none() && is_relabel_file(p));
    for path in &label_files {
        read_labels(
            path,
            args.ahead,
            args.validation,
            args.seed,
            &mut train,
            &mut validation,
        )?;
    }
    let game_files = if args.wthor_theoretical {
        let format = args.format.map(Format::from);
        let (wthor_files, rest): (Vec<PathBuf>, Vec<PathBuf>) = game_files
            .into_iter()
            .partition(|p| format.or_else(|| Format::from_path(p)) == Some(Format::Wthor));
        if wthor_files.is_empty() {
            return Err(UserError::input(
                "--wthor-theoretical needs at least one WTHOR file (.wtb)",
            ));
        }
        read_theoretical(
            &wthor_files,
            args.wthor_line_from,
            args.validation,
            args.seed,
            &mut train,
            &mut validation,
        )?;
        rest
    } else {
        game_files
    };
    let games = read_games(
        &game_files,
        args.max_games.unwrap_or(usize::MAX),
        args.format.map(Format::from),
    )?;
    if games.is_empty() && train.is_empty() {
        return Err(UserError::input("no games to train on"));
    }
    let held = validation_games(games.len(), args.validation, args.seed);
    let (low, high) = args.game_empties.unwrap_or((0, 60));
    for (g, &v) in games.iter().zip(&held) {
        let s = samples_of(g)
            .into_iter()
            .filter(|s| (low..=high).contains(&u32::from(s.empties)));
        if v {
            validation.extend(s);
        } else {
            train.extend(s);
        }
    }
    eprintln!(
        "{} games ({} held out) and {} labels files: {} training and {} validation positions, read in {:.1} s",
        games.len(),
        held.iter().filter(|&&v| v).count(),
        label_files.len(),
        train.len(),
        validation.len(),
        start.elapsed().as_secs_f64()
    );
    Ok((train, validation))
}

/// The table of errors per phase (with the starting weights' error when
/// training from `--init`).
fn print_reports(reports: &[PhaseReport], with_prior: bool) {
    let split = reports.iter().any(|r| r.odd.is_some());
    println!(
        "phase  empties{}  train-pos  valid-pos  train-MAE  valid-MAE  zero-MAE{}",
        if split { "     " } else { "" },
        if with_prior { "  init-MAE" } else { "" }
    );
    for r in reports {
        let init = if with_prior {
            format!("  {:8.2}", r.start_mae)
        } else {
            String::new()
        };
        let parity = match r.odd {
            None => "",
            Some(false) => " even",
            Some(true) => " odd ",
        };
        println!(
            "{:5}  {:2}..{:2}{parity}  {:9}  {:9}  {:9.2}  {:9.2}  {:8.2}{init}",
            r.phase,
            r.empties.0,
            r.empties.1,
            r.train,
            r.validation,
            r.train_mae,
            r.validation_mae,
            r.baseline_mae
        );
    }
}
