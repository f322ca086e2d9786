//! `update`: the only function that changes the [`App`]. A pure function of
//! (state, message) → effects, so every behaviour is unit-testable without a
//! terminal, a clock or a thread.
//!
//! Turn, scores, passes and the result are read from [`Game`] every time; the
//! functions here never keep a copy of them.

use super::app::{App, Effect, Job, JobKind, Msg, Overlay, Screen};
use super::board_input::{BoardInput, BoardKey};
use super::keys::{
    Action, FormAction, HELP_KEY, Key, KeyPress, ReplayAction, form_action, game_action,
    replay_action,
};
use super::layout::{Hit, ScreenLayout, hit_test};
use super::model::{AiJob, Hint, Match, Mode, NewGameForm, Opponent, Pace, Player, Setup};
use super::online::{self, Online};
use super::words;
use super::{newgame, panel, record, replay, review};
use crate::ai::Level;
use crate::i18n::{Lang, tr};
use crate::random;
use crate::rules::{Move, Position, Status};
use crate::tr;

/// Applies `msg` to `app`; returns what the runtime must do.
pub fn update(app: &mut App, msg: Msg) -> Vec<Effect> {
    let lang = app.lang;
    let mut fx = Vec::new();
    if matches!(app.screen, Screen::Online { .. }) {
        online_msg(app, msg, &mut fx);
        autosave(app, &mut fx);
        return fx;
    }
    match msg {
        Msg::Key(key) => key_pressed(app, key, &mut fx),
        Msg::Click { x, y } => clicked(app, x, y, &mut fx),
        Msg::Resize { width, height } => app.area = (width, height),
        Msg::Tick(now) => {
            app.clock = now;
            if let Screen::Play(m) = &mut app.screen {
                replay::tick(m, now);
                play_ready_ai_move(lang, m, now, &mut app.status);
            }
        }
        Msg::Progress { id, progress } => {
            if let Some(job) = playing(app).and_then(|m| m.ai.as_mut())
                && job.id == id
            {
                job.progress = Some(progress);
            }
        }
        Msg::Searched {
            id,
            position,
            result,
        } => {
            let clock = app.clock;
            if let Screen::Play(m) = &mut app.screen
                && let Some(job) = &mut m.ai
                && job.id == id
                && position == job.position
                && position == m.game.position()
            {
                job.result = Some(result);
                play_ready_ai_move(lang, m, clock, &mut app.status);
            }
        }
        Msg::Analysed {
            id,
            position,
            evals,
        } => {
            // A hint from the opening book says so.
            let from_book = evals.iter().any(|e| e.book);
            let mut hinted = false;
            if let Some(m) = playing(app) {
                if let Some(hint) = &mut m.hint
                    && hint.id == id
                    && position == m.game.position()
                {
                    hint.evals = evals;
                    hinted = true;
                } else {
                    review::analysed(m, id, position, &evals);
                }
            }
            if hinted && from_book {
                app.status = Some(tr(app.lang, "status-hint-book"));
            }
        }
        Msg::Failed { id, message } => {
            if let Some(m) = playing(app)
                && review::failed(m, id)
            {
                app.status = Some(tr!(lang, "status-analysis-failed", message = message));
            } else if let Some(m) = playing(app) {
                let was_move = m.ai.as_ref().is_some_and(|j| j.id == id);
                let was_hint = m.hint.as_ref().is_some_and(|h| h.id == id);
                if was_move || was_hint {
                    m.ai = m.ai.take().filter(|j| j.id != id);
                    m.hint = m.hint.take().filter(|h| h.id != id);
                    m.paused = true;
                    app.status = Some(tr!(lang, "status-ai-failed", message = message));
                }
            }
        }
        Msg::Remembered {
            remembered,
            connect,
        } => {
            let server = remembered.server();
            fx.extend(open_online(app, server, remembered.tokens, None, connect));
        }
        // The online screen's reports, once it is left (its worker is
        // stopped): nothing to show them on.
        Msg::Online(_) => {}
        Msg::Terminate => quit(app, &mut fx),
        // A local game types nothing but squares: a paste plays nothing.
        Msg::Paste(_) => {}
    }
    schedule(app, &mut fx);
    autosave(app, &mut fx);
    fx
}

