//! `update` of the online screen: the only function that changes the
//! [`Online`] model. The app hands it its messages (keys, clicks, resizes,
//! ticks, and the network worker's reports in [`AppMsg::Online`]);
//! requests to the server, saves and the worker's start go out as
//! [`Effect`]s. Pure: no clock, no socket, no terminal.

use super::super::app::Msg as AppMsg;
use super::super::board_input::{BoardInput, BoardKey};
use super::super::keys::{Key, KeyPress};
use super::keys::{self, Command};
use super::model::{
    Asked, Away, CHAT_CHARS, CHAT_KEPT, CLOCKS, ChatLine, Clocks, ConnectForm, CreateForm, Effect,
    Exit, Intent, Link, Msg, Online, Overlay, SITTER_FIELD, Screen, Server, Sitter, TableView,
    Tokens,
};
use super::words;
use crate::net::client::GameView;
use crate::net::protocol::{
    Absence, ChatEntry, ClientMsg, ColourChoice, EndReason, ErrorCode, GameResult, GameState,
    MoveRecord, Opponent, ScoringRule, ServerMsg, Side, TableId, TableInfo, TableSpec, TableStatus,
    UndoEnd, Variant,
};
use crate::net::session::SessionEvent;
use crate::net::text::{clean, same_name, validate_name};
use crate::notation::ggf::Record;
use crate::rules::Move;
use std::time::Instant;

/// Applies the app's message `msg` to `app`; returns what the runtime must
/// do. The AI worker's reports are not the online screen's: they change
/// nothing here.
pub fn update(app: &mut Online, msg: AppMsg) -> Vec<Effect> {
    let mut fx = Vec::new();
    match msg {
        AppMsg::Key(key) => key_pressed(app, key, &mut fx),
        AppMsg::Click { x, y } => clicked(app, x, y, &mut fx),
        AppMsg::Resize { width, height } => app.area = (width, height),
        AppMsg::Tick(now) => tick(app, now),
        AppMsg::Online(Msg::Net(event)) => net_event(app, event, &mut fx),
        AppMsg::Online(Msg::Recalled(tokens)) => recalled(app, &tokens),
        AppMsg::Terminate => app.exit = Some(Exit::Quit),
        AppMsg::Progress { .. }
        | AppMsg::Searched { .. }
        | AppMsg::Analysed { .. }
        | AppMsg::Failed { .. }
        | AppMsg::Remembered { .. } => {}
    }
    fx
}

/// Time passes; when the absent opponent's game becomes ours to claim, the
/// status line that said how long to wait goes (the panel says `w` now).
fn tick(app: &mut Online, now: Instant) {
    let before = app.table().is_some_and(|t| t.may_claim(app.now));
    app.now = now;
    if !before && app.table().is_some_and(|t| t.may_claim(now)) && app.status == app.claim_note {
        app.status = None;
    }
}

/// Starts connecting to `app.server` (the runtime starts the worker).
pub fn connect(app: &mut Online, fx: &mut Vec<Effect>) {
    app.link = Link::Connecting;
    app.status = None;
    if matches!(app.screen, Screen::Connect(_)) {
        app.screen = Screen::Lobby { selected: 0 };
    }
    fx.push(Effect::Connect(app.server.clone()));
}

fn is_connected(app: &Online) -> bool {
    app.link == Link::Connected
}

/// Sends `msg` if connected; else says why not.
fn send(app: &mut Online, msg: ClientMsg, fx: &mut Vec<Effect>) -> bool {
    let lang = app.lang;
    if is_connected(app) {
        fx.push(Effect::Send(msg));
        true
    } else {
        app.status = Some(words::need_connection(lang));
        false
    }
}

/// Sends the request of `intent` if connected, and keeps it until it is
/// answered: a connection lost before then asks it again (see
/// [`welcomed`]).
fn ask(app: &mut Online, intent: Intent, fx: &mut Vec<Effect>) -> bool {
    if !send(app, intent.request(), fx) {
        return false;
    }
    app.asked = Some(Asked::new(intent, &app.tables, app.me.as_deref()));
    true
}

// ---------------------------------------------------------------- network

