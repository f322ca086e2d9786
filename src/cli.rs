//! The command-line interface: clap definitions and the dispatch to each
//! subcommand. Errors are reported here, after any terminal state is restored.
//!
//! Exit status: 0 on success, 2 for bad input (a clap error, a bad square,
//! transcript or board string), 1 for other failures.

mod analyze;
mod bench;
mod book;
mod compare;
mod convert;
mod evalerror;
mod ladder;
mod learn;
mod loadtest;
mod matches;
mod nboard;
mod online;
mod openings;
mod perft;
mod play;
mod relabel;
mod replay;
mod resumable;
mod review;
mod selfplay;
mod server;
mod show;
mod solve;
mod start;
mod train;

use clap::{Parser, Subcommand, ValueEnum};
use std::process::ExitCode;

use crate::rules::BoardSize;

/// Reversi (Othello) in the terminal.
#[derive(Debug, Parser)]
#[command(name = "reversi", version, about, long_about = None, args_conflicts_with_subcommands = true)]
pub struct Cli {
    /// What to do; without a subcommand, opens the new-game screen.
    #[command(subcommand)]
    pub command: Option<Command>,
    /// The new-game screen in ASCII characters only (for terminals without
    /// good Unicode); `play` and `replay` take the same flag.
    #[arg(long)]
    pub ascii: bool,
    /// The new-game screen without capturing the mouse (leaves text
    /// selection to the terminal); `play` and `replay` take the same flag.
    #[arg(long)]
    pub no_mouse: bool,
    /// The language of the game screen; `play`, `replay`, `online` and
    /// `learn` take the same flag.
    #[arg(long, value_enum, value_name = "LANG", long_help = LANG_HELP)]
    pub lang: Option<LangArg>,
}

/// The long help of `--lang`.
const LANG_HELP: &str = "The language of the game screen: en (English) or fr (French). \
Without it: the language last chosen on the new-game screen, else the locale \
(LC_ALL, LC_MESSAGES, LANG: French when it starts with `fr`), else English. \
Command-line help and the errors of commands without a screen stay in English.";

/// `--lang`: the language of the game screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LangArg {
    /// English.
    En,
    /// French (français).
    Fr,
}

impl From<LangArg> for crate::i18n::Lang {
    fn from(l: LangArg) -> crate::i18n::Lang {
        match l {
            LangArg::En => crate::i18n::Lang::En,
            LangArg::Fr => crate::i18n::Lang::Fr,
        }
    }
}