/// Opens the online screen over the new-game screen, which leaving it
/// shows again: for `server`, holding `tokens`, with `intent` to carry out
/// once welcomed; connecting at once when `connect`, else on the connect
/// form. Returns what the runtime must do. Over any other screen, nothing.
pub fn open_online(
    app: &mut App,
    server: online::Server,
    tokens: online::model::Tokens,
    intent: Option<online::Intent>,
    connect: bool,
) -> Vec<Effect> {
    let Screen::NewGame(back) = app.screen else {
        return Vec::new();
    };
    let mut online = Online::new(server, intent, app.lang, app.clock);
    online.tokens = tokens;
    online.area = app.area;
    let mut fx = Vec::new();
    if connect {
        online::update::connect(&mut online, &mut fx);
    }
    app.screen = Screen::Online {
        online: Box::new(online),
        back,
    };
    app.overlay = None;
    fx.into_iter().map(Effect::Online).collect()
}

/// A message while the online screen is shown: the screen's own update,
/// then what its end asks (the new-game screen, a replay of the finished
/// game, or quitting).
fn online_msg(app: &mut App, msg: Msg, fx: &mut Vec<Effect>) {
    let lang = app.lang;
    match msg {
        Msg::Tick(now) => app.clock = now,
        Msg::Resize { width, height } => app.area = (width, height),
        _ => {}
    }
    let Screen::Online { online, .. } = &mut app.screen else {
        return;
    };
    fx.extend(online::update(online, msg).into_iter().map(Effect::Online));
    let Some(exit) = online.exit.take() else {
        return;
    };
    fx.push(Effect::Online(online::Effect::Disconnect));
    match exit {
        online::Exit::Quit => quit(app, fx),
        online::Exit::Back => {
            if let Screen::Online { back, .. } = app.screen {
                app.screen = Screen::NewGame(back);
            }
        }
        online::Exit::Replay(r) => {
            start(app, record::setup_of(lang, &r));
            app.back_online = true;
        }
    }
}

/// Asks for the autosave to be written when the game changed, or removed
/// when its game is over. A game opened to look through never touches it,
/// and a new game replaces it from its first move: until then the
/// unfinished game saved before stays.
fn autosave(app: &mut App, fx: &mut Vec<Effect>) {
    if app.quit {
        return;
    }
    let m = match &app.screen {
        Screen::Play(m) => m,
        Screen::NewGame(_) | Screen::Lesson(_) | Screen::Online { .. } => match &app.suspended {
            Some(m) => m,
            None => return,
        },
    };
    if m.viewing || m.game.is_empty() {
        return;
    }
    let want = record::autosave_text(m);
    if want != app.autosaved {
        app.autosaved.clone_from(&want);
        fx.push(Effect::Autosave(want));
    }
}

fn playing(app: &mut App) -> Option<&mut Match> {
    match &mut app.screen {
        Screen::Play(m) => Some(m),
        Screen::NewGame(_) | Screen::Lesson(_) | Screen::Online { .. } => None,
    }
}

/// Stops every job and ends the program.
fn quit(app: &mut App, fx: &mut Vec<Effect>) {
    if let Screen::Play(m) = &mut app.screen {
        stop_jobs(m, fx);
    }
    app.quit = true;
}

fn stop_jobs(m: &mut Match, fx: &mut Vec<Effect>) {
    if let Some(job) = m.ai.take() {
        fx.push(Effect::Stop(job.id));
    }
    if let Some(hint) = m.hint.take() {
        fx.push(Effect::Stop(hint.id));
    }
}

