//! `reversi book`: build, extend and read the opening book
//! ([`crate::ai::book`]).
//!
//! * `build GAMES… --out FILE`: the positions of the standard 8×8 game that at
//!   least `--min-games` games reach within `--plies` moves (merged under the
//!   eight symmetries); for each, a search of `--depth` among the moves that
//!   do not lead into the book (its best unplayed move, the leaf); then the
//!   values by negamax from the fullest boards down.
//! * `extend FILE`: searches again the leaves below `--depth`, and with
//!   `--widen N` adds up to N positions reached by the leaves closest to
//!   their position's value (what the games did not try), each searched.
//! * `show MOVES`: a position's book moves and values; `stats`: size and
//!   depth.
//!
//! The searches are the long part: they run on `--threads` threads, show
//! progress, and go to a work file (`FILE.part`, one line per position) that
//! a stopped run resumes from; the book itself is written atomically at the
//! end. Each search starts from an empty table, so a book depends on its
//! settings and games only, not on the number of threads.

use super::UserError;
use super::resumable::{existing, open_resumable, threads_or_cores};
use crate::ai::book::{
    Book, BookStep, EXACT_DEPTH, Entry, Key, NO_LEAF, after_passes, clamp, moves_into, propagate,
};
use crate::ai::{Engine, Level, Limits, Score};
use crate::notation::collection::{self, Format};
use crate::parallel;
use crate::rules::{BoardSize, Color, Move, Position, Rules, Square};
use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Arguments of `reversi book`.
#[derive(Debug, clap::Args)]
pub struct BookArgs {
    /// What to do.
    #[command(subcommand)]
    pub action: Action,
}

/// `reversi book`'s subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum Action {
    /// Build a book from game collections and the engine's searches.
    Build(BuildArgs),
    /// Search a book's shallow leaves again, or add the positions its best
    /// leaves lead to.
    Extend(ExtendArgs),
    /// Print a position's book moves and values.
    Show(ShowArgs),
    /// Print a book's size and depth.
    Stats(StatsArgs),
    /// Play the first moves of self-play games at a level and count the
    /// distinct lines they take, the book moves and the time spent.
    Lines(LinesArgs),
}

/// The search settings of `build` and `extend`.
#[derive(Debug, clap::Args)]
pub struct SearchArgs {
    /// The nominal search depth of a leaf (as `match --a nominal:N`).
    #[arg(long, default_value_t = 14, value_parser = clap::value_parser!(u32).range(1..=30))]
    pub depth: u32,
    /// Positions searched at once (default: one per core).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: Option<u32>,
    /// Hash table per thread, MiB.
    #[arg(long, default_value_t = 32, value_name = "MB", value_parser = super::parse_hash)]
    pub hash: u32,
}

/// Arguments of `reversi book build`.
#[derive(Debug, clap::Args)]
pub struct BuildArgs {
    /// Game collections (`.wtb`, `.ggf`, `.gam`, `.gam.gz`, transcripts) or
    /// folders of them.
    #[arg(required = true)]
    pub games: Vec<PathBuf>,
    /// The book to write.
    #[arg(long, short)]
    pub out: PathBuf,
    /// Keep the positions that at least this many games reach.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..))]
    pub min_games: u32,
    /// Keep positions up to this many moves from the start.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u32).range(1..=59))]
    pub plies: u32,
    /// The searches.
    #[command(flatten)]
    pub search: SearchArgs,
}

/// Arguments of `reversi book extend`.
#[derive(Debug, clap::Args)]
pub struct ExtendArgs {
    /// The book to extend.
    pub book: PathBuf,
    /// Where to write the result (default: over the book).
    #[arg(long, short)]
    pub out: Option<PathBuf>,
    /// Add up to this many positions: those the leaves closest to their
    /// position's value lead to.
    #[arg(long, default_value_t = 0)]
    pub widen: usize,
    /// Widen only through leaves within this many discs of their position's
    /// value.
    #[arg(long, default_value_t = 4.0)]
    pub margin: f64,
    /// The searches; leaves searched less deep than `--depth` are searched
    /// again.
    #[command(flatten)]
    pub search: SearchArgs,
}

