//! The opponent's presence at a table, the claim of an abandoned game, the
//! chat history a `game` message brings, the take-back question's status
//! line, and the refusal for a table number never given.

use super::*;
use crate::i18n::Lang;
use crate::net::protocol::{Absence, ChatEntry, ErrorCode, UndoEnd};

fn presence(side: Side, connected: bool, claim_in_ms: Option<u64>) -> Msg {
    net(ServerMsg::Presence {
        table: 7,
        side,
        name: "bob".into(),
        connected,
        claim_in_ms,
    })
}

/// Table 7 as a spectator sees it, with `away` and the chat `history`.
fn watching(now: Instant, away: Vec<Absence>, history: Vec<ChatEntry>) -> Online {
    let mut app = welcomed(vec![]);
    app.now = now;
    let state = GameState {
        away,
        chat: Some(history),
        ..started(None)
    };
    update(&mut app, net(ServerMsg::Game(Box::new(state))));
    app
}

#[test]
fn a_dropped_opponent_is_shown_and_the_game_claimed_after_the_grace_period() {
    let now = Instant::now();
    let mut app = seated(Side::Black, now);
    update(&mut app, presence(Side::White, false, Some(60_000)));
    assert_eq!(app.status.as_deref(), Some("bob disconnected"));
    let screen = render(&app, 100, 40);
    assert!(
        screen.contains("bob is disconnected: you may")
            && screen.contains("claim the game in 1:00"),
        "{screen}"
    );
    // Too early: says when.
    update(&mut app, key(Key::Char('w')));
    assert_eq!(app.overlay, None);
    assert_eq!(
        app.status.as_deref(),
        Some("You may claim the game in 1:00")
    );
    update(&mut app, Msg::Tick(now + Duration::from_secs(61)));
    assert_eq!(app.status, None, "the wait said is over");
    let screen = render(&app, 100, 40);
    assert!(
        screen.contains("disconnected: press w") && screen.contains("to claim the game"),
        "{screen}"
    );
    assert!(screen.contains("w claim"), "the footer offers it: {screen}");
    update(&mut app, key(Key::Char('w')));
    assert!(matches!(&app.overlay, Some(Overlay::Claim { name }) if name == "bob"));
    let screen = render(&app, 100, 40);
    assert!(screen.contains("bob has left the table."), "{screen}");
    assert!(screen.contains("d call it a draw"), "{screen}");
    // Esc waits on; d calls it a draw.
    update(&mut app, key(Key::Esc));
    assert_eq!(app.overlay, None);
    update(&mut app, key(Key::Char('w')));
    let fx = update(&mut app, key(Key::Char('d')));
    assert_eq!(
        sent(&fx),
        vec![ClientMsg::Claim {
            table: 7,
            draw: true
        }]
    );
    let result = GameResult {
        winner: Some(Side::Black),
        black: 2,
        white: 2,
        reason: EndReason::Abandoned,
    };
    update(&mut app, net(ServerMsg::Ended { table: 7, result }));
    let screen = render(&app, 100, 40);
    assert!(
        screen.contains("ann (Black) wins: bob (White)") && screen.contains("left the game"),
        "{screen}"
    );
    assert!(!screen.contains("is disconnected"), "{screen}");
}

#[test]
fn an_opponent_back_in_time_is_welcomed_and_a_clocked_game_is_not_claimed() {
    let now = Instant::now();
    let mut app = seated(Side::Black, now);
    update(&mut app, presence(Side::White, false, None));
    let screen = render(&app, 100, 40);
    assert!(screen.contains("bob is disconnected"), "{screen}");
    assert!(!screen.contains("claim"), "{screen}");
    update(&mut app, Msg::Tick(now + Duration::from_secs(600)));
    update(&mut app, key(Key::Char('w')));
    assert_eq!(
        app.status.as_deref(),
        Some("bob is disconnected; their clock runs")
    );
    update(&mut app, presence(Side::White, true, None));
    assert_eq!(app.status.as_deref(), Some("bob is back"));
    assert_eq!(table(&app).away, [None, None]);
    update(&mut app, key(Key::Char('w')));
    assert_eq!(
        app.status.as_deref(),
        Some("Your opponent is here: there is nothing to claim")
    );
}

#[test]
fn a_spectator_sees_who_is_away_and_the_chat_so_far() {
    let now = Instant::now();
    let history = vec![ChatEntry {
        from: "bob".into(),
        text: "hi there".into(),
    }];
    let away = vec![Absence {
        side: Side::White,
        claim_in_ms: Some(0),
    }];
    let mut app = watching(now, away, history);
    let screen = render(&app, 100, 40);
    assert!(screen.contains("bob: hi there"), "{screen}");
    assert!(screen.contains("bob is disconnected"), "{screen}");
    assert!(!screen.contains("claim"), "only a player claims: {screen}");
    app.lang = Lang::Fr;
    let screen = render(&app, 100, 40);
    assert!(screen.contains("bob : connexion perdue"), "{screen}");
}