fn key_pressed(app: &mut App, key: KeyPress, fx: &mut Vec<Effect>) {
    let lang = app.lang;
    if key.ctrl && matches!(key.key, Key::Char('c' | 'C')) {
        quit(app, fx);
        return;
    }
    // While "Terminal too small" hides the screen, a key's effect could not be
    // seen: only q works, and quits keeping an unfinished game to resume.
    let (width, height) = app.area;
    if app.is_too_small(ratatui::layout::Rect::new(0, 0, width, height)) {
        if key.key == Key::Char('q') && key.is_plain() {
            quit(app, fx);
        }
        return;
    }
    // Ctrl and Alt chords mean nothing here; never read them as plain keys.
    if key.is_chord() {
        return;
    }
    if app.overlay.is_some() {
        overlay_key(app, key, fx);
        return;
    }
    if key.key == HELP_KEY {
        app.overlay = Some(Overlay::Help);
        return;
    }
    if key.key == Key::Char('R') {
        app.overlay = Some(Overlay::Rules(0));
        return;
    }
    let (area, look) = (app.area, app.look);
    match &mut app.screen {
        Screen::NewGame(_) => newgame_key(app, key, fx),
        Screen::Lesson(lesson) => match super::lesson::key(lang, lesson, key, area, look) {
            super::lesson::Outcome::Stay => {}
            super::lesson::Outcome::Leave => {
                app.screen = Screen::NewGame(lesson.back);
            }
            super::lesson::Outcome::Quit => quit(app, fx),
        },
        Screen::Play(m) if matches!(m.mode, Mode::Replay(_)) => replay_key(app, key, fx),
        Screen::Play(_) => play_key(app, key, fx),
        // Its keys go to its own update (see `online_msg`).
        Screen::Online { .. } => {}
    }
}

/// A key while a window is open over the screen: it answers the window only.
fn overlay_key(app: &mut App, key: KeyPress, fx: &mut Vec<Effect>) {
    let lang = app.lang;
    match &app.overlay {
        Some(Overlay::Rules(scroll)) => {
            app.overlay = match key.key {
                Key::Down | Key::Char('j' | ' ') => Some(Overlay::Rules(scroll.saturating_add(1))),
                Key::PageDown => Some(Overlay::Rules(scroll.saturating_add(10))),
                Key::Up | Key::Char('k') => Some(Overlay::Rules(scroll.saturating_sub(1))),
                Key::PageUp => Some(Overlay::Rules(scroll.saturating_sub(10))),
                Key::Esc | Key::Enter | Key::Char('q' | 'R' | '?') => None,
                _ => Some(Overlay::Rules(*scroll)),
            };
        }
        Some(Overlay::Help) => {
            if matches!(key.key, Key::Esc | Key::Enter | Key::Char('?' | 'q')) {
                app.overlay = None;
            }
        }
        Some(Overlay::ConfirmQuit) => {
            // The language's own keys; a plain "yes" answers nothing, so
            // that the game is never discarded by reflex.
            let is = |id: &str, c: char| tr(lang, id).chars().eq(c.to_lowercase());
            match key.key {
                Key::Char(c) if is("confirm-quit-discard-key", c) => {
                    // An unfinished game given up on purpose is not offered again.
                    fx.push(Effect::Autosave(None));
                    quit_or_back(app, fx);
                }
                // Kept: the autosave stays, offered again on the next start.
                Key::Char(c) if is("confirm-quit-keep-key", c) => quit_or_back(app, fx),
                Key::Char('n' | 'N') | Key::Esc => app.overlay = None,
                _ => {}
            }
        }
        Some(Overlay::ConfirmContinue) => match key.key {
            Key::Char('y' | 'Y' | 'o' | 'O') => {
                app.overlay = None;
                if let Screen::Play(m) = &mut app.screen {
                    let dropped = m.game.len() - m.game.ply();
                    replay::continue_here(m, fx);
                    app.status = Some(tr!(
                        lang,
                        "status-playing-on",
                        ply = m.game.ply(),
                        n = dropped
                    ));
                }
            }
            Key::Char('n' | 'N') | Key::Esc => app.overlay = None,
            _ => {}
        },
        Some(Overlay::Resume(_)) => match key.key {
            Key::Char('y' | 'Y' | 'o' | 'O') | Key::Enter => {
                if let Some(Overlay::Resume(setup)) = app.overlay.take() {
                    start(app, *setup);
                }
            }
            Key::Char('n' | 'N') | Key::Esc => {
                app.overlay = None;
                app.status = Some(tr(lang, "status-resume-later"));
            }
            _ => {}
        },
        None => {}
    }
}

