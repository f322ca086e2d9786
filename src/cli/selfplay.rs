//! `reversi selfplay`: generate training games into a resumable file.

use super::UserError;
use crate::learn::selfplay::{self, GameRecord, SelfPlayConfig};
use std::io::{BufRead, Seek, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Arguments of `reversi selfplay`.
#[derive(Debug, clap::Args)]
#[command(allow_negative_numbers = true)]
pub struct SelfPlayArgs {
    /// The games file; an existing file with the same settings is resumed.
    #[arg(long, short)]
    pub out: PathBuf,
    /// Total number of games the file should hold.
    #[arg(long, default_value_t = 1000, value_parser = clap::builder::RangedI64ValueParser::<u64>::new().range(1..=100_000_000))]
    pub games: u64,
    /// Midgame search depth.
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u32).range(1..=30))]
    pub depth: u32,
    /// Solve exactly from this many empties (the labels of those positions are exact).
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(0..=26))]
    pub exact: u32,
    /// Random opening plies, as MIN..MAX.
    #[arg(long, default_value = "8..20", value_parser = parse_range)]
    pub random: (u32, u32),
    /// Seed of the openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once (default: one per core).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: Option<u32>,
    /// Hash table per thread, MiB.
    #[arg(long, default_value_t = 16, value_name = "MB", value_parser = super::parse_hash)]
    pub hash: u32,
    /// Write a labels file for `reversi train` instead of games: every
    /// position searched, labelled by the search's score (the mean of its
    /// last two depths; exact from `--exact` empties).
    #[arg(long)]
    pub labels: bool,
    /// With `--labels`: ProbCut selectivity of the midgame search, 0 none,
    /// 1 (2.6 σ) … 4 (1.1 σ, as the nominal depths).
    #[arg(long, default_value_t = 0, requires = "labels", value_parser = clap::value_parser!(u8).range(0..=4))]
    pub selectivity: u8,
    /// With `--labels`: the chance, in thousandths, that a move after the
    /// random opening is a random legal move instead of the engine's.
    #[arg(long, default_value_t = 0, requires = "labels", value_parser = clap::value_parser!(u32).range(0..=1000))]
    pub explore: u32,
}

/// `MIN..MAX` of two whole numbers with MIN ≤ MAX ≤ 59.
pub(super) fn parse_range(s: &str) -> Result<(u32, u32), String> {
    let (a, b) = s
        .split_once("..")
        .ok_or_else(|| format!("\"{s}\" is not MIN..MAX"))?;
    let a: u32 = a
        .trim()
        .parse()
        .map_err(|_| format!("\"{a}\" is not a number"))?;
    let b: u32 = b
        .trim()
        .parse()
        .map_err(|_| format!("\"{b}\" is not a number"))?;
    if a > b || b > 59 {
        return Err(format!("{a}..{b}: need MIN ≤ MAX ≤ 59"));
    }
    Ok((a, b))
}

/// Reads an existing resumable file: checks its header against `header`,
/// hands every whole line after it to `line` (with the byte offset where it
/// starts; `line` says whether it is valid) and returns the byte length up
/// to the last whole line. `None` when the file does not exist or is empty.
pub(super) fn existing(
    path: &Path,
    header: &str,
    mut line: impl FnMut(u64, &str) -> bool,
) -> Result<Option<u64>, UserError> {
    let file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(UserError::file(path, e)),
    };
    let mut reader = std::io::BufReader::new(file);
    let mut text = String::new();
    let mut offset = 0u64;
    let mut number = 0usize;
    loop {
        text.clear();
        let n = reader
            .read_line(&mut text)
            .map_err(|e| UserError::file(path, e))?;
        if n == 0 || !text.ends_with('\n') {
            break;
        }
        number += 1;
        let t = text.trim_end();
        if number == 1 {
            if t != header {
                return Err(UserError::input(format!(
                    "{}: made with other settings (\"{t}\"); use another file or the same settings",
                    path.display()
                )));
            }
        } else if !line(offset, t) {
            return Err(UserError::input(format!(
                "{}:{number}: not a valid line of this file",
                path.display()
            )));
        }
        offset += n as u64;
    }
    Ok((number > 0).then_some(offset))
}

