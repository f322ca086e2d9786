//! The online screen end to end: its model, network worker and effects
//! ([`Driver`]) against the real server on 127.0.0.1:0 with a temporary
//! database and config folder. Another spelling of the server resumes the
//! seat with the token kept; a second window of one session takes it over
//! and the first stops until `r` takes it back; a window refused because
//! another holds the name takes the session back with the token that one
//! wrote; a create lost with its connection (through a relay that cuts it)
//! is made once; the session speaks `wss://` through a TLS relay, trusting
//! the authority added and not without it.

use super::*;
use crate::net::client::Trust;
use crate::net::server::{Server as SalonServer, ServerConfig, start};
use crate::net::store::SqliteStore;
use crate::ui::online::model::Tokens;
use crate::ui::online::{Start, settings};
use crate::ui::runner::{Driver, Places};
use std::path::{Path, PathBuf};

#[path = "../../../../tests/common_relay/mod.rs"]
mod relay;

use relay::{Authority, Cut, Relay};

/// A temporary folder, removed when dropped.
struct Temp(PathBuf);

impl Temp {
    fn new(tag: &str) -> Temp {
        let dir = std::env::temp_dir().join(format!("reversi-live-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Temp(dir)
    }

    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for Temp {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The real server on a free port, with its runtime.
struct Salon {
    rt: tokio::runtime::Runtime,
    server: Option<SalonServer>,
    url: String,
}

impl Salon {
    fn start(dir: &Temp) -> Salon {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        let config = ServerConfig {
            listen: "127.0.0.1:0".parse().unwrap(),
            ..ServerConfig::default()
        };
        let store = SqliteStore::open(&dir.path().join("salon.sqlite")).unwrap();
        let server = rt.block_on(start(config, Box::new(store))).unwrap();
        let url = format!("ws://{}", server.addr());
        Salon {
            rt,
            server: Some(server),
            url,
        }
    }

    fn port(&self) -> u16 {
        self.server.as_ref().unwrap().addr().port()
    }
}

impl Drop for Salon {
    fn drop(&mut self) {
        if let Some(s) = self.server.take() {
            let _ = self.rt.block_on(s.shutdown());
        }
    }
}

/// A window: the screen for `name` at `url`, with the config folder
/// `config`, connecting at once with the token kept there.
fn window(url: &str, name: &str, config: &Path, intent: Option<Intent>, trust: Trust) -> Driver {
    let tokens = settings::read(config).tokens;
    let start = Start {
        server: Server::new(url.into(), name.into(), &tokens),
        connect: true,
        intent,
        trust,
    };
    let places = Places {
        config: Some(config.to_path_buf()),
        data: Err(crate::dirs::NoFolder {
            what: "data",
            variable: "REVERSI_DATA_DIR",
        }),
        save: None,
    };
    Driver::new(start, LOOK, places, Instant::now())
}

/// Applies the network's reports until `done` holds (a safety net of 30 s).
fn until(d: &mut Driver, what: &str, done: impl Fn(&Online) -> bool) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while !done(d.online()) {
        assert!(
            Instant::now() < deadline,
            "{what}: link {:?}, status {:?}",
            d.online().link,
            d.online().status
        );
        d.wait_report(Duration::from_millis(100));
        d.handle(Msg::Tick(Instant::now()));
    }
}

fn seated_at_a_table(app: &Online) -> bool {
    app.link == Link::Connected && app.table().is_some_and(|t| t.seated)
}

/// Waits for the worker of `d` to end by itself (its session is over).
fn until_offline(d: &mut Driver, what: &str) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while !d.is_offline() {
        assert!(Instant::now() < deadline, "{what}: {:?}", d.online().link);
        d.wait_report(Duration::from_millis(100));
    }
}

#[test]
fn another_spelling_of_the_server_takes_the_seat_back() {
    let dir = Temp::new("spelling");
    let salon = Salon::start(&dir);
    let config = dir.path().join("config");
    let spec = TableSpec {
        colour: ColourChoice::Black,
        ..TableSpec::default()
    };
    let mut first = window(
        &salon.url,
        "ann",
        &config,
        Some(Intent::Create(spec)),
        Trust::default(),
    );
    until(&mut first, "ann sits at her new table", seated_at_a_table);
    let table = first.online().table().unwrap().info.id;
    first.shut_down();
    // Started again as `localhost` instead of `127.0.0.1`: the token kept
    // for the server follows, and the session comes back with its seat.
    let localhost = format!("ws://localhost:{}/", salon.port());
    let mut again = window(&localhost, "ann", &config, None, Trust::default());
    assert!(again.online().server.token.is_some(), "the token is found");
    until(&mut again, "ann is back at her table", seated_at_a_table);
    assert_eq!(again.online().table().unwrap().info.id, table);
    again.shut_down();
    // The file still holds the token, for either spelling.
    let kept = settings::read(&config);
    assert_eq!(
        kept.tokens.get(&salon.url, "ann"),
        kept.tokens.get(&localhost, "ann")
    );
    assert!(kept.tokens.get(&salon.url, "ann").is_some());
}

#[test]
fn a_second_window_takes_the_session_and_the_first_stops_until_r() {
    let dir = Temp::new("windows");
    let salon = Salon::start(&dir);
    let config = dir.path().join("config");
    let mut a = window(&salon.url, "ann", &config, None, Trust::default());
    until(&mut a, "a is connected", |app| app.link == Link::Connected);
    // A second window on the same config folder resumes the session.
    let mut b = window(&salon.url, "ann", &config, None, Trust::default());
    until(&mut b, "b is connected", |app| app.link == Link::Connected);
    until(&mut a, "a hears it was replaced", |app| {
        app.link == Link::Replaced
    });
    // The first window's session is over: it does not take the session
    // back by itself.
    until_offline(&mut a, "a's session ends");
    let screen = render(a.online(), 100, 14);
    assert!(screen.contains("r take it back"), "{screen}");
    // `r` takes it back; now the second window stops.
    a.handle(key(Key::Char('r')));
    until(&mut a, "a is connected again", |app| {
        app.link == Link::Connected
    });
    until(&mut b, "b hears it was replaced", |app| {
        app.link == Link::Replaced
    });
    until_offline(&mut b, "b's session ends");
    assert_eq!(a.online().link, Link::Connected);
    a.shut_down();
    b.shut_down();
}

#[test]
fn a_window_refused_for_a_name_another_holds_takes_it_back_with_its_token() {
    let dir = Temp::new("taken");
    let salon = Salon::start(&dir);
    let config = dir.path().join("config");
    // This window starts before the other one has written a token.
    let mut late = {
        let start = Start {
            server: Server::new(salon.url.clone(), "ann".into(), &Tokens::default()),
            connect: false,
            intent: None,
            trust: Trust::default(),
        };
        let places = Places {
            config: Some(config.clone()),
            data: Err(crate::dirs::NoFolder {
                what: "data",
                variable: "REVERSI_DATA_DIR",
            }),
            save: None,
        };
        Driver::new(start, LOOK, places, Instant::now())
    };
    let mut other = window(&salon.url, "ann", &config, None, Trust::default());
    until(&mut other, "the other window is connected", |app| {
        app.link == Link::Connected
    });
    // Now this one connects, without a token: the name is taken; the token
    // the other window wrote is offered.
    late.handle(key(Key::Enter));
    until(&mut late, "the name is offered back", |app| {
        app.link == Link::Taken
    });
    late.handle(key(Key::Char('r')));
    until(&mut late, "the session is taken back", |app| {
        app.link == Link::Connected
    });
    until(&mut other, "the other window stops", |app| {
        app.link == Link::Replaced
    });
    late.shut_down();
    other.shut_down();
}

/// The tables where `name` sits, as the lobby of `app` lists them.
fn tables_of(app: &Online, name: &str) -> usize {
    app.tables
        .iter()
        .filter(|t| t.players.iter().any(|p| p.label() == name))
        .count()
}

#[test]
fn a_create_lost_with_its_connection_is_made_once() {
    let dir = Temp::new("create");
    let salon = Salon::start(&dir);
    let relay = salon.rt.block_on(Relay::start(&salon.url, None));
    let config = dir.path().join("config");
    for (name, cut) in [("ann", Cut::Before), ("bob", Cut::AfterAnswer)] {
        relay.cut("create", cut);
        let mut w = window(
            &relay.url(),
            name,
            &config,
            Some(Intent::Create(TableSpec::default())),
            Trust::default(),
        );
        until(&mut w, "seated at the new table", seated_at_a_table);
        assert_eq!(
            tables_of(w.online(), name),
            1,
            "{name}: {:?}",
            w.online().tables
        );
        w.shut_down();
    }
    assert_eq!(relay.cuts_made(), 2);
}

#[test]
fn the_session_speaks_wss_with_the_authority_added_and_not_without() {
    let dir = Temp::new("wss");
    let salon = Salon::start(&dir);
    let authority = Authority::new();
    let relay = salon
        .rt
        .block_on(Relay::start(&salon.url, Some(&authority)));
    let ca = dir.path().join("ca.pem");
    authority.write_ca(&ca);
    let config = dir.path().join("config");
    let trusted = Trust::with_pem_file(&ca).unwrap();
    let mut w = window(
        &relay.url(),
        "ann",
        &config,
        Some(Intent::Create(TableSpec::default())),
        trusted,
    );
    until(&mut w, "seated over wss", seated_at_a_table);
    w.shut_down();
    // Without the authority: said at once, and nothing retried.
    let mut w = window(&relay.url(), "bob", &config, None, Trust::default());
    until(&mut w, "the certificate refused", |app| {
        matches!(app.link, Link::Unreachable(_))
    });
    until_offline(&mut w, "the session ends");
    let screen = render(w.online(), 100, 14);
    assert!(screen.contains("certificate is not trusted"), "{screen}");
    w.shut_down();
}