/// A key in replay: the action [`REPLAY_KEYS`](super::keys::REPLAY_KEYS)
/// binds to it; saving, copying and quitting work as while playing.
fn replay_key(app: &mut App, key: KeyPress, fx: &mut Vec<Effect>) {
    match replay_action(key.key) {
        Some(ReplayAction::Save | ReplayAction::Copy | ReplayAction::Quit) => {
            play_key(app, key, fx);
        }
        // A game opened to look through is left for where it came from:
        // the salon, else the new-game screen (Esc there comes back to it).
        // It never turns into a game to play by leaving its replay.
        Some(ReplayAction::Leave) if playing(app).is_some_and(|m| m.viewing) => {
            if std::mem::take(&mut app.back_online) {
                fx.push(Effect::OpenOnline { connect: true });
            }
            new_game(app, fx);
        }
        Some(action) => replay::act(app, action, fx),
        None => {}
    }
}

/// A key on the new-game screen: the action
/// [`FORM_KEYS`](super::keys::FORM_KEYS) binds to it.
fn newgame_key(app: &mut App, key: KeyPress, fx: &mut Vec<Effect>) {
    let lang = app.lang;
    let Screen::NewGame(form) = &mut app.screen else {
        return;
    };
    let Some(action) = form_action(key.key) else {
        return;
    };
    let on_language = form.field == newgame::LANGUAGE;
    match action {
        FormAction::Previous => newgame::select(form, -1),
        FormAction::Next => newgame::select(form, 1),
        FormAction::Decrease if on_language => {
            app.lang = newgame::change_language(form, app.lang, -1);
        }
        FormAction::Increase if on_language => {
            app.lang = newgame::change_language(form, app.lang, 1);
        }
        FormAction::Decrease => newgame::change(form, -1),
        FormAction::Increase => newgame::change(form, 1),
        // The language is remembered only when chosen on the form (a
        // `--lang` flag holds for its own run), with the other choices.
        FormAction::Start if form.choices.opponent == Opponent::Online => {
            fx.push(Effect::SaveChoices(form.choices));
            fx.push(Effect::OpenOnline { connect: false });
        }
        FormAction::Start => {
            let choices = form.choices;
            fx.push(Effect::SaveChoices(choices));
            let setup = newgame::setup(lang, &choices, app.random());
            start(app, setup);
            app.started_with = Some(choices);
            app.form_choices = choices;
        }
        FormAction::Back => {
            app.form_choices = form.choices;
            if let Some(m) = app.suspended.take() {
                app.screen = Screen::Play(m);
                app.status = Some(tr(lang, "status-back-to-game"));
            }
        }
        FormAction::Learn => {
            app.screen = Screen::Lesson(Box::new(super::lesson::Lesson::new(*form)));
        }
        FormAction::Quit => quit(app, fx),
    }
}

/// Starts a game: the play screen with `setup`.
pub fn start(app: &mut App, setup: Setup) {
    app.started_with = None;
    app.back_online = false;
    let size = setup.game.rules().size;
    app.screen = Screen::Play(Box::new(Match {
        game: setup.game,
        players: setup.players,
        names: setup.names,
        input: BoardInput::new(size),
        ai: None,
        hint: None,
        pace: Pace(if setup.players.contains(&Player::Human) {
            1
        } else {
            2
        }),
        paused: false,
        mode: Mode::Play,
        reviews: setup.reviews,
        viewing: setup.replay,
    }));
    app.overlay = None;
    app.status = setup.note;
    app.suspended = None;
    if setup.replay
        && let Screen::Play(m) = &mut app.screen
    {
        let mut ignored = Vec::new();
        replay::enter(m, &mut ignored);
        if let Mode::Replay(r) = &mut m.mode {
            r.from = m.game.len();
        }
    }
}