/// Opens a resumable file for appending: cut to `keep` bytes (dropping a
/// line cut short by a kill) when it exists, else created with `header`.
pub(super) fn open_resumable(
    path: &Path,
    header: &str,
    keep: Option<u64>,
) -> Result<std::fs::File, UserError> {
    let open = || -> std::io::Result<std::fs::File> {
        if let Some(len) = keep {
            let mut f = std::fs::OpenOptions::new().write(true).open(path)?;
            f.set_len(len)?;
            f.seek(std::io::SeekFrom::End(0))?;
            Ok(f)
        } else {
            let mut f = std::fs::File::create(path)?;
            writeln!(f, "{header}")?;
            Ok(f)
        }
    };
    open().map_err(|e| UserError::file(path, e))
}

/// `--threads`, or one per core when it is not given.
pub(super) fn threads_or_cores(threads: Option<u32>) -> usize {
    threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, usize::from),
        |t| t as usize,
    )
}

/// Runs `reversi selfplay`.
pub fn run(args: &SelfPlayArgs) -> Result<(), UserError> {
    if args.labels {
        return run_labels(args);
    }
    let config = SelfPlayConfig {
        depth: args.depth,
        exact: args.exact,
        random_min: args.random.0,
        random_max: args.random.1,
        seed: args.seed,
    };
    let header = config.header();
    let mut done = 0u64;
    let keep = existing(&args.out, &header, |_, line| {
        done += 1;
        GameRecord::parse_line(line).is_some()
    })?;
    let file = open_resumable(&args.out, &header, keep)?;
    if done >= args.games {
        eprintln!("{}: already holds {done} games", args.out.display());
        return Ok(());
    }
    let threads = threads_or_cores(args.threads);
    let mut out = std::io::BufWriter::new(file);
    let stop = AtomicBool::new(false);
    let start = Instant::now();
    let total = args.games as usize;
    let mut error = None;
    selfplay::run(
        &config,
        done as usize,
        total,
        threads,
        args.hash as usize,
        &stop,
        |i, game| {
            let r = writeln!(out, "{}", game.to_line()).and_then(|()| out.flush());
            if let Err(e) = r {
                error.get_or_insert(e);
                stop.store(true, std::sync::atomic::Ordering::Relaxed);
            }
            progress(i + 1 - done as usize, i + 1, total, start);
        },
    );
    eprintln!();
    match error {
        Some(e) => Err(UserError::file(&args.out, e)),
        None => Ok(()),
    }
}

/// Runs `reversi selfplay --labels`: games of self-play written as the
/// labels of their searched positions ([`crate::learn::playlabels`]).
fn run_labels(args: &SelfPlayArgs) -> Result<(), UserError> {
    use crate::learn::playlabels::{PlayLabelConfig, play_labelled};
    let config = PlayLabelConfig {
        depth: args.depth,
        exact: args.exact,
        selectivity: args.selectivity,
        random_min: args.random.0,
        random_max: args.random.1,
        explore: args.explore,
        seed: args.seed,
    };
    let header = config.header();
    // The last game in the file is played again (a kill may have cut it).
    let super::relabel::Resume { first, keep, last } = super::relabel::resume(&args.out, &header)?;
    let total = args.games as usize;
    if last.is_some() && first >= total {
        eprintln!("{}: already holds {total} games", args.out.display());
        return Ok(());
    }
    let file = open_resumable(&args.out, &header, keep)?;
    let mut out = std::io::BufWriter::new(file);
    let stop = AtomicBool::new(false);
    let start = Instant::now();
    let result = crate::parallel::run_in_order(
        first..total,
        threads_or_cores(args.threads),
        &stop,
        || crate::ai::Engine::new(args.hash as usize),
        |engine, i| play_labelled(engine, &config, i as u64),
        |i, labelled| {
            let mut text = String::new();
            for l in &labelled {
                text.push_str(&l.to_line());
                text.push('\n');
            }
            out.write_all(text.as_bytes()).and_then(|()| out.flush())?;
            progress(i + 1 - first, i + 1, total, start);
            Ok::<_, std::io::Error>(())
        },
    );
    eprintln!();
    result.map_err(|e| UserError::file(&args.out, e))
}

/// One progress line on stderr: a bar, the count, the rate and the time left.
pub(super) fn progress(new: usize, have: usize, total: usize, start: Instant) {
    let secs = start.elapsed().as_secs_f64();
    let rate = new as f64 / secs.max(1e-9);
    let left = (total - have) as f64 / rate.max(1e-9);
    let width = 30;
    let filled = have * width / total.max(1);
    eprint!(
        "\r[{}{}] {have}/{total} games  {rate:.1}/s  {:.0} min left ",
        "#".repeat(filled),
        " ".repeat(width - filled),
        left / 60.0
    );
}
