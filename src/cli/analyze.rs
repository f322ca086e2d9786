//! `reversi analyze`: every legal move of a position with its score, best first,
//! and the principal variation of the best.

use super::{UserError, VariantArg};
use crate::ai::{Engine, Level, Limits, MoveEval, Progress, Score};
use crate::rules::{Position, Rules};
use std::io::{IsTerminal, Write};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Arguments of `reversi analyze`.
#[derive(Debug, clap::Args)]
#[command(allow_negative_numbers = true)]
pub struct AnalyzeArgs {
    /// Moves played from the start (or from --position), e.g. f5d6c3.
    #[arg(long)]
    pub moves: Option<String>,
    /// Start from this board string (64 or 36 squares, then X or O to move).
    #[arg(long, allow_hyphen_values = true)]
    pub position: Option<String>,
    /// Board size (when no --position is given).
    #[arg(long, value_enum)]
    pub variant: Option<VariantArg>,
    /// Anti Reversi and the scoring rule.
    #[command(flatten)]
    pub rules: super::start::RuleFlags,
    /// Search as this level (1-12, or its name).
    #[arg(long, conflicts_with_all = ["depth", "time"])]
    pub level: Option<Level>,
    /// Search to this depth.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=60))]
    pub depth: Option<u32>,
    /// Search for about this many seconds per move.
    #[arg(long)]
    pub time: Option<f64>,
    /// Hash table size in MiB.
    #[arg(long, default_value_t = 64, value_name = "MB", value_parser = super::parse_hash)]
    pub hash: u32,
    /// The opening book (`--level` 10–12 and the default use it).
    #[command(flatten)]
    pub book: super::BookFlags,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    /// The evaluation.
    #[command(flatten)]
    pub evaluation: super::EvalArgs,
}

/// `reversi analyze --json`: one object on one line; schema in `docs/json.md`.
#[derive(Debug, serde::Serialize)]
struct AnalyzeJson {
    board: String,
    /// `to_move`, `must_pass` or `game_over`.
    status: &'static str,
    /// The result in words once the game is over.
    result: Option<String>,
    moves: Vec<MoveJson>,
    /// The best move; `None` when the game is over.
    best: Option<String>,
    /// Its score (the first of `moves`).
    score: Option<ScoreJson>,
    pv: Vec<String>,
    depth: u32,
    /// Nodes of the whole analysis.
    nodes: u64,
    /// Seconds of the whole analysis, rounded to 1 ms.
    time: f64,
}

/// One legal move and its score.
#[derive(Debug, serde::Serialize)]
struct MoveJson {
    #[serde(rename = "move")]
    mv: String,
    score: ScoreJson,
    /// The score is the opening book's value.
    book: bool,
}

/// A score in discs for the side to move, exact or estimated.
#[derive(Debug, serde::Serialize)]
struct ScoreJson {
    discs: f64,
    exact: bool,
}

impl From<Score> for ScoreJson {
    fn from(s: Score) -> ScoreJson {
        ScoreJson {
            discs: s.discs(),
            exact: s.is_exact(),
        }
    }
}

/// The progress report of a long analysis: one line per completed depth on
/// stderr when stderr is a terminal (nothing otherwise, so that scripts and
/// pipes see only the result).
fn progress_reporter() -> impl FnMut(&Progress) {
    let terminal = std::io::stderr().is_terminal();
    move |p: &Progress| {
        if terminal {
            eprintln!(
                "depth {:>2}  best {} {}  nodes {}  {:.1} s",
                p.depth,
                p.best_move,
                p.score,
                p.nodes,
                p.elapsed.as_secs_f64()
            );
        }
    }
}

/// Runs `reversi analyze`.
///
/// # Errors
/// Bad input (exit status 2) or an output failure.
pub fn run(args: &AnalyzeArgs) -> Result<(), UserError> {
    let pos = super::start::Start {
        position: args.position.as_deref(),
        variant: args.variant,
        moves: args.moves.as_deref(),
        moves_flag: Some("--moves"),
    }
    .game(Rules::standard)?
    .position();
    let rules = args.rules.rules(pos.size());
    let limits = limits(args)?;
    let mut engine = Engine::new(args.hash as usize);
    args.evaluation.apply(&mut engine)?;
    engine.set_book(args.book.load()?);
    let analysis = Analysis::of(&mut engine, &pos, &rules, &limits);
    let mut out = std::io::stdout().lock();
    if args.json {
        let view = analysis.json(&pos, &rules);
        out.write_all(super::json_line(&view).as_bytes())?;
        return Ok(());
    }
    analysis.write_text(&mut out, &pos, &rules)
}

