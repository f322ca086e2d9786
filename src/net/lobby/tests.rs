//! Unit tests of the lobby: events in, output out, time passed in.

use super::*;
use crate::net::protocol::{
    ClockSpec, ColourChoice, EndReason, GameResult, Opponent, PROTOCOL_VERSION, Seat, Side,
    TableSpec, TableStatus,
};

fn lobby() -> Lobby {
    lobby_with(
        LobbyConfig {
            max_ai_tables: 1,
            ..LobbyConfig::default()
        },
        1,
    )
}

/// A lobby whose tokens are 1, 2, 3 … in 32 hex digits.
fn lobby_with(config: LobbyConfig, seed: u64) -> Lobby {
    let mut n = 0u32;
    Lobby::new(
        config,
        seed,
        Box::new(move || {
            n += 1;
            format!("{n:032x}")
        }),
    )
}

fn hello(l: &mut Lobby, conn: ConnId, name: &str) -> Output {
    hello_at(l, 0, conn, name, false)
}

/// A new player's `hello` at `now`, following the lobby or not.
fn hello_at(l: &mut Lobby, now: u64, conn: ConnId, name: &str, lobby: bool) -> Output {
    greet(l, now, conn, name, None, lobby)
}

fn greet(
    l: &mut Lobby,
    now: u64,
    conn: ConnId,
    name: &str,
    token: Option<String>,
    lobby: bool,
) -> Output {
    l.handle(
        now,
        Event::Message(
            conn,
            ClientMsg::Hello {
                protocol: PROTOCOL_VERSION,
                name: name.into(),
                token,
                lobby,
            },
        ),
    )
}

fn errors(out: &Output) -> Vec<ErrorCode> {
    out.sends
        .iter()
        .filter_map(|d| match d.msg {
            ServerMsg::Error { code, .. } => Some(code),
            _ => None,
        })
        .collect()
}

fn pair(l: &mut Lobby, clock: Option<ClockSpec>) -> TableId {
    hello(l, 1, "ann");
    hello(l, 2, "bob");
    let spec = TableSpec {
        colour: ColourChoice::Black,
        clock,
        ..TableSpec::default()
    };
    l.handle(0, Event::Message(1, ClientMsg::Create(spec)));
    let out = l.handle(0, Event::Message(2, ClientMsg::Join { table: 1 }));
    assert!(
        out.store
            .iter()
            .any(|op| matches!(op, StoreOp::Start { .. }))
    );
    1
}

/// [`pair`] with a clock of one second each, no increment.
fn pair_with_a_second(l: &mut Lobby) -> TableId {
    pair(
        l,
        Some(ClockSpec {
            base_ms: 1000,
            increment_ms: 0,
        }),
    )
}

#[test]
fn a_flag_fall_ends_the_game_on_the_tick() {
    let mut l = lobby();
    let t = pair_with_a_second(&mut l);
    assert_eq!(l.next_deadline(), Some(1000));
    assert!(l.handle(999, Event::Tick).sends.is_empty());
    let out = l.handle(1000, Event::Tick);
    let ended = out.sends.iter().find_map(|d| match d.msg {
        ServerMsg::Ended { table, result } if table == t => Some(result),
        _ => None,
    });
    assert_eq!(
        ended.map(|r| (r.winner, r.reason)),
        Some((Some(Side::White), EndReason::Time))
    );
    assert!(
        out.store
            .iter()
            .any(|op| matches!(op, StoreOp::Finish { .. }))
    );
    assert_eq!(
        l.next_deadline(),
        Some(1000 + FINISHED_LISTED_MS),
        "the finished game leaves the list in a while"
    );
}

#[test]
fn moves_are_stored_before_they_are_announced() {
    let mut l = lobby();
    let t = pair(&mut l, None);
    let out = l.handle(
        5,
        Event::Message(
            1,
            ClientMsg::Move {
                table: t,
                square: "d3".into(),
            },
        ),
    );
    assert!(matches!(&out.store[..], [StoreOp::Move { ply: 1, .. }]));
    assert!(
        out.sends
            .iter()
            .any(|d| matches!(d.msg, ServerMsg::Moved { ply: 1, .. }) && d.to.len() == 2)
    );
    let out = l.handle(
        6,
        Event::Message(
            1,
            ClientMsg::Move {
                table: t,
                square: "c5".into(),
            },
        ),
    );
    assert_eq!(errors(&out), vec![ErrorCode::NotYourTurn]);
    assert!(out.store.is_empty());
}