fn net_event(app: &mut Online, event: SessionEvent, fx: &mut Vec<Effect>) {
    let lang = app.lang;
    match event {
        SessionEvent::Message(msg) => server_message(app, msg, fx),
        SessionEvent::Lost { reason } => {
            app.link = Link::Reconnecting {
                since: app.now,
                attempt: 0,
                next: None,
            };
            app.status = Some(words::lost(lang, &words::why(lang, &reason)));
            if let Screen::Table(t) = &mut app.screen {
                t.sent = None;
            }
        }
        SessionEvent::Retrying { attempt, retry_in } => {
            if let Link::Reconnecting {
                attempt: a, next, ..
            } = &mut app.link
            {
                *a = attempt;
                *next = Some(app.now + retry_in);
            }
        }
        SessionEvent::Unreachable { reason } => {
            app.link = Link::Unreachable(words::why(lang, &reason));
            app.status = None;
        }
        SessionEvent::Refused { code, .. } => {
            app.link = Link::Refused(code);
            app.status = None;
            if matches!(code, ErrorCode::NameTaken | ErrorCode::BadToken) {
                // Another window may hold this name's session and have
                // written its token since this one started.
                fx.push(Effect::Recall);
            }
        }
        SessionEvent::Replaced => {
            // Another window took the session: reconnecting would take it
            // back from there, and that one back again.
            app.link = Link::Replaced;
            app.status = None;
            app.overlay = None;
            if let Screen::Table(t) = &mut app.screen {
                t.sent = None;
                t.typing = None;
            }
        }
    }
}

/// The tokens `online.conf` holds after the name was refused: when one is
/// held for this name at this server and it is not the one refused, `r`
/// may take the session back with it.
fn recalled(app: &mut Online, tokens: &Tokens) {
    app.tokens.merge(tokens);
    let held = app
        .tokens
        .get(&app.server.url, &app.server.name)
        .map(str::to_string);
    if matches!(
        app.link,
        Link::Refused(ErrorCode::NameTaken | ErrorCode::BadToken)
    ) && held.is_some()
        && held != app.server.token
    {
        app.server.token = held;
        app.link = Link::Taken;
    }
}

fn server_message(app: &mut Online, msg: ServerMsg, fx: &mut Vec<Effect>) {
    let lang = app.lang;
    match msg {
        ServerMsg::Welcome {
            name,
            token,
            tables,
            resumed,
            ..
        } => {
            if app.server.token.as_deref() != Some(token.as_str()) {
                // Kept on disk so that a client started again resumes.
                app.tokens.keep(&app.server.url, &app.server.name, &token);
                app.server.token = Some(token);
                fx.push(Effect::Remember(app.server.clone()));
            }
            welcomed(app, &name, tables, resumed, fx);
        }
        ServerMsg::Tables { tables } => {
            app.tables = tables;
            app.tables.sort_by_key(|t| t.id);
            clamp_selection(app);
        }
        ServerMsg::Table { table } => table_changed(app, table),
        ServerMsg::TableClosed { table } => table_closed(app, table),
        ServerMsg::Game(state) => game_state(app, &state, fx),
        ServerMsg::Moved {
            table,
            ply,
            mv,
            to_move,
        } => moved(app, table, ply, &mv, to_move, fx),
        ServerMsg::UndoRequested { table, by } => undo_requested(app, table, by),
        ServerMsg::UndoDeclined { table, reason } => undo_declined(app, table, reason),
        ServerMsg::Undone {
            table,
            ply,
            to_move,
            black_ms,
            white_ms,
        } => undone(app, table, ply, to_move, [black_ms, white_ms]),
        ServerMsg::Ended { table, result } => ended(app, table, result, fx),
        ServerMsg::Chat { table, from, text } => chat(app, table, &from, &text),
        ServerMsg::Presence {
            table,
            side,
            connected,
            claim_in_ms,
            ..
        } => presence(app, table, side, connected, claim_in_ms),
        ServerMsg::Pong { .. } => {}
        ServerMsg::Error {
            code,
            table,
            closed,
            ..
        } => {
            if app.asked.as_ref().is_some_and(|a| a.is_refused_by(table)) {
                app.asked = None;
            }
            let why = if code == ErrorCode::NoSuchTable {
                words::no_such_table(lang, table, closed)
            } else {
                words::refusal(lang, code)
            };
            app.status = Some(words::server_error(lang, &why));
            if let Screen::Table(t) = &mut app.screen {
                t.sent = None;
            }
        }
    }
}

fn table_closed(app: &mut Online, table: TableId) {
    let lang = app.lang;
    app.tables.retain(|t| t.id != table);
    clamp_selection(app);
    if app.table().is_some_and(|t| t.info.id == table) {
        app.screen = Screen::Lobby { selected: 0 };
        app.overlay = None;
        app.status = Some(words::table_gone(lang));
    }
}

fn undo_requested(app: &mut Online, table: TableId, by: Side) {
    let lang = app.lang;
    let Some(t) = current(app, table) else { return };
    t.undo_by = Some(by);
    if t.you().is_some_and(|you| you != by) {
        let moves = t.undo_moves(by);
        let by = t.name(by);
        app.overlay = Some(Overlay::UndoAsked { by, moves });
        // What was said of an earlier request is not about this one.
        app.status = None;
    } else if t.you() == Some(by) {
        app.status = Some(words::undo_sent(lang));
    }
}