/// Arguments of `reversi book show`.
#[derive(Debug, clap::Args)]
pub struct ShowArgs {
    /// Moves from the start, e.g. f5d6c3 (none: the start).
    #[arg(default_value = "")]
    pub moves: String,
    /// The book to read (default: the shipped one).
    #[arg(long)]
    pub book: Option<PathBuf>,
}

/// Arguments of `reversi book stats`.
#[derive(Debug, clap::Args)]
pub struct StatsArgs {
    /// The book to read (default: the shipped one).
    #[arg(long)]
    pub book: Option<PathBuf>,
}

/// Arguments of `reversi book lines`.
#[derive(Debug, clap::Args)]
pub struct LinesArgs {
    /// The level that plays both sides (1 to 12).
    #[arg(long, default_value = "12")]
    pub level: Level,
    /// Games played.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub games: u32,
    /// Moves played in each game, from the start.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=60))]
    pub moves: u32,
    /// Seed of the levels' choices (the same seed plays the same games).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once and their hash tables.
    #[command(flatten)]
    pub workers: super::Workers,
    /// The book to play from.
    #[command(flatten)]
    pub book: super::BookFlags,
}

/// Runs `reversi book`.
///
/// # Errors
/// Unreadable games or books, bad moves (status 2), a book that cannot be
/// written (status 1).
pub fn run(args: &BookArgs) -> Result<(), UserError> {
    match &args.action {
        Action::Build(a) => build(a),
        Action::Extend(a) => extend(a),
        Action::Show(a) => show(a),
        Action::Stats(a) => stats(a),
        Action::Lines(a) => lines(a),
    }
}

/// Reads a book file.
pub(super) fn read_book(path: &Path) -> Result<Book, UserError> {
    let bytes = std::fs::read(path).map_err(|e| UserError::file(path, e))?;
    Book::from_bytes(&bytes).map_err(|e| UserError::file(path, e))
}

fn book_or_shipped(path: Option<&Path>) -> Result<Book, UserError> {
    match path {
        Some(p) => read_book(p),
        None => Book::shipped()
            .map(|b| (*b).clone())
            .map_err(|e| UserError::input(format!("the shipped book: {e}"))),
    }
}

/// The collection files of `paths`: files as given, folders' files of a
/// known format, in name order.
fn collection_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, UserError> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut inside: Vec<PathBuf> = std::fs::read_dir(path)
                .map_err(|e| UserError::file(path, e))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.is_file() && Format::from_path(p).is_some())
                .collect();
            inside.sort();
            files.extend(inside);
        } else {
            files.push(path.clone());
        }
    }
    Ok(files)
}

/// How many games reach each position within `plies` moves (standard 8×8
/// games from the start only; each game counts once per position).
fn count_positions(paths: &[PathBuf], plies: u32) -> Result<(HashMap<Key, u32>, usize), UserError> {
    let start = Position::initial(BoardSize::Eight);
    let mut counts: HashMap<Key, u32> = HashMap::new();
    let mut games = 0usize;
    for path in collection_files(paths)? {
        let records = collection::read_path(&path, None).map_err(UserError::input)?;
        let mut used = 0usize;
        for r in &records {
            if r.game.start() != start
                || r.game.rules().size != BoardSize::Eight
                || r.game.rules().anti
            {
                continue;
            }
            used += 1;
            let mut p = start;
            let mut ply = 0;
            for &m in r.game.moves() {
                if ply >= plies {
                    break;
                }
                if m != Move::Pass {
                    *counts.entry(Key::of(&p).0).or_insert(0) += 1;
                    ply += 1;
                }
                p = p.play_unchecked(m);
            }
        }
        games += used;
        eprintln!("{}: {used} games of {}", path.display(), records.len());
    }
    Ok((counts, games))
}