/// A key while playing: a key of the board (the cursor, a typed square:
/// a column letter, then a row digit), or the action
/// [`GAME_KEYS`](super::keys::GAME_KEYS) binds to it.
fn play_key(app: &mut App, key: KeyPress, fx: &mut Vec<Effect>) {
    let lang = app.lang;
    let Screen::Play(m) = &mut app.screen else {
        return;
    };
    let size = m.game.rules().size;
    match m.input.key(key.key, size) {
        BoardKey::Square(sq) => {
            human_move(lang, m, Move::Place(sq), &mut app.status, fx);
            return;
        }
        BoardKey::OffBoard(name) => {
            app.status = Some(words::off_board(lang, &name, size));
            return;
        }
        BoardKey::Moved | BoardKey::Column => return,
        BoardKey::Other => {}
    }
    if let Key::Char(c) = key.key
        && game_action(key.key).is_none()
        && c.is_ascii_alphanumeric()
    {
        // Neither a key of the game nor part of a square's name.
        let last = char::from(b'a' + size.side() - 1);
        app.status = Some(if c.is_ascii_digit() {
            tr(lang, "status-column-first")
        } else {
            tr!(
                lang,
                "status-not-a-column",
                key = c.to_string(),
                first = "a",
                last = last.to_string()
            )
        });
        return;
    }
    let Some(action) = game_action(key.key) else {
        return;
    };
    match action {
        // Read by the board input above, which these bindings name.
        Action::Left | Action::Right | Action::Up | Action::Down => {}
        Action::Play => human_move(lang, m, Move::Place(m.input.cursor()), &mut app.status, fx),
        Action::PlayOrPause => play_or_pause(lang, m, &mut app.status, fx),
        Action::Replay => enter_replay(lang, m, &mut app.status, fx),
        Action::Save => fx.push(Effect::Save(Box::new(record::record_of(m)))),
        Action::Copy => copy(lang, m, &mut app.status, fx),
        Action::Undo => undo(lang, m, &mut app.status, fx),
        Action::Redo => redo(lang, m, &mut app.status, fx),
        Action::Hint => hint(lang, m, &mut app.status, fx, &mut app.next_job, app.clock),
        Action::Dots => {
            app.dots = !app.dots;
            app.status = Some(tr!(
                lang,
                "status-dots",
                on = if app.dots { "yes" } else { "no" }
            ));
        }
        Action::TakeOver => take_over(lang, m, &mut app.status, fx),
        Action::Faster => {
            m.pace = Pace(m.pace.0.saturating_sub(1));
            app.status = Some(pace_message(lang, m.pace));
        }
        Action::Slower => {
            m.pace = Pace((m.pace.0 + 1).min(Pace::SLOWEST));
            app.status = Some(pace_message(lang, m.pace));
        }
        Action::NewGame => new_game(app, fx),
        Action::Quit => quit_game(app, fx),
        Action::Dismiss => {
            if let Some(h) = m.hint.take() {
                fx.push(Effect::Stop(h.id));
            }
            app.status = None;
        }
    }
}

/// Space: resumes a paused AI a person plays against, plays at the cursor
/// when a person plays, pauses or resumes when the AI plays itself.
fn play_or_pause(lang: Lang, m: &mut Match, status: &mut Option<String>, fx: &mut Vec<Effect>) {
    if m.has_human() && m.paused && m.player(m.game.side_to_move()).is_ai() {
        m.paused = false;
        *status = Some(tr(lang, "status-resumed"));
    } else if m.has_human() {
        human_move(lang, m, Move::Place(m.input.cursor()), status, fx);
    } else {
        m.paused = !m.paused;
        if m.paused {
            stop_jobs(m, fx);
        }
        *status = Some(if m.paused {
            tr(lang, "status-paused")
        } else {
            tr(lang, "status-resumed")
        });
    }
}

fn enter_replay(lang: Lang, m: &mut Match, status: &mut Option<String>, fx: &mut Vec<Effect>) {
    if m.game.is_empty() {
        *status = Some(tr(lang, "status-nothing-to-replay"));
    } else {
        replay::enter(m, fx);
        *status = Some(tr(lang, "status-replay-keys"));
    }
}

