//! The game review in replay: every move analysed on the AI worker, nearest
//! to the shown move first, one job at a time; the results kept with the
//! match (and in its saved record, so a second review is instant); jumps to
//! the previous or next mistake; the summary lines of the panel.
//!
//! The analysis of one ply is [`crate::ai::review::PlyReview::from_evals`] on
//! the worker's scores. Depends on the model and the `ai` review; never on the
//! terminal.

use super::app::{App, Effect, Job, JobKind, Screen};
use super::model::{Analysis, JobId, Match, Mode, REVIEW_DEPTH, Replay};
use super::theme::Theme;
use super::words::{side, side_name, signed, yes};
use crate::ai::MoveEval;
use crate::ai::book::{Book, BookStep};
use crate::ai::review::{self, Class, PlyReview, Summary};
use crate::i18n::{Arg, Lang, tr};
use crate::rules::{Color, Game, Move, Position};
use crate::tr;
use ratatui::style::{Color as Tint, Modifier, Style};
use ratatui::text::{Line, Span};

/// Starts or hides the review (`a` in replay).
pub fn toggle(app: &mut App, fx: &mut Vec<Effect>) {
    let lang = app.lang;
    let Screen::Play(m) = &mut app.screen else {
        return;
    };
    let total = m.game.len();
    let done = m.reviews.plies(&m.game).iter().flatten().count();
    let Mode::Replay(r) = &mut m.mode else {
        return;
    };
    match r.analysis.take() {
        Some(a) => {
            if let Some((id, _)) = a.running {
                fx.push(Effect::Stop(id));
            }
            app.status = Some(tr(lang, "review-hidden"));
        }
        None => {
            r.analysis = Some(Analysis::default());
            app.status = Some(if done == total {
                tr(lang, "review-shown")
            } else {
                tr(lang, "review-started")
            });
        }
    }
}

/// Whether the review of the match is shown.
#[must_use]
pub fn is_shown(m: &Match) -> bool {
    matches!(
        &m.mode,
        Mode::Replay(Replay {
            analysis: Some(_),
            ..
        })
    )
}

/// Starts the analysis of the unreviewed ply nearest to the shown one, when
/// the review is shown and no job runs (a running one is never interrupted
/// by stepping: it finishes and is kept).
pub fn schedule(m: &mut Match, next_job: &mut JobId, fx: &mut Vec<Effect>) {
    let rules = m.game.rules();
    let here = m.game.ply().saturating_sub(1);
    let Mode::Replay(Replay {
        analysis: Some(a), ..
    }) = &m.mode
    else {
        return;
    };
    if a.running.is_some() {
        return;
    }
    let plies = m.reviews.plies(&m.game);
    let wanted = (0..m.game.len())
        .filter(|&i| plies[i].is_none())
        .filter_map(|i| Some((i, m.game.position_at(i)?, m.game.moves()[i])))
        .filter(|(_, p, mv)| !a.skipped.contains(&(*p, *mv)))
        .min_by_key(|(i, _, _)| (i.abs_diff(here), *i));
    let Some((_, position, _)) = wanted else {
        return;
    };
    let id = *next_job;
    *next_job += 1;
    if let Mode::Replay(Replay {
        analysis: Some(a), ..
    }) = &mut m.mode
    {
        a.running = Some((id, position));
    }
    fx.push(Effect::Start(Job {
        id,
        kind: JobKind::Review {
            limits: review::limits(REVIEW_DEPTH),
        },
        position,
        rules,
    }));
}

/// The move played in `position` in the game, if it is one of its positions.
fn played_in(game: &Game, position: &Position) -> Option<Move> {
    (0..game.len())
        .find(|&i| game.position_at(i).as_ref() == Some(position))
        .map(|i| game.moves()[i])
}

/// Keeps an analysis result; returns whether it was the review's job.
pub fn analysed(m: &mut Match, id: JobId, position: Position, evals: &[MoveEval]) -> bool {
    let Mode::Replay(Replay {
        analysis: Some(a), ..
    }) = &mut m.mode
    else {
        return false;
    };
    if !a.running.is_some_and(|(i, p)| i == id && p == position) {
        return false;
    }
    a.running = None;
    if let Some(mv) = played_in(&m.game, &position) {
        match PlyReview::from_evals(mv, evals) {
            Some(r) => m.reviews.insert(position, mv, r),
            None => a.skipped.push((position, mv)),
        }
    }
    true
}

