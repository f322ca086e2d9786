//! Replay mode: stepping through the game's history move by move, autoplay,
//! continuing from a shown move; the review of every move is in
//! [`super::review`].
//!
//! The ply shown is the cursor of the match's [`crate::rules::Game`], the same
//! one that undo and redo move; replay keeps no copy of the history. Called
//! from [`super::update()`] only; depends on the model, never on the terminal.

use super::app::{App, Effect, Overlay, Screen};
use super::keys::ReplayAction;
use super::model::{Analysis, Match, Mode, Pace, Replay};
use crate::i18n::{Lang, tr};
use crate::rules::Game;
use crate::tr;
use std::time::{Duration, Instant};

/// Plies skipped by PgUp and PgDn.
pub const PAGE: usize = 10;

/// The time between autoplay steps for a pace.
#[must_use]
pub fn step_delay(pace: Pace) -> Duration {
    Duration::from_millis([250, 500, 1000, 2000, 4000][usize::from(pace.0.min(Pace::SLOWEST))])
}

/// Enters replay mode at the game's cursor, stopping the AI and the hint.
pub fn enter(m: &mut Match, fx: &mut Vec<Effect>) {
    if let Some(job) = m.ai.take() {
        fx.push(Effect::Stop(job.id));
    }
    if let Some(hint) = m.hint.take() {
        fx.push(Effect::Stop(hint.id));
    }
    m.input.cancel();
    if let Mode::Play = m.mode {
        m.mode = Mode::Replay(Replay {
            from: m.game.ply(),
            autoplay: None,
            pace: Pace(2),
            // A game reviewed before (e.g. a saved record) shows its review at once.
            analysis: (!m.game.is_empty() && m.reviews.plies(&m.game).iter().all(Option::is_some))
                .then(Analysis::default),
        });
    }
}

/// Leaves replay: back to the ply play was at.
fn leave(m: &mut Match, fx: &mut Vec<Effect>) {
    if let Mode::Replay(r) = std::mem::replace(&mut m.mode, Mode::Play) {
        if let Some((id, _)) = r.analysis.and_then(|a| a.running) {
            fx.push(Effect::Stop(id));
        }
        m.game.jump(r.from);
    }
}

/// Continues playing from the shown ply: the later moves are dropped.
pub fn continue_here(m: &mut Match, fx: &mut Vec<Effect>) {
    let ply = m.game.ply();
    leave(m, fx);
    m.game.jump(ply);
    m.game.truncate();
    m.paused = false;
    m.viewing = false;
}

/// A one-line account of the shown ply: "move 23 of 58".
#[must_use]
pub fn header(lang: Lang, m: &Match) -> String {
    tr!(
        lang,
        "replay-header",
        ply = m.game.ply(),
        len = m.game.len()
    )
}

/// Does what a key of [`REPLAY_KEYS`](super::keys::REPLAY_KEYS) does in
/// replay (saving, copying and quitting are the game screen's, done by
/// [`super::update()`]).
pub fn act(app: &mut App, action: ReplayAction, fx: &mut Vec<Effect>) {
    let lang = app.lang;
    let Screen::Play(m) = &mut app.screen else {
        return;
    };
    match action {
        ReplayAction::Continue if m.game.ply() == m.game.len() => {
            continue_here(m, fx);
            app.status = Some(tr(lang, "status-playing-on-last"));
        }
        ReplayAction::Review => super::review::toggle(app, fx),
        ReplayAction::PreviousMistake | ReplayAction::NextMistake => {
            super::review::jump(app, action == ReplayAction::NextMistake);
            if let Screen::Play(m) = &mut app.screen
                && let Mode::Replay(r) = &mut m.mode
            {
                r.autoplay = None;
            }
        }
        ReplayAction::Leave => {
            leave(m, fx);
            app.status = Some(tr(lang, "status-replay-left"));
        }
        _ => {
            let Mode::Replay(r) = &mut m.mode else {
                return;
            };
            if step(&mut m.game, action) {
                r.autoplay = None;
                app.status = None;
            } else {
                control(
                    lang,
                    r,
                    &mut m.game,
                    action,
                    app.clock,
                    &mut app.status,
                    &mut app.overlay,
                );
            }
        }
    }
}

/// Steps through the history for a stepping action; returns whether it was one.
fn step(game: &mut Game, action: ReplayAction) -> bool {
    let ply = game.ply();
    match action {
        ReplayAction::Back => {
            game.undo();
        }
        ReplayAction::Forward => {
            game.redo();
        }
        ReplayAction::First => {
            game.jump(0);
        }
        ReplayAction::Last => {
            game.jump(game.len());
        }
        ReplayAction::PageBack => {
            game.jump(ply.saturating_sub(PAGE));
        }
        ReplayAction::PageForward => {
            game.jump(ply + PAGE);
        }
        _ => return false,
    }
    true
}

/// Autoplay, its pace, and continuing from the shown move.
fn control(
    lang: Lang,
    r: &mut Replay,
    game: &mut Game,
    action: ReplayAction,
    now: Instant,
    status: &mut Option<String>,
    overlay: &mut Option<Overlay>,
) {
    match action {
        ReplayAction::Autoplay => {
            if r.autoplay.take().is_none() {
                if game.ply() == game.len() {
                    game.jump(0);
                }
                r.autoplay = Some(now);
                // The panel shows the pace while autoplay runs.
                *status = Some(tr(lang, "status-autoplay-started"));
            } else {
                *status = Some(tr(lang, "status-autoplay-stopped"));
            }
        }
        ReplayAction::Faster => {
            r.pace = Pace(r.pace.0.saturating_sub(1));
            *status = pace_status(lang, r);
        }
        ReplayAction::Slower => {
            r.pace = Pace((r.pace.0 + 1).min(Pace::SLOWEST));
            *status = pace_status(lang, r);
        }
        ReplayAction::Continue => {
            r.autoplay = None;
            *overlay = Some(Overlay::ConfirmContinue);
        }
        _ => {}
    }
}

/// The status after the pace changed: none while autoplay runs (the panel
/// shows the pace), else the pace autoplay will take.
fn pace_status(lang: Lang, r: &Replay) -> Option<String> {
    r.autoplay.is_none().then(|| {
        tr!(
            lang,
            "status-autoplay-pace",
            time = super::words::seconds(lang, step_delay(r.pace).as_secs_f64(), 2)
        )
    })
}

/// Autoplay: one step forward when the pace allows; stops at the end.
pub fn tick(m: &mut Match, now: Instant) {
    let Mode::Replay(r) = &mut m.mode else {
        return;
    };
    let Some(last) = r.autoplay else {
        return;
    };
    if now.saturating_duration_since(last) < step_delay(r.pace) {
        return;
    }
    if m.game.redo() && m.game.can_redo() {
        r.autoplay = Some(now);
    } else {
        r.autoplay = None;
    }
}