#[test]
fn a_game_message_brings_the_chat_said_while_we_were_away() {
    let now = Instant::now();
    let mut app = seated(Side::White, now);
    update(
        &mut app,
        net(ServerMsg::Chat {
            table: 7,
            from: "ann".into(),
            text: "hello".into(),
        }),
    );
    let state = |chat| {
        net(ServerMsg::Game(Box::new(GameState {
            chat,
            ..started(Some(Side::White))
        })))
    };
    // A server without history: the lines kept here stay.
    update(&mut app, state(None));
    assert_eq!(table(&app).chat.len(), 1);
    let history = ["hello", "are you there?"]
        .map(|t| ChatEntry {
            from: "ann".into(),
            text: t.into(),
        })
        .to_vec();
    update(&mut app, state(Some(history)));
    let lines: Vec<&str> = table(&app).chat.iter().map(|l| l.text.as_str()).collect();
    assert_eq!(lines, ["hello", "are you there?"]);
}

#[test]
fn a_new_take_back_request_clears_old_news_and_a_move_meanwhile_is_answered() {
    let now = Instant::now();
    let mut app = seated(Side::White, now);
    update(
        &mut app,
        moved(1, Side::Black, "f5", [299_000, 300_000], Some(Side::White)),
    );
    let asked = net(ServerMsg::UndoRequested {
        table: 7,
        by: Side::Black,
    });
    update(&mut app, asked.clone());
    update(&mut app, key(Key::Char('n')));
    assert_eq!(app.status.as_deref(), Some("You declined the take-back"));
    update(
        &mut app,
        net(ServerMsg::UndoDeclined {
            table: 7,
            reason: UndoEnd::Declined,
        }),
    );
    update(&mut app, asked.clone());
    assert_eq!(app.status, None, "the old answer is not this one's");
    let fx = typed(&mut app, "f4");
    assert!(sent(&fx).is_empty());
    assert_eq!(
        app.status.as_deref(),
        Some("Answer the take-back request first (y/n)")
    );
    assert!(matches!(app.overlay, Some(Overlay::UndoAsked { .. })));
    let screen = render(&app, 100, 40);
    assert!(screen.contains("Answer the take-back request"), "{screen}");
    // The asker drops: the question goes, with why.
    update(
        &mut app,
        net(ServerMsg::Presence {
            table: 7,
            side: Side::Black,
            name: "ann".into(),
            connected: false,
            claim_in_ms: Some(60_000),
        }),
    );
    update(
        &mut app,
        net(ServerMsg::UndoDeclined {
            table: 7,
            reason: UndoEnd::Disconnected,
        }),
    );
    assert_eq!(app.overlay, None);
    assert_eq!(
        app.status.as_deref(),
        Some("ann disconnected: the take-back request is cancelled")
    );
    app.lang = Lang::Fr;
    update(&mut app, asked);
    typed(&mut app, "f4");
    assert_eq!(
        app.status.as_deref(),
        Some("Répondez d'abord à la demande de reprise (o/n)")
    );
}

#[test]
fn a_table_never_given_is_not_called_gone() {
    let mut app = welcomed(vec![]);
    let refusal = |closed| {
        net(ServerMsg::Error {
            code: ErrorCode::NoSuchTable,
            message: "there is no table 99".into(),
            table: Some(99),
            closed,
        })
    };
    update(&mut app, refusal(false));
    assert_eq!(app.status.as_deref(), Some("Server: there is no table 99"));
    update(&mut app, refusal(true));
    assert_eq!(
        app.status.as_deref(),
        Some("Server: there is no such table any more")
    );
    app.lang = Lang::Fr;
    update(&mut app, refusal(false));
    let status = app.status.clone().unwrap_or_default();
    assert!(status.contains("il n'y a pas de table 99"), "{status}");
}

#[test]
fn the_claim_window_fits_a_narrow_screen_and_other_news_stays() {
    let now = Instant::now();
    let mut app = seated(Side::Black, now);
    update(&mut app, presence(Side::White, false, Some(60_000)));
    // Another message in the meantime is not taken away when the claim opens.
    app.status = Some("Saved to /tmp/game.ggf".into());
    update(&mut app, Msg::Tick(now + Duration::from_secs(61)));
    assert_eq!(app.status.as_deref(), Some("Saved to /tmp/game.ggf"));
    update(&mut app, key(Key::Char('w')));
    assert!(matches!(&app.overlay, Some(Overlay::Claim { .. })));
    app.lang = Lang::Fr;
    for (w, h) in [(56, 20), (60, 24), (100, 40)] {
        let screen = render(&app, w, h);
        for words in ["réclamer la victoire", "nulle", "attendre"] {
            assert!(screen.contains(words), "{w}x{h}: {words:?}\n{screen}");
        }
    }
}
