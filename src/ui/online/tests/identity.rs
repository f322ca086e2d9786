//! The session's identity on the screen: a session taken over by another
//! window stops and is taken back with `r`; a name in use whose token this
//! client holds (written by another window) is offered back; tokens follow
//! another spelling of the server; a create, join or watch the connection
//! lost is asked again after the reconnection unless the resumed session
//! shows it done; the reconnection line says when the next attempt is; a
//! certificate that is not trusted is said so.

use super::*;
use crate::i18n::Lang;
use crate::net::protocol::ErrorCode;
use crate::ui::online::model::{Asked, Tokens};

const TOKEN: &str = "00000000000000000000000000000000";

fn lost() -> Msg {
    Msg::Online(NetMsg::Net(SessionEvent::Lost {
        reason: "connection closed".into(),
    }))
}

fn connects(fx: &[Effect]) -> Vec<Server> {
    fx.iter()
        .filter_map(|e| match e {
            Effect::Connect(s) => Some(s.clone()),
            _ => None,
        })
        .collect()
}

/// A table of `players`, waiting or playing.
fn table_of(id: u64, players: &[&str]) -> TableInfo {
    let status = if players.len() == 2 {
        TableStatus::Playing
    } else {
        TableStatus::Waiting
    };
    TableInfo {
        players: players.iter().map(|p| seat(p)).collect(),
        black: None,
        white: None,
        ..info(id, status, false)
    }
}

#[test]
fn a_session_opened_elsewhere_stops_and_r_takes_it_back() {
    let now = Instant::now();
    let mut app = seated(Side::Black, now);
    let fx = update(&mut app, Msg::Online(NetMsg::Net(SessionEvent::Replaced)));
    assert!(fx.is_empty(), "nothing reconnects by itself: {fx:?}");
    assert_eq!(app.link, Link::Replaced);
    // The board's keys do nothing now; the screen says what happened.
    assert!(typed(&mut app, "f5").is_empty());
    let screen = render(&app, 100, 40);
    assert!(
        screen.contains("This session was opened elsewhere"),
        "{screen}"
    );
    assert!(screen.contains("r take it back"), "{screen}");
    // `r` connects again with the session's token, which takes it back.
    let fx = update(&mut app, key(Key::Char('r')));
    assert_eq!(
        connects(&fx),
        vec![Server {
            token: Some(TOKEN.into()),
            ..server()
        }]
    );
    assert_eq!(app.link, Link::Connecting);
    update(
        &mut app,
        welcome(true, vec![info(7, TableStatus::Playing, true)]),
    );
    update(
        &mut app,
        net(ServerMsg::Game(Box::new(started(Some(Side::Black))))),
    );
    assert_eq!(app.link, Link::Connected);
    assert_eq!(table(&app).you(), Some(Side::Black));
}

#[test]
fn snapshot_session_opened_elsewhere() {
    let mut app = seated(Side::Black, Instant::now());
    update(&mut app, Msg::Online(NetMsg::Net(SessionEvent::Replaced)));
    insta::assert_snapshot!(render(&app, 100, 14));
}

#[test]
fn snapshot_session_opened_elsewhere_in_french() {
    let mut app = seated(Side::Black, Instant::now());
    update(&mut app, Msg::Online(NetMsg::Net(SessionEvent::Replaced)));
    app.lang = Lang::Fr;
    insta::assert_snapshot!(render(&app, 100, 14));
}

/// Connecting without a token (this window started before another one got
/// the session and wrote its token), the name is refused as taken.
fn refused_as_taken() -> Online {
    let mut app = Online::new(server(), None, Lang::En, Instant::now());
    let mut fx = Vec::new();
    super::super::update::connect(&mut app, &mut fx);
    let fx = update(
        &mut app,
        Msg::Online(NetMsg::Net(SessionEvent::Refused {
            code: ErrorCode::NameTaken,
            message: "this name is in use".into(),
        })),
    );
    assert_eq!(fx, vec![Effect::Recall], "online.conf is read again");
    assert_eq!(app.link, Link::Refused(ErrorCode::NameTaken));
    app
}