#[test]
fn engine_tables_search_off_the_lobby_and_stale_answers_are_ignored() {
    let mut l = lobby();
    hello(&mut l, 1, "ann");
    let spec = against_the_engine(ColourChoice::White);
    let out = l.handle(0, Event::Message(1, ClientMsg::Create(spec.clone())));
    let job = out
        .ai
        .first()
        .expect("the engine is Black and moves first")
        .clone();
    assert_eq!(job.ply, 0);
    // A second engine table is over the limit of one.
    hello(&mut l, 2, "bob");
    let out = l.handle(0, Event::Message(2, ClientMsg::Create(spec)));
    assert_eq!(errors(&out), vec![ErrorCode::AiBusy]);
    let stale = l.handle(
        1,
        Event::AiMove {
            table: job.table,
            ply: 0,
            job: job.job + 1,
            mv: place("d3"),
        },
    );
    assert!(stale.store.is_empty());
    let out = l.handle(
        1,
        Event::AiMove {
            table: job.table,
            ply: 0,
            job: job.job,
            mv: place("d3"),
        },
    );
    assert!(matches!(&out.store[..], [StoreOp::Move { ply: 1, .. }]));
    // Take-backs against the engine are accepted at once, even while it
    // searches; its answer for the withdrawn position is then ignored.
    let mv = |sq: &str| {
        Event::Message(
            1,
            ClientMsg::Move {
                table: job.table,
                square: sq.into(),
            },
        )
    };
    let searching = l.handle(2, mv("c5")).ai[0].clone();
    let out = l.handle(3, Event::Message(1, ClientMsg::Undo { table: job.table }));
    assert!(out.store.contains(&StoreOp::Truncate {
        table: job.table,
        plies: 1
    }));
    let again = l.handle(4, mv("e3")).ai[0].clone();
    assert_eq!(again.ply, searching.ply);
    assert_ne!(again.job, searching.job);
    let answer = |j: &AiJob, sq: &str| Event::AiMove {
        table: j.table,
        ply: j.ply,
        job: j.job,
        mv: place(sq),
    };
    assert!(l.handle(5, answer(&searching, "f4")).store.is_empty());
    assert!(!l.handle(5, answer(&again, "f4")).store.is_empty());
}

/// The engine's move `square`, as the engine pool reports it.
fn place(square: &str) -> Result<Move, String> {
    Ok(Move::Place(
        crate::notation::parse_square(square).expect("a square"),
    ))
}

/// An engine answer the table refuses (an illegal square, a pass while a
/// move exists, a failed search) never leaves the table waiting: a legal
/// move is played in its place and the game goes on.
#[test]
fn a_refused_or_missing_engine_move_is_replaced_by_a_legal_one() {
    for (i, bad) in [place("a1"), Ok(Move::Pass), Err("a panic".to_string())]
        .into_iter()
        .enumerate()
    {
        let mut l = lobby();
        hello(&mut l, 1, "ann");
        let spec = against_the_engine(ColourChoice::White);
        let out = l.handle(0, Event::Message(1, ClientMsg::Create(spec)));
        let job = out.ai.first().expect("the engine moves first").clone();
        let out = l.handle(
            1,
            Event::AiMove {
                table: job.table,
                ply: job.ply,
                job: job.job,
                mv: bad,
            },
        );
        let [StoreOp::Move { ply: 1, record, .. }] = &out.store[..] else {
            panic!("case {i}: no move stored: {:?}", out.store);
        };
        assert_eq!(record.side, Side::Black, "case {i}");
        assert!(
            ["d3", "c4", "f5", "e6"].contains(&record.square.as_str()),
            "case {i}: {}",
            record.square
        );
        // Ann, White, is told and may move.
        assert!(
            out.sends.iter().any(|d| d.to.contains(&1)
                && matches!(
                    &d.msg,
                    ServerMsg::Moved {
                        to_move: Some(Side::White),
                        ..
                    }
                )),
            "case {i}"
        );
    }
}

#[test]
fn seats_are_kept_for_a_dropped_player_and_running_games_cannot_be_left() {
    let mut l = lobby();
    let t = pair(&mut l, None);
    let out = l.handle(1, Event::Message(1, ClientMsg::Leave { table: t }));
    assert_eq!(errors(&out), vec![ErrorCode::InGame]);
    l.handle(1, Event::Closed(1));
    let out = hello(&mut l, 3, "ann");
    assert_eq!(errors(&out), vec![ErrorCode::NameTaken]);
    let out = l.handle(
        1,
        Event::Message(
            3,
            ClientMsg::Hello {
                protocol: PROTOCOL_VERSION,
                name: "ann".into(),
                token: Some(format!("{:032x}", 1)),
                lobby: false,
            },
        ),
    );
    assert!(
        out.sends
            .iter()
            .any(|d| matches!(&d.msg, ServerMsg::Welcome { resumed: true, .. }))
    );
    assert!(
        out.sends
            .iter()
            .any(|d| matches!(&d.msg, ServerMsg::Game(g) if g.you == Some(Side::Black)))
    );
}

