//! The online screen's update for keys and clicks: the connect form, the
//! lobby, the new-table form, the table (the board through the board input
//! every screen shares, chat, take-backs, claims) and the windows over them.

use super::super::keys::{self, Command};
use super::super::model::{
    CLOCKS, ConnectForm, CreateForm, Effect, Exit, Intent, Link, Online, Overlay, SITTER_FIELD,
    Screen, Server, Sitter,
};
use super::super::words;
use super::{ask, connect, is_connected, record, scroll_chat, send};
use crate::ai::Level;
use crate::net::protocol::{
    ClientMsg, ColourChoice, Opponent, ScoringRule, TableId, TableInfo, TableSpec, TableStatus,
    Variant,
};
use crate::net::text::{clean, same_name, validate_name};
use crate::rules::Move;
use crate::ui::board_input::BoardKey;
use crate::ui::keys::{Key, KeyPress};

/// A key: Ctrl-C quits; a window over the screen takes it first, then the
/// screen shown.
pub(super) fn key_pressed(app: &mut Online, key: KeyPress, fx: &mut Vec<Effect>) {
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
            all.extend(Level::ALL.map(Sitter::Ai));
            form.sitter = step(&all, form.sitter, delta);
        }
    }
}

/// Pasted text: added to the chat line being typed (line breaks and tabs
/// as spaces, control characters dropped, up to the line's length);
/// anywhere else it is ignored, so a paste never acts as keys.
pub(super) fn pasted(app: &mut Online, text: &str) {
    let Screen::Table(t) = &mut app.screen else {
        return;
    };
    let Some(line) = &mut t.typing else {
        return;
    };
    let mut last_space = line.ends_with(' ');
    for c in text.chars() {
        if line.chars().count() >= CHAT_LINE_CHARS {
            break;
        }
        if c == '\n' || c == '\r' || c == '\t' {
            // "\r\n" is one break.
            if !last_space {
                line.push(' ');
                last_space = true;
            }
        } else if !c.is_control() {
            line.push(c);
            last_space = c == ' ';
        }
    }
}

/// The most characters typed in a chat line.
const CHAT_LINE_CHARS: usize = 200;

fn table_key(app: &mut Online, key: KeyPress, fx: &mut Vec<Effect>) {
    let lang = app.lang;
    let connected = is_connected(app);
    let Screen::Table(t) = &mut app.screen else {
        return;
    };
    if let Some(line) = &mut t.typing {
        match key.key {
            // The chat stays in sight while a line is typed: it scrolls.
            Key::PageUp => scroll_chat(app, true),
            Key::PageDown => scroll_chat(app, false),
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
            Key::Char(c) if !c.is_control() && line.chars().count() < CHAT_LINE_CHARS => {
                line.push(c);
            }
            _ => {}
        }
        return;
    }
    let size = t.view.game.rules().size;
    match t.input.key(key.key, size) {
        // Squares typed while no game runs play nothing.
        BoardKey::Square(_) if t.is_playing() => play(app, fx),
        BoardKey::OffBoard(name) if t.is_playing() => {
            app.status = Some(crate::ui::words::off_board(lang, &name, size));
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
        Command::ChatOlder => scroll_chat(app, true),
        Command::ChatNewer => scroll_chat(app, false),
        Command::Invite => {
            if let Some(line) = app.invitation() {
                fx.push(Effect::Copy(line));
                app.status = Some(words::invite_copied(lang));
            }
        }
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
        // Back to the lobby where leaving ends nothing: a seated player's
        // running game is left by resigning (q) or quitting (Q) only.
        Command::Back if t.you().is_none() || !t.is_playing() => leave(app, table, fx),
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

/// A left click at a screen cell.
pub(super) fn clicked(app: &mut Online, x: u16, y: u16, fx: &mut Vec<Effect>) {
    if app.overlay.is_some() {
        return;
    }
    let area = ratatui::layout::Rect::new(0, 0, app.area.0, app.area.1);
    let Screen::Table(t) = &mut app.screen else {
        return;
    };
    let size = t.view.game.rules().size;
    if let crate::ui::layout::ScreenLayout::Game { board, .. } =
        crate::ui::layout::layout(area, size)
        && let Some(sq) = board.square_at(x, y)
    {
        t.input.point(sq);
        play(app, fx);
    }
}