/// The language of the game screen: `--lang`, else the one remembered from
/// the new-game screen, else the locale variables' (a config file that
/// cannot be read is left to the game screen to report).
pub(crate) fn screen_language(flag: Option<LangArg>) -> crate::i18n::Lang {
    flag.map(crate::i18n::Lang::from)
        .or_else(|| {
            let dir = crate::dirs::config_dir().ok()?;
            crate::ui::config::load(&dir).ok().flatten()?.language
        })
        .unwrap_or_else(crate::i18n::Lang::from_env)
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Count the leaves of the game tree to DEPTH plies (a pass is a ply; a game
    /// over before DEPTH counts no leaf), printing one line per depth.
    Perft(perft::PerftArgs),
    /// Print a position as text: the board with coordinates, legal moves, disc
    /// counts, side to move and status.
    Show(show::ShowArgs),
    /// Speak the NBoard engine protocol on stdin/stdout (for GUIs such as NBoard).
    Nboard(nboard::NboardArgs),
    /// Play games between two engines (built-in levels or external NBoard
    /// engines) from balanced openings and report the result with statistics.
    Match(matches::MatchArgs),
    /// Compare two `match --ggf` runs over the same openings game by game:
    /// each run's score and the difference of the two with its error.
    Compare(compare::CompareArgs),
    /// Score every legal move of a position (exact when the endgame is within
    /// reach) and show the principal variation of the best.
    Analyze(analyze::AnalyzeArgs),
    /// Play a game in the full-screen UI at once: against the AI, two people on
    /// one keyboard, or watch the AI play itself.
    Play(play::PlayArgs),
    /// Learn the rules: a guided first game, one short step at a time, in the
    /// full-screen UI.
    Learn(learn::LearnArgs),
    /// Replay a game move by move in the full-screen UI: a game file (GGF,
    /// WTHOR, Logistello's `.gam`, transcripts) or `--moves`.
    Replay(replay::ReplayArgs),
    /// Review a game (a file as for `replay`, or `--moves`): every move against
    /// the best, the discs it lost, its class, and a summary per player.
    Review(review::ReviewArgs),
    /// Solve OBF positions exactly (one per line, from FILE or standard input),
    /// printing the best move, the score, nodes, time and nodes/s.
    Solve(solve::SolveArgs),
    /// Run the fixed benchmark suite (perft, midgame, endgame), one figure per line.
    Bench(bench::BenchArgs),
    /// Write random openings that a search finds nearly even, for `match
    /// --openings` (transcripts, one per line).
    Openings(openings::OpeningsArgs),
    /// Play self-play games for training the evaluation, into a resumable file.
    Selfplay(selfplay::SelfPlayArgs),
    /// Label positions drawn from games by search (midgame depth, exact
    /// solve near the end) into a resumable file for `train`.
    Relabel(relabel::RelabelArgs),
    /// The opening book: build it from game collections, extend it, show a
    /// position's book moves, or its size.
    Book(book::BookArgs),
    /// Fit the pattern evaluation's weights to games: self-play files, WTHOR,
    /// GGF, Logistello's list or transcripts.
    Train(train::TrainArgs),
    /// Convert a game collection (WTHOR, GGF, Logistello's list, transcripts)
    /// into another format.
    Convert(convert::ConvertArgs),
    /// Run the salon: a server for online tables (WebSocket, JSON messages;
    /// see docs/protocol.md).
    Server(server::ServerArgs),
    /// Play or watch at a salon server's tables: the lobby and table screen
    /// (or headless games with the engine: --bot SPEC).
    Online(online::OnlineArgs),
    /// Load benchmark: fast bots play games through a salon server.
    Loadtest(loadtest::LoadtestArgs),
}

/// Board size on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum, Default)]
pub enum VariantArg {
    /// The standard 8×8 board.
    #[default]
    #[value(name = "8x8")]
    Eight,
    /// The 6×6 board (empties go to the winner by default).
    #[value(name = "6x6")]
    Six,
}

impl From<VariantArg> for BoardSize {
    fn from(v: VariantArg) -> BoardSize {
        match v {
            VariantArg::Eight => BoardSize::Eight,
            VariantArg::Six => BoardSize::Six,
        }
    }
}

/// Which static evaluation a command's engine uses.
#[derive(Debug, Clone, clap::Args)]
pub struct EvalArgs {
    /// The evaluation: `learned` (the shipped pattern weights, on 8×8) or `hand`
    /// (the hand-written one).
    #[arg(long, value_enum, default_value_t = EvalKind::Learned)]
    pub eval: EvalKind,
    /// Learned weights from this file instead of the shipped ones.
    #[arg(long, conflicts_with = "eval")]
    pub weights: Option<std::path::PathBuf>,
}

/// Which opening book a command's engine plays from (levels 10–12, NBoard
/// and the hint use it).
#[derive(Debug, Clone, Default, clap::Args)]
pub struct BookFlags {
    /// Play from this opening book (made by `reversi book build`) instead of
    /// the shipped one.
    #[arg(long, value_name = "FILE", conflicts_with = "no_book")]
    pub book: Option<std::path::PathBuf>,
    /// Play without an opening book.
    #[arg(long)]
    pub no_book: bool,
}

impl BookFlags {
    /// The book chosen: the file, none, or the shipped one.
    ///
    /// # Errors
    /// When the file cannot be read or is not a book.
    pub fn load(&self) -> Result<Option<std::sync::Arc<crate::ai::book::Book>>, UserError> {
        if self.no_book {
            return Ok(None);
        }
        match &self.book {
            Some(path) => book::read_book(path).map(|b| Some(std::sync::Arc::new(b))),
            None => Ok(crate::ai::book::Book::shipped()
                .ok()
                .filter(|b| !b.is_empty())),
        }
    }
}

/// The `--eval` choices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum EvalKind {
    /// The learned pattern evaluation.
    Learned,
    /// The hand-written evaluation.
    Hand,
}

impl EvalArgs {
    /// Sets `engine`'s evaluation.
    ///
    /// # Errors
    /// When the weights file cannot be read or is not valid.
    pub fn apply(&self, engine: &mut crate::ai::Engine) -> Result<(), UserError> {
        if let Some(path) = &self.weights {
            let w = crate::ai::PatternWeights::read(path)
                .map_err(|e| UserError::input(format!("{}: {e}", path.display())))?;
            engine.set_weights(Some(std::sync::Arc::new(w)));
        } else if self.eval == EvalKind::Hand {
            engine.set_weights(None);
        }
        Ok(())
    }
}

/// `--hash MB`, the same for every command: a whole number of MiB from 1 to
/// [`crate::ai::max_hash_megabytes`] (half this machine's memory).
fn parse_hash(text: &str) -> Result<u32, String> {
    let max = u32::try_from(crate::ai::max_hash_megabytes()).unwrap_or(u32::MAX);
    let out_of_range =
        || format!("the table size must be from 1 to {max} MiB (half this machine's memory)");
    let mb: i128 = text
        .trim()
        .parse()
        .map_err(|_| format!("\"{text}\" is not a whole number of MiB"))?;
    u32::try_from(mb)
        .ok()
        .filter(|mb| (1..=max).contains(mb))
        .ok_or_else(out_of_range)
}