/// The position of a key (the side to move's colour does not matter to the
/// book).
fn position_of(key: Key) -> Position {
    Position::from_side_relative(
        key.player,
        key.opponent,
        crate::rules::Color::Black,
        BoardSize::Eight,
    )
}

/// A leaf searched: the key it belongs to, the move in the key's
/// orientation, its value and depth (`None`: every move leads into the
/// book).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Leaf {
    key: Key,
    found: Option<(u8, i16, u8)>,
}

impl Leaf {
    fn to_line(self) -> String {
        match self.found {
            Some((sq, value, depth)) => format!(
                "{:016x} {:016x} {sq} {value} {depth}",
                self.key.player, self.key.opponent
            ),
            None => format!("{:016x} {:016x} -", self.key.player, self.key.opponent),
        }
    }

    fn parse(line: &str) -> Option<Leaf> {
        let mut f = line.split_ascii_whitespace();
        let player = u64::from_str_radix(f.next()?, 16).ok()?;
        let opponent = u64::from_str_radix(f.next()?, 16).ok()?;
        let key = Key { player, opponent };
        let first = f.next()?;
        if first == "-" {
            return f.next().is_none().then_some(Leaf { key, found: None });
        }
        let sq: u8 = first.parse().ok().filter(|&s| s < 64)?;
        let value: i16 = f.next()?.parse().ok()?;
        let depth: u8 = f.next()?.parse().ok()?;
        f.next().is_none().then_some(Leaf {
            key,
            found: Some((sq, value, depth)),
        })
    }
}

/// Searches the best move of the position of `key` outside the moves that
/// lead into `book` (an empty table each time: the result depends on the
/// position and settings only).
fn search_leaf(engine: &mut Engine, key: Key, book: &HashSet<Key>, depth: u32) -> Leaf {
    let position = position_of(key);
    let exclude = moves_into(&position, |k| book.contains(&k));
    engine.clear();
    let stop = AtomicBool::new(false);
    let rules = Rules::standard(BoardSize::Eight);
    let found = engine
        .search_excluding(&position, &rules, &Limits::nominal(depth), &stop, exclude)
        .and_then(|r| {
            let Move::Place(sq) = r.best_move else {
                return None;
            };
            let (value, depth) = match r.score {
                Score::Exact(d) => (d * 100, EXACT_DEPTH),
                Score::Estimate(c) => (c, u8::try_from(depth).unwrap_or(u8::MAX - 1)),
            };
            Some((sq.index() as u8, clamp(value), depth))
        });
    Leaf { key, found }
}

/// Searches the leaves of `todo` on several threads into the work file
/// `part` (resumed when it holds lines of the same `header`), and returns
/// every leaf of the work file.
fn search_leaves(
    todo: &[Key],
    book: &HashSet<Key>,
    part: &Path,
    header: &str,
    search: &SearchArgs,
) -> Result<HashMap<Key, Leaf>, UserError> {
    let mut done: HashMap<Key, Leaf> = HashMap::new();
    let keep = existing(part, header, |_, line| {
        Leaf::parse(line).map(|l| done.insert(l.key, l)).is_some()
    })?;
    let left: Vec<Key> = todo
        .iter()
        .copied()
        .filter(|k| !done.contains_key(k))
        .collect();
    let file = open_resumable(part, header, keep)?;
    let mut out = std::io::BufWriter::new(file);
    let total = todo.len();
    let resumed = total - left.len();
    if resumed > 0 {
        eprintln!(
            "{}: {resumed} of {total} searches already done",
            part.display()
        );
    }
    let stop = AtomicBool::new(false);
    let start = Instant::now();
    let mut new = 0usize;
    let mut shown = Instant::now();
    let result = parallel::run(
        0..left.len(),
        threads_or_cores(search.threads),
        &stop,
        || Engine::new(search.hash as usize),
        |engine, i| search_leaf(engine, left[i], book, search.depth),
        |_, leaf| {
            writeln!(out, "{}", leaf.to_line()).and_then(|()| out.flush())?;
            done.insert(leaf.key, leaf);
            new += 1;
            if shown.elapsed().as_secs_f64() >= 1.0 || resumed + new == total {
                shown = Instant::now();
                progress(new, resumed + new, total, start);
            }
            Ok(())
        },
    );
    if !left.is_empty() {
        eprintln!();
    }
    result.map_err(|e: std::io::Error| UserError::file(part, e))?;
    Ok(done)
}