#[test]
fn a_name_in_other_letter_case_is_the_same_player_shown_as_first_given() {
    let mut l = lobby();
    hello(&mut l, 1, "Ann");
    assert_eq!(errors(&hello(&mut l, 2, "aNN")), vec![ErrorCode::NameTaken]);
    let out = resume(&mut l, 1, 3, "ANN", 1);
    let welcomed = out.sends.iter().find_map(|d| match &d.msg {
        ServerMsg::Welcome { name, resumed, .. } => Some((name.clone(), *resumed)),
        _ => None,
    });
    assert_eq!(welcomed, Some(("Ann".to_string(), true)));
}

fn resume(l: &mut Lobby, now: u64, conn: ConnId, name: &str, token: u32) -> Output {
    greet(l, now, conn, name, Some(format!("{token:032x}")), false)
}

#[test]
fn a_waiting_table_is_stored_and_kept_a_while_for_an_absent_creator() {
    let mut l = lobby();
    hello(&mut l, 1, "ann");
    let out = l.handle(
        0,
        Event::Message(1, ClientMsg::Create(TableSpec::default())),
    );
    assert!(matches!(
        &out.store[..],
        [StoreOp::Session { .. }, StoreOp::Wait { table: 1, .. }]
    ));
    // The connection drops: the table waits for ann to come back.
    l.handle(10, Event::Closed(1));
    assert_eq!(l.next_deadline(), Some(10 + AWAY_GRACE_MS));
    l.handle(10 + AWAY_GRACE_MS - 1, Event::Tick);
    assert_eq!(l.table_count(), 1);
    let out = resume(&mut l, 20, 2, "ann", 1);
    assert!(
        out.sends
            .iter()
            .any(|d| matches!(&d.msg, ServerMsg::Game(g) if g.table.id == 1))
    );
    assert_eq!(l.next_deadline(), None, "back in time: nothing to give up");
    // Gone again for longer than the grace: the table is given up.
    l.handle(30, Event::Closed(2));
    let out = l.handle(30 + AWAY_GRACE_MS, Event::Tick);
    assert_eq!(l.table_count(), 0);
    assert!(out.store.contains(&StoreOp::Unwait { table: 1 }));
    assert!(
        errors(&hello(&mut l, 3, "ann")).is_empty(),
        "the name is free"
    );
}

#[test]
fn a_restored_waiting_table_waits_for_its_creator() {
    let mut l = lobby();
    let snapshot = Snapshot {
        waiting: vec![crate::net::store::StoredWaiting {
            id: 4,
            spec: TableSpec::default(),
            creator: Seat::Player { name: "ann".into() },
        }],
        sessions: vec![("ann".into(), token_hash(&format!("{:032x}", 9)))],
        next_table: 5,
        ..Snapshot::default()
    };
    l.restore(snapshot, 0).unwrap();
    assert_eq!(l.table_count(), 1);
    assert_eq!(errors(&hello(&mut l, 1, "ann")), vec![ErrorCode::NameTaken]);
    let out = resume(&mut l, 5, 2, "ann", 9);
    let g = out.sends.iter().find_map(|d| match &d.msg {
        ServerMsg::Game(g) => Some(g.clone()),
        _ => None,
    });
    let g = g.expect("the waiting table comes back");
    assert_eq!((g.table.id, g.table.status), (4, TableStatus::Waiting));
    assert_eq!(g.you, None, "colours are drawn when the game starts");
    assert_eq!(g.table.players, vec![Seat::Player { name: "ann".into() }]);
    hello(&mut l, 3, "bob");
    let out = l.handle(6, Event::Message(3, ClientMsg::Join { table: 4 }));
    assert!(
        out.store
            .iter()
            .any(|op| matches!(op, StoreOp::Start { table: 4, .. }))
    );
    let out = l.handle(
        7,
        Event::Message(3, ClientMsg::Create(TableSpec::default())),
    );
    assert!(
        out.store
            .iter()
            .any(|op| matches!(op, StoreOp::Wait { table: 5, .. }))
    );
}

#[test]
fn a_restored_games_players_are_away_until_they_come_back() {
    let mut l = lobby();
    let seat = |n: &str| Seat::Player { name: n.into() };
    let snapshot = Snapshot {
        games: vec![crate::net::store::StoredGame {
            id: 3,
            spec: TableSpec::default(),
            black: seat("ann"),
            white: seat("bob"),
            moves: Vec::new(),
            result: None,
            started: 0,
        }],
        sessions: vec![
            ("ann".into(), token_hash(&format!("{:032x}", 8))),
            ("bob".into(), token_hash(&format!("{:032x}", 9))),
        ],
        next_table: 4,
        ..Snapshot::default()
    };
    l.restore(snapshot, 0).unwrap();
    let out = resume(&mut l, 10, 1, "ann", 8);
    let away = out.sends.iter().find_map(|d| match &d.msg {
        ServerMsg::Game(g) => Some(g.away.clone()),
        _ => None,
    });
    let away = away.expect("ann's game comes back");
    assert_eq!(away.len(), 1, "bob is not back yet: {away:?}");
    assert_eq!(away[0].side, Side::White);
    assert_eq!(away[0].claim_in_ms, Some(CLAIM_AFTER_MS - 10));
    let out = resume(&mut l, 20, 2, "bob", 9);
    assert!(out.sends.iter().any(|d| d.to == vec![1]
        && matches!(
            d.msg,
            ServerMsg::Presence {
                connected: true,
                side: Side::White,
                ..
            }
        )));
}