/// Drops a failed analysis job (the ply is not retried); returns whether it
/// was the review's job.
pub fn failed(m: &mut Match, id: JobId) -> bool {
    let Mode::Replay(Replay {
        analysis: Some(a), ..
    }) = &mut m.mode
    else {
        return false;
    };
    match a.running {
        Some((i, p)) if i == id => {
            a.running = None;
            if let Some(mv) = played_in(&m.game, &p) {
                a.skipped.push((p, mv));
            }
            true
        }
        _ => false,
    }
}

/// Whether a ply is a mistake worth jumping to.
fn is_mistake(r: &PlyReview) -> bool {
    r.class() >= Class::Mistake
}

/// The ply (number of moves played) of the previous (`forward` false) or next
/// mistake of either side from the shown move, if any.
#[must_use]
pub fn next_mistake(m: &Match, forward: bool) -> Option<usize> {
    let plies = m.reviews.plies(&m.game);
    let here = m.game.ply();
    let is = |i: &usize| plies[*i].as_ref().is_some_and(is_mistake);
    // Showing ply `k` shows move index `k - 1`.
    if forward {
        (here..plies.len()).find(is).map(|i| i + 1)
    } else {
        (0..here.saturating_sub(1)).rev().find(is).map(|i| i + 1)
    }
}

/// `[` and `]`: jumps to the previous or next mistake.
pub fn jump(app: &mut App, forward: bool) {
    let lang = app.lang;
    let Screen::Play(m) = &mut app.screen else {
        return;
    };
    match next_mistake(m, forward) {
        Some(ply) => {
            m.game.jump(ply);
            app.status = None;
        }
        None => {
            let done = m.reviews.plies(&m.game).iter().all(Option::is_some);
            app.status = Some(tr!(
                lang,
                "review-no-mistake",
                forward = yes(forward),
                done = yes(done)
            ));
        }
    }
}

/// The class of the move at index `i`, when reviewed and the review shown.
#[must_use]
pub fn class_of(m: &Match, i: usize) -> Option<Class> {
    if !is_shown(m) {
        return None;
    }
    let position = m.game.position_at(i)?;
    let r = m.reviews.get(&position, *m.game.moves().get(i)?)?;
    (!r.is_pass()).then(|| r.class())
}

/// The colour of a class's mark (none for the best move or without colour).
#[must_use]
pub fn class_style(color: bool, class: Class) -> Style {
    let tint = match class {
        Class::Best => return Style::new(),
        Class::Inaccuracy => Tint::Yellow,
        Class::Mistake => Tint::LightRed,
        Class::Blunder => Tint::Red,
    };
    if color {
        Style::new().fg(tint).add_modifier(Modifier::BOLD)
    } else if class >= Class::Mistake {
        Style::new().add_modifier(Modifier::BOLD)
    } else {
        Style::new()
    }
}

/// What the review says about the shown move, for the panel: one or two
/// lines. Estimates carry a `~`.
#[must_use]
pub fn verdict(lang: Lang, m: &Match) -> Vec<String> {
    if !is_shown(m) {
        return Vec::new();
    }
    let Some((before, mv)) = m.shown_move() else {
        return vec![tr(lang, "review-step-to-move")];
    };
    let mover = side(before.side_to_move());
    let Some(r) = m.reviews.get(&before, mv) else {
        return vec![tr(lang, "review-thinking")];
    };
    if r.is_pass() {
        return vec![tr!(lang, "review-forced-pass", side = mover)];
    }
    let d = |s: crate::ai::Score| {
        if s.is_exact() {
            format!("{:+}", s.discs())
        } else {
            format!("~{}", signed(lang, s.discs(), 1))
        }
    };
    if r.class() == Class::Best {
        vec![tr!(
            lang,
            "review-best",
            side = mover,
            mv = mv.to_string(),
            score = d(r.played_score)
        )]
    } else {
        vec![
            tr!(
                lang,
                "review-worse",
                side = mover,
                mv = mv.to_string(),
                mark = r.class().mark(),
                class = tr!(lang, "review-class", class = r.class().to_string()),
                loss = Arg::decimal(r.loss(), 1)
            ),
            format!(
                "  {}",
                tr!(
                    lang,
                    "review-where",
                    score = d(r.played_score),
                    best = r.best.to_string(),
                    best_score = d(r.best_score)
                )
            ),
        ]
    }
}

