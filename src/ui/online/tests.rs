//! Tests of the online screen: every server message and network report as
//! an update (no socket, no clock: instants are made up, messages injected),
//! and insta snapshots of the lobby and a table on `TestBackend`.

use super::super::app::Msg;
use super::super::keys::{Key, KeyPress};
use super::super::model::Look;
use super::model::{Effect, Exit, Intent, Link, Msg as NetMsg, Online, Overlay, Screen, Server};
use super::{update, view};
use crate::ai::Level;
use crate::i18n::Lang;
use crate::net::protocol::{
    ClientMsg, ClockSpec, ColourChoice, EndReason, GameResult, GameState, MoveRecord, Opponent,
    ScoringRule, Seat, ServerMsg, Side, TableInfo, TableSpec, TableStatus, Variant,
};
use crate::net::session::SessionEvent;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::time::{Duration, Instant};

mod app;
mod identity;
mod live;
mod presence;

const LOOK: Look = Look {
    color: false,
    ascii: false,
};

fn server() -> Server {
    Server {
        url: "ws://127.0.0.1:7878".into(),
        name: "ann".into(),
        token: None,
    }
}

fn seat(name: &str) -> Seat {
    Seat::Player { name: name.into() }
}

fn info(id: u64, status: TableStatus, clock: bool) -> TableInfo {
    TableInfo {
        id,
        variant: Variant::Eight,
        scoring: ScoringRule::EmptiesToNobody,
        clock: clock.then_some(ClockSpec {
            base_ms: 300_000,
            increment_ms: 5_000,
        }),
        colour: ColourChoice::Random,
        opponent: Opponent::Open,
        black: (status != TableStatus::Waiting).then(|| seat("ann")),
        white: (status != TableStatus::Waiting).then(|| seat("bob")),
        players: if status == TableStatus::Waiting {
            vec![seat("ann")]
        } else {
            vec![seat("ann"), seat("bob")]
        },
        status,
        spectators: 0,
    }
}

fn welcome(resumed: bool, tables: Vec<TableInfo>) -> Msg {
    Msg::Online(NetMsg::Net(SessionEvent::Message(ServerMsg::Welcome {
        protocol: 1,
        name: "ann".into(),
        token: "00".repeat(16),
        resumed,
        tables,
        limits: None,
    })))
}

/// A connected app, welcomed to a lobby listing `tables`.
fn welcomed(tables: Vec<TableInfo>) -> Online {
    welcomed_in(Lang::En, tables)
}

/// [`welcomed`] in `lang`.
fn welcomed_in(lang: Lang, tables: Vec<TableInfo>) -> Online {
    let mut app = Online::new(server(), None, lang, Instant::now());
    super::update::connect(&mut app, &mut Vec::new());
    update(&mut app, welcome(false, tables));
    app
}

fn net(msg: ServerMsg) -> Msg {
    Msg::Online(NetMsg::Net(SessionEvent::Message(msg)))
}

fn key(k: Key) -> Msg {
    Msg::Key(KeyPress::plain(k))
}

fn typed(app: &mut Online, text: &str) -> Vec<Effect> {
    text.chars()
        .flat_map(|c| update(app, key(Key::Char(c))))
        .collect()
}

fn sent(fx: &[Effect]) -> Vec<ClientMsg> {
    fx.iter()
        .filter_map(|e| match e {
            Effect::Send(m) => Some(m.clone()),
            _ => None,
        })
        .collect()
}

/// A connected app seated at table 7 as `you`, the game just started, with
/// a 5+5 clock.
fn seated(you: Side, now: Instant) -> Online {
    seated_in(Lang::En, you, now)
}

/// [`seated`] in `lang`.
fn seated_in(lang: Lang, you: Side, now: Instant) -> Online {
    let mut app = Online::new(server(), None, lang, now);
    let mut fx = Vec::new();
    super::update::connect(&mut app, &mut fx);
    assert_eq!(fx, vec![Effect::Connect(server())]);
    update(&mut app, welcome(false, vec![]));
    assert_eq!(app.link, Link::Connected);
    update(&mut app, net(ServerMsg::Game(Box::new(started(Some(you))))));
    app
}

/// Table 7 as the server sends it just started, to `you` (a spectator
/// with `None`), with a 5+5 clock and no chat history.
fn started(you: Option<Side>) -> GameState {
    GameState {
        table: info(7, TableStatus::Playing, true),
        moves: vec![],
        to_move: Some(Side::Black),
        black_ms: Some(300_000),
        white_ms: Some(300_000),
        you,
        undo_requested_by: None,
        result: None,
        away: vec![],
        chat: None,
    }
}

fn moved(ply: usize, side: Side, square: &str, ms: [u64; 2], to_move: Option<Side>) -> Msg {
    net(ServerMsg::Moved {
        table: 7,
        ply,
        mv: MoveRecord {
            side,
            square: square.into(),
            black_ms: Some(ms[0]),
            white_ms: Some(ms[1]),
        },
        to_move,
    })
}

fn table(app: &Online) -> &super::model::TableView {
    app.table().expect("at a table")
}

/// While the table is hidden by "Terminal too small", keys do nothing: no
/// move, no resignation is sent unseen.
#[test]
fn keys_do_nothing_while_the_table_is_too_small_to_show() {
    let now = Instant::now();
    let mut app = seated(Side::Black, now);
    let (w, h) = app.needed_size();
    update(
        &mut app,
        Msg::Resize {
            width: w - 1,
            height: h,
        },
    );
    assert!(typed(&mut app, "f5q").is_empty());
    assert_eq!(app.overlay, None);
    let screen = render(&app, w - 1, h);
    assert!(screen.contains(&format!("need {w}×{h}")), "{screen}");
    assert!(screen.contains("Ctrl-C"), "{screen}");
    update(
        &mut app,
        Msg::Resize {
            width: w,
            height: h,
        },
    );
    assert_eq!(sent(&typed(&mut app, "f5")).len(), 1);
}

/// The board keys at a table are the local game's: arrows and `hjkl`,
/// stopping at the edge; a square typed off the board is named.
#[test]
fn at_a_table_hjkl_move_the_cursor_which_stops_at_the_edge() {
    let mut app = seated(Side::Black, Instant::now());
    assert_eq!(table(&app).input.cursor().to_string(), "d3");
    typed(&mut app, "ljj");
    assert_eq!(table(&app).input.cursor().to_string(), "e5");
    for _ in 0..10 {
        update(&mut app, key(Key::Char('h')));
        update(&mut app, key(Key::Up));
    }
    assert_eq!(table(&app).input.cursor().to_string(), "a1");
    assert!(sent(&typed(&mut app, "a9")).is_empty());
    assert!(
        app.status.as_deref().unwrap_or("").contains("a9"),
        "{:?}",
        app.status
    );
    assert_eq!(table(&app).input.cursor().to_string(), "a1");
    // h moves left and starts a square: h then 3 is h3 (not legal here).
    assert!(sent(&typed(&mut app, "h3")).is_empty());
    assert_eq!(table(&app).input.cursor().to_string(), "h3");
    assert!(
        app.status.as_deref().unwrap_or("").contains("h3"),
        "{:?}",
        app.status
    );
    assert_eq!(
        sent(&typed(&mut app, "f5")),
        [ClientMsg::Move {
            table: 7,
            square: "f5".into()
        }]
    );
}