/// A count or a game number, which starts at 1 (`--game`, `--games`,
/// `--max-connections`): the same message for every such flag.
fn parse_at_least_one(text: &str) -> Result<u32, String> {
    let n: i128 = text
        .trim()
        .parse()
        .map_err(|_| format!("\"{text}\" is not a whole number"))?;
    if n < 1 {
        return Err(format!("{n} is not allowed: counting starts at 1"));
    }
    u32::try_from(n).map_err(|_| format!("{n} is too large (at most {})", u32::MAX))
}

/// A games file that cannot be read, as bad input naming the file (and the
/// line: `FILE:LINE: not a valid game`).
fn games_file_error(
    path: &std::path::Path,
    e: &crate::learn::selfplay::GamesFileError,
) -> UserError {
    match e {
        crate::learn::selfplay::GamesFileError::Line(n) => {
            UserError::input(format!("{}:{n}: not a valid game", path.display()))
        }
        crate::learn::selfplay::GamesFileError::Io(e) => {
            UserError::input(format!("{}: {e}", path.display()))
        }
    }
}

/// A file of move transcripts from the start on `size`, one per line (text
/// after `#` is a comment, blank lines are skipped), each with its line
/// number. Errors name the file and the line; a file with none is an error
/// "FILE: no {what}".
fn read_transcripts(
    path: &std::path::Path,
    size: BoardSize,
    what: &str,
) -> Result<Vec<(usize, Vec<crate::rules::Move>)>, UserError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| UserError::input(format!("{}: {e}", path.display())))?;
    let out = crate::notation::parse_transcript_lines(&text, size)
        .map_err(|e| UserError::input(format!("{}:{}: {}", path.display(), e.line, e.error)))?;
    if out.is_empty() {
        return Err(UserError::input(format!("{}: no {what}", path.display())));
    }
    Ok(out)
}

/// Fails unless the folder that `path` is to be written in exists (so that a
/// mistyped folder is reported before a long run, not created).
pub(super) fn check_output_folder(path: &std::path::Path, flag: &str) -> Result<(), UserError> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => std::path::Path::new("."),
    };
    if dir.is_dir() {
        Ok(())
    } else {
        Err(UserError::input(format!(
            "{flag} {}: the folder {} does not exist",
            path.display(),
            dir.display()
        )))
    }
}

/// The long help of a `--level` flag: every level, who it suits and how it
/// plays.
fn level_help() -> String {
    let mut text = format!(
        "The AI's level, 1 to {}; the default is {} ({}). Level 1 plays about as \
         well as someone who always takes the most discs; each level wins most \
         games (about two in three to four in five) against the one below:\n",
        crate::ai::Level::MAX.number(),
        crate::ai::Level::DEFAULT.number(),
        crate::ai::Level::DEFAULT.name()
    );
    for level in crate::ai::Level::ALL {
        text += &format!(
            "\n{:>3} {:<12} for {}",
            level.number(),
            level.name(),
            level.suits()
        );
    }
    text
}