#[test]
fn a_taken_name_whose_token_is_held_is_offered_back() {
    let mut app = refused_as_taken();
    // Another window wrote the token, under another spelling of the server.
    let mut tokens = Tokens::default();
    tokens.keep("ws://localhost:7878/", "ann", TOKEN);
    update(&mut app, Msg::Online(NetMsg::Recalled(tokens)));
    assert_eq!(app.link, Link::Taken);
    let screen = render(&app, 100, 14);
    assert!(
        screen.contains("The name ann is in use on this server"),
        "{screen}"
    );
    let fx = update(&mut app, key(Key::Char('r')));
    assert_eq!(connects(&fx)[0].token.as_deref(), Some(TOKEN));
}

#[test]
fn snapshot_taken_name_in_french() {
    let mut app = refused_as_taken();
    let mut tokens = Tokens::default();
    tokens.keep("ws://127.0.0.1:7878", "ann", TOKEN);
    update(&mut app, Msg::Online(NetMsg::Recalled(tokens)));
    app.lang = Lang::Fr;
    insta::assert_snapshot!(render(&app, 100, 14));
}

#[test]
fn a_taken_name_without_another_token_stays_a_refusal() {
    let mut app = refused_as_taken();
    update(&mut app, Msg::Online(NetMsg::Recalled(Tokens::default())));
    assert_eq!(app.link, Link::Refused(ErrorCode::NameTaken));
    let screen = render(&app, 100, 14);
    assert!(
        screen.contains("this name is in use; pick another"),
        "{screen}"
    );
    // The token refused is not offered again.
    let mut app = Online::new(
        Server {
            token: Some(TOKEN.into()),
            ..server()
        },
        None,
        Lang::En,
        Instant::now(),
    );
    super::super::update::connect(&mut app, &mut Vec::new());
    update(
        &mut app,
        Msg::Online(NetMsg::Net(SessionEvent::Refused {
            code: ErrorCode::BadToken,
            message: "the token does not match".into(),
        })),
    );
    let mut tokens = Tokens::default();
    tokens.keep("ws://127.0.0.1:7878", "ann", TOKEN);
    update(&mut app, Msg::Online(NetMsg::Recalled(tokens)));
    assert_eq!(app.link, Link::Refused(ErrorCode::BadToken));
}

#[test]
fn the_connect_form_finds_the_token_of_another_spelling_of_the_server() {
    let mut app = Online::new(
        Server {
            url: String::new(),
            name: String::new(),
            token: None,
        },
        None,
        Lang::En,
        Instant::now(),
    );
    app.tokens.keep("ws://127.0.0.1:7878", "ann", TOKEN);
    typed(&mut app, "ws://LOCALHOST:7878/");
    update(&mut app, key(Key::Tab));
    typed(&mut app, "ann");
    let fx = update(&mut app, key(Key::Enter));
    let expected = Server {
        url: "ws://LOCALHOST:7878/".into(),
        name: "ann".into(),
        token: Some(TOKEN.into()),
    };
    assert_eq!(
        fx,
        vec![
            Effect::Remember(expected.clone()),
            Effect::Connect(expected)
        ]
    );
}

#[test]
fn a_join_the_connection_lost_is_asked_again_unless_it_was_done() {
    let mut app = welcomed(vec![table_of(1, &["bob"])]);
    let fx = update(&mut app, key(Key::Enter));
    assert_eq!(sent(&fx), vec![ClientMsg::Join { table: 1 }]);
    // Lost before the answer, and not done: asked again.
    update(&mut app, lost());
    let fx = update(&mut app, welcome(true, vec![table_of(1, &["bob"])]));
    assert_eq!(sent(&fx), vec![ClientMsg::Join { table: 1 }]);
    // Lost again, and this time the server had seated us: not asked again
    // (the resumed session's `game` follows).
    update(&mut app, lost());
    let fx = update(&mut app, welcome(true, vec![table_of(1, &["bob", "ann"])]));
    assert!(sent(&fx).is_empty(), "{fx:?}");
    update(
        &mut app,
        net(ServerMsg::Game(Box::new(GameState {
            table: table_of(1, &["bob", "ann"]),
            ..started(Some(Side::White))
        }))),
    );
    assert_eq!(app.asked, None);
    assert_eq!(table(&app).info.id, 1);
}