#[test]
fn a_finished_games_seats_are_left_when_its_players_go() {
    let mut l = lobby();
    let t = pair(&mut l, None);
    l.handle(1, Event::Message(1, ClientMsg::Resign { table: t }));
    l.handle(2, Event::Closed(1));
    assert_eq!(l.table_count(), 1);
    l.handle(2, Event::Closed(2));
    assert!(
        errors(&hello(&mut l, 3, "ann")).is_empty(),
        "the name is free"
    );
    assert_eq!(l.table_count(), 0);
}

#[test]
fn a_game_started_without_its_creator_can_be_claimed_and_is_then_let_go() {
    let mut l = lobby();
    hello(&mut l, 1, "ann");
    l.handle(
        0,
        Event::Message(1, ClientMsg::Create(TableSpec::default())),
    );
    // Ann drops while her table waits; bob sits down: the game starts
    // with ann away, and bob's game says so.
    l.handle(10, Event::Closed(1));
    hello(&mut l, 2, "bob");
    let out = l.handle(20, Event::Message(2, ClientMsg::Join { table: 1 }));
    let away = out.sends.iter().find_map(|d| match &d.msg {
        ServerMsg::Game(g) if d.to == vec![2] => Some(g.away.clone()),
        _ => None,
    });
    let away = away.expect("bob gets the game");
    assert_eq!(away.len(), 1, "{away:?}");
    assert_eq!(away[0].claim_in_ms, Some(CLAIM_AFTER_MS));
    let claim = |draw| Event::Message(2, ClientMsg::Claim { table: 1, draw });
    assert_eq!(errors(&l.handle(21, claim(false))), vec![ErrorCode::Claim]);
    let out = l.handle(20 + CLAIM_AFTER_MS, claim(false));
    assert!(errors(&out).is_empty(), "{out:?}");
    assert!(
        out.store
            .iter()
            .any(|op| matches!(op, StoreOp::Finish { table: 1, .. }))
    );
    // Ann keeps her seat a while to see the result; bob leaves; once
    // her grace is over the table goes, and her name is free.
    let end = 20 + CLAIM_AFTER_MS;
    l.handle(end, Event::Message(2, ClientMsg::Leave { table: 1 }));
    assert_eq!(l.table_count(), 1);
    l.handle(end + AWAY_GRACE_MS - 1, Event::Tick);
    assert_eq!(l.table_count(), 1);
    assert_eq!(l.next_deadline(), Some(end + AWAY_GRACE_MS));
    l.handle(end + AWAY_GRACE_MS, Event::Tick);
    assert_eq!(l.table_count(), 0);
    assert!(errors(&hello(&mut l, 3, "ann")).is_empty());
}

#[test]
fn coming_back_to_a_claimed_game_shows_its_result_and_is_not_announced() {
    let mut l = lobby();
    let t = pair(&mut l, None);
    l.handle(1, Event::Closed(2));
    let out = l.handle(
        1 + CLAIM_AFTER_MS,
        Event::Message(
            1,
            ClientMsg::Claim {
                table: t,
                draw: true,
            },
        ),
    );
    assert!(errors(&out).is_empty(), "{out:?}");
    // Back within the grace: bob sees how his game ended, and no one is
    // told he is back at a game that is over.
    let out = resume(&mut l, 2 + CLAIM_AFTER_MS, 3, "bob", 2);
    assert!(
        out.sends.iter().any(|d| matches!(&d.msg,
            ServerMsg::Game(g) if g.table.id == t
                && g.result.is_some_and(|r| r.reason == EndReason::Abandoned))),
        "{out:?}"
    );
    assert!(
        !out.sends
            .iter()
            .any(|d| matches!(d.msg, ServerMsg::Presence { .. })),
        "{out:?}"
    );
}

#[test]
fn both_players_gone_at_the_end_each_get_the_grace_and_are_then_let_go() {
    let mut l = lobby();
    let t = pair_with_a_second(&mut l);
    l.handle(10, Event::Closed(1));
    l.handle(10, Event::Closed(2));
    // Black's flag falls while both are away.
    l.handle(1000, Event::Tick);
    assert_eq!(l.table_count(), 1);
    // Bob comes back and goes: ann's grace still runs, then ends.
    let out = resume(&mut l, 1100, 3, "bob", 2);
    assert!(
        out.sends
            .iter()
            .any(|d| matches!(&d.msg, ServerMsg::Game(g) if g.table.id == t && g.result.is_some())),
        "{out:?}"
    );
    l.handle(1200, Event::Closed(3));
    assert_eq!(l.table_count(), 1, "ann may still come back");
    l.handle(1000 + AWAY_GRACE_MS, Event::Tick);
    assert_eq!(l.table_count(), 0);
}

