//! `reversi review`: every move of a game against the best move, with the
//! loss, its class and a summary per player, as a table or as JSON lines.

use super::UserError;
use super::play::load_game_of;
use super::replay::GameSource;
use crate::ai::book::BookStep;
use crate::ai::review::{self, Class, PlyReview, Summary};
use crate::ai::{Engine, Level, Limits, Score};
use crate::rules::{Color, Game, Move};
use serde::Serialize;
use std::io::Write;
use std::sync::atomic::AtomicBool;

/// Arguments of `reversi review`.
#[derive(Debug, clap::Args)]
pub struct ReviewArgs {
    /// The game to review.
    #[command(flatten)]
    pub source: GameSource,
    /// Midgame search depth of each move's analysis (exact solve from depth +
    /// 6 empties, at most 18). The default is 8.
    #[arg(long, value_name = "N", conflicts_with = "level", value_parser = parse_depth)]
    pub depth: Option<u32>,
    /// Analyse as this level searches (1 to 12 or its name, as for `play`),
    /// without its time cap.
    #[arg(long, value_name = "N")]
    pub level: Option<Level>,
    /// Hash table size in MiB.
    #[arg(long, default_value_t = 64, value_name = "MB", value_parser = super::parse_hash)]
    pub hash: u32,
    /// One JSON object per move, then a summary object.
    #[arg(long)]
    pub json: bool,
    /// The evaluation.
    #[command(flatten)]
    pub evaluation: super::EvalArgs,
    /// The opening book the review follows (where each player left it).
    #[command(flatten)]
    pub book: super::BookFlags,
}

/// The deepest `--depth`.
const MAX_DEPTH: u32 = 30;

/// `--depth N`: a whole number from 1 to [`MAX_DEPTH`].
fn parse_depth(text: &str) -> Result<u32, String> {
    text.trim()
        .parse::<i128>()
        .map_err(|_| format!("\"{text}\" is not a whole number"))
        .and_then(|d| {
            u32::try_from(d)
                .ok()
                .filter(|d| (1..=MAX_DEPTH).contains(d))
                .ok_or_else(|| format!("the depth must be from 1 to {MAX_DEPTH}, not {d}"))
        })
}

/// One move in `--json`.
#[derive(Debug, Serialize)]
struct MoveLine {
    ply: usize,
    colour: String,
    #[serde(rename = "move")]
    mv: String,
    best: String,
    best_score: f64,
    played_score: f64,
    loss: f64,
    exact: bool,
    class: &'static str,
    /// The move stays in the opening book.
    book: bool,
}

/// Where a player left the opening book, in `--json`.
#[derive(Debug, Serialize)]
struct LeftBook {
    ply: usize,
    #[serde(rename = "move")]
    mv: String,
    /// The book's value of the move played (its leaf), if it knows it.
    value: Option<f64>,
    best: String,
    best_value: f64,
}

/// One player's figures in `--json`.
#[derive(Debug, Serialize)]
struct PlayerLine {
    moves: usize,
    average_loss: f64,
    inaccuracies: usize,
    mistakes: usize,
    blunders: usize,
    worst_ply: Option<usize>,
    worst_loss: Option<f64>,
}

/// The summary in `--json`.
#[derive(Debug, Serialize)]
struct SummaryLine {
    summary: bool,
    black: PlayerLine,
    white: PlayerLine,
    decided_at: Option<usize>,
    result: Option<i32>,
    reviewed: usize,
    plies: usize,
    depth: u32,
    left_book_black: Option<LeftBook>,
    left_book_white: Option<LeftBook>,
    /// The named opening the game went through last.
    opening: Option<super::OpeningJson>,
}