/// `n` and its noun, singular for one: `1 move`, `3 moves` (the command
/// line's English reports).
pub(crate) fn counted(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// How many searches run at once, and the hash table of each (`selfplay`,
/// `book`).
#[derive(Debug, clap::Args)]
pub struct Workers {
    /// Searches run at once (default: one per core).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: Option<u32>,
    /// Hash table per thread, MiB.
    #[arg(long, default_value_t = 16, value_name = "MB", value_parser = parse_hash)]
    pub hash: u32,
}

/// A named opening in `--json` (`show`, `review`).
#[derive(Debug, serde::Serialize)]
pub(crate) struct OpeningJson {
    en: String,
    fr: String,
    /// Its moves as the list of names gives them.
    moves: String,
}

impl OpeningJson {
    /// The opening of `game` up to its cursor, if it has a name.
    pub(crate) fn of(game: &crate::rules::Game) -> Option<OpeningJson> {
        crate::notation::openings::Openings::shipped()
            .of_played(game)
            .map(|o| OpeningJson {
                en: o.english.clone(),
                fr: o.french.clone(),
                moves: o.moves.clone(),
            })
    }
}

/// `value` as one line of compact JSON with its newline (the `--json`
/// output of `show`, `analyze` and `solve`; schemas in `docs/json.md`).
pub(crate) fn json_line(value: &impl serde::Serialize) -> String {
    // Serializing plain structs of strings and numbers into memory cannot fail.
    let mut text = serde_json::to_string(value).unwrap_or_default();
    text.push('\n');
    text
}

/// An error for the user: the message and the exit status.
#[derive(Debug)]
pub struct UserError {
    /// What to print on stderr.
    pub message: String,
    /// The exit status (2 for bad input).
    pub status: u8,
}

impl UserError {
    /// Bad input from the user: exit status 2.
    pub fn input(message: impl std::fmt::Display) -> UserError {
        UserError {
            message: message.to_string(),
            status: 2,
        }
    }

    /// A file that cannot be opened, read or written: "PATH: why", exit
    /// status 2.
    pub fn file(path: &std::path::Path, error: impl std::fmt::Display) -> UserError {
        UserError::input(format!("{}: {error}", path.display()))
    }
}

impl From<anyhow::Error> for UserError {
    fn from(e: anyhow::Error) -> UserError {
        UserError {
            message: format!("{e:#}"),
            status: 1,
        }
    }
}

impl From<std::io::Error> for UserError {
    /// A closed pipe on stdout (e.g. `reversi perft 12 | head -1`) ends the
    /// program quietly; other I/O errors are reported.
    fn from(e: std::io::Error) -> UserError {
        let status = if e.kind() == std::io::ErrorKind::BrokenPipe {
            0
        } else {
            1
        };
        let message = if status == 0 {
            String::new()
        } else {
            e.to_string()
        };
        UserError { message, status }
    }
}

/// Parses the command line, runs the command and turns errors into an exit status.
pub fn main() -> ExitCode {
    let missing = crate::rules::movegen::missing_cpu_features();
    if !missing.is_empty() {
        eprintln!(
            "reversi: this binary was built for a CPU with {}, which this CPU lacks; \
             build it without a target-cpu flag (cargo build --release): that build \
             chooses its instructions when it starts",
            missing.join(", ")
        );
        return ExitCode::from(2);
    }
    if let Err(e) = crate::rules::KernelSet::from_env() {
        eprintln!("reversi: {}: {e}", crate::rules::kernels::KERNELS_VAR);
        return ExitCode::from(2);
    }
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if e.use_stderr() => {
            eprintln!("reversi: {}", one_line(&e.render().to_string()));
            return ExitCode::from(2);
        }
        Err(e) => e.exit(),
    };
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            if !e.message.is_empty() {
                eprintln!("reversi: {}", e.message);
            }
            ExitCode::from(e.status)
        }
    }
}

/// A command-line error as clap writes it ("error: …", details, a usage line,
/// a pointer to `--help`) folded into one line: the message and its details,
/// then the usage in brackets.
fn one_line(rendered: &str) -> String {
    let mut parts: Vec<String> = Vec::new();
    for line in rendered.lines().map(str::trim) {
        if line.is_empty() || line.starts_with("For more information") {
            continue;
        }
        let line = line.strip_prefix("error: ").unwrap_or(line);
        match line.strip_prefix("Usage: ") {
            Some(usage) => parts.push(format!("(usage: {usage})")),
            None => parts.push(line.to_string()),
        }
    }
    parts.join(" ")
}

fn run(cli: Cli) -> Result<(), UserError> {
    let uses_engine = !matches!(
        cli.command,
        Some(
            Command::Perft(_)
                | Command::Learn(_)
                | Command::Show(_)
                | Command::Train(_)
                | Command::Convert(_)
                | Command::Compare(_)
                | Command::Loadtest(_)
                | Command::Server(server::ServerArgs {
                    export: Some(_),
                    ..
                })
        )
    );
    if uses_engine && let Err(e) = crate::ai::PatternWeights::shipped() {
        eprintln!("reversi: warning: {e}; using the hand-written evaluation");
    }
    match cli.command {
        Some(Command::Perft(args)) => perft::run(&args),
        Some(Command::Show(args)) => show::run(&args),
        Some(Command::Nboard(args)) => nboard::run(&args),
        Some(Command::Match(args)) => matches::run(&args),
        Some(Command::Compare(args)) => compare::run(&args),
        Some(Command::Openings(args)) => openings::run(&args),
        Some(Command::Analyze(args)) => analyze::run(&args),
        Some(Command::Play(args)) => play::run(&args),
        Some(Command::Replay(args)) => replay::run(&args),
        Some(Command::Learn(args)) => learn::run(&args),
        Some(Command::Review(args)) => review::run(&args),
        Some(Command::Solve(args)) => solve::run(&args),
        Some(Command::Bench(args)) => bench::run(&args),
        Some(Command::Selfplay(args)) => selfplay::run(&args),
        Some(Command::Relabel(args)) => relabel::run(&args),
        Some(Command::Book(args)) => book::run(&args),
        Some(Command::Train(args)) => train::run(&args),
        Some(Command::Convert(args)) => convert::run(&args),
        Some(Command::Server(args)) => server::run(&args),
        Some(Command::Online(args)) => online::run(&args),
        Some(Command::Loadtest(args)) => loadtest::run(&args),
        None => play::run_interactive(cli.ascii, !cli.no_mouse, screen_language(cli.lang)),
    }
}