fn undo_declined(app: &mut Online, table: TableId, reason: UndoEnd) {
    let lang = app.lang;
    let Some(t) = current(app, table) else { return };
    let by = t.undo_by;
    let ours = by.is_some() && by == t.you();
    t.undo_by = None;
    // The side that disconnected: the asker, or the one asked.
    let gone = by
        .filter(|&s| t.away[s.index()].is_some())
        .or_else(|| by.map(Side::opponent))
        .map(|s| t.name(s));
    if matches!(app.overlay, Some(Overlay::UndoAsked { .. })) {
        app.overlay = None;
    }
    match (reason, gone) {
        (UndoEnd::Disconnected, Some(name)) => {
            app.status = Some(words::undo_cancelled(lang, &name))
        }
        _ if ours => app.status = Some(words::undo_declined(lang)),
        _ => {}
    }
}

/// A player's connection went (with the wait before the opponent may claim
/// the game, if it can be claimed) or came back.
fn presence(
    app: &mut Online,
    table: TableId,
    side: Side,
    connected: bool,
    claim_in_ms: Option<u64>,
) {
    let lang = app.lang;
    let now = app.now;
    let Some(t) = current(app, table) else { return };
    if t.you() == Some(side) {
        return;
    }
    let name = t.name(side);
    t.away[side.index()] = (!connected).then(|| Away::told(claim_in_ms, now));
    // An open claim window stays while they are gone, and closes on their return.
    if matches!(app.overlay, Some(Overlay::Claim { .. })) {
        if !connected {
            return;
        }
        app.overlay = None;
    }
    app.status = Some(if connected {
        words::came_back(lang, &name)
    } else {
        words::went_away(lang, &name)
    });
    app.claim_note = app.status.clone();
}

/// The absences of a `game` message, as the table keeps them.
fn absences(away: &[Absence], now: Instant) -> [Option<Away>; 2] {
    let mut out = [None, None];
    for a in away {
        out[a.side.index()] = Some(Away::told(a.claim_in_ms, now));
    }
    out
}

/// Both sides agreed to take moves back: the game goes back to `ply`, with
/// the clocks (`[black, white]` milliseconds) the server gives.
fn undone(app: &mut Online, table: TableId, ply: usize, to_move: Side, ms: [Option<u64>; 2]) {
    let lang = app.lang;
    let now = app.now;
    let Some(t) = current(app, table) else { return };
    t.view.undo_to(ply);
    t.to_move = Some(to_move);
    t.undo_by = None;
    t.sent = None;
    set_clocks(t, ms[0], ms[1], now);
    if matches!(app.overlay, Some(Overlay::UndoAsked { .. })) {
        app.overlay = None;
    }
    app.status = Some(words::undone(lang));
}

/// The game at the table shown is over: the clocks stop, and a game this
/// client played in is kept once.
fn ended(app: &mut Online, table: TableId, result: GameResult, fx: &mut Vec<Effect>) {
    let now = app.now;
    let Some(t) = current(app, table) else { return };
    // Stop the running clock where it is now; a loss on time is at zero,
    // whatever the last times received said.
    if let Some(c) = &mut t.clocks {
        for side in [Side::Black, Side::White] {
            c.ms[side.index()] = c.remaining(side, t.to_move, now).as_millis() as u64;
        }
        if result.reason == EndReason::Time
            && let Some(winner) = result.winner
        {
            c.ms[1 - winner.index()] = 0;
        }
        c.at = now;
    }
    t.view.status = TableStatus::Finished;
    t.view.result = Some(result);
    t.to_move = None;
    t.undo_by = None;
    t.away = [None, None];
    t.sent = None;
    if app.overlay != Some(Overlay::ConfirmLeave) {
        app.overlay = None;
    }
    app.status = None;
    if let Screen::Table(t) = &mut app.screen
        && t.you().is_some()
        && !t.kept
    {
        t.kept = true;
        fx.push(Effect::Keep(Box::new(record(t))));
    }
}

/// A chat line from the server, cleaned of control characters and cut to
/// length.
fn chat_line(from: &str, text: &str) -> ChatLine {
    let cut = |s: &str| clean(s).chars().take(CHAT_CHARS).collect();
    ChatLine {
        from: cut(from),
        text: cut(text),
    }
}

/// A table's chat history, its last [`CHAT_KEPT`] lines.
fn chat_lines(lines: &[ChatEntry]) -> Vec<ChatLine> {
    let skip = lines.len().saturating_sub(CHAT_KEPT);
    lines[skip..]
        .iter()
        .map(|l| chat_line(&l.from, &l.text))
        .collect()
}