#[test]
fn our_move_is_sent_and_applied_when_the_server_announces_it() {
    let now = Instant::now();
    let mut app = seated(Side::Black, now);
    let fx = typed(&mut app, "f5");
    assert_eq!(
        sent(&fx),
        vec![ClientMsg::Move {
            table: 7,
            square: "f5".into()
        }]
    );
    // Not applied before the server says so, and not sent twice.
    assert_eq!(table(&app).view.game.ply(), 0);
    assert!(sent(&typed(&mut app, "f5")).is_empty());
    update(
        &mut app,
        moved(1, Side::Black, "f5", [299_000, 300_000], Some(Side::White)),
    );
    let t = table(&app);
    assert_eq!(t.view.game.ply(), 1);
    assert_eq!(t.to_move, Some(Side::White));
    assert_eq!(t.sent, None);
    // The opponent's move arrives.
    update(
        &mut app,
        moved(2, Side::White, "d6", [299_000, 297_000], Some(Side::Black)),
    );
    assert_eq!(table(&app).view.game.ply(), 2);
    assert!(table(&app).is_our_turn());
    // An illegal square is refused here, with a reason.
    assert!(sent(&typed(&mut app, "a1")).is_empty());
    assert_eq!(app.status.as_deref(), Some("a1 is not a legal move"));
}

#[test]
fn moves_out_of_turn_and_by_spectators_are_not_sent() {
    let now = Instant::now();
    let mut app = seated(Side::White, now);
    assert!(sent(&typed(&mut app, "f5")).is_empty());
    assert_eq!(app.status.as_deref(), Some("It is not your turn"));
    let mut app = seated(Side::Black, now);
    if let Screen::Table(t) = &mut app.screen {
        t.view.you = None;
    }
    assert!(sent(&typed(&mut app, "f5")).is_empty());
    assert_eq!(app.status.as_deref(), Some("You are watching this table"));
}

#[test]
fn the_clocks_tick_locally_for_the_side_to_move_only() {
    let now = Instant::now();
    let mut app = seated(Side::Black, now);
    update(&mut app, Msg::Tick(now + Duration::from_secs(3)));
    let t = table(&app);
    let c = t.clocks.expect("a clock");
    assert_eq!(
        c.remaining(Side::Black, t.to_move, app.now),
        Duration::from_secs(297)
    );
    assert_eq!(
        c.remaining(Side::White, t.to_move, app.now),
        Duration::from_secs(300)
    );
    // A move resets both from the server's figures.
    update(
        &mut app,
        moved(1, Side::Black, "f5", [302_000, 300_000], Some(Side::White)),
    );
    update(&mut app, Msg::Tick(now + Duration::from_secs(13)));
    let t = table(&app);
    let c = t.clocks.unwrap();
    assert_eq!(
        c.remaining(Side::Black, t.to_move, app.now),
        Duration::from_secs(302)
    );
    assert_eq!(
        c.remaining(Side::White, t.to_move, app.now),
        Duration::from_secs(290)
    );
    assert!(!c.is_low(Duration::from_secs(290)));
    assert!(c.is_low(Duration::from_secs(19)));
}