#[test]
fn a_claimed_draw_reads_as_a_draw_in_version_1() {
    let r = GameResult {
        winner: None,
        black: 4,
        white: 1,
        reason: EndReason::Abandoned,
    };
    let old = presence::version_1(&ServerMsg::Ended {
        table: 1,
        result: r,
    });
    let Some(ServerMsg::Ended { result, .. }) = old else {
        panic!("{old:?}");
    };
    assert_eq!(result.reason, EndReason::Finished);
    assert_eq!((result.winner, result.black), (None, result.white));
}

#[test]
fn a_wrong_protocol_version_closes_the_connection() {
    let mut l = lobby();
    let out = l.handle(
        0,
        Event::Message(
            1,
            ClientMsg::Hello {
                protocol: 99,
                name: "ann".into(),
                token: None,
                lobby: true,
            },
        ),
    );
    assert_eq!(errors(&out), vec![ErrorCode::Version]);
    assert_eq!(out.close.len(), 1);
}

/// The result stored by `out`, if a game ended.
fn finished(out: &Output) -> Option<GameResult> {
    out.store.iter().find_map(|op| match op {
        StoreOp::Finish { result, .. } => Some(*result),
        _ => None,
    })
}

/// A table against the engine at level 1, the creator playing `colour`.
fn against_the_engine(colour: ColourChoice) -> TableSpec {
    TableSpec {
        colour,
        opponent: Opponent::Ai { level: Level::MIN },
        ..TableSpec::default()
    }
}

fn error_message(out: &Output) -> Option<(ErrorCode, String)> {
    out.sends.iter().find_map(|d| match &d.msg {
        ServerMsg::Error { code, message, .. } => Some((*code, message.clone())),
        _ => None,
    })
}

#[test]
fn names_that_look_like_a_name_in_use_are_refused_saying_which() {
    let mut l = lobby();
    hello(&mut l, 1, "ann");
    hello(&mut l, 2, "lil");
    hello(&mut l, 3, "BOB");
    hello(&mut l, 4, "apr");
    for (conn, name, like) in [
        (10, "\u{430}nn", "ann"),
        (18, "\u{430}\u{440}\u{433}", "apr"),
        (11, "ａnn", "ann"),
        (12, "𝐚𝐧𝐧", "ann"),
        (13, "l\u{130}l", "lil"),
        (14, "\u{412}\u{41e}\u{412}", "BOB"),
        (15, "b0b", "BOB"),
    ] {
        // Refused as taken, naming the name it looks like, or (letters of
        // two scripts) as a bad name, saying so.
        let (code, message) = error_message(&hello(&mut l, conn, name)).expect(name);
        match code {
            ErrorCode::NameTaken => {
                assert!(
                    message.contains(&format!("\"{like}\"")),
                    "{name}: {message}"
                );
            }
            ErrorCode::BadName => assert!(message.contains("one script"), "{name}: {message}"),
            _ => panic!("{name}: {code:?} {message}"),
        }
    }
    let (code, message) = error_message(&hello(&mut l, 16, "p\u{430}ypal")).unwrap();
    assert_eq!(code, ErrorCode::BadName);
    assert!(message.contains("one script"), "{message}");
    // Ann herself may come back under any of these spellings.
    let out = resume(&mut l, 1, 17, "ａＮＮ", 1);
    assert!(
        out.sends.iter().any(|d| matches!(&d.msg,
            ServerMsg::Welcome { name, resumed: true, .. } if name == "ann")),
        "{out:?}"
    );
}

#[test]
fn an_invitation_holds_for_every_spelling_of_the_name_and_no_lookalike() {
    let mut l = lobby();
    hello(&mut l, 1, "ann");
    let spec = TableSpec {
        opponent: Opponent::Invite {
            name: "ＢＯＢ".into(),
        },
        ..TableSpec::default()
    };
    l.handle(0, Event::Message(1, ClientMsg::Create(spec)));
    // Not bob, though it looks like him when bob is not here to hold the name.
    hello(&mut l, 2, "\u{432}\u{43e}\u{432}");
    let out = l.handle(1, Event::Message(2, ClientMsg::Join { table: 1 }));
    assert_eq!(errors(&out), vec![ErrorCode::NotInvited]);
    hello(&mut l, 3, "Bob");
    let out = l.handle(1, Event::Message(3, ClientMsg::Join { table: 1 }));
    assert!(errors(&out).is_empty(), "{out:?}");
}