/// A chat line; only the last lines are kept.
fn chat(app: &mut Online, table: TableId, from: &str, text: &str) {
    let Some(t) = current(app, table) else { return };
    t.chat.push(chat_line(from, text));
    if t.chat.len() > CHAT_KEPT {
        t.chat.remove(0);
    }
}

/// The table shown, if it is `id`.
fn current(app: &mut Online, id: TableId) -> Option<&mut TableView> {
    match &mut app.screen {
        Screen::Table(t) if t.info.id == id => Some(t),
        _ => None,
    }
}

fn welcomed(
    app: &mut Online,
    name: &str,
    mut tables: Vec<TableInfo>,
    resumed: bool,
    fx: &mut Vec<Effect>,
) {
    let lang = app.lang;
    let again = matches!(app.link, Link::Reconnecting { .. });
    app.link = Link::Connected;
    app.me = Some(clean(name));
    tables.sort_by_key(|t| t.id);
    app.tables = tables;
    clamp_selection(app);
    if again {
        app.status = Some(words::reconnected(lang));
    }
    // A request the lost connection did not answer is asked again, unless
    // the tables show it done (its `game` follows with the resumed session).
    if let Some(asked) = app.asked.take() {
        if asked.is_done_in(&app.tables, app.me.as_deref()) {
            app.asked = Some(asked);
        } else if app.intent.is_none() {
            app.intent = Some(asked.intent);
        }
    }
    // A seated player's games come back as `game` when resumed; a spectator
    // watches again.
    if let Screen::Table(t) = &app.screen {
        let table = t.info.id;
        if !t.seated {
            if app.intent == Some(Intent::Watch(table)) {
                app.intent = None;
            }
            fx.push(Effect::Send(ClientMsg::Watch { table }));
        } else if !resumed && t.view.status != TableStatus::Finished {
            app.screen = Screen::Lobby { selected: 0 };
            app.status = Some(words::table_gone(lang));
        }
    }
    if let Some(intent) = app.intent.take() {
        ask(app, intent, fx);
    }
}

fn clamp_selection(app: &mut Online) {
    let n = app.tables.len();
    if let Screen::Lobby { selected } = &mut app.screen {
        *selected = (*selected).min(n.saturating_sub(1));
    }
}

fn table_changed(app: &mut Online, table: TableInfo) {
    if let Screen::Table(t) = &mut app.screen
        && t.info.id == table.id
    {
        let label = |s: &Option<crate::net::protocol::Seat>| {
            s.as_ref().map(words::seat).unwrap_or_default()
        };
        t.view.names = [label(&table.black), label(&table.white)];
        t.info = table.clone();
    }
    match app.tables.iter_mut().find(|t| t.id == table.id) {
        Some(old) => *old = table,
        None => {
            app.tables.push(table);
            app.tables.sort_by_key(|t| t.id);
        }
    }
}

fn game_state(app: &mut Online, state: &GameState, fx: &mut Vec<Effect>) {
    let lang = app.lang;
    if app.asked.as_ref().is_some_and(|a| a.is_answered_by(state)) {
        app.asked = None;
    }
    let view = match GameView::from_state(state) {
        Ok(v) => v,
        Err(e) => {
            app.status = Some(words::server_error(lang, &e.to_string()));
            return;
        }
    };
    let size = view.game.rules().size;
    let (kept_chat, input, kept, same) = match &app.screen {
        Screen::Table(t) if t.info.id == state.table.id => (
            t.chat.clone(),
            BoardInput::at(t.input.cursor()),
            t.kept,
            true,
        ),
        _ => (Vec::new(), BoardInput::new(size), false, false),
    };
    // The server's history when it sends one (lines said while we were
    // away included); else what this screen kept.
    let chat = match &state.chat {
        Some(lines) => chat_lines(lines),
        None => kept_chat,
    };
    let mut t = TableView {
        info: state.table.clone(),
        view,
        to_move: state.to_move,
        clocks: None,
        undo_by: state.undo_requested_by,
        away: absences(&state.away, app.now),
        input,
        sent: None,
        chat,
        typing: None,
        kept,
        seated: state.you.is_some()
            || app.me.as_deref().is_some_and(|me| {
                state
                    .table
                    .players
                    .iter()
                    .any(|p| same_name(&p.label(), me))
            }),
    };
    set_clocks(&mut t, state.black_ms, state.white_ms, app.now);
    app.overlay = match state.undo_requested_by {
        Some(by) if t.you().is_some_and(|you| you != by) => Some(Overlay::UndoAsked {
            by: t.name(by),
            moves: t.undo_moves(by),
        }),
        _ => None,
    };
    if !same {
        app.status = app.entering_note.take();
    }
    if t.you().is_some() && state.result.is_some() && !t.kept {
        t.kept = true;
        fx.push(Effect::Keep(Box::new(record(&t))));
    }
    table_changed(app, state.table.clone());
    app.screen = Screen::Table(Box::new(t));
}