fn player_line(p: &review::PlayerSummary) -> PlayerLine {
    PlayerLine {
        moves: p.moves,
        average_loss: round2(p.average_loss()),
        inaccuracies: p.counts[Class::Inaccuracy.index()],
        mistakes: p.counts[Class::Mistake.index()],
        blunders: p.counts[Class::Blunder.index()],
        worst_ply: p.worst.map(|(i, _)| i + 1),
        worst_loss: p.worst.map(|(_, l)| round2(l)),
    }
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

fn mover(game: &Game, ply: usize) -> Color {
    game.position_at(ply)
        .map_or(Color::Black, |p| p.side_to_move())
}

/// The game to review, from the file or from `--moves`.
fn game_of(args: &ReviewArgs) -> Result<Game, UserError> {
    match args.source.file()? {
        Some(path) => {
            let (record, count) = load_game_of(path, args.source.game)?;
            if count > 1 {
                eprintln!(
                    "reversi review: game {} of the {count} in {} (--game N for another)",
                    args.source.game.unwrap_or(1),
                    path.display()
                );
            }
            let mut game = record.game;
            game.jump(game.len());
            Ok(game)
        }
        None => Ok(args.source.transcript_setup()?.game),
    }
}

/// The limits and the depth named in the output.
fn limits_of(args: &ReviewArgs) -> (Limits, u32) {
    match (args.level, args.depth) {
        (Some(level), _) => {
            // The review searches every move; the book is followed apart.
            let l = Limits {
                time: None,
                noise: 0,
                book: None,
                ..level.limits()
            };
            (l, l.depth)
        }
        (None, d) => {
            let d = d.unwrap_or(review::DEFAULT_DEPTH);
            (review::limits(d), d)
        }
    }
}

/// Runs `reversi review`.
///
/// # Errors
/// A bad file or transcript (status 2) or an output failure.
pub fn run(args: &ReviewArgs) -> Result<(), UserError> {
    let game = game_of(args)?;
    if game.is_empty() {
        let what = args
            .source
            .file
            .as_ref()
            .map_or("--moves".to_string(), |p| p.display().to_string());
        return Err(UserError::input(format!(
            "{what}: the game has no moves to review"
        )));
    }
    let (limits, depth) = limits_of(args);
    let mut engine = Engine::new(args.hash as usize);
    args.evaluation.apply(&mut engine)?;
    let stop = AtomicBool::new(false);
    let plies = review::review_game(&mut engine, &game, &limits, &stop, &mut |_, _| {});
    let summary = review::summarize(&game, &plies);
    let book = args.book.load()?;
    let steps = book
        .as_ref()
        .map(|b| b.follow(&game.start(), game.moves()))
        .unwrap_or_default();
    let departures = book
        .as_ref()
        .map(|b| b.departures(&game.start(), game.moves()))
        .unwrap_or_default();
    let reviewed = Reviewed {
        game: &game,
        plies: &plies,
        summary: &summary,
        steps: &steps,
        departures,
    };
    let mut out = std::io::stdout().lock();
    if args.json {
        reviewed.write_json(&mut out, depth)
    } else {
        reviewed.write_table(&mut out)
    }
}

/// A reviewed game: the review of each ply, the summary, and what the
/// opening book says of each move.
struct Reviewed<'a> {
    game: &'a Game,
    plies: &'a [Option<PlyReview>],
    summary: &'a Summary,
    steps: &'a [Option<BookStep>],
    departures: [Option<(usize, BookStep)>; 2],
}

impl Reviewed<'_> {
    /// Whether the move of ply `i` stays in the book.
    fn in_book(&self, i: usize) -> bool {
        self.steps
            .get(i)
            .copied()
            .flatten()
            .is_some_and(|s| s.stays())
    }

    /// The first ply where `color` played out of the book, and what the
    /// book says there.
    fn left_book(&self, color: Color) -> Option<(usize, BookStep)> {
        self.departures[usize::from(color == Color::White)]
    }

    fn left_book_json(&self, color: Color) -> Option<LeftBook> {
        self.left_book(color).map(|(i, s)| LeftBook {
            ply: i + 1,
            mv: move_text(self.game.moves()[i]),
            value: s.played.map(|m| round2(f64::from(m.value) / 100.0)),
            best: move_text(s.best.mv),
            best_value: round2(f64::from(s.best.value) / 100.0),
        })
    }

    fn write_json(&self, out: &mut dyn Write, depth: u32) -> Result<(), UserError> {
        write_json(out, self, depth)
    }

    fn write_table(&self, out: &mut dyn Write) -> Result<(), UserError> {
        write_table(out, self)?;
        if let Some(o) = crate::notation::openings::Openings::shipped().of_played(self.game) {
            writeln!(out, "Opening: {}", o.english)?;
        }
        for color in [Color::Black, Color::White] {
            if let Some((i, s)) = self.left_book(color) {
                let known = s
                    .played
                    .map_or("a move the book does not know".to_string(), |m| {
                        format!("the book's value {:+.2}", f64::from(m.value) / 100.0)
                    });
                writeln!(
                    out,
                    "{color} left the opening book at move {} with {} ({known}; its best was {} {:+.2})",
                    i + 1,
                    move_text(self.game.moves()[i]),
                    move_text(s.best.mv),
                    f64::from(s.best.value) / 100.0
                )?;
            }
        }
        Ok(())
    }
}