#[test]
fn a_create_done_before_the_drop_is_not_created_twice() {
    let spec = TableSpec::default();
    let mut app = Online::new(
        server(),
        Some(Intent::Create(spec.clone())),
        Lang::En,
        Instant::now(),
    );
    super::super::update::connect(&mut app, &mut Vec::new());
    // Already seated at table 3 when asking for a new one.
    let at_three = table_of(3, &["ann", "bob"]);
    let fx = update(&mut app, welcome(true, vec![at_three.clone()]));
    assert_eq!(sent(&fx), vec![ClientMsg::Create(spec.clone())]);
    assert_eq!(
        app.asked,
        Some(Asked {
            intent: Intent::Create(spec.clone()),
            seated: vec![3],
            me: Some("ann".into()),
        })
    );
    update(&mut app, lost());
    // Table 3 alone: the create never arrived; it is sent again.
    let fx = update(&mut app, welcome(true, vec![at_three.clone()]));
    assert_eq!(sent(&fx), vec![ClientMsg::Create(spec)]);
    update(&mut app, lost());
    // A new table of ours: it was created; nothing is sent.
    let fx = update(
        &mut app,
        welcome(true, vec![at_three, table_of(9, &["ann"])]),
    );
    assert!(sent(&fx).is_empty(), "{fx:?}");
}

#[test]
fn a_watch_is_asked_again_and_a_refused_join_is_not() {
    let mut app = welcomed(vec![table_of(1, &["bob", "cy"])]);
    let fx = update(&mut app, key(Key::Enter));
    assert_eq!(sent(&fx), vec![ClientMsg::Watch { table: 1 }]);
    update(&mut app, lost());
    let fx = update(&mut app, welcome(true, vec![table_of(1, &["bob", "cy"])]));
    assert_eq!(sent(&fx), vec![ClientMsg::Watch { table: 1 }]);
    // A join the server refuses is answered: not asked again.
    let mut app = welcomed(vec![table_of(2, &["bob"])]);
    update(&mut app, key(Key::Enter));
    update(
        &mut app,
        net(ServerMsg::Error {
            code: ErrorCode::TableFull,
            message: "full".into(),
            table: Some(2),
            closed: false,
        }),
    );
    assert_eq!(app.asked, None);
    update(&mut app, lost());
    assert!(sent(&update(&mut app, welcome(true, vec![]))).is_empty());
}

#[test]
fn the_reconnection_line_says_when_the_next_attempt_is() {
    let now = Instant::now();
    let mut app = welcomed(vec![]);
    app.now = now;
    update(&mut app, lost());
    update(
        &mut app,
        Msg::Online(NetMsg::Net(SessionEvent::Retrying {
            attempt: 3,
            retry_in: Duration::from_millis(11_500),
        })),
    );
    let screen = render(&app, 100, 12);
    assert!(
        screen.contains("reconnecting… (attempt 4 in 12 s)"),
        "{screen}"
    );
    update(&mut app, Msg::Tick(now + Duration::from_secs(10)));
    assert!(render(&app, 100, 12).contains("(attempt 4 in 2 s)"));
}

#[test]
fn a_certificate_that_is_not_trusted_is_said_so() {
    let mut app = Online::new(
        Server {
            url: "wss://127.0.0.1:7878".into(),
            ..server()
        },
        None,
        Lang::En,
        Instant::now(),
    );
    super::super::update::connect(&mut app, &mut Vec::new());
    let refused = || {
        Msg::Online(NetMsg::Net(SessionEvent::Unreachable {
            reason: "cannot connect to wss://127.0.0.1:7878: TLS: invalid peer certificate: UnknownIssuer".into(),
        }))
    };
    let mut french = app.clone();
    update(&mut app, refused());
    let screen = render(&app, 100, 14);
    assert!(screen.contains("certificate is not trusted"), "{screen}");
    french.lang = Lang::Fr;
    update(&mut french, refused());
    let screen = render(&french, 100, 14);
    assert!(screen.contains("n'est pas reconnu"), "{screen}");
}

/// A new table with random colours names no side for its creator until
/// the draw (`you` is `null`): its `game` still answers the create, by the
/// creator's name among the players, so nothing is created twice after a
/// reconnection.
#[test]
fn a_new_random_colour_table_answers_the_create_by_name() {
    let spec = TableSpec::default();
    let asked = Asked::new(Intent::Create(spec), &[], Some("ann"));
    let waiting = GameState {
        table: table_of(4, &["ann"]),
        ..started(None)
    };
    assert!(asked.is_answered_by(&waiting));
    let other = GameState {
        table: table_of(4, &["bob"]),
        ..started(None)
    };
    assert!(!asked.is_answered_by(&other));
}