fn set_clocks(t: &mut TableView, black: Option<u64>, white: Option<u64>, now: Instant) {
    t.clocks = match (black, white, t.info.clock) {
        (Some(b), Some(w), Some(spec)) => Some(Clocks {
            ms: [b, w],
            at: now,
            base_ms: spec.base_ms,
        }),
        _ => None,
    };
}

fn moved(
    app: &mut Online,
    table: TableId,
    ply: usize,
    mv: &MoveRecord,
    to_move: Option<Side>,
    fx: &mut Vec<Effect>,
) {
    let lang = app.lang;
    let now = app.now;
    let Some(t) = current(app, table) else { return };
    if let Err(e) = t.view.apply(ply, mv) {
        // Out of step with the server: a spectator asks for the whole game again.
        if t.you().is_none() {
            fx.push(Effect::Send(ClientMsg::Watch { table }));
        }
        app.status = Some(words::server_error(lang, &e.to_string()));
        return;
    }
    t.to_move = to_move;
    t.view.status = TableStatus::Playing;
    let ours = t.sent.take().is_some();
    t.undo_by = None;
    set_clocks(t, mv.black_ms, mv.white_ms, now);
    if matches!(app.overlay, Some(Overlay::UndoAsked { .. })) {
        app.overlay = None;
    }
    if ours {
        app.status = None;
    }
}

/// The record of a table's game (names as the server gives them).
#[must_use]
pub fn record(t: &TableView) -> Record {
    let mut r = Record::new(t.view.game.clone());
    r.black = t.name(Side::Black);
    r.white = t.name(Side::White);
    r.place = "reversi salon".into();
    if let Some(result) = &t.view.result {
        result.mark(&mut r);
    }
    r
}

// ---------------------------------------------------------------- keys

fn key_pressed(app: &mut Online, key: KeyPress, fx: &mut Vec<Effect>) {
    if key.ctrl && matches!(key.key, Key::Char('c' | 'C')) {
        app.exit = Some(Exit::Quit);
        return;
    }
    if key.is_chord() {
        return;
    }
    // While "Terminal too small" hides the screen, a key's effect could not
    // be seen (a move, a resignation): none acts; Ctrl-C still quits.
    if app.is_too_small() {
        return;
    }
    if let Some(overlay) = app.overlay.clone() {
        overlay_key(app, &overlay, key, fx);
        return;
    }
    if app.link.is_stopped() && !matches!(app.screen, Screen::Connect(_)) {
        match key.key {
            Key::Char('r') => connect(app, fx),
            Key::Char('e') => {
                app.link = Link::Off;
                app.screen = Screen::Connect(ConnectForm {
                    field: 0,
                    url: app.server.url.clone(),
                    name: app.server.name.clone(),
                });
            }
            Key::Esc => app.exit = Some(Exit::Back),
            Key::Char('q') => app.exit = Some(Exit::Quit),
            _ => {}
        }
        return;
    }
    match &mut app.screen {
        Screen::Connect(_) => connect_key(app, key, fx),
        Screen::Lobby { .. } => lobby_key(app, key, fx),
        Screen::Create(_) => create_key(app, key, fx),
        Screen::Table(_) => table_key(app, key, fx),
    }
}

fn overlay_key(app: &mut Online, overlay: &Overlay, key: KeyPress, fx: &mut Vec<Effect>) {
    let lang = app.lang;
    if *overlay == Overlay::Help {
        if matches!(key.key, Key::Char('?' | 'q') | Key::Esc | Key::Enter) {
            app.overlay = None;
        }
        return;
    }
    if let Overlay::Claim { .. } = overlay {
        claim_key(app, key, fx);
        return;
    }
    let yes = matches!(key.key, Key::Char('y' | 'Y' | 'o' | 'O'));
    let no = matches!(key.key, Key::Char('n' | 'N') | Key::Esc);
    if !yes && !no {
        if matches!(overlay, Overlay::UndoAsked { .. }) {
            // A move typed now would be lost: the question comes first.
            app.status = Some(words::answer_undo_first(lang));
        }
        return;
    }
    app.overlay = None;
    let Some(table) = app.table().map(|t| t.info.id) else {
        return;
    };
    match overlay {
        Overlay::ConfirmResign if yes => {
            send(app, ClientMsg::Resign { table }, fx);
        }
        Overlay::ConfirmLeave if yes => leave(app, table, fx),
        Overlay::UndoAsked { .. } if send(app, ClientMsg::UndoReply { table, accept: yes }, fx) => {
            app.status = Some(if yes {
                words::undo_accepted(lang)
            } else {
                words::undo_refused(lang)
            });
        }
        _ => {}
    }
}