/// One progress line on stderr.
fn progress(new: usize, have: usize, total: usize, start: Instant) {
    let secs = start.elapsed().as_secs_f64();
    let rate = new as f64 / secs.max(1e-9);
    let left = (total - have) as f64 / rate.max(1e-9);
    eprint!(
        "\r{have}/{total} positions searched  {rate:.2}/s  {:.0} min left ",
        left / 60.0
    );
}

/// The work file of a book being made.
fn part_path(out: &Path) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".part");
    PathBuf::from(name)
}

/// The entries of `keys` with their leaves and game counts, values
/// propagated.
fn entries(keys: &[Key], leaves: &HashMap<Key, Leaf>, games: &HashMap<Key, u32>) -> Vec<Entry> {
    let mut entries: Vec<Entry> = keys
        .iter()
        .map(|&key| {
            let found = leaves.get(&key).and_then(|l| l.found);
            Entry {
                key,
                value: found.map_or(0, |f| f.1),
                leaf_value: found.map_or(NO_LEAF, |f| f.1),
                leaf_move: found.map(|f| f.0),
                leaf_depth: found.map_or(0, |f| f.2),
                games: games.get(&key).copied().unwrap_or(0),
            }
        })
        .collect();
    propagate(&mut entries);
    entries
}

fn write_book(book: &Book, out: &Path, part: &Path, start: Instant) -> Result<(), UserError> {
    let mut stdout = std::io::stdout().lock();
    crate::storage::atomic_write(out, &book.to_bytes()).map_err(|e| UserError::file(out, e))?;
    let _ = std::fs::remove_file(part);
    writeln!(
        stdout,
        "{}: {} positions, depth {}, {} bytes, in {:.0} s",
        out.display(),
        book.len(),
        book.depth(),
        book.to_bytes().len(),
        start.elapsed().as_secs_f64()
    )?;
    Ok(())
}

fn build(args: &BuildArgs) -> Result<(), UserError> {
    let start = Instant::now();
    let (counts, games) = count_positions(&args.games, args.plies)?;
    let mut keys: Vec<Key> = counts
        .iter()
        .filter(|&(_, &n)| n >= args.min_games)
        .map(|(&k, _)| k)
        .collect();
    let root = Key::of(&Position::initial(BoardSize::Eight)).0;
    if !keys.contains(&root) {
        keys.push(root);
    }
    // Shallow positions first: a stopped run has searched the openings' trunk.
    keys.sort_by_key(|k| ((k.player | k.opponent).count_ones(), *k));
    eprintln!(
        "{games} games: {} positions reached by at least {} games within {} moves",
        keys.len(),
        args.min_games,
        args.plies
    );
    let set: HashSet<Key> = keys.iter().copied().collect();
    let part = part_path(&args.out);
    let header = format!(
        "reversi book build v1 depth {} min-games {} plies {} positions {}",
        args.search.depth,
        args.min_games,
        args.plies,
        keys.len()
    );
    let leaves = search_leaves(&keys, &set, &part, &header, &args.search)?;
    let book = Book::new(entries(&keys, &leaves, &counts), args.search.depth);
    write_book(&book, &args.out, &part, start)
}