#[test]
fn tokens_live_in_the_lobby_and_the_store_as_hashes_only() {
    let mut l = lobby();
    let out = hello(&mut l, 1, "ann");
    let token = out
        .sends
        .iter()
        .find_map(|d| match &d.msg {
            ServerMsg::Welcome { token, .. } => Some(token.clone()),
            _ => None,
        })
        .unwrap();
    let out = l.handle(
        0,
        Event::Message(1, ClientMsg::Create(TableSpec::default())),
    );
    let stored = out.store.iter().find_map(|op| match op {
        StoreOp::Session { token_hash, .. } => Some(token_hash.clone()),
        _ => None,
    });
    assert_eq!(stored, Some(token_hash(&token)));
    assert!(!format!("{:?}", out.store).contains(&token));
}

#[test]
fn a_game_without_a_clock_whose_players_are_both_gone_ends_as_a_draw() {
    let mut l = lobby();
    let t = pair(&mut l, None);
    hello_at(&mut l, 0, 9, "spy", true);
    l.handle(
        5,
        Event::Message(
            1,
            ClientMsg::Move {
                table: t,
                square: "d3".into(),
            },
        ),
    );
    l.handle(10, Event::Closed(1));
    assert_eq!(l.next_deadline(), None, "bob is still there");
    l.handle(20, Event::Closed(2));
    // Bob comes back and goes again: the wait starts again from then.
    resume(&mut l, 30, 3, "bob", 2);
    l.handle(40, Event::Closed(3));
    assert_eq!(l.next_deadline(), Some(40 + ABANDON_AFTER_MS));
    let out = l.handle(39 + ABANDON_AFTER_MS, Event::Tick);
    assert!(out.store.is_empty());
    let out = l.handle(40 + ABANDON_AFTER_MS, Event::Tick);
    let r = finished(&out).expect("the abandoned game is stored like any result");
    assert!(
        !out.sends
            .iter()
            .any(|d| matches!(d.msg, ServerMsg::Table { .. })),
        "a game no one is at stays off the list: {out:?}"
    );
    assert!(l.list().is_empty());
    assert_eq!(
        (r.winner, r.reason, r.black, r.white),
        (None, EndReason::Abandoned, 4, 1)
    );
    // Its players are let go once their grace after the end is over.
    l.handle(40 + ABANDON_AFTER_MS + AWAY_GRACE_MS, Event::Tick);
    assert_eq!(l.table_count(), 0);
    assert!(errors(&hello(&mut l, 4, "ann")).is_empty());
}

#[test]
fn a_game_with_a_clock_is_not_abandoned_its_flag_falls() {
    let mut l = lobby();
    pair(
        &mut l,
        Some(ClockSpec {
            base_ms: 3 * 3600 * 1000,
            increment_ms: 0,
        }),
    );
    l.handle(10, Event::Closed(1));
    l.handle(10, Event::Closed(2));
    assert_eq!(
        l.next_deadline(),
        Some(3 * 3600 * 1000),
        "the flag, no sooner"
    );
    let out = l.handle(3 * 3600 * 1000, Event::Tick);
    assert_eq!(
        finished(&out).map(|r| (r.winner, r.reason)),
        Some((Some(Side::White), EndReason::Time))
    );
}

#[test]
fn an_engine_table_whose_player_is_gone_ends_and_frees_the_engine() {
    let mut l = lobby();
    hello(&mut l, 1, "ann");
    let spec = against_the_engine(ColourChoice::Black);
    l.handle(0, Event::Message(1, ClientMsg::Create(spec.clone())));
    hello(&mut l, 2, "bob");
    let out = l.handle(1, Event::Message(2, ClientMsg::Create(spec.clone())));
    assert_eq!(errors(&out), vec![ErrorCode::AiBusy]);
    l.handle(100, Event::Closed(1));
    assert_eq!(l.next_deadline(), Some(100 + CLAIM_AFTER_MS));
    let out = l.handle(100 + CLAIM_AFTER_MS, Event::Tick);
    assert_eq!(
        finished(&out).map(|r| (r.winner, r.reason)),
        Some((Some(Side::White), EndReason::Abandoned)),
        "the engine wins"
    );
    let out = l.handle(
        101 + CLAIM_AFTER_MS,
        Event::Message(2, ClientMsg::Create(spec)),
    );
    assert!(errors(&out).is_empty(), "{out:?}");
    assert_eq!(out.ai.len(), 0, "bob plays Black: his move first");
}

#[test]
fn an_engine_table_keeps_a_player_who_comes_back_in_time() {
    let mut l = lobby();
    hello(&mut l, 1, "ann");
    let spec = against_the_engine(ColourChoice::Black);
    l.handle(0, Event::Message(1, ClientMsg::Create(spec)));
    l.handle(100, Event::Closed(1));
    resume(&mut l, 100 + CLAIM_AFTER_MS - 1, 2, "ann", 1);
    assert_eq!(l.next_deadline(), None);
    let out = l.handle(200 + CLAIM_AFTER_MS, Event::Tick);
    assert!(out.store.is_empty());
}