/// The search limits from `--level`, `--depth` and `--time` (default: the
/// expert level without its time limit), never with noise.
fn limits(args: &AnalyzeArgs) -> Result<Limits, UserError> {
    let mut limits = match (args.level, args.depth) {
        (Some(l), _) => l.limits(),
        (None, Some(d)) => Limits {
            exact_empties: (d + 4).min(24),
            ..Limits::depth(d)
        },
        (None, None) => Limits {
            time: None,
            noise: 0,
            ..Level::EXPERT.limits()
        },
    };
    limits.noise = 0;
    if let Some(t) = args.time {
        if !(0.01..=3600.0).contains(&t) {
            return Err(UserError::input("--time: expected 0.01 to 3600 seconds"));
        }
        limits.time = Some(Duration::from_secs_f64(t));
        if args.depth.is_none() {
            limits.depth = 60;
        }
    }
    Ok(limits)
}

/// Every legal move's score, best first, and what the search cost.
struct Analysis {
    evals: Vec<MoveEval>,
    /// The best move's line: the analysis's principal variation when it
    /// starts with that move, else the move alone.
    pv: Vec<String>,
    depth: u32,
    nodes: u64,
    secs: f64,
}

impl Analysis {
    /// Analyses `pos` (nothing to do once the game is over), reporting each
    /// depth on a terminal's stderr.
    fn of(engine: &mut Engine, pos: &Position, rules: &Rules, limits: &Limits) -> Analysis {
        let stop = AtomicBool::new(false);
        let (evals, result) = if pos.is_game_over() {
            (Vec::new(), None)
        } else {
            let mut report = progress_reporter();
            let (evals, result) = engine.analysis(pos, rules, limits, &stop, &mut report);
            (evals, Some(result))
        };
        let pv: Vec<String> = match (&result, evals.first()) {
            (Some(r), Some(b)) if r.pv.first() == Some(&b.mv) => {
                r.pv.iter().map(ToString::to_string).collect()
            }
            (_, Some(b)) => vec![b.mv.to_string()],
            _ => Vec::new(),
        };
        let (depth, nodes, secs) = result
            .as_ref()
            .map_or((0, 0, 0.0), |r| (r.depth, r.nodes, r.elapsed.as_secs_f64()));
        Analysis {
            evals,
            pv,
            depth,
            nodes,
            secs,
        }
    }

    fn json(&self, pos: &Position, rules: &Rules) -> AnalyzeJson {
        let over = pos.is_game_over();
        let status = if over {
            "game_over"
        } else if pos.legal_moves().is_empty() {
            "must_pass"
        } else {
            "to_move"
        };
        let best = self.evals.first();
        AnalyzeJson {
            board: crate::notation::write_board(pos),
            status,
            result: over.then(|| rules.score(pos).to_string()),
            moves: self
                .evals
                .iter()
                .map(|e| MoveJson {
                    mv: e.mv.to_string(),
                    score: e.score.into(),
                    book: e.book,
                })
                .collect(),
            best: best.map(|b| b.mv.to_string()),
            score: best.map(|b| b.score.into()),
            pv: self.pv.clone(),
            depth: self.depth,
            nodes: self.nodes,
            time: (self.secs * 1e3).round() / 1e3,
        }
    }

    /// One line per move, then the best with its line and the cost; or the
    /// result when the game is over.
    fn write_text(
        &self,
        out: &mut impl Write,
        pos: &Position,
        rules: &Rules,
    ) -> Result<(), UserError> {
        if self.evals.is_empty() {
            writeln!(out, "the game is over: {}", rules.score(pos))?;
            return Ok(());
        }
        writeln!(
            out,
            "{} to move, {} legal move(s); scores in discs for the side to move (exact: =, estimate: ~, opening book: book)",
            pos.side_to_move(),
            self.evals.len()
        )?;
        for e in &self.evals {
            let mark = if e.score.is_exact() { "=" } else { "~" };
            writeln!(
                out,
                "  {:<4} {mark}{:+7.2}{}",
                e.mv.to_string(),
                e.score.discs(),
                if e.book { "  book" } else { "" }
            )?;
        }
        if let Some(b) = self.evals.first() {
            writeln!(
                out,
                "best {} {}  depth {}  pv {}  nodes {}  time {:.2} s",
                b.mv,
                b.score,
                self.depth,
                self.pv.join(" "),
                self.nodes,
                self.secs,
            )?;
        }
        Ok(())
    }
}