fn extend(args: &ExtendArgs) -> Result<(), UserError> {
    let start = Instant::now();
    let old = read_book(&args.book)?;
    let out = args.out.clone().unwrap_or_else(|| args.book.clone());
    let games: HashMap<Key, u32> = old.entries().iter().map(|e| (e.key, e.games)).collect();
    let mut keys: Vec<Key> = old.entries().iter().map(|e| e.key).collect();
    // Widen: the positions the leaves closest to their value lead to.
    let margin = (args.margin * 100.0).round() as i32;
    let mut candidates: Vec<(i32, Key)> = Vec::new();
    let known: HashSet<Key> = keys.iter().copied().collect();
    for e in old.entries() {
        let Some(sq) = e.leaf_move else { continue };
        let gap = i32::from(e.value) - i32::from(e.leaf_value);
        if gap > margin {
            continue;
        }
        let position = position_of(e.key);
        let Some(square) = Square::new(sq) else {
            continue;
        };
        let child = after_passes(position.play_unchecked(Move::Place(square)));
        if !child.has_legal_move() {
            continue;
        }
        let key = Key::of(&child).0;
        if !known.contains(&key) {
            candidates.push((gap, key));
        }
    }
    candidates.sort();
    candidates.dedup_by_key(|c| c.1);
    let added: Vec<Key> = candidates.iter().take(args.widen).map(|c| c.1).collect();
    keys.extend(&added);
    let set: HashSet<Key> = keys.iter().copied().collect();
    // What to search: the new positions, the leaves below the depth, and
    // the positions whose book moves changed (a new child was a leaf).
    let mut todo: Vec<Key> = added.clone();
    for e in old.entries() {
        let shallow = e.leaf_move.is_some()
            && e.leaf_depth != EXACT_DEPTH
            && u32::from(e.leaf_depth) < args.search.depth;
        let position = position_of(e.key);
        let into = moves_into(&position, |k| set.contains(&k));
        let before = moves_into(&position, |k| known.contains(&k));
        if shallow || into != before {
            todo.push(e.key);
        }
    }
    todo.sort_by_key(|k| ((k.player | k.opponent).count_ones(), *k));
    eprintln!(
        "{}: {} positions; {} added, {} to search",
        args.book.display(),
        old.len(),
        added.len(),
        todo.len()
    );
    let part = part_path(&out);
    let header = format!(
        "reversi book extend v1 depth {} widen {} margin {} from {} positions",
        args.search.depth,
        args.widen,
        args.margin,
        old.len()
    );
    let searched = search_leaves(&todo, &set, &part, &header, &args.search)?;
    let mut leaves: HashMap<Key, Leaf> = old
        .entries()
        .iter()
        .map(|e| {
            let found = e.leaf_move.map(|m| (m, e.leaf_value, e.leaf_depth));
            (e.key, Leaf { key: e.key, found })
        })
        .collect();
    leaves.extend(searched);
    let depth = old.depth().max(args.search.depth);
    let book = Book::new(entries(&keys, &leaves, &games), depth);
    write_book(&book, &out, &part, start)
}

/// Text for a value in hundredths, in discs.
fn discs(v: i32) -> String {
    format!("{:+.2}", f64::from(v) / 100.0)
}

fn show(args: &ShowArgs) -> Result<(), UserError> {
    let mut out = std::io::stdout().lock();
    let book = book_or_shipped(args.book.as_deref())?;
    let start = Position::initial(BoardSize::Eight);
    let moves = crate::notation::parse_transcript(&args.moves, &start).map_err(UserError::input)?;
    let game = crate::rules::Game::with_moves(Rules::standard(BoardSize::Eight), start, &moves)
        .map_err(UserError::input)?;
    let position = after_passes(game.position());
    print!("{}", super::show::text(&game));
    let Some(entry) = book.entry(&position) else {
        writeln!(out, "not in the book")?;
        return Ok(());
    };
    writeln!(
        out,
        "in the book: value {} for the side to move, reached by {} games",
        discs(i32::from(entry.value)),
        entry.games
    )?;
    for m in book.moves(&position) {
        let how = match m.source {
            crate::ai::book::Source::Book => "book".to_string(),
            crate::ai::book::Source::Leaf if m.depth == EXACT_DEPTH => {
                "searched, exact".to_string()
            }
            crate::ai::book::Source::Leaf => format!("searched, depth {}", m.depth),
        };
        writeln!(out, "  {}  {:>7}  {how}", m.mv, discs(m.value))?;
    }
    Ok(())
}

