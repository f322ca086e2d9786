//! `update` of the online screen: the only function that changes the
//! [`Online`] model. The app hands it its messages (keys, clicks, resizes,
//! ticks, and the network worker's reports in [`AppMsg::Online`]);
//! requests to the server, saves and the worker's start go out as
//! [`Effect`]s. Pure: no clock, no socket, no terminal.
//!
//! * `network` — the network worker's reports: the server's messages, the
//!   connection's troubles, the tokens read back;
//! * `input` — keys and clicks on each screen (connect form, lobby, new
//!   table, table) and in the windows over them.

mod input;
mod network;

use super::super::app::Msg as AppMsg;
use super::model::{Asked, Effect, Exit, Intent, Link, Msg, Online, Screen, TableView, chat_rows};
use super::words;
use crate::net::protocol::{ClientMsg, Side};
use crate::notation::ggf::Record;
use crate::ui::layout::{ScreenLayout, layout};
use std::time::Instant;

pub use input::may_join;
use input::{clicked, key_pressed};
use network::{net_event, recalled};

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
        AppMsg::Paste(text) => input::pasted(app, &text),
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

/// The columns of the chat of the table shown, as [`super::view()`] draws it in
/// a terminal of `app.area` (1 when no table is shown).
#[must_use]
pub fn chat_width(app: &Online) -> usize {
    let (w, h) = app.area;
    let panel = app.table().and_then(|t| {
        match layout(
            ratatui::layout::Rect::new(0, 0, w, h),
            t.view.game.rules().size,
        ) {
            ScreenLayout::Game { panel, .. } => Some(panel.width),
            _ => None,
        }
    });
    usize::from(panel.unwrap_or(1).max(1))
}

/// The rows PgUp and PgDn scroll the chat by.
const CHAT_STEP: usize = 3;

/// Scrolls the chat of the table shown back to older rows (`older`) or on
/// to newer ones, from the newest at the bottom back to the oldest.
fn scroll_chat(app: &mut Online, older: bool) {
    let width = chat_width(app);
    let Screen::Table(t) = &mut app.screen else {
        return;
    };
    let rows = chat_rows(&t.chat, width).len();
    t.chat_back = if older {
        (t.chat_back + CHAT_STEP).min(rows.saturating_sub(1))
    } else {
        t.chat_back.saturating_sub(CHAT_STEP)
    };
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