/// Copies the moves played as a transcript.
fn copy(lang: Lang, m: &Match, status: &mut Option<String>, fx: &mut Vec<Effect>) {
    let transcript = crate::notation::write_transcript(m.game.played());
    *status = Some(if transcript.is_empty() {
        tr(lang, "status-nothing-to-copy")
    } else {
        fx.push(Effect::Copy(transcript.clone()));
        tr!(lang, "status-copied", moves = transcript)
    });
}

/// The new-game screen, the game kept to go back to with Esc.
fn new_game(app: &mut App, fx: &mut Vec<Effect>) {
    let Screen::Play(m) = &mut app.screen else {
        return;
    };
    stop_jobs(m, fx);
    // A game only looked at (a replay) says nothing of the next game's
    // setup: the form keeps its own.
    let form = app.form_choices;
    let choices = app.started_with.unwrap_or_else(|| {
        if m.viewing {
            form
        } else {
            newgame::choices_of(m)
        }
    });
    let form = Screen::NewGame(NewGameForm { choices, field: 0 });
    if let Screen::Play(m) = std::mem::replace(&mut app.screen, form) {
        app.suspended = Some(m);
    }
    app.status = None;
}

/// `q` in a game: asks first while a person has an unfinished game.
fn quit_game(app: &mut App, fx: &mut Vec<Effect>) {
    let Screen::Play(m) = &app.screen else {
        return;
    };
    // Over at its last recorded move, not at the ply shown (replay, undo).
    let over = m
        .game
        .position_at(m.game.len())
        .is_some_and(|p| p.is_game_over());
    if !over && m.has_human() && !m.game.is_empty() && !m.viewing {
        app.overlay = Some(Overlay::ConfirmQuit);
    } else {
        quit_or_back(app, fx);
    }
}

/// `q` from a game that came from the salon (a finished game looked at,
/// or played on from one of its moves) goes back to the salon, as `q` at
/// a finished table there goes back to the lobby; from any other game it
/// quits. Ctrl-C always quits.
fn quit_or_back(app: &mut App, fx: &mut Vec<Effect>) {
    if std::mem::take(&mut app.back_online) {
        app.overlay = None;
        if let Screen::Play(m) = &mut app.screen {
            stop_jobs(m, fx);
        }
        fx.push(Effect::OpenOnline { connect: true });
        new_game(app, fx);
    } else {
        quit(app, fx);
    }
}

/// The AI's pace as a status line; the fastest pace has no wait to name.
fn pace_message(lang: Lang, pace: Pace) -> String {
    if pace.delay().is_zero() {
        return crate::i18n::tr(lang, "status-ai-pace-none");
    }
    tr!(
        lang,
        "status-ai-pace",
        time = words::seconds(lang, pace.delay().as_secs_f64(), 2)
    )
}

fn clicked(app: &mut App, x: u16, y: u16, fx: &mut Vec<Effect>) {
    let lang = app.lang;
    if app.overlay.is_some() {
        return;
    }
    let area = app.area;
    if let Screen::Lesson(lesson) = &mut app.screen {
        if let ScreenLayout::Game { board, .. } = super::layout::layout(
            ratatui::layout::Rect::new(0, 0, area.0, area.1),
            crate::rules::BoardSize::Eight,
        ) && let Some(sq) = board.square_at(x, y)
        {
            super::lesson::square(lang, lesson, sq);
        }
        return;
    }
    let top = match &app.screen {
        Screen::Play(m) => panel::panel_top_rows(app, m, area),
        Screen::NewGame(_) | Screen::Lesson(_) | Screen::Online { .. } => return,
    };
    let Screen::Play(m) = &mut app.screen else {
        return;
    };
    match hit_test(area, &m.game, top, x, y) {
        Some(Hit::Square(sq)) if m.mode == Mode::Play => {
            m.input.point(sq);
            human_move(lang, m, Move::Place(sq), &mut app.status, fx);
        }
        Some(Hit::Move(i)) => {
            replay::enter(m, fx);
            if let Mode::Replay(r) = &mut m.mode {
                r.autoplay = None;
            }
            m.game.jump(i + 1);
            app.status = None;
        }
        _ => {}
    }
}