fn stats(args: &StatsArgs) -> Result<(), UserError> {
    let mut out = std::io::stdout().lock();
    let start = Instant::now();
    let book = book_or_shipped(args.book.as_deref())?;
    let read = start.elapsed();
    let mut by_ply: Vec<usize> = Vec::new();
    let mut exact = 0usize;
    let mut leaves = 0usize;
    for e in book.entries() {
        let ply = (e.key.player | e.key.opponent).count_ones() as usize - 4;
        if by_ply.len() <= ply {
            by_ply.resize(ply + 1, 0);
        }
        by_ply[ply] += 1;
        leaves += usize::from(e.leaf_move.is_some());
        exact += usize::from(e.leaf_move.is_some() && e.leaf_depth == EXACT_DEPTH);
    }
    writeln!(
        out,
        "{} positions ({} bytes, read in {:.1} ms), searched at depth {}; {leaves} leaves, {exact} exact",
        book.len(),
        book.to_bytes().len(),
        read.as_secs_f64() * 1000.0,
        book.depth()
    )?;
    writeln!(
        out,
        "deepest position: {} moves from the start",
        by_ply.len().saturating_sub(1)
    )?;
    for (ply, n) in by_ply.iter().enumerate() {
        if *n > 0 {
            writeln!(out, "  after {ply:>2} moves: {n}")?;
        }
    }
    Ok(())
}

/// One self-play opening of `reversi book lines`: its moves, how many came
/// from the book, and the time they took.
struct Line {
    moves: Vec<Move>,
    from_book: usize,
    time: std::time::Duration,
}

fn play_line(engine: &mut Engine, args: &LinesArgs, game: usize) -> Line {
    let rules = Rules::standard(BoardSize::Eight);
    let limits = args.level.limits();
    let stop = AtomicBool::new(false);
    let mut rng = crate::random::stream(args.seed, game as u64);
    let mut p = Position::initial(BoardSize::Eight);
    let mut line = Line {
        moves: Vec::new(),
        from_book: 0,
        time: std::time::Duration::ZERO,
    };
    engine.clear();
    while line.moves.len() < args.moves as usize && !p.is_game_over() {
        let mv = if p.has_legal_move() {
            let seed = crate::random::next(&mut rng);
            let start = Instant::now();
            let r = engine.search(&p, &rules, &limits, &stop, seed, &mut |_| {});
            line.time += start.elapsed();
            line.from_book += usize::from(r.book);
            r.best_move
        } else {
            Move::Pass
        };
        line.moves.push(mv);
        p = p.play_unchecked(mv);
    }
    line
}

/// For Black and White, the book value (in discs) a side gave up in `moves`
/// by playing book moves worse than the book's best: the sum, over its moves
/// that the book knows, of the best value less the played one.
fn book_losses(book: &Book, start: &Position, moves: &[Move]) -> [f64; 2] {
    let mut loss = [0i32; 2];
    let mut p = *start;
    for (step, &mv) in book.follow(start, moves).iter().zip(moves) {
        if let Some(BookStep {
            best,
            played: Some(played),
        }) = step
        {
            loss[usize::from(p.side_to_move() == Color::White)] += best.value - played.value;
        }
        p = p.play_unchecked(mv);
    }
    loss.map(|l| f64::from(l) / 100.0)
}

/// A line's moves as the smallest text among its eight images under the
/// board's symmetries: the same line whatever the first move.
fn line_shape(moves: &[Move]) -> String {
    crate::rules::Symmetry::ALL
        .iter()
        .map(|s| {
            moves
                .iter()
                .map(|&m| match m {
                    Move::Place(sq) => s.square(sq, BoardSize::Eight).to_string(),
                    Move::Pass => m.to_string(),
                })
                .collect::<String>()
        })
        .min()
        .unwrap_or_default()
}

