//! The online screen's update for the network worker's reports: the
//! server's messages (welcome, tables, games, moves, chat, presence,
//! take-backs, ends, refusals), the connection's troubles, the tokens read
//! back from the keyring file.

use super::super::model::{
    Away, CHAT_CHARS, CHAT_KEPT, ChatLine, Clocks, Effect, Intent, Link, Online, Overlay, Screen,
    TableView, Tokens, chat_rows,
};
use super::super::words;
use super::{ask, chat_width, record};
use crate::net::client::GameView;
use crate::net::protocol::{
    Absence, ChatEntry, ClientMsg, EndReason, ErrorCode, GameResult, GameState, MoveRecord,
    ServerMsg, Side, TableId, TableInfo, TableStatus, UndoEnd,
};
use crate::net::session::SessionEvent;
use crate::net::text::{clean, same_name};
use crate::ui::board_input::BoardInput;
use std::time::Instant;

/// A report of the network worker: the connection's state or a server
/// message.
pub(super) fn net_event(app: &mut Online, event: SessionEvent, fx: &mut Vec<Effect>) {
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
pub(super) fn recalled(app: &mut Online, tokens: &Tokens) {
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
/// A chat scrolled back stays on the lines it shows: the new line's rows
/// are added to how far back it is.
fn chat(app: &mut Online, table: TableId, from: &str, text: &str) {
    let width = chat_width(app);
    let Some(t) = current(app, table) else { return };
    let line = chat_line(from, text);
    if t.chat_back > 0 {
        t.chat_back += chat_rows(std::slice::from_ref(&line), width).len();
    }
    t.chat.push(line);
    if t.chat.len() > CHAT_KEPT {
        t.chat.remove(0);
    }
    let rows = chat_rows(&t.chat, width).len();
    t.chat_back = t.chat_back.min(rows.saturating_sub(1));
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
        chat_back: 0,
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