/// Plays a person's move at the cursor, or explains why not.
fn human_move(
    lang: Lang,
    m: &mut Match,
    mv: Move,
    status: &mut Option<String>,
    fx: &mut Vec<Effect>,
) {
    let side = m.game.side_to_move();
    if let Some(outcome) = m.game.outcome() {
        *status = Some(tr!(
            lang,
            "status-game-over",
            result = words::outcome(lang, outcome)
        ));
        return;
    }
    if let Player::Ai(_) = m.player(side) {
        *status = Some(tr!(lang, "status-wait-ai", side = words::side(side)));
        return;
    }
    match m.game.play(mv) {
        Ok(()) => {
            if let Some(h) = m.hint.take() {
                fx.push(Effect::Stop(h.id));
            }
            m.paused = false;
            *status = None;
        }
        Err(e) => *status = Some(illegal_text(lang, e)),
    }
}

/// Whether the game rests at `p` for a person (or for anyone when nobody is
/// human): someone has to choose a move there.
fn rests_at(m: &Match, p: &Position) -> bool {
    match p.status() {
        Status::ToMove(c) => !m.has_human() || m.player(c) == Player::Human,
        Status::MustPass(_) => false,
        Status::GameOver => true,
    }
}

/// Undo back to the previous ply where a person chooses a move, through AI
/// moves and passes.
fn undo(lang: Lang, m: &mut Match, status: &mut Option<String>, fx: &mut Vec<Effect>) {
    let target = (0..m.game.ply()).rev().find(|&ply| {
        m.game
            .position_at(ply)
            .is_some_and(|p| rests_at(m, &p) && !p.is_game_over())
    });
    match target {
        Some(ply) => {
            stop_jobs(m, fx);
            m.game.jump(ply);
            if !m.has_human() {
                m.paused = true;
            }
            *status = Some(tr!(lang, "status-back-to-move", n = ply + 1));
        }
        None => *status = Some(tr(lang, "status-nothing-to-undo")),
    }
}

/// Redo forward to the next ply where a person chooses a move (or the end).
fn redo(lang: Lang, m: &mut Match, status: &mut Option<String>, fx: &mut Vec<Effect>) {
    if !m.game.can_redo() {
        *status = Some(tr(lang, "status-nothing-to-redo"));
        return;
    }
    stop_jobs(m, fx);
    let target = (m.game.ply() + 1..=m.game.len())
        .find(|&ply| m.game.position_at(ply).is_some_and(|p| rests_at(m, &p)))
        .unwrap_or(m.game.len());
    m.game.jump(target);
    if !m.has_human() {
        m.paused = true;
    }
    *status = Some(tr!(lang, "status-forward-to-move", n = target + 1));
}

fn hint(
    lang: Lang,
    m: &mut Match,
    status: &mut Option<String>,
    fx: &mut Vec<Effect>,
    next_job: &mut u64,
    now: std::time::Instant,
) {
    if let Some(h) = m.hint.take() {
        fx.push(Effect::Stop(h.id));
        *status = Some(tr(lang, "status-hint-hidden"));
        return;
    }
    let position = m.game.position();
    match position.status() {
        Status::ToMove(c) if m.player(c) == Player::Human => {
            let id = *next_job;
            *next_job += 1;
            fx.push(Effect::Start(Job {
                id,
                kind: JobKind::Hint {
                    level: hint_level(m.ai_level()),
                },
                position,
                rules: m.game.rules(),
            }));
            m.hint = Some(Hint {
                id,
                position,
                started: now,
                evals: Vec::new(),
            });
            *status = Some(tr(lang, "status-hint-shown"));
        }
        _ => *status = Some(tr(lang, "status-hint-person")),
    }
}

/// Hints use at least [`Level::HINTS`], so that they are worth reading.
fn hint_level(level: Level) -> Level {
    level.max(Level::HINTS)
}