#[test]
fn a_flag_fall_stops_the_clocks_at_zero_and_ends_the_game() {
    let now = Instant::now();
    let mut app = seated(Side::White, now);
    let late = now + Duration::from_secs(301);
    update(&mut app, Msg::Tick(late));
    let t = table(&app);
    assert_eq!(
        t.clocks.unwrap().remaining(Side::Black, t.to_move, late),
        Duration::ZERO
    );
    let result = GameResult {
        winner: Some(Side::White),
        black: 2,
        white: 2,
        reason: EndReason::Time,
    };
    // The loser's clock reads zero even when the last times received (or the
    // tick before the server's word) left it a little.
    let early = now + Duration::from_millis(299_900);
    update(&mut app, Msg::Tick(early));
    app.now = early;
    let fx = update(&mut app, net(ServerMsg::Ended { table: 7, result }));
    let t = table(&app);
    assert_eq!(
        t.clocks.unwrap().remaining(Side::Black, t.to_move, early),
        Duration::ZERO
    );
    assert_eq!(t.view.result, Some(result));
    assert_eq!(t.to_move, None);
    // Frozen: later ticks change nothing.
    update(&mut app, Msg::Tick(late + Duration::from_secs(5)));
    let t = table(&app);
    assert_eq!(
        t.clocks.unwrap().remaining(Side::Black, t.to_move, app.now),
        Duration::ZERO
    );
    assert_eq!(
        t.clocks.unwrap().remaining(Side::White, t.to_move, app.now),
        Duration::from_secs(300)
    );
    // The finished game is kept, once, with the loss on time written.
    let kept: Vec<_> = fx
        .iter()
        .filter_map(|e| match e {
            Effect::Keep(r) => Some(r.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(kept.len(), 1);
    assert_eq!(
        kept[0].ended_early,
        Some(crate::notation::ggf::EndedEarly::Time)
    );
    assert!(crate::notation::ggf::write_ggf(&kept[0]).contains("RE[-64:t]"));
    assert_eq!(kept[0].black, "ann");
    // v replays it locally; s saves it.
    assert!(matches!(
        update(&mut app, key(Key::Char('s'))).as_slice(),
        [Effect::Save(_)]
    ));
    update(&mut app, key(Key::Char('v')));
    assert!(matches!(app.exit, Some(Exit::Replay(_))));
}

/// Black's f5 then White's d6 at table 7, with the clocks after each.
fn f5_d6(app: &mut Online, after_f5: [u64; 2], after_d6: [u64; 2]) {
    update(
        app,
        moved(1, Side::Black, "f5", after_f5, Some(Side::White)),
    );
    update(
        app,
        moved(2, Side::White, "d6", after_d6, Some(Side::Black)),
    );
}

#[test]
fn the_opponent_asks_to_take_back_and_we_answer() {
    let now = Instant::now();
    let asked = |app: &mut Online| {
        let by = Side::Black;
        update(app, net(ServerMsg::UndoRequested { table: 7, by }));
        match &app.overlay {
            Some(Overlay::UndoAsked { by, moves }) if by == "ann" => *moves,
            other => panic!("the question: {other:?}"),
        }
    };
    // Asked after we replied, it takes our move back too, and says so.
    let mut app = seated(Side::White, now);
    f5_d6(&mut app, [299_000, 300_000], [299_000, 299_000]);
    assert_eq!(asked(&mut app), 2);
    let screen = render(&app, 100, 40);
    assert!(screen.contains("and yours (2 moves)"), "{screen}");
    let mut app = seated(Side::White, now);
    update(
        &mut app,
        moved(1, Side::Black, "f5", [299_000, 300_000], Some(Side::White)),
    );
    assert_eq!(asked(&mut app), 1);
    assert!(render(&app, 80, 24).contains("take back their last move —"));
    // Other keys do not dismiss the question.
    assert!(update(&mut app, key(Key::Char('x'))).is_empty());
    let fx = update(&mut app, key(Key::Char('y')));
    assert_eq!(
        sent(&fx),
        vec![ClientMsg::UndoReply {
            table: 7,
            accept: true
        }]
    );
    assert_eq!(app.overlay, None);
    update(
        &mut app,
        net(ServerMsg::Undone {
            table: 7,
            ply: 0,
            to_move: Side::Black,
            black_ms: Some(300_000),
            white_ms: Some(300_000),
        }),
    );
    assert_eq!(table(&app).view.game.ply(), 0);
    assert_eq!(table(&app).to_move, Some(Side::Black));
    // Asked again, declined with n.
    update(
        &mut app,
        net(ServerMsg::UndoRequested {
            table: 7,
            by: Side::Black,
        }),
    );
    let fx = update(&mut app, key(Key::Char('n')));
    assert_eq!(
        sent(&fx),
        vec![ClientMsg::UndoReply {
            table: 7,
            accept: false
        }]
    );
}

#[test]
fn we_ask_to_take_back_and_hear_the_answer() {
    let now = Instant::now();
    let mut app = seated(Side::Black, now);
    // Nothing of ours to take back yet.
    assert!(sent(&update(&mut app, key(Key::Char('u')))).is_empty());
    update(
        &mut app,
        moved(1, Side::Black, "f5", [299_000, 300_000], Some(Side::White)),
    );
    let fx = update(&mut app, key(Key::Char('u')));
    assert_eq!(sent(&fx), vec![ClientMsg::Undo { table: 7 }]);
    update(
        &mut app,
        net(ServerMsg::UndoRequested {
            table: 7,
            by: Side::Black,
        }),
    );
    assert_eq!(app.overlay, None, "our own request asks us nothing");
    update(
        &mut app,
        net(ServerMsg::UndoDeclined {
            table: 7,
            reason: crate::net::protocol::UndoEnd::Declined,
        }),
    );
    assert_eq!(app.status.as_deref(), Some("The take-back was declined"));
    assert_eq!(table(&app).undo_by, None);
}

#[test]
fn a_lost_connection_shows_at_once_and_the_table_comes_back() {
    let now = Instant::now();
    let mut app = seated(Side::Black, now);
    update(
        &mut app,
        net(ServerMsg::Chat {
            table: 7,
            from: "bob".into(),
            text: "hi".into(),
        }),
    );
    update(
        &mut app,
        Msg::Online(NetMsg::Net(SessionEvent::Lost {
            reason: "connection closed".into(),
        })),
    );
    assert!(matches!(app.link, Link::Reconnecting { attempt: 0, .. }));
    assert!(app.status.as_deref().unwrap().contains("reconnecting"));
    update(
        &mut app,
        Msg::Online(NetMsg::Net(SessionEvent::Retrying {
            attempt: 2,
            retry_in: Duration::from_millis(400),
        })),
    );
    assert!(matches!(app.link, Link::Reconnecting { attempt: 2, .. }));
    // Keys still answer; a move waits for the connection.
    assert!(sent(&typed(&mut app, "f5")).is_empty());
    assert!(app.status.as_deref().unwrap().starts_with("Not connected"));
    // Welcomed back: the seated game comes back as `game` (the server's restart
    // moved the clock on), the chat kept.
    let fx = update(
        &mut app,
        welcome(true, vec![info(7, TableStatus::Playing, true)]),
    );
    assert!(sent(&fx).is_empty(), "a player does not re-watch");
    assert_eq!(app.link, Link::Connected);
    assert_eq!(app.status.as_deref(), Some("Reconnected"));
    update(
        &mut app,
        net(ServerMsg::Game(Box::new(GameState {
            table: info(7, TableStatus::Playing, true),
            moves: vec![MoveRecord {
                side: Side::Black,
                square: "f5".into(),
                black_ms: Some(290_000),
                white_ms: Some(300_000),
            }],
            to_move: Some(Side::White),
            black_ms: Some(290_000),
            white_ms: Some(298_000),
            you: Some(Side::Black),
            undo_requested_by: None,
            result: None,
            away: vec![],
            chat: None,
        }))),
    );
    let t = table(&app);
    assert_eq!(t.view.game.ply(), 1);
    assert_eq!(t.clocks.unwrap().ms, [290_000, 298_000]);
    assert_eq!(t.chat.len(), 1);
    assert_eq!(app.status.as_deref(), Some("Reconnected"));
}

#[test]
fn a_spectator_watches_again_after_reconnecting() {
    let now = Instant::now();
    let mut app = seated(Side::Black, now);
    if let Screen::Table(t) = &mut app.screen {
        t.view.you = None;
        t.seated = false;
    }
    update(
        &mut app,
        Msg::Online(NetMsg::Net(SessionEvent::Lost {
            reason: "gone".into(),
        })),
    );
    let fx = update(&mut app, welcome(false, vec![]));
    assert_eq!(sent(&fx), vec![ClientMsg::Watch { table: 7 }]);
}

#[test]
fn an_unreachable_server_says_so_and_offers_a_way_back() {
    let now = Instant::now();
    let mut app = Online::new(server(), None, Lang::En, now);
    let mut fx = Vec::new();
    super::update::connect(&mut app, &mut fx);
    update(
        &mut app,
        Msg::Online(NetMsg::Net(SessionEvent::Unreachable {
            reason: "Connection refused".into(),
        })),
    );
    let screen = render(&app, 100, 30);
    assert!(
        screen.contains("Cannot reach the server at ws://127.0.0.1:7878: nobody answers at"),
        "{screen}"
    );
    assert_eq!(
        update(&mut app, key(Key::Char('r'))),
        vec![Effect::Connect(server())]
    );
    update(
        &mut app,
        Msg::Online(NetMsg::Net(SessionEvent::Unreachable {
            reason: "refused".into(),
        })),
    );
    update(&mut app, key(Key::Esc));
    assert_eq!(app.exit, Some(Exit::Back));
}

#[test]
fn the_intent_is_sent_once_welcomed_and_once_answered_not_again() {
    let spec = TableSpec {
        colour: ColourChoice::Black,
        ..TableSpec::default()
    };
    let mut app = Online::new(
        server(),
        Some(Intent::Create(spec.clone())),
        Lang::En,
        Instant::now(),
    );
    let fx = update(&mut app, welcome(false, vec![]));
    assert_eq!(sent(&fx), vec![ClientMsg::Create(spec)]);
    update(
        &mut app,
        net(ServerMsg::Game(Box::new(started(Some(Side::Black))))),
    );
    assert_eq!(app.asked, None, "answered by the table's game");
    assert!(sent(&update(&mut app, welcome(true, vec![]))).is_empty());
}

#[test]
fn the_lobby_joins_open_tables_and_watches_the_others() {
    let mut app = Online::new(server(), None, Lang::En, Instant::now());
    app.screen = Screen::Lobby { selected: 0 };
    let mut open = info(1, TableStatus::Waiting, false);
    open.players = vec![seat("cid")];
    update(
        &mut app,
        welcome(false, vec![info(2, TableStatus::Playing, true), open]),
    );
    assert_eq!(
        sent(&update(&mut app, key(Key::Enter))),
        vec![ClientMsg::Join { table: 1 }]
    );
    update(&mut app, key(Key::Down));
    assert_eq!(
        sent(&update(&mut app, key(Key::Enter))),
        vec![ClientMsg::Watch { table: 2 }]
    );
    // A waiting table kept for someone else is watched, and the line says why.
    let mut kept = info(4, TableStatus::Waiting, false);
    kept.players = vec![seat("cid")];
    kept.opponent = Opponent::Invite { name: "dee".into() };
    update(&mut app, net(ServerMsg::Table { table: kept }));
    let i = app.tables.iter().position(|t| t.id == 4).unwrap();
    app.screen = Screen::Lobby { selected: i };
    assert_eq!(
        sent(&update(&mut app, key(Key::Enter))),
        vec![ClientMsg::Watch { table: 4 }]
    );
    // Said on the table's screen once it shows.
    assert!(
        app.entering_note
            .as_deref()
            .unwrap_or("")
            .contains("only for dee")
    );
    update(&mut app, net(ServerMsg::TableClosed { table: 4 }));
    app.screen = Screen::Lobby { selected: 0 };
    // A table announced live, then closed.
    update(
        &mut app,
        net(ServerMsg::Table {
            table: info(3, TableStatus::Waiting, false),
        }),
    );
    assert_eq!(app.tables.len(), 3);
    update(&mut app, net(ServerMsg::TableClosed { table: 3 }));
    assert_eq!(app.tables.len(), 2);
}

#[test]
fn a_table_can_be_created_for_one_invited_name() {
    let mut app = Online::new(server(), None, Lang::En, Instant::now());
    app.screen = Screen::Lobby { selected: 0 };
    update(&mut app, welcome(false, vec![]));
    update(&mut app, key(Key::Char('c')));
    for _ in 0..4 {
        update(&mut app, key(Key::Down));
    }
    update(&mut app, key(Key::Right));
    let Screen::Create(form) = &app.screen else {
        panic!("the create form")
    };
    assert!(form.typing_name());
    assert!(render(&app, 80, 24).contains("type a name"));
    // An empty name is refused before anything is sent.
    assert!(sent(&update(&mut app, key(Key::Enter))).is_empty());
    assert!(app.status.as_deref().unwrap_or("").contains("invited name"));
    // Not oneself.
    typed(&mut app, "ann");
    assert!(sent(&update(&mut app, key(Key::Enter))).is_empty());
    assert!(
        app.status
            .as_deref()
            .unwrap_or("")
            .contains("your own name")
    );
    for _ in 0..3 {
        update(&mut app, key(Key::Backspace));
    }
    // Letters that are keys elsewhere (h, l, q, k, j) are typed here.
    typed(&mut app, "hjklqx");
    update(&mut app, key(Key::Backspace));
    assert!(render(&app, 80, 24).contains("only hjklq_"));
    let messages = sent(&update(&mut app, key(Key::Enter)));
    let [ClientMsg::Create(spec)] = messages.as_slice() else {
        panic!("one create: {messages:?}")
    };
    assert_eq!(
        spec.opponent,
        Opponent::Invite {
            name: "hjklq".into()
        }
    );
    assert!(matches!(app.screen, Screen::Lobby { .. }));
}

#[test]
fn chat_from_others_is_cleaned_and_our_line_is_sent() {
    let now = Instant::now();
    let mut app = seated(Side::Black, now);
    update(
        &mut app,
        net(ServerMsg::Chat {
            table: 7,
            from: "b\u{1b}[2Job".into(),
            text: "hi\u{1b}]0;pwned\u{7} there\r\n".into(),
        }),
    );
    let line = &table(&app).chat[0];
    assert_eq!(
        (line.from.as_str(), line.text.as_str()),
        ("bob", "hi there  ")
    );
    update(&mut app, key(Key::Char('t')));
    typed(&mut app, "gg!");
    update(&mut app, key(Key::Backspace));
    let fx = update(&mut app, key(Key::Enter));
    assert_eq!(sent(&fx), [chat_line("gg")]);
    assert_eq!(table(&app).typing, None);

    // A line finished while the connection is down stays typed, to send
    // once it is back.
    update(&mut app, key(Key::Char('t')));
    typed(&mut app, "brb");
    update(
        &mut app,
        Msg::Online(NetMsg::Net(SessionEvent::Lost {
            reason: "connection closed".into(),
        })),
    );
    assert!(sent(&update(&mut app, key(Key::Enter))).is_empty());
    assert_eq!(table(&app).typing.as_deref(), Some("brb"));
    assert!(app.status.as_deref().unwrap().starts_with("Not connected"));
    update(&mut app, welcome(true, vec![]));
    let fx = update(&mut app, key(Key::Enter));
    assert_eq!(sent(&fx), [chat_line("brb")]);
    assert_eq!(table(&app).typing, None);
}

/// A paste is text, never keys: in the chat line it is the line's text
/// (its line breaks as spaces), at the board it plays, asks and resigns
/// nothing.
#[test]
fn a_paste_is_chat_text_and_never_keys() {
    let now = Instant::now();
    let mut app = seated(Side::Black, now);
    let before = format!("{:?}", table(&app));
    let fx = update(&mut app, Msg::Paste("d3\nq\nu\nt".into()));
    assert!(fx.is_empty(), "{fx:?}");
    assert_eq!(app.overlay, None);
    assert_eq!(format!("{:?}", table(&app)), before);
    update(&mut app, key(Key::Char('t')));
    let fx = update(&mut app, Msg::Paste("line one\r\nline t\tq".into()));
    assert!(fx.is_empty(), "{fx:?}");
    assert_eq!(table(&app).typing.as_deref(), Some("line one line t q"));
    let fx = update(&mut app, key(Key::Enter));
    assert_eq!(sent(&fx), [chat_line("line one line t q")]);
}

/// Our chat line `text` at table 7.
fn chat_line(text: &str) -> ClientMsg {
    ClientMsg::Chat {
        table: 7,
        text: text.into(),
    }
}

/// The server's end of the game at table 7: Black resigned.
fn black_resigned() -> Msg {
    let result = GameResult {
        winner: Some(Side::White),
        black: 2,
        white: 2,
        reason: EndReason::Resigned,
    };
    net(ServerMsg::Ended { table: 7, result })
}

#[test]
fn q_asks_before_resigning_and_leaves_a_finished_game() {
    let now = Instant::now();
    let mut app = seated(Side::Black, now);
    assert!(update(&mut app, key(Key::Char('q'))).is_empty());
    assert_eq!(app.overlay, Some(Overlay::ConfirmResign));
    assert!(update(&mut app, key(Key::Char('n'))).is_empty());
    update(&mut app, key(Key::Char('q')));
    let fx = update(&mut app, key(Key::Char('y')));
    assert_eq!(sent(&fx), vec![ClientMsg::Resign { table: 7 }]);
    update(&mut app, black_resigned());
    let fx = update(&mut app, key(Key::Char('q')));
    assert_eq!(sent(&fx), vec![ClientMsg::Leave { table: 7 }]);
    assert!(matches!(app.screen, Screen::Lobby { .. }));
}

/// `Esc` never opens the resign question: a seated player's running game
/// stays as it is, and a finished game is left for the lobby, where `Q`
/// quits as `q` does.
#[test]
fn esc_at_a_table_leaves_only_what_costs_nothing_and_q_quits_the_lobby() {
    let now = Instant::now();
    let mut app = seated(Side::Black, now);
    assert!(update(&mut app, key(Key::Esc)).is_empty());
    assert_eq!(app.overlay, None);
    assert!(matches!(app.screen, Screen::Table(_)));
    update(&mut app, black_resigned());
    let fx = update(&mut app, key(Key::Esc));
    assert_eq!(sent(&fx), vec![ClientMsg::Leave { table: 7 }]);
    assert!(matches!(app.screen, Screen::Lobby { .. }));
    assert_eq!(app.exit, None);
    update(&mut app, key(Key::Char('Q')));
    assert_eq!(app.exit, Some(Exit::Quit));
}

fn render(app: &Online, width: u16, height: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal.draw(|f| view(app, LOOK, f)).unwrap();
    let buf = terminal.backend().buffer().clone();
    let mut out = String::new();
    for y in 0..height {
        let mut line = String::new();
        for x in 0..width {
            line.push_str(buf[(x, y)].symbol());
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

#[test]
fn snapshot_lobby() {
    let mut app = Online::new(server(), None, Lang::En, Instant::now());
    app.screen = Screen::Lobby { selected: 1 };
    let mut ai = info(3, TableStatus::Playing, false);
    let level = Level::new(5).expect("a level");
    ai.white = Some(Seat::Ai { level });
    ai.players = vec![seat("cid"), Seat::Ai { level }];
    ai.opponent = Opponent::Ai { level };
    let mut watched = info(2, TableStatus::Playing, true);
    watched.spectators = 2;
    let mut six = info(4, TableStatus::Waiting, false);
    six.variant = Variant::Six;
    six.scoring = ScoringRule::EmptiesToWinner;
    six.players = vec![seat("dee")];
    update(
        &mut app,
        welcome(
            false,
            vec![info(1, TableStatus::Waiting, false), watched, ai, six],
        ),
    );
    insta::assert_snapshot!(render(&app, 100, 16));
}

#[test]
fn snapshot_table_mid_game_with_clocks_and_chat() {
    let now = Instant::now();
    let mut app = seated(Side::Black, now);
    f5_d6(&mut app, [296_000, 300_000], [296_000, 289_500]);
    update(
        &mut app,
        net(ServerMsg::Chat {
            table: 7,
            from: "bob".into(),
            text: "good luck".into(),
        }),
    );
    update(&mut app, Msg::Tick(now + Duration::from_millis(4_200)));
    insta::assert_snapshot!(render(&app, 100, 40));
}

#[test]
fn snapshot_lobby_in_french() {
    let mut app = Online::new(server(), None, Lang::En, Instant::now());
    app.screen = Screen::Lobby { selected: 0 };
    let mut watched = info(2, TableStatus::Playing, true);
    watched.spectators = 1;
    update(
        &mut app,
        welcome(false, vec![info(1, TableStatus::Waiting, false), watched]),
    );
    app.lang = Lang::Fr;
    let screen = render(&app, 100, 12);
    insta::assert_snapshot!(screen);
}

#[test]
fn question_mark_shows_the_keys_of_the_lobby_and_of_a_table() {
    let now = Instant::now();
    let mut app = Online::new(server(), None, Lang::En, now);
    let mut fx = Vec::new();
    super::update::connect(&mut app, &mut fx);
    update(
        &mut app,
        welcome(false, vec![info(1, TableStatus::Waiting, false)]),
    );
    update(&mut app, key(Key::Char('?')));
    assert_eq!(app.overlay, Some(Overlay::Help));
    let screen = render(&app, 100, 30);
    for row in super::keys::LOBBY_KEYS {
        let (label, help) = super::words::help_row(Lang::En, &row);
        assert!(
            screen.contains(&label) && screen.contains(&help),
            "{label}: {help}\n{screen}"
        );
    }
    // Keys do nothing else while the help is open; Esc closes it.
    update(&mut app, key(Key::Char('c')));
    assert!(matches!(app.screen, Screen::Lobby { .. }));
    assert!(update(&mut app, key(Key::Char('w'))).is_empty());
    update(&mut app, key(Key::Esc));
    assert_eq!(app.overlay, None);
    assert_eq!(app.exit, None);

    let mut app = seated(Side::Black, now);
    update(&mut app, key(Key::Char('?')));
    app.lang = Lang::Fr;
    let screen = render(&app, 100, 40);
    for want in [
        "Touches",
        "Entrée Espace",
        "demander à l'adversaire de reprendre",
        "Échap",
    ] {
        assert!(screen.contains(want), "{want}\n{screen}");
    }
    assert!(!screen.contains("Enter"), "{screen}");
    update(&mut app, key(Key::Char('?')));
    assert_eq!(app.overlay, None);
    // The table's keys work again once it is closed.
    let fx = update(&mut app, key(Key::Char('u')));
    assert!(sent(&fx).is_empty(), "nothing of ours to take back yet");
}

#[test]
fn snapshot_table_in_french() {
    let now = Instant::now();
    let mut app = seated(Side::White, now);
    update(
        &mut app,
        moved(1, Side::Black, "f5", [296_000, 300_000], Some(Side::White)),
    );
    update(
        &mut app,
        net(ServerMsg::Chat {
            table: 7,
            from: "bob".into(),
            text: "bonne chance".into(),
        }),
    );
    app.lang = Lang::Fr;
    update(&mut app, key(Key::Char('u')));
    insta::assert_snapshot!(render(&app, 100, 40));
}

#[test]
fn every_online_screen_fits_or_says_the_terminal_is_too_small() {
    let now = Instant::now();
    let mut screens = Vec::new();
    let mut app = Online::new(server(), None, Lang::En, now);
    screens.push(app.clone());
    update(
        &mut app,
        welcome(false, vec![info(1, TableStatus::Waiting, true)]),
    );
    app.screen = Screen::Lobby { selected: 0 };
    screens.push(app.clone());
    update(&mut app, key(Key::Char('?')));
    screens.push(app.clone());
    update(&mut app, key(Key::Esc));
    update(&mut app, key(Key::Char('c')));
    screens.push(app.clone());
    let mut app = seated(Side::Black, now);
    screens.push(app.clone());
    update(&mut app, key(Key::Char('q')));
    screens.push(app.clone());
    update(&mut app, key(Key::Char('n')));
    update(&mut app, key(Key::Char('?')));
    screens.push(app.clone());
    let mut app = Online::new(server(), None, Lang::En, now);
    update(
        &mut app,
        Msg::Online(NetMsg::Net(SessionEvent::Unreachable {
            reason: "refused".into(),
        })),
    );
    screens.push(app);
    for (i, app) in screens.iter().enumerate() {
        for (w, h) in [
            (1, 1),
            (5, 3),
            (12, 4),
            (20, 6),
            (30, 10),
            (39, 12),
            (40, 12),
            (60, 15),
        ] {
            let screen = render(app, w, h);
            let all: String = screen.split_whitespace().collect::<Vec<_>>().join(" ");
            let small = w < 40 || h < 12;
            if small {
                assert!(
                    all.contains("Terminal") || w < 20 || h < 3,
                    "screen {i} at {w}×{h}:\n{screen}"
                );
            }
            // Too small says how large it must be.
            if all.contains("Terminal too small") && w >= 30 && h >= 4 {
                assert!(
                    all.contains(&format!("have {w}×{h}")) && all.contains("need "),
                    "screen {i} at {w}×{h}:\n{screen}"
                );
            }
        }
    }
    // The table needs room for the board: 40×12 is too small for it.
    let (w, h) = crate::ui::layout::minimum(crate::rules::BoardSize::Eight);
    let all = render(&seated(Side::Black, now), 40, 12);
    assert!(all.contains(&format!("need {w}×{h}")), "{all}");
}

/// The table's move list is the game screen's: the current move
/// highlighted on a cell four wide, as in a local game.
#[test]
fn a_tables_move_list_is_drawn_as_a_games() {
    let now = Instant::now();
    let mut app = seated(Side::Black, now);
    update(
        &mut app,
        moved(1, Side::Black, "f5", [299_000, 300_000], Some(Side::White)),
    );
    let mut terminal = Terminal::new(TestBackend::new(100, 40)).unwrap();
    terminal.draw(|f| view(&app, LOOK, f)).unwrap();
    let buf = terminal.backend().buffer();
    let row = (0..40)
        .find(|&y| {
            let line: String = (0..100).map(|x| buf[(x, y)].symbol().to_string()).collect();
            line.contains("  1. f5")
        })
        .expect("the move list shows f5");
    let line: String = (0..100)
        .map(|x| buf[(x, row)].symbol().to_string())
        .collect();
    let at = line.find("1. f5").unwrap();
    let x = u16::try_from(line[..at].chars().count() + 3).unwrap();
    let reversed = |x: u16| {
        buf[(x, row)]
            .modifier
            .contains(ratatui::style::Modifier::REVERSED)
    };
    assert!((x..x + 4).all(reversed), "{line}");
    assert!(!reversed(x + 4));
}

#[test]
fn the_move_count_agrees_in_french() {
    let [_, one] = crate::ui::moves::heading(Lang::Fr, 1);
    let [_, two] = crate::ui::moves::heading(Lang::Fr, 2);
    assert_eq!((one.as_str(), two.as_str()), ("1 joué", "2 joués"));
}

/// Every character drawn in `app`'s frame, checked for terminal controls.
fn assert_nothing_raw(app: &Online, what: &str) {
    for (w, h) in [(100, 40), (60, 20)] {
        let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
        terminal.draw(|f| view(app, LOOK, f)).unwrap();
        for cell in terminal.backend().buffer().content() {
            for c in cell.symbol().chars() {
                assert!(
                    !c.is_control()
                        && !('\u{202a}'..='\u{202e}').contains(&c)
                        && !('\u{2066}'..='\u{2069}').contains(&c),
                    "{what} at {w}×{h}: {c:?} reached the frame"
                );
            }
        }
    }
}

#[test]
fn text_from_others_reaches_the_frame_as_plain_text_only() {
    let nasty = "\u{1b}[2J\u{1b}]52;c;aGk=\u{7}\u{9b}31m\u{202e}evil\r\n\u{8}\u{0}";
    let long = format!("{nasty}{}", "x".repeat(5_000));
    let now = Instant::now();
    // The lobby: names of players in the list.
    let mut app = Online::new(server(), None, Lang::En, now);
    let mut fx = Vec::new();
    super::update::connect(&mut app, &mut fx);
    let mut t = info(3, TableStatus::Playing, true);
    t.black = Some(seat(nasty));
    t.players = vec![seat(nasty), seat(&long)];
    t.opponent = Opponent::Invite { name: long.clone() };
    update(&mut app, welcome(false, vec![t.clone()]));
    assert_nothing_raw(&app, "lobby");
    // The server's refusals and errors.
    update(
        &mut app,
        net(ServerMsg::Error {
            code: crate::net::protocol::ErrorCode::BadRequest,
            message: long.clone(),
            table: None,
            closed: false,
        }),
    );
    assert_nothing_raw(&app, "error line");
    // A table: both names, chat lines, a take-back request by that name.
    let mut app = seated(Side::Black, now);
    let mut t = info(7, TableStatus::Playing, true);
    t.white = Some(seat(&long));
    update(&mut app, net(ServerMsg::Table { table: t }));
    for text in [nasty, long.as_str()] {
        update(
            &mut app,
            net(ServerMsg::Chat {
                table: 7,
                from: long.clone(),
                text: text.into(),
            }),
        );
    }
    assert_nothing_raw(&app, "table");
    // Cleaned in the model already, not only by the terminal library.
    let plain = |s: &str| {
        !s.chars()
            .any(|c| c.is_control() || ('\u{202a}'..='\u{202e}').contains(&c))
    };
    for line in &table(&app).chat {
        assert!(plain(&line.from) && plain(&line.text), "{line:?}");
        assert!(
            line.text.chars().count() <= 1_000,
            "a chat line is cut short"
        );
    }
    update(
        &mut app,
        net(ServerMsg::UndoRequested {
            table: 7,
            by: Side::White,
        }),
    );
    let Some(Overlay::UndoAsked { by, .. }) = &app.overlay else {
        panic!("the question is asked");
    };
    assert!(plain(by), "{by:?}");
    assert_nothing_raw(&app, "take-back question");
    // A refusal of the hello.
    let mut app = Online::new(server(), None, Lang::En, now);
    update(
        &mut app,
        Msg::Online(NetMsg::Net(SessionEvent::Refused {
            code: crate::net::protocol::ErrorCode::NameTaken,
            message: long,
        })),
    );
    assert_nothing_raw(&app, "refusal");
}

#[test]
fn a_waiting_table_shows_its_creator_in_the_chosen_colour_only() {
    let mut app = welcomed(vec![]);
    let mut t = info(9, TableStatus::Waiting, false);
    t.colour = ColourChoice::White;
    t.white = Some(seat("ann"));
    update(
        &mut app,
        net(ServerMsg::Game(Box::new(GameState {
            table: t,
            moves: vec![],
            to_move: None,
            black_ms: None,
            white_ms: None,
            you: Some(Side::White),
            undo_requested_by: None,
            result: None,
            away: vec![],
            chat: None,
        }))),
    );
    let t = table(&app);
    assert_eq!(
        (t.name(Side::Black), t.name(Side::White)),
        (String::new(), "ann".into())
    );
}

/// With colours drawn at random, the creator waiting alone is not shown as
/// Black: the seats carry no disc until the draw, and the panel says so.
#[test]
fn a_waiting_table_with_random_colours_shows_no_colour_before_the_draw() {
    let mut app = welcomed(vec![]);
    update(&mut app, ann_at_nine(TableStatus::Waiting, None));
    let screen = render(&app, 100, 30);
    assert!(screen.contains("? ann (you)"), "{screen}");
    assert!(!screen.contains("● ann"), "{screen}");
    assert!(screen.contains("opponent; colours are"), "{screen}");
    assert!(
        !screen.contains("you)  2"),
        "no count before the draw: {screen}"
    );
    // Once the game starts, the drawn colours show.
    update(
        &mut app,
        ann_at_nine(TableStatus::Playing, Some(Side::Black)),
    );
    let screen = render(&app, 100, 30);
    assert!(screen.contains("● ann (you)"), "{screen}");
    assert!(!screen.contains("colours are"), "{screen}");
}

/// ann at her new table 9, waiting for an opponent (`you`: her seat).
fn waiting_at_nine(lang: Lang, url: &str) -> Online {
    let mut app = Online::new(
        Server {
            url: url.into(),
            ..server()
        },
        None,
        lang,
        Instant::now(),
    );
    super::update::connect(&mut app, &mut Vec::new());
    update(&mut app, welcome(false, vec![]));
    update(&mut app, ann_at_nine(TableStatus::Waiting, None));
    app
}

/// Table 9 as the server sends it to ann, its Black seat, with no clock
/// and no chat.
fn ann_at_nine(status: TableStatus, to_move: Option<Side>) -> Msg {
    net(ServerMsg::Game(Box::new(GameState {
        table: info(9, status, false),
        moves: vec![],
        to_move,
        black_ms: None,
        white_ms: None,
        you: Some(Side::Black),
        undo_requested_by: None,
        result: None,
        away: vec![],
        chat: None,
    })))
}

/// The creator's waiting table shows the line to send a friend, with the
/// server's address as a salon address and the table's id, in both
/// languages and sizes; the footer offers `y` to copy it.
#[test]
fn a_waiting_table_shows_the_invitation_to_send() {
    let line = "reversi online ws://127.0.0.1:7878 --join 9";
    let app = waiting_at_nine(Lang::En, "127.0.0.1:7878");
    assert_eq!(app.invitation().as_deref(), Some(line));
    insta::assert_snapshot!(render(&app, 100, 40));
    for (lang, (w, h)) in [
        (Lang::En, (80, 24)),
        (Lang::Fr, (80, 24)),
        (Lang::Fr, (100, 40)),
    ] {
        let app = waiting_at_nine(lang, "ws://127.0.0.1:7878");
        // Wrapped or not, the words of the line show in order in the
        // panel (what follows the board's right edge).
        let screen = render(&app, w, h);
        let words: Vec<&str> = screen
            .lines()
            .flat_map(|l| {
                l.rsplit(['│', '┐', '┤', '┘'])
                    .next()
                    .unwrap_or(l)
                    .split_whitespace()
            })
            .collect();
        assert!(
            words.windows(5).any(|w| w.join(" ") == line),
            "{lang:?} {w}x{h}: {screen}"
        );
        let copy = match lang {
            Lang::En => "y copy the invitation",
            Lang::Fr => "y copier l'invitation",
        };
        assert!(screen.contains(copy), "{lang:?} {w}x{h}: {screen}");
    }
}

/// `y` at one's waiting table copies the invitation (OSC 52, through the
/// runner) and says so; at a table that is not waiting, or watched, it
/// copies nothing.
#[test]
fn y_copies_the_invitation_of_a_waiting_table_only() {
    for (lang, said) in [
        (Lang::En, "Invitation copied"),
        (Lang::Fr, "Invitation copiée"),
    ] {
        let mut app = waiting_at_nine(lang, "http://127.0.0.1:7878");
        let fx = update(&mut app, key(Key::Char('y')));
        assert_eq!(
            fx,
            vec![Effect::Copy(
                "reversi online ws://127.0.0.1:7878 --join 9".into()
            )]
        );
        assert_eq!(app.status.as_deref(), Some(said));
        assert!(render(&app, 100, 40).contains(said));
    }
    let mut playing = seated(Side::Black, Instant::now());
    assert_eq!(playing.invitation(), None);
    assert!(update(&mut playing, key(Key::Char('y'))).is_empty());
    let mut dees = info(9, TableStatus::Waiting, false);
    dees.players = vec![seat("dee")];
    let mut watcher = welcomed(vec![dees.clone()]);
    update(
        &mut watcher,
        net(ServerMsg::Game(Box::new(GameState {
            table: dees,
            to_move: None,
            ..started(None)
        }))),
    );
    assert!(watcher.table().is_some());
    assert_eq!(watcher.invitation(), None);
    assert!(update(&mut watcher, key(Key::Char('y'))).is_empty());
}

/// At 80 columns, in either language, the footer keeps help and the way
/// out (resign or leave, quit) whole; entries before them give way.
#[test]
fn footers_keep_help_and_the_way_out_at_80_columns() {
    for lang in [Lang::En, Lang::Fr] {
        let table = render(&seated_in(lang, Side::Black, Instant::now()), 80, 24);
        let lobby = welcomed_in(lang, vec![info(3, TableStatus::Waiting, false)]);
        let lobby = render(&lobby, 80, 24);
        let (resign, quit) = match lang {
            Lang::Fr => ("q abandonner ou quitter", "q quitter"),
            Lang::En => ("q resign or leave", "q quit"),
        };
        let last = |screen: &str| {
            screen
                .lines()
                .rev()
                .find(|l| !l.trim().is_empty())
                .unwrap_or_default()
                .to_string()
        };
        let footer = last(&table);
        assert!(
            footer.contains(resign) && footer.contains("? "),
            "{lang:?}: {footer}"
        );
        let footer = last(&lobby);
        assert!(
            footer.contains(quit) && footer.contains("? "),
            "{lang:?}: {footer}"
        );
        assert!(
            footer.contains("c "),
            "{lang:?}: creating a table stays in sight: {footer}"
        );
    }
}

/// In a narrow lobby, players' names cut to their column end in "…".
#[test]
fn long_names_in_a_narrow_lobby_are_cut_with_a_mark() {
    let mut t = info(3, TableStatus::Playing, false);
    t.black = Some(seat("alexandre-dupontel"));
    t.white = Some(seat("bernadette-lemaire"));
    t.players = vec![seat("alexandre-dupontel"), seat("bernadette-lemaire")];
    let screen = render(&welcomed_in(Lang::Fr, vec![t]), 80, 24);
    let row = screen
        .lines()
        .find(|l| l.contains("alexandre"))
        .unwrap_or_default();
    assert!(row.contains('…'), "{screen}");
    assert!(row.chars().count() <= 80, "{row}");
}

#[test]
fn network_troubles_and_refusals_are_told_in_french() {
    let now = Instant::now();
    {
        let mut app = Online::new(server(), None, Lang::Fr, now);
        super::update::connect(&mut app, &mut Vec::new());
        update(
            &mut app,
            Msg::Online(NetMsg::Net(SessionEvent::Unreachable {
                reason: "cannot connect to ws://127.0.0.1:7878: IO error: Connection refused (os error 111)".into(),
            })),
        );
        let screen = render(&app, 100, 30);
        assert!(screen.contains("répond à cette adresse"), "{screen}");
        assert!(!screen.contains("IO error"), "{screen}");
        update(
            &mut app,
            Msg::Online(NetMsg::Net(SessionEvent::Refused {
                code: crate::net::protocol::ErrorCode::NameTaken,
                message: "this name is in use; resume with its token or pick another".into(),
            })),
        );
        let screen = render(&app, 100, 30);
        assert!(screen.contains("ce nom est déjà pris"), "{screen}");
        let mut app = seated_in(Lang::Fr, Side::Black, now);
        update(
            &mut app,
            net(ServerMsg::Error {
                code: crate::net::protocol::ErrorCode::NotYourTurn,
                message: "it is not your turn".into(),
                table: Some(7),
                closed: false,
            }),
        );
        update(
            &mut app,
            Msg::Online(NetMsg::Net(SessionEvent::Lost {
                reason: "connection closed: WebSocket protocol error: Connection reset without closing handshake".into(),
            })),
        );
        let screen = render(&app, 100, 40);
        assert!(screen.contains("connexion a été fermée"), "{screen}");
        assert!(!screen.contains("WebSocket"), "{screen}");
    }
}

#[test]
fn the_session_token_is_remembered_once_for_a_client_started_again() {
    let mut app = Online::new(server(), None, Lang::En, Instant::now());
    let mut fx = Vec::new();
    super::update::connect(&mut app, &mut fx);
    let fx = update(&mut app, welcome(false, vec![]));
    let remembered: Vec<&Server> = fx
        .iter()
        .filter_map(|e| match e {
            Effect::Remember(s) => Some(s),
            _ => None,
        })
        .collect();
    assert_eq!(remembered.len(), 1, "{fx:?}");
    assert_eq!(
        remembered[0].token.as_deref(),
        Some("00".repeat(16).as_str())
    );
    assert_eq!(remembered[0].name, "ann");
    // Welcomed again with the same token (a reconnection): nothing to write.
    let fx = update(&mut app, welcome(true, vec![]));
    assert!(
        !fx.iter().any(|e| matches!(e, Effect::Remember(_))),
        "{fx:?}"
    );
}

#[test]
fn a_long_status_line_wraps_whole_at_the_table_and_in_the_lobby() {
    let now = Instant::now();
    let mut app = seated(Side::Black, now);
    let long = "The server refused this: a message long enough to need three rows of the side panel, ending here";
    app.status = Some(long.into());
    let screen = render(&app, 80, 30);
    assert!(screen.contains("The server refused"), "{screen}");
    assert!(screen.contains("ending here"), "{screen}");
    app.screen = Screen::Lobby { selected: 0 };
    let screen = render(&app, 60, 24);
    assert!(screen.contains("The server refused"), "{screen}");
    assert!(screen.contains("ending here"), "{screen}");
}

#[test]
fn long_chat_lines_wrap_whole_and_a_long_typed_line_shows_its_end() {
    let now = Instant::now();
    let mut app = seated(Side::Black, now);
    let long = "this line of chat is much longer than the side panel and ends with zebra";
    update(
        &mut app,
        net(ServerMsg::Chat {
            table: 7,
            from: "bob".into(),
            text: long.into(),
        }),
    );
    let screen = render(&app, 70, 30);
    assert!(screen.contains("bob: this line"), "{screen}");
    assert!(screen.contains("zebra"), "{screen}");
    update(&mut app, key(Key::Char('t')));
    typed(&mut app, &format!("{long} and a typed ending"));
    let screen = render(&app, 70, 30);
    assert!(screen.contains("typed ending_"), "{screen}");
    assert!(screen.contains("> …"), "{screen}");
}

/// bob's and ann's chat at table 7: a greeting, a 200-character word
/// (no space to break at), and a short answer.
fn chat_with_a_long_word(app: &mut Online) -> String {
    let long: String = (0..20).map(|i| format!("{i:02}longword")).collect();
    assert_eq!(long.chars().count(), 200);
    for (from, text) in [
        ("bob", "hello there"),
        ("ann", long.as_str()),
        ("bob", "ok then"),
    ] {
        update(
            app,
            net(ServerMsg::Chat {
                table: 7,
                from: from.into(),
                text: text.into(),
            }),
        );
    }
    long
}

/// A chat line taller than the chat is wrapped, its word cut at the
/// panel's width, and the newest line stays at the bottom, in sight with
/// the end of the long one, at 100×40 and 80×24.
#[test]
fn a_chat_word_wider_than_the_panel_keeps_the_other_lines_in_sight() {
    for (w, h) in [(100, 40), (80, 24)] {
        let mut app = seated(Side::Black, Instant::now());
        app.area = (w, h);
        chat_with_a_long_word(&mut app);
        let screen = render(&app, w, h);
        assert!(screen.contains("bob: ok then"), "{w}x{h}: {screen}");
        assert!(screen.contains("19longword"), "{w}x{h}: {screen}");
        insta::assert_snapshot!(format!("chat_long_word_{w}x{h}"), screen);
    }
}

/// PgUp scrolls the chat back to its older lines, down to the first
/// (and no further), PgDn back to the newest; while a line is typed too,
/// and the table's help names the keys.
#[test]
fn pgup_and_pgdn_scroll_the_chat_back_and_forth() {
    for lang in [Lang::En, Lang::Fr] {
        let mut app = seated_in(lang, Side::Black, Instant::now());
        app.area = (80, 24);
        chat_with_a_long_word(&mut app);
        let screen = |app: &Online| render(app, 80, 24);
        assert!(!screen(&app).contains("bob: hello"));
        let mut presses = 0;
        while !screen(&app).contains("bob: hello there") {
            update(&mut app, key(Key::PageUp));
            presses += 1;
            assert!(presses < 20, "{lang:?}: {}", screen(&app));
        }
        let older = match lang {
            Lang::En => "Chat (earlier; PgDn)",
            Lang::Fr => "Discussion (avant ; PgSuiv)",
        };
        assert!(screen(&app).contains(older), "{}", screen(&app));
        let wide = render(&app, 100, 40);
        assert!(wide.contains(older), "{wide}");
        assert!(!screen(&app).contains("bob: ok then"));
        // Past the oldest row, nothing moves; PgDn comes back as it went.
        let top = screen(&app);
        for _ in 0..5 {
            update(&mut app, key(Key::PageUp));
        }
        assert_eq!(screen(&app), top);
        update(&mut app, key(Key::Char('t')));
        for _ in 0..presses + 5 {
            update(&mut app, key(Key::PageDown));
        }
        assert!(screen(&app).contains("bob: ok then"), "{}", screen(&app));
        assert!(!screen(&app).contains(older));
        assert_eq!(
            table(&app).typing.as_deref(),
            Some(""),
            "PgDn types nothing"
        );
        update(&mut app, key(Key::PageUp));
        assert!(!screen(&app).contains("bob: ok then"), "{}", screen(&app));
    }
    // A line arriving while scrolled back leaves the rows shown in place.
    let mut app = seated(Side::Black, Instant::now());
    app.area = (100, 40);
    chat_with_a_long_word(&mut app);
    update(&mut app, key(Key::PageUp));
    let before = render(&app, 100, 40);
    update(
        &mut app,
        net(ServerMsg::Chat {
            table: 7,
            from: "bob".into(),
            text: "one more".into(),
        }),
    );
    assert_eq!(render(&app, 100, 40), before);
    update(&mut app, key(Key::Char('?')));
    assert!(render(&app, 100, 40).contains("PgUp PgDn"));
}

/// A saved game's path in the status line is shortened, never split by
/// the wrapping: its file name shows whole, on the table and in the lobby.
#[test]
fn a_long_saved_path_keeps_its_file_name_whole() {
    let path = "/home/someone/.local/share/reversi/games/2026-12-05T17-49-10.ggf";
    let mut app = seated(Side::Black, Instant::now());
    app.status = Some(super::words::kept(Lang::En, path));
    let table = render(&app, 80, 24);
    assert!(table.contains("2026-12-05T17-49-10.ggf"), "{table}");
    app.screen = Screen::Lobby { selected: 0 };
    let lobby = render(&app, 50, 14);
    assert!(lobby.contains("2026-12-05T17-49-10.ggf"), "{lobby}");
}

#[test]
fn long_names_leave_the_count_and_the_clock_on_their_row() {
    let now = Instant::now();
    let mut app = Online::new(server(), None, Lang::En, now);
    let mut fx = Vec::new();
    super::update::connect(&mut app, &mut fx);
    update(&mut app, welcome(false, vec![]));
    let mut state = started(Some(Side::Black));
    let long = ["annabelle_de_la_tour", "bartholomew_longname"];
    state.table.black = Some(seat(long[0]));
    state.table.white = Some(seat(long[1]));
    state.table.players = vec![seat(long[0]), seat(long[1])];
    update(&mut app, net(ServerMsg::Game(Box::new(state))));
    for (w, h) in [(100, 40), (80, 24)] {
        let screen = render(&app, w, h);
        for (disc, count) in [("●", " 2"), ("○", " 2")] {
            let row = screen
                .lines()
                .find_map(|l| {
                    let i = l.rfind(&format!("{disc} "))?;
                    l[i..]
                        .contains(long[0].get(..4)?)
                        .then_some(&l[i..])
                        .or_else(|| l[i..].contains(long[1].get(..4)?).then_some(&l[i..]))
                })
                .unwrap_or_else(|| panic!("{w}x{h}: no {disc} row\n{screen}"));
            assert!(
                row.contains(count) && row.contains("5:00"),
                "{w}x{h}: {row:?}\n{screen}"
            );
        }
    }
}