/// A lobby connection's welcome, as bytes on the wire.
fn welcome_bytes(l: &mut Lobby, now: u64, conn: ConnId, name: &str) -> usize {
    let out = hello_at(l, now, conn, name, true);
    let w = out
        .sends
        .iter()
        .find(|d| matches!(d.msg, ServerMsg::Welcome { .. }))
        .expect("a welcome");
    crate::net::protocol::encode(&w.msg).len()
}

#[test]
fn the_welcome_stays_small_whatever_was_played_before() {
    let mut l = lobby_with(LobbyConfig::default(), 1);
    let spec = TableSpec {
        colour: ColourChoice::Black,
        ..TableSpec::default()
    };
    // 600 games resigned and 600 whose players both left, by players who
    // stay connected at their finished tables or go.
    for i in 0..600u64 {
        let (a, b) = (1000 + 2 * i, 1001 + 2 * i);
        hello(&mut l, a, &format!("p{a}"));
        hello(&mut l, b, &format!("p{b}"));
        let out = l.handle(0, Event::Message(a, ClientMsg::Create(spec.clone())));
        let table = out
            .sends
            .iter()
            .find_map(|d| match &d.msg {
                ServerMsg::Game(g) => Some(g.table.id),
                _ => None,
            })
            .unwrap();
        l.handle(0, Event::Message(b, ClientMsg::Join { table }));
        if i % 2 == 0 {
            l.handle(0, Event::Message(a, ClientMsg::Resign { table }));
        } else {
            l.handle(0, Event::Closed(a));
            l.handle(0, Event::Closed(b));
        }
    }
    let busy = welcome_bytes(&mut l, 1, 1, "early");
    // The abandoned games end, and every finished table leaves the list.
    l.handle(ABANDON_AFTER_MS, Event::Tick);
    let later = ABANDON_AFTER_MS + FINISHED_LISTED_MS;
    let quiet = welcome_bytes(&mut l, later, 2, "late");
    assert!(
        busy > 50_000,
        "{busy} bytes while the 300 resigned games are listed"
    );
    assert!(quiet < 200, "{quiet} bytes: {}", l.list().len());
    // A finished table whose players stay is still theirs to look at.
    assert!(l.table_count() >= 300, "{}", l.table_count());
}

#[test]
fn a_finished_table_leaves_the_list_but_not_the_screen_of_those_at_it() {
    let mut l = lobby();
    let t = pair(&mut l, None);
    hello_at(&mut l, 0, 3, "cy", true);
    hello_at(&mut l, 0, 4, "dee", true);
    l.handle(0, Event::Message(4, ClientMsg::Watch { table: t }));
    l.handle(10, Event::Message(1, ClientMsg::Resign { table: t }));
    let out = l.handle(10 + FINISHED_LISTED_MS, Event::Tick);
    let closed: Vec<&Delivery> = out
        .sends
        .iter()
        .filter(|d| matches!(d.msg, ServerMsg::TableClosed { .. }))
        .collect();
    assert_eq!(closed.len(), 1, "{out:?}");
    assert_eq!(closed[0].to, vec![3], "dee watches it: not told yet");
    assert!(l.list().is_empty());
    let out = l.handle(
        11 + FINISHED_LISTED_MS,
        Event::Message(4, ClientMsg::Leave { table: t }),
    );
    assert!(
        out.sends
            .iter()
            .any(|d| d.to == vec![4]
                && matches!(d.msg, ServerMsg::TableClosed { table } if table == t)),
        "{out:?}"
    );
}

#[test]
fn a_restored_game_stays_off_the_list_until_a_player_is_back() {
    let mut l = lobby();
    let seat = |n: &str| Seat::Player { name: n.into() };
    let games = (1..=50)
        .map(|id| crate::net::store::StoredGame {
            id,
            spec: TableSpec::default(),
            black: seat(&format!("b{id}")),
            white: seat(&format!("w{id}")),
            moves: Vec::new(),
            result: None,
            started: 0,
        })
        .collect();
    let snapshot = Snapshot {
        games,
        sessions: vec![("b7".into(), token_hash(&format!("{:032x}", 7)))],
        next_table: 51,
        ..Snapshot::default()
    };
    l.restore(snapshot, 0).unwrap();
    assert!(l.list().is_empty());
    resume(&mut l, 5, 1, "b7", 7);
    let listed: Vec<TableId> = l.list().iter().map(|t| t.id).collect();
    assert_eq!(listed, vec![7]);
}