/// Hands the side to move from a person to the AI or back.
fn take_over(lang: Lang, m: &mut Match, status: &mut Option<String>, fx: &mut Vec<Effect>) {
    if m.game.outcome().is_some() {
        return;
    }
    let side = m.game.side_to_move();
    let level = m.ai_level();
    // The side is no longer the recorded player's.
    m.names[side.index()] = None;
    let slot = &mut m.players[side.index()];
    *slot = match *slot {
        Player::Human => Player::Ai(level),
        Player::Ai(_) => Player::Human,
    };
    let now = *slot;
    stop_jobs(m, fx);
    m.paused = false;
    *status = Some(match now {
        Player::Human => tr!(lang, "status-you-now-play", side = words::side(side)),
        Player::Ai(l) => tr!(
            lang,
            "status-ai-now-plays",
            n = l.number(),
            name = words::level_name(lang, l),
            side = words::side(side)
        ),
    });
}

/// Plays the AI's move once it is known and the pace allows.
fn play_ready_ai_move(
    lang: Lang,
    m: &mut Match,
    now: std::time::Instant,
    status: &mut Option<String>,
) {
    let Some(job) = &m.ai else {
        return;
    };
    let Some(result) = &job.result else {
        return;
    };
    if now.saturating_duration_since(job.started) < m.pace.delay() {
        return;
    }
    let mv = result.best_move;
    let side = m.game.side_to_move();
    m.ai = None;
    if let Err(e) = m.game.play(mv) {
        // Never expected from the engine; say so rather than play a wrong move.
        *status = Some(tr!(
            lang,
            "status-ai-illegal",
            error = illegal_text(lang, e)
        ));
        m.paused = true;
    } else if m.game.ply() > 1 || status.is_none() {
        // The first move keeps the note of who plays which colour.
        *status = Some(tr!(
            lang,
            "status-played",
            side = words::side(side),
            mv = mv.to_string()
        ));
    }
}

/// After every message: play forced passes and start the AI when it is to move.
fn schedule(app: &mut App, fx: &mut Vec<Effect>) {
    let lang = app.lang;
    let clock = app.clock;
    let Screen::Play(m) = &mut app.screen else {
        return;
    };
    if app.quit {
        return;
    }
    if let Mode::Replay(_) = m.mode {
        review::schedule(m, &mut app.next_job, fx);
        return;
    }
    loop {
        match m.game.status() {
            Status::GameOver => return,
            Status::MustPass(c) => {
                if !m.game.pass_if_forced() {
                    return;
                }
                app.status = Some(tr!(lang, "status-passes", side = words::side(c)));
            }
            Status::ToMove(c) => {
                if let Player::Ai(level) = m.player(c)
                    && m.ai.is_none()
                    && !m.paused
                {
                    let id = app.next_job;
                    app.next_job += 1;
                    let position = m.game.position();
                    let seed = random::next(&mut app.rng);
                    fx.push(Effect::Start(Job {
                        id,
                        kind: JobKind::Move { level, seed },
                        position,
                        rules: m.game.rules(),
                    }));
                    m.ai = Some(AiJob {
                        id,
                        position,
                        started: clock,
                        progress: None,
                        result: None,
                    });
                }
                return;
            }
        }
    }
}

/// Why a move is illegal, in the player's language.
fn illegal_text(lang: Lang, e: crate::rules::IllegalMove) -> String {
    use crate::rules::IllegalMove;
    match e {
        IllegalMove::OffBoard(sq, size) => words::off_board(lang, &sq.to_string(), size),
        IllegalMove::Occupied(sq) => tr!(lang, "status-occupied", square = sq.to_string()),
        IllegalMove::EnclosesNothing(sq) => {
            tr!(lang, "status-encloses-nothing", square = sq.to_string())
        }
        IllegalMove::PassNotAllowed(c) => tr!(lang, "status-cannot-pass", side = words::side(c)),
        IllegalMove::GameOver => tr(lang, "status-over"),
    }
}
