//! The online screen as a screen of the app: opened from the new-game
//! screen with what `online.conf` remembers, its keys and the network's
//! reports fed through the app's one update, its effects nested in the
//! app's; left for the new-game screen it was opened over, or for a replay
//! of the finished game, which `q` leaves for the salon again.

use super::*;
use crate::ui::app::{App, Effect as AppEffect, Screen as AppScreen};
use crate::ui::model::{Choices, Opponent};
use crate::ui::online::model::Tokens;
use crate::ui::update::{open_online, update as app_update};

fn press(app: &mut App, k: Key) -> Vec<AppEffect> {
    app_update(app, key(k))
}

/// The runner's answer to [`AppEffect::OpenOnline`]: `online.conf` names
/// ann at the test server.
fn remembered(app: &mut App, connect: bool) -> Vec<AppEffect> {
    let remembered = super::super::settings::parse_all("url = ws://127.0.0.1:7878\nname = ann\n");
    app_update(
        app,
        Msg::Remembered {
            remembered: Box::new(remembered),
            connect,
        },
    )
}

fn online(app: &App) -> &Online {
    app.online().expect("the online screen is shown")
}

#[test]
fn the_new_game_screen_opens_the_online_screen_and_esc_comes_back() {
    let choices = Choices {
        opponent: Opponent::Online,
        ..Choices::default()
    };
    let mut app = App::new(choices, LOOK, 1, Instant::now());
    let fx = press(&mut app, Key::Enter);
    assert!(
        fx.contains(&AppEffect::OpenOnline { connect: false }),
        "{fx:?}"
    );
    assert!(matches!(app.screen, AppScreen::NewGame(_)));
    let fx = remembered(&mut app, false);
    assert!(fx.is_empty(), "the connect form starts nothing: {fx:?}");
    assert!(matches!(
        &online(&app).screen,
        Screen::Connect(f) if f.url == "ws://127.0.0.1:7878" && f.name == "ann"
    ));
    // Its keys are its own: Enter on the form connects.
    let fx = press(&mut app, Key::Enter);
    assert_eq!(
        fx,
        vec![
            AppEffect::Online(Effect::Remember(server())),
            AppEffect::Online(Effect::Connect(server()))
        ]
    );
    // The network's reports reach it through the app.
    app_update(
        &mut app,
        welcome(false, vec![info(3, TableStatus::Waiting, false)]),
    );
    assert_eq!(online(&app).link, Link::Connected);
    assert_eq!(online(&app).tables.len(), 1);
    // Esc in the lobby: back to the new-game screen, the network stopped.
    let fx = press(&mut app, Key::Esc);
    assert!(
        fx.contains(&AppEffect::Online(Effect::Disconnect)),
        "{fx:?}"
    );
    assert!(matches!(
        app.screen,
        AppScreen::NewGame(f) if f.choices.opponent == Opponent::Online
    ));
    // A report of the stopped worker still on its way changes nothing.
    let fx = app_update(&mut app, welcome(false, vec![]));
    assert!(fx.is_empty() && matches!(app.screen, AppScreen::NewGame(_)));
}

#[test]
fn a_finished_table_is_replayed_in_the_app_and_q_goes_back_to_the_salon() {
    let mut app = App::new(Choices::default(), LOOK, 1, Instant::now());
    let fx = open_online(&mut app, server(), Tokens::default(), None, true);
    assert_eq!(fx, vec![AppEffect::Online(Effect::Connect(server()))]);
    app_update(&mut app, welcome(false, vec![]));
    app_update(
        &mut app,
        net(ServerMsg::Game(Box::new(started(Some(Side::Black))))),
    );
    let result = GameResult {
        winner: Some(Side::White),
        black: 2,
        white: 2,
        reason: EndReason::Resigned,
    };
    app_update(&mut app, net(ServerMsg::Ended { table: 7, result }));
    // v: the app shows the game in replay, the online screen's worker stopped.
    let fx = press(&mut app, Key::Char('v'));
    assert!(
        fx.contains(&AppEffect::Online(Effect::Disconnect)),
        "{fx:?}"
    );
    let m = app.current().expect("the finished game on screen");
    assert!(m.viewing && matches!(m.mode, crate::ui::model::Mode::Replay(_)));
    assert!(app.back_online);
    // q: back to the salon, connecting at once, over the new-game screen.
    let fx = press(&mut app, Key::Char('q'));
    assert!(
        fx.contains(&AppEffect::OpenOnline { connect: true }) && !app.quit,
        "{fx:?}"
    );
    let fx = remembered(&mut app, true);
    assert_eq!(fx, vec![AppEffect::Online(Effect::Connect(server()))]);
    assert_eq!(online(&app).link, Link::Connecting);
    // Ctrl-C there quits the app.
    let fx = app_update(&mut app, Msg::Key(KeyPress::ctrl(Key::Char('c'))));
    assert!(app.quit, "{fx:?}");
}