/// A key in the claim window: `w` claims the win, `d` a draw, `Esc` (or
/// `n`) waits on.
fn claim_key(app: &mut Online, key: KeyPress, fx: &mut Vec<Effect>) {
    let draw = match key.key {
        Key::Char('w' | 'W') => false,
        Key::Char('d' | 'D') => true,
        Key::Esc | Key::Char('n' | 'N' | 'q') => {
            app.overlay = None;
            return;
        }
        _ => return,
    };
    app.overlay = None;
    if let Some(table) = app.table().map(|t| t.info.id) {
        send(app, ClientMsg::Claim { table, draw }, fx);
    }
}

/// `w` at a table: the claim window when the opponent is gone past the
/// grace period, else why not yet.
fn ask_claim(app: &mut Online) {
    let lang = app.lang;
    let Some(t) = app.table() else { return };
    let Some((side, away)) = t.opponent_away() else {
        if t.you().is_some() && t.is_playing() {
            app.status = Some(words::claim_nothing(lang));
        }
        return;
    };
    let name = t.name(side);
    app.status = Some(match away.claim_at {
        None => words::claim_clock(lang, &name),
        Some(at) if at > app.now => words::claim_wait(lang, at - app.now),
        Some(_) => {
            app.overlay = Some(Overlay::Claim { name });
            return;
        }
    });
    app.claim_note = app.status.clone();
}

fn leave(app: &mut Online, table: TableId, fx: &mut Vec<Effect>) {
    if is_connected(app) {
        fx.push(Effect::Send(ClientMsg::Leave { table }));
    }
    let selected = app.tables.iter().position(|t| t.id == table).unwrap_or(0);
    app.screen = Screen::Lobby { selected };
    app.status = None;
}

fn connect_key(app: &mut Online, key: KeyPress, fx: &mut Vec<Effect>) {
    let lang = app.lang;
    let Screen::Connect(form) = &mut app.screen else {
        return;
    };
    let text = if form.field == 0 {
        &mut form.url
    } else {
        &mut form.name
    };
    match key.key {
        Key::Tab | Key::Down | Key::Up | Key::BackTab => form.field ^= 1,
        Key::Backspace => {
            text.pop();
        }
        Key::Char(c) if !c.is_control() && text.chars().count() < 200 => text.push(c),
        Key::Esc => app.exit = Some(Exit::Back),
        Key::Enter => {
            let url = form.url.trim().to_string();
            if !(url.starts_with("ws://") || url.starts_with("wss://")) {
                app.status = Some(words::bad_url(lang));
                form.field = 0;
                return;
            }
            match validate_name(&form.name) {
                Err(e) => {
                    app.status = Some(words::bad_name(lang, &words::name_problem(lang, &e)));
                    form.field = 1;
                }
                Ok(name) => {
                    app.server = Server::new(url, name, &app.tokens);
                    fx.push(Effect::Remember(app.server.clone()));
                    connect(app, fx);
                }
            }
        }
        _ => {}
    }
}

fn lobby_key(app: &mut Online, key: KeyPress, fx: &mut Vec<Effect>) {
    let lang = app.lang;
    let Screen::Lobby { selected } = &mut app.screen else {
        return;
    };
    let n = app.tables.len();
    let Some(command) = keys::command(&keys::LOBBY_KEYS, key.key) else {
        return;
    };
    match command {
        Command::Up => *selected = selected.saturating_sub(1),
        Command::Down => *selected = (*selected + 1).min(n.saturating_sub(1)),
        Command::First => *selected = 0,
        Command::Last => *selected = n.saturating_sub(1),
        Command::Create => app.screen = Screen::Create(CreateForm::default()),
        Command::Refresh => {
            send(app, ClientMsg::List, fx);
        }
        Command::Join | Command::Watch => {
            let Some(t) = app.tables.get(*selected) else {
                app.status = Some(words::no_table(lang));
                return;
            };
            let table = t.id;
            let intent = if command == Command::Join && may_join(t, app.me.as_deref()) {
                Intent::Join(table)
            } else {
                Intent::Watch(table)
            };
            // Enter on a table kept for someone else watches it: say why.
            let note = match &t.opponent {
                Opponent::Invite { name }
                    if command == Command::Join
                        && t.status == TableStatus::Waiting
                        && !app.me.as_deref().is_some_and(|me| same_name(name, me)) =>
                {
                    Some(words::watching_invited(lang, table, name))
                }
                _ => None,
            };
            if ask(app, intent, fx) {
                app.entering_note = note;
            }
        }
        Command::Help => app.overlay = Some(Overlay::Help),
        Command::Back => app.exit = Some(Exit::Back),
        Command::Quit => app.exit = Some(Exit::Quit),
        _ => {}
    }
}