fn lines(args: &LinesArgs) -> Result<(), UserError> {
    let mut out = std::io::stdout().lock();
    let book = args.book.load()?;
    let stop = AtomicBool::new(false);
    let mut played: Vec<Line> = Vec::new();
    let result: Result<(), std::convert::Infallible> = parallel::run(
        0..args.games as usize,
        threads_or_cores(args.workers.threads),
        &stop,
        || {
            let mut e = Engine::new(args.workers.hash as usize);
            e.set_book(book.clone());
            e
        },
        |engine, game| play_line(engine, args, game),
        |_, line| {
            played.push(line);
            Ok(())
        },
    );
    let Ok(()) = result;
    let mut count: HashMap<String, usize> = HashMap::new();
    let mut shapes: HashSet<String> = HashSet::new();
    for l in &played {
        let text: String = l.moves.iter().map(ToString::to_string).collect();
        *count.entry(text).or_default() += 1;
        shapes.insert(line_shape(&l.moves));
    }
    let mut times: Vec<f64> = played.iter().map(|l| l.time.as_secs_f64()).collect();
    times.sort_by(f64::total_cmp);
    let moves: usize = played.iter().map(|l| l.moves.len()).sum();
    let from_book: usize = played.iter().map(|l| l.from_book).sum();
    writeln!(
        out,
        "{} games of level {}, {} moves each: {} distinct lines, {} up to the board's symmetries; {from_book} of {moves} moves from the book ({})",
        played.len(),
        args.level.number(),
        args.moves,
        count.len(),
        shapes.len(),
        if book.is_some() {
            "book on"
        } else {
            "book off"
        }
    )?;
    writeln!(
        out,
        "time for a game's {} moves: median {:.2} s, max {:.2} s, total {:.1} s",
        args.moves,
        times.get(times.len() / 2).copied().unwrap_or(0.0),
        times.last().copied().unwrap_or(0.0),
        times.iter().sum::<f64>()
    )?;
    if let Some(book) = &book {
        let start = Position::initial(BoardSize::Eight);
        let mut losses: Vec<f64> = played
            .iter()
            .flat_map(|l| book_losses(book, &start, &l.moves))
            .collect();
        losses.sort_by(f64::total_cmp);
        writeln!(
            out,
            "book value given up by a side's own book moves in a game: median {:.2}, mean {:.2}, max {:.2} discs",
            losses.get(losses.len() / 2).copied().unwrap_or(0.0),
            losses.iter().sum::<f64>() / losses.len().max(1) as f64,
            losses.last().copied().unwrap_or(0.0),
        )?;
    }
    let mut common: Vec<(usize, String)> = count.into_iter().map(|(l, n)| (n, l)).collect();
    common.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    for (n, line) in common.iter().take(10) {
        writeln!(out, "  {n:>4}  {line}")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn work_file_lines_round_trip() {
        let key = Key {
            player: 0x0000_0008_1000_0000,
            opponent: 0x0000_0010_0800_0000,
        };
        for found in [
            None,
            Some((19u8, -250i16, 14u8)),
            Some((0, 6400, EXACT_DEPTH)),
        ] {
            let leaf = Leaf { key, found };
            assert_eq!(Leaf::parse(&leaf.to_line()), Some(leaf));
        }
        assert_eq!(Leaf::parse("12 34 64 0 1"), None);
        assert_eq!(Leaf::parse("12 34 - 5"), None);
        assert_eq!(Leaf::parse("xyz 34 -"), None);
    }

    #[test]
    fn a_line_and_its_mirror_images_have_one_shape() {
        let start = Position::initial(BoardSize::Eight);
        let shape =
            |t: &str| line_shape(&crate::notation::parse_transcript(t, &start).expect("moves"));
        // The Tiger from each of the four first moves.
        let tiger = shape("f5d6c3d3c4");
        for image in ["c4e3f6e6f5", "d3c5f6f5e6", "e6f4c3c4d3"] {
            assert_eq!(shape(image), tiger, "{image}");
        }
        assert_ne!(shape("f5d6c3d3c4"), shape("f5d6c4d3c3"));
    }
}