/// The review's lines for the panel: progress, then each player's figures
/// and where the game was decided.
#[must_use]
pub fn panel_lines(lang: Lang, m: &Match, book: Option<&Book>, th: &Theme) -> Vec<Line<'static>> {
    let Mode::Replay(Replay {
        analysis: Some(a), ..
    }) = &m.mode
    else {
        return Vec::new();
    };
    let plies = m.reviews.plies(&m.game);
    let s: Summary = review::summarize(&m.game, &plies);
    let total = m.game.len();
    let mut lines = Vec::new();
    if s.reviewed < total {
        lines.push(Line::from(Span::styled(
            tr!(
                lang,
                "review-progress",
                running = yes(a.running.is_some()),
                done = s.reviewed,
                total = total
            ),
            th.dim,
        )));
    }
    // The names' column: as wide as the longer name and a space, at least 6.
    let name_width = Color::ALL
        .iter()
        .map(|&c| side_name(lang, c).chars().count() + 1)
        .max()
        .unwrap_or(0)
        .max(6);
    let departures = book
        .map(|b| b.departures(&m.game.start(), m.game.moves()))
        .unwrap_or_default();
    for ((color, p), left) in Color::ALL.iter().zip(&s.players).zip(departures) {
        let counts: Vec<String> = [Class::Inaccuracy, Class::Mistake, Class::Blunder]
            .iter()
            .map(|c| format!("{}{}", p.counts[c.index()], c.mark()))
            .collect();
        lines.push(Line::from(format!(
            "{:<name_width$}{} {}",
            side_name(lang, *color),
            tr!(
                lang,
                "review-per-move",
                loss = loss_text(lang, p.average_loss())
            ),
            counts.join(" ")
        )));
        if let Some((i, l)) = p.worst {
            lines.push(Line::from(Span::styled(
                format!(
                    "  {}",
                    tr!(
                        lang,
                        "review-worst",
                        n = i + 1,
                        mv = m.game.moves()[i].to_string(),
                        loss = Arg::decimal(l, 0)
                    )
                ),
                th.dim,
            )));
        }
        if let Some((i, step)) = left {
            lines.push(Line::from(Span::styled(
                format!("  {}", left_book_text(lang, m, i, step)),
                th.dim,
            )));
        }
    }
    let decided = match s.decided_at {
        Some(0) => tr(lang, "review-decided-start"),
        Some(n) => tr!(lang, "review-decided-at", n = n),
        None if s.reviewed == total => tr(lang, "review-decided-never"),
        None => String::new(),
    };
    if !decided.is_empty() {
        lines.push(Line::from(Span::styled(decided, th.dim)));
    }
    lines
}

/// Where a side left the opening book: the move, the book's value of it
/// and the book's best there, in discs.
fn left_book_text(lang: Lang, m: &Match, ply: usize, step: BookStep) -> String {
    let discs = |v: i32| signed(lang, f64::from(v) / 100.0, 1);
    let n = ply + 1;
    let mv = m.game.moves()[ply].to_string();
    let best = step.best.mv.to_string();
    let best_value = discs(step.best.value);
    match step.played {
        Some(played) => tr!(
            lang,
            "review-left-book",
            n = n,
            mv = mv,
            value = discs(played.value),
            best = best,
            best_value = best_value
        ),
        None => tr!(
            lang,
            "review-left-book-unknown",
            n = n,
            mv = mv,
            best = best,
            best_value = best_value
        ),
    }
}

/// A loss per move to one decimal, with its minus sign; a loss that rounds to
/// nothing is "0.0", never "-0.0".
fn loss_text(lang: Lang, loss: f64) -> String {
    let text = crate::i18n::decimal(lang, loss.max(0.0), 1);
    if text.chars().all(|c| !c.is_ascii_digit() || c == '0') {
        text
    } else {
        format!("-{text}")
    }
}