/// Whether `me` may sit at `t`.
#[must_use]
pub fn may_join(t: &TableInfo, me: Option<&str>) -> bool {
    let is_me = |name: &str| me.is_some_and(|me| same_name(name, me));
    t.status == TableStatus::Waiting
        && !t.players.iter().any(|p| is_me(&p.label()))
        && match &t.opponent {
            Opponent::Open => true,
            Opponent::Invite { name } => is_me(name),
            Opponent::Ai { .. } => false,
        }
}

fn create_key(app: &mut Online, key: KeyPress, fx: &mut Vec<Effect>) {
    let lang = app.lang;
    let Screen::Create(form) = &mut app.screen else {
        return;
    };
    let n = words::CREATE_FIELD_COUNT;
    // On the invited name, letters type it; arrows still move and change.
    if form.typing_name() {
        match key.key {
            Key::Char(c) if !c.is_control() => {
                if form.invitee.chars().count() < crate::net::text::MAX_NAME_CHARS {
                    form.invitee.push(c);
                }
                return;
            }
            Key::Backspace => {
                form.invitee.pop();
                return;
            }
            _ => {}
        }
    }
    match key.key {
        Key::Up | Key::Char('k') => form.field = (form.field + n - 1) % n,
        Key::Down | Key::Char('j') | Key::Tab => form.field = (form.field + 1) % n,
        Key::Left | Key::Char('h') => change(form, -1),
        Key::Right | Key::Char('l') | Key::Char(' ') => change(form, 1),
        Key::Enter => match form.spec() {
            Ok(TableSpec {
                opponent: Opponent::Invite { name },
                ..
            }) if app.me.as_deref().is_some_and(|me| same_name(&name, me)) => {
                form.field = SITTER_FIELD;
                app.status = Some(words::bad_invitee(lang, &words::invite_yourself(lang)));
            }
            Ok(spec) => {
                if ask(app, Intent::Create(spec), fx) {
                    app.screen = Screen::Lobby { selected: 0 };
                }
            }
            Err(reason) => {
                form.field = SITTER_FIELD;
                app.status = Some(words::bad_invitee(
                    lang,
                    &words::name_problem(lang, &reason),
                ));
            }
        },
        Key::Esc => app.screen = Screen::Lobby { selected: 0 },
        Key::Char('q') => app.exit = Some(Exit::Quit),
        _ => {}
    }
}

/// Changes the create form's selected field by `delta` steps (wrapping).
pub fn change(form: &mut CreateForm, delta: i8) {
    fn step<T: Copy + PartialEq>(all: &[T], now: T, delta: i8) -> T {
        let n = all.len() as i32;
        let i = all.iter().position(|x| *x == now).unwrap_or(0) as i32;
        all[(i + i32::from(delta)).rem_euclid(n) as usize]
    }
    match form.field {
        0 => {
            form.variant = step(
                &[Variant::Eight, Variant::Six, Variant::Anti],
                form.variant,
                delta,
            );
            form.scoring = if form.variant == Variant::Six {
                ScoringRule::EmptiesToWinner
            } else {
                ScoringRule::EmptiesToNobody
            };
        }
        1 => {
            let all = [ScoringRule::EmptiesToNobody, ScoringRule::EmptiesToWinner];
            form.scoring = step(&all, form.scoring, delta);
        }
        2 => {
            let all = [
                ColourChoice::Random,
                ColourChoice::Black,
                ColourChoice::White,
            ];
            form.colour = step(&all, form.colour, delta);
        }
        3 => {
            let all: Vec<usize> = (0..CLOCKS.len()).collect();
            form.clock = step(&all, form.clock, delta);
        }
        _ => {
            let mut all = vec![Sitter::Person, Sitter::Invited];
            all.extend((1..=12).map(Sitter::Ai));
            form.sitter = step(&all, form.sitter, delta);
        }
    }
}