fn move_text(mv: Move) -> String {
    mv.to_string()
}

fn write_json(out: &mut dyn Write, reviewed: &Reviewed<'_>, depth: u32) -> Result<(), UserError> {
    let Reviewed {
        game,
        plies,
        summary,
        ..
    } = *reviewed;
    for (i, r) in plies.iter().enumerate() {
        let Some(r) = r else { continue };
        let line = MoveLine {
            ply: i + 1,
            colour: mover(game, i).name().to_lowercase(),
            mv: move_text(game.moves()[i]),
            best: move_text(r.best),
            best_score: round2(r.best_score.discs()),
            played_score: round2(r.played_score.discs()),
            loss: round2(r.loss()),
            exact: r.is_exact(),
            class: r.class().name(),
            book: reviewed.in_book(i),
        };
        write!(out, "{}", super::json_line(&line))?;
    }
    let last = game.position_at(game.len()).unwrap_or(game.start());
    let result = last.is_game_over().then(|| {
        let m = game.rules().final_margin(&last);
        if last.side_to_move() == Color::Black {
            m
        } else {
            -m
        }
    });
    let line = SummaryLine {
        summary: true,
        black: player_line(&summary.players[0]),
        white: player_line(&summary.players[1]),
        decided_at: summary.decided_at,
        result,
        reviewed: summary.reviewed,
        plies: game.len(),
        depth,
        left_book_black: reviewed.left_book_json(Color::Black),
        left_book_white: reviewed.left_book_json(Color::White),
        opening: super::OpeningJson::of(game),
    };
    write!(out, "{}", super::json_line(&line))?;
    Ok(())
}

fn score_text(s: Score) -> String {
    if s.is_exact() {
        format!("={:+}", s.discs())
    } else {
        format!("~{:+.2}", s.discs())
    }
}

fn write_table(out: &mut dyn Write, reviewed: &Reviewed<'_>) -> Result<(), UserError> {
    let Reviewed {
        game,
        plies,
        summary,
        ..
    } = *reviewed;
    writeln!(
        out,
        "scores in discs for the mover (exact: =, estimate: ~); classes: inaccuracy ?! (loss >= {}), mistake ? (>= {}), blunder ?? (>= {})",
        review::INACCURACY,
        review::MISTAKE,
        review::BLUNDER
    )?;
    writeln!(
        out,
        "{:>4}  {:<6} {:<5} {:>8}  {:<5} {:>8}  {:>6}  class",
        "move", "colour", "move", "score", "best", "score", "loss"
    )?;
    for (i, r) in plies.iter().enumerate() {
        let mv = move_text(game.moves()[i]);
        let colour = mover(game, i).name();
        match r {
            None => writeln!(out, "{:>4}  {colour:<6} {mv:<5} (not reviewed)", i + 1)?,
            Some(r) => writeln!(
                out,
                "{:>4}  {colour:<6} {:<5} {:>8}  {:<5} {:>8}  {:>6.2}  {}{}",
                i + 1,
                format!("{mv}{}", r.class().mark()),
                score_text(r.played_score),
                move_text(r.best),
                score_text(r.best_score),
                r.loss(),
                if r.is_pass() {
                    "forced"
                } else {
                    r.class().name()
                },
                if reviewed.in_book(i) { "  (book)" } else { "" }
            )?,
        }
    }
    for (color, p) in [Color::Black, Color::White].iter().zip(&summary.players) {
        let worst = p.worst.map_or(String::new(), |(i, l)| {
            format!(
                "; worst: move {} {} (-{l:.1})",
                i + 1,
                move_text(game.moves()[i])
            )
        });
        writeln!(
            out,
            "{color}: {}, average loss {:.2}; {}, {}, {}{worst}",
            super::counted(p.moves, "move", "moves"),
            p.average_loss(),
            super::counted(
                p.counts[Class::Inaccuracy.index()],
                "inaccuracy",
                "inaccuracies"
            ),
            super::counted(p.counts[Class::Mistake.index()], "mistake", "mistakes"),
            super::counted(p.counts[Class::Blunder.index()], "blunder", "blunders"),
        )?;
    }
    match summary.decided_at {
        Some(0) => writeln!(
            out,
            "decided from the start (the exact value never changed the result)"
        )?,
        Some(n) => writeln!(
            out,
            "decided at move {n}: from there the result was certain"
        )?,
        None => writeln!(
            out,
            "decided: not known (unfinished, or no exact values at the end)"
        )?,
    }
    Ok(())
}