#[test]
fn an_empty_chat_line_is_refused_and_separators_become_spaces() {
    let mut l = lobby();
    let t = pair(&mut l, None);
    let chat = |text: &str| {
        Event::Message(
            1,
            ClientMsg::Chat {
                table: t,
                text: text.into(),
            },
        )
    };
    for text in [
        "",
        "   ",
        "\u{200b}\u{200d}\u{feff}",
        "\u{202e}\u{2066}",
        "\u{1b}[2J",
    ] {
        let out = l.handle(1, chat(text));
        assert_eq!(errors(&out), vec![ErrorCode::BadRequest], "{text:?}");
    }
    let out = l.handle(1, chat("one\u{2028}two\u{2029}three\u{200b}!"));
    let said = out.sends.iter().find_map(|d| match &d.msg {
        ServerMsg::Chat { text, .. } => Some(text.clone()),
        _ => None,
    });
    assert_eq!(said.as_deref(), Some("one two three!"));
}

#[test]
fn you_names_no_colour_before_the_draw() {
    for seed in 0..8 {
        let mut l = lobby_with(LobbyConfig::default(), seed);
        hello(&mut l, 1, "ann");
        hello(&mut l, 2, "bob");
        let out = l.handle(
            0,
            Event::Message(1, ClientMsg::Create(TableSpec::default())),
        );
        let you = |out: &Output, conn: ConnId| {
            out.sends.iter().find_map(|d| match &d.msg {
                ServerMsg::Game(g) if d.to == vec![conn] => Some(g.you),
                _ => None,
            })
        };
        assert_eq!(you(&out, 1), Some(None), "seed {seed}");
        let out = l.handle(0, Event::Message(1, ClientMsg::Watch { table: 1 }));
        assert_eq!(you(&out, 1), Some(None), "seed {seed}");
        let out = l.handle(0, Event::Message(2, ClientMsg::Join { table: 1 }));
        let (a, b) = (you(&out, 1).flatten(), you(&out, 2).flatten());
        assert!(
            a.is_some() && b.is_some() && a != b,
            "seed {seed}: {a:?} {b:?}"
        );
    }
}

#[test]
fn a_player_looking_at_their_own_table_is_no_spectator() {
    let mut l = lobby();
    let t = pair(&mut l, None);
    let out = l.handle(1, Event::Message(1, ClientMsg::Watch { table: t }));
    let g = out.sends.iter().find_map(|d| match &d.msg {
        ServerMsg::Game(g) => Some(g.clone()),
        _ => None,
    });
    let g = g.expect("the game");
    assert_eq!((g.you, g.table.spectators), (Some(Side::Black), 0));
    assert_eq!(l.list()[0].spectators, 0);
    // Once the game is over and left, opening it again shows it without a
    // side (so the game is not kept a second time), and its player is no
    // spectator.
    l.handle(2, Event::Message(1, ClientMsg::Resign { table: t }));
    l.handle(3, Event::Message(1, ClientMsg::Leave { table: t }));
    let out = l.handle(4, Event::Message(1, ClientMsg::Watch { table: t }));
    let g = out.sends.iter().find_map(|d| match &d.msg {
        ServerMsg::Game(g) => Some(g.clone()),
        _ => None,
    });
    let g = g.expect("the game");
    assert_eq!((g.you, g.table.spectators), (None, 0));
    assert!(g.result.is_some());
    assert!(out.store.is_empty());
}

/// A player waits at one table at a time: creating a table (after quitting
/// while the last one waited, say) closes the one still waiting, so no
/// second waiting table can be joined.
#[test]
fn a_new_table_replaces_the_creators_waiting_one() {
    let mut l = lobby();
    hello(&mut l, 1, "ann");
    hello_at(&mut l, 0, 9, "eve", true);
    l.handle(
        0,
        Event::Message(1, ClientMsg::Create(TableSpec::default())),
    );
    // Ann quits while it waits and comes back to create again.
    l.handle(1, Event::Closed(1));
    greet(&mut l, 2, 3, "ann", Some(format!("{:032x}", 1)), false);
    let out = l.handle(
        3,
        Event::Message(3, ClientMsg::Create(TableSpec::default())),
    );
    assert!(
        out.store.contains(&StoreOp::Unwait { table: 1 }),
        "{:?}",
        out.store
    );
    assert!(
        out.sends
            .iter()
            .any(|d| d.to.contains(&9) && matches!(d.msg, ServerMsg::TableClosed { table: 1 })),
        "the lobby is told"
    );
    let waiting: Vec<TableId> = l
        .list()
        .iter()
        .filter(|t| t.status == TableStatus::Waiting)
        .map(|t| t.id)
        .collect();
    assert_eq!(waiting, [2]);
    hello(&mut l, 4, "bob");
    let out = l.handle(4, Event::Message(4, ClientMsg::Join { table: 1 }));
    assert_eq!(errors(&out), vec![ErrorCode::NoSuchTable]);
}