fn table_key(app: &mut Online, key: KeyPress, fx: &mut Vec<Effect>) {
    let lang = app.lang;
    let connected = is_connected(app);
    let Screen::Table(t) = &mut app.screen else {
        return;
    };
    if let Some(line) = &mut t.typing {
        match key.key {
            Key::Esc => t.typing = None,
            Key::Backspace => {
                line.pop();
            }
            Key::Enter => {
                let text = clean(line).trim().to_string();
                let table = t.info.id;
                if text.is_empty() {
                    t.typing = None;
                } else if connected {
                    t.typing = None;
                    fx.push(Effect::Send(ClientMsg::Chat { table, text }));
                } else {
                    // Kept as typed, to send once the connection is back.
                    app.status = Some(words::need_connection(lang));
                }
            }
            Key::Char(c) if !c.is_control() && line.chars().count() < 200 => line.push(c),
            _ => {}
        }
        return;
    }
    let size = t.view.game.rules().size;
    match t.input.key(key.key, size) {
        // Squares typed while no game runs play nothing.
        BoardKey::Square(_) if t.is_playing() => play(app, fx),
        BoardKey::OffBoard(name) if t.is_playing() => {
            app.status = Some(super::super::words::off_board(lang, &name, size));
        }
        BoardKey::Other => {
            if let Some(command) = keys::command(&keys::TABLE_KEYS, key.key) {
                table_command(app, command, fx);
            }
        }
        BoardKey::Square(_) | BoardKey::OffBoard(_) | BoardKey::Moved | BoardKey::Column => {}
    }
}

fn table_command(app: &mut Online, command: Command, fx: &mut Vec<Effect>) {
    let lang = app.lang;
    let Screen::Table(t) = &mut app.screen else {
        return;
    };
    let table = t.info.id;
    match command {
        // Read by the board input before the table, as these bindings name.
        Command::Left | Command::Right | Command::Up | Command::Down => {}
        Command::Play => play(app, fx),
        Command::Undo => {
            if t.you().is_none() || !t.is_playing() {
                return;
            }
            let you = t.you().map(crate::rules::Color::from);
            let has_move = t.view.game.moves().iter().enumerate().any(|(i, m)| {
                *m != Move::Pass && t.view.game.position_at(i).map(|p| p.side_to_move()) == you
            });
            if !has_move {
                app.status = Some(words::nothing_to_undo(lang));
            } else if send(app, ClientMsg::Undo { table }, fx) {
                app.status = Some(words::undo_sent(lang));
            }
        }
        Command::Claim => ask_claim(app),
        Command::Chat => t.typing = Some(String::new()),
        Command::Dots => app.dots = !app.dots,
        Command::Replay if t.view.result.is_some() => {
            let mut r = record(t);
            r.game.jump(0);
            app.exit = Some(Exit::Replay(Box::new(r)));
        }
        Command::Save if t.view.result.is_some() => {
            fx.push(Effect::Save(Box::new(record(t))));
        }
        Command::Help => app.overlay = Some(Overlay::Help),
        Command::Resign => {
            if t.you().is_some() && t.is_playing() {
                app.overlay = Some(Overlay::ConfirmResign);
            } else if t.you().is_none() && t.is_playing() {
                app.overlay = Some(Overlay::ConfirmLeave);
            } else {
                leave(app, table, fx);
            }
        }
        Command::Quit => app.exit = Some(Exit::Quit),
        _ => {}
    }
}

/// Plays the square under the cursor, if it is ours to play and legal.
fn play(app: &mut Online, fx: &mut Vec<Effect>) {
    let lang = app.lang;
    let Screen::Table(t) = &app.screen else {
        return;
    };
    let square = t.input.cursor();
    let name = square.to_string();
    let problem = if t.you().is_none() {
        Some(words::watching_only(lang))
    } else if !t.is_our_turn() {
        Some(words::not_your_turn(lang))
    } else if !t.view.game.position().legal_moves().contains(square) {
        Some(words::illegal(lang, &name))
    } else {
        None
    };
    if let Some(p) = problem {
        app.status = Some(p);
        return;
    }
    let (table, ply) = (t.info.id, t.view.moves.len());
    if send(
        app,
        ClientMsg::Move {
            table,
            square: name.clone(),
        },
        fx,
    ) && let Screen::Table(t) = &mut app.screen
    {
        t.sent = Some(ply);
        app.status = Some(words::sent(lang, &name));
    }
}

fn clicked(app: &mut Online, x: u16, y: u16, fx: &mut Vec<Effect>) {
    if app.overlay.is_some() {
        return;
    }
    let area = ratatui::layout::Rect::new(0, 0, app.area.0, app.area.1);
    let Screen::Table(t) = &mut app.screen else {
        return;
    };
    let size = t.view.game.rules().size;
    if let super::super::layout::ScreenLayout::Game { board, .. } =
        super::super::layout::layout(area, size)
        && let Some(sq) = board.square_at(x, y)
    {
        t.input.point(sq);
        play(app, fx);
    }
}
