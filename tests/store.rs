//! The store's contract, written once and run against both stores: the
//! SQLite file and a PostgreSQL database of a throwaway cluster
//! ([`common_pg`]). Each case gets a fresh database: commits and loads
//! round trip, later operations replace earlier ones, a take-back
//! truncates, finished games leave the snapshot for the export, a commit
//! is all or nothing, the data outlives the store, the layout's number is
//! written and a later one refused, and a store opened to read cannot
//! write. Then what only PostgreSQL has: a connection the database closed
//! is opened again, and processes opening an empty database at once
//! migrate it once.

mod common_pg;

use common_pg::Cluster;
use reversi::net::protocol::{
    ClockSpec, ColourChoice, EndReason, GameResult, MoveRecord, Opponent, Seat, Side, TableSpec,
};
use reversi::net::store::{
    PgStore, PgUrl, SCHEMA_VERSION, SqliteStore, Store, StoreError, StoreOp, StoredGame,
    StoredWaiting, export_ggf, ggf_record, token_hash,
};
use reversi::notation::ggf::write_ggf;
use std::path::PathBuf;
use std::time::{SystemTime, UNIX_EPOCH};

/// A fresh database of one kind, with what the cases need beside the
/// store: its layout number read and written directly, and a way to make
/// it refuse a write.
trait Db {
    /// The store, opened to write (creating or upgrading the tables).
    fn open(&self) -> Result<Box<dyn Store>, StoreError>;
    /// The store, opened to read only (as an export does).
    fn open_read_only(&self) -> Result<Box<dyn Store>, StoreError>;
    /// The layout number, read without the store.
    fn layout(&self) -> i64;
    /// Writes the layout number without the store.
    fn set_layout(&self, n: i64);
    /// From now on the database refuses to store a move to `square`.
    fn refuse_square(&self, square: &str);
}

struct SqliteDb(PathBuf);

impl Db for SqliteDb {
    fn open(&self) -> Result<Box<dyn Store>, StoreError> {
        Ok(Box::new(SqliteStore::open(&self.0)?))
    }
    fn open_read_only(&self) -> Result<Box<dyn Store>, StoreError> {
        Ok(Box::new(SqliteStore::open_read_only(&self.0)?))
    }
    fn layout(&self) -> i64 {
        rusqlite::Connection::open(&self.0)
            .unwrap()
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap()
    }
    fn set_layout(&self, n: i64) {
        rusqlite::Connection::open(&self.0)
            .unwrap()
            .pragma_update(None, "user_version", n)
            .unwrap();
    }
    fn refuse_square(&self, square: &str) {
        rusqlite::Connection::open(&self.0)
            .unwrap()
            .execute_batch(&format!(
                "CREATE TRIGGER refuse BEFORE INSERT ON moves WHEN NEW.square = '{square}'
                 BEGIN SELECT RAISE(ABORT, 'refused'); END;"
            ))
            .unwrap();
    }
}

impl Drop for SqliteDb {
    fn drop(&mut self) {
        if let Some(dir) = self.0.parent() {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

struct PgDb<'a> {
    cluster: &'a Cluster,
    name: String,
    url: PgUrl,
}

impl Db for PgDb<'_> {
    fn open(&self) -> Result<Box<dyn Store>, StoreError> {
        Ok(Box::new(PgStore::connect(&self.url)?))
    }
    fn open_read_only(&self) -> Result<Box<dyn Store>, StoreError> {
        Ok(Box::new(PgStore::open_read_only(&self.url)?))
    }
    fn layout(&self) -> i64 {
        self.cluster
            .sql(&self.name, "SELECT version FROM schema_version")
            .unwrap()
    }
    fn set_layout(&self, n: i64) {
        self.cluster.sql(
            &self.name,
            &format!("UPDATE schema_version SET version = {n}"),
        );
    }
    fn refuse_square(&self, square: &str) {
        self.cluster.sql(
            &self.name,
            &format!(
                "CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$
                 BEGIN IF NEW.square = '{square}' THEN RAISE EXCEPTION 'refused'; END IF; RETURN NEW; END $$;
                 CREATE TRIGGER refuse BEFORE INSERT ON moves FOR EACH ROW EXECUTE FUNCTION refuse();"
            ),
        );
    }
}

fn player(name: &str) -> Seat {
    Seat::Player { name: name.into() }
}

fn session(name: &str, token: &str) -> StoreOp {
    StoreOp::Session {
        name: name.into(),
        token_hash: token_hash(token),
    }
}

fn record(side: Side, square: &str, clocks: Option<(u64, u64)>) -> MoveRecord {
    MoveRecord {
        side,
        square: square.into(),
        black_ms: clocks.map(|c| c.0),
        white_ms: clocks.map(|c| c.1),
    }
}

fn play(table: u64, ply: usize, record: MoveRecord) -> StoreOp {
    StoreOp::Move { table, ply, record }
}

fn start(table: u64, black: &str, white: &str) -> StoreOp {
    StoreOp::Start {
        table,
        spec: TableSpec::default(),
        black: player(black),
        white: player(white),
    }
}

fn result(winner: Option<Side>, reason: EndReason) -> GameResult {
    GameResult {
        winner,
        black: 3,
        white: 1,
        reason,
    }
}

/// The opening f5 d6 c3 as records.
fn opening() -> Vec<MoveRecord> {
    vec![
        record(Side::Black, "f5", None),
        record(Side::White, "d6", None),
        record(Side::Black, "c3", None),
    ]
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

fn empty_store_holds_nothing(db: &dyn Db) {
    let mut store = db.open().unwrap();
    store.commit(&[]).unwrap();
    let snap = store.load().unwrap();
    assert!(snap.games.is_empty() && snap.waiting.is_empty() && snap.sessions.is_empty());
    assert_eq!(snap.next_table, 1);
    assert!(store.finished().unwrap().is_empty());
}

fn commits_load_back_and_outlive_the_store(db: &dyn Db) {
    let spec = TableSpec {
        colour: ColourChoice::White,
        clock: Some(ClockSpec {
            base_ms: 300_000,
            increment_ms: 2_000,
        }),
        ..TableSpec::default()
    };
    let waiting_spec = TableSpec {
        opponent: Opponent::Invite { name: "ann".into() },
        ..TableSpec::default()
    };
    let moves = vec![
        record(Side::Black, "f5", Some((299_000, 300_000))),
        record(Side::White, "d6", Some((299_000, 1 << 40))),
        record(Side::Black, "c3", None),
    ];
    let before = now();
    let mut store = db.open().unwrap();
    let mut ops = vec![
        session("ann", "t-ann"),
        session("Bob", "t-bob"),
        session("carl", "t-carl"),
        session("Dörte", "t-dorte"),
        StoreOp::Wait {
            table: 7,
            spec: waiting_spec.clone(),
            creator: player("Dörte"),
        },
        StoreOp::Start {
            table: 3,
            spec: spec.clone(),
            black: player("ann"),
            white: player("Bob"),
        },
    ];
    ops.extend(
        moves
            .iter()
            .enumerate()
            .map(|(i, m)| play(3, i + 1, m.clone())),
    );
    store.commit(&ops).unwrap();
    let snap = store.load().unwrap();
    assert_eq!(snap.games.len(), 1);
    let game = &snap.games[0];
    assert!(
        game.started >= before && game.started <= now() + 1,
        "{}",
        game.started
    );
    assert_eq!(
        game,
        &StoredGame {
            id: 3,
            spec,
            black: player("ann"),
            white: player("Bob"),
            moves,
            result: None,
            started: game.started,
        }
    );
    assert_eq!(
        snap.waiting,
        vec![StoredWaiting {
            id: 7,
            spec: waiting_spec,
            creator: player("Dörte"),
        }]
    );
    // The sessions of seated players only, in the order of their seats.
    assert_eq!(
        snap.sessions,
        vec![
            ("ann".to_string(), token_hash("t-ann")),
            ("Bob".to_string(), token_hash("t-bob")),
            ("Dörte".to_string(), token_hash("t-dorte")),
        ]
    );
    assert_eq!(snap.next_table, 8);
    drop(store);
    let mut again = db.open().unwrap();
    assert_eq!(again.load().unwrap(), snap);
}

fn later_operations_replace_earlier_ones(db: &dyn Db) {
    let mut store = db.open().unwrap();
    let spec = |colour| TableSpec {
        colour,
        ..TableSpec::default()
    };
    store
        .commit(&[
            session("Ann", "t1"),
            StoreOp::Wait {
                table: 1,
                spec: spec(ColourChoice::Black),
                creator: player("Ann"),
            },
            StoreOp::Wait {
                table: 2,
                spec: spec(ColourChoice::Black),
                creator: player("bob"),
            },
        ])
        .unwrap();
    store
        .commit(&[
            // Another spelling of the same name is the same session.
            session("ａnn", "t2"),
            StoreOp::Wait {
                table: 1,
                spec: spec(ColourChoice::White),
                creator: player("Ann"),
            },
            StoreOp::Unwait { table: 2 },
            StoreOp::Wait {
                table: 4,
                spec: spec(ColourChoice::Random),
                creator: player("carl"),
            },
            start(4, "carl", "dan"),
            play(4, 1, record(Side::Black, "f5", None)),
            play(4, 1, record(Side::Black, "e6", None)),
        ])
        .unwrap();
    let snap = store.load().unwrap();
    assert_eq!(snap.sessions, vec![("Ann".to_string(), token_hash("t2"))]);
    let ids: Vec<_> = snap.waiting.iter().map(|w| w.id).collect();
    assert_eq!(ids, [1], "a started or given up table waits no more");
    assert_eq!(snap.waiting[0].spec, spec(ColourChoice::White));
    assert_eq!(snap.games.len(), 1);
    assert_eq!(snap.games[0].moves, [record(Side::Black, "e6", None)]);
    // The numbers of given up tables are not given again.
    assert_eq!(snap.next_table, 5);
}

fn a_take_back_truncates_the_moves(db: &dyn Db) {
    let mut store = db.open().unwrap();
    let mut ops = vec![start(1, "ann", "bob")];
    ops.extend(
        opening()
            .into_iter()
            .enumerate()
            .map(|(i, m)| play(1, i + 1, m)),
    );
    store.commit(&ops).unwrap();
    store
        .commit(&[
            StoreOp::Truncate { table: 1, plies: 1 },
            play(1, 2, record(Side::White, "f6", None)),
        ])
        .unwrap();
    let moves = &store.load().unwrap().games[0].moves;
    assert_eq!(
        moves,
        &[
            record(Side::Black, "f5", None),
            record(Side::White, "f6", None)
        ]
    );
}

fn finished_games_leave_the_snapshot_for_the_export(db: &dyn Db) {
    let mut store = db.open().unwrap();
    let mut ops = vec![start(2, "ann", "bob"), start(5, "carl", "dan")];
    for table in [2, 5] {
        ops.extend(
            opening()
                .into_iter()
                .enumerate()
                .map(|(i, m)| play(table, i + 1, m)),
        );
    }
    store.commit(&ops).unwrap();
    // Finished in the other order, listed by number.
    let resigned = result(Some(Side::Black), EndReason::Resigned);
    let abandoned = result(None, EndReason::Abandoned);
    store
        .commit(&[StoreOp::Finish {
            table: 5,
            result: abandoned,
        }])
        .unwrap();
    store
        .commit(&[
            session("ann", "t"),
            StoreOp::Finish {
                table: 2,
                result: resigned,
            },
        ])
        .unwrap();
    let snap = store.load().unwrap();
    assert!(snap.games.is_empty() && snap.sessions.is_empty());
    assert_eq!(snap.next_table, 6);
    let finished = store.finished().unwrap();
    let summary: Vec<_> = finished
        .iter()
        .map(|g| (g.id, g.result, g.moves.clone()))
        .collect();
    assert_eq!(
        summary,
        [
            (2, Some(resigned), opening()),
            (5, Some(abandoned), opening())
        ]
    );
    let (ggf, n) = export_ggf(&mut *store).unwrap();
    assert_eq!(n, 2);
    let expected: String = finished
        .iter()
        .map(|g| write_ggf(&ggf_record(g).unwrap()) + "\n")
        .collect();
    assert_eq!(ggf, expected);
}

fn a_commit_is_all_or_nothing(db: &dyn Db) {
    let mut store = db.open().unwrap();
    store
        .commit(&[
            start(1, "ann", "bob"),
            play(1, 1, record(Side::Black, "f5", None)),
        ])
        .unwrap();
    db.refuse_square("e3");
    let refused = store.commit(&[
        session("ann", "t"),
        StoreOp::Truncate { table: 1, plies: 0 },
        start(2, "carl", "dan"),
        play(2, 1, record(Side::Black, "d3", None)),
        play(2, 2, record(Side::White, "e3", None)),
        StoreOp::Finish {
            table: 1,
            result: result(None, EndReason::Resigned),
        },
    ]);
    assert!(refused.is_err(), "{refused:?}");
    let snap = store.load().unwrap();
    let ids: Vec<_> = snap.games.iter().map(|g| g.id).collect();
    assert_eq!(ids, [1]);
    assert_eq!(snap.games[0].moves, [record(Side::Black, "f5", None)]);
    assert!(snap.sessions.is_empty());
    assert!(store.finished().unwrap().is_empty());
    // The store goes on.
    store
        .commit(&[play(1, 2, record(Side::White, "d6", None))])
        .unwrap();
    assert_eq!(store.load().unwrap().games[0].moves.len(), 2);
}

fn the_layout_is_written_and_a_later_one_refused(db: &dyn Db) {
    drop(db.open().unwrap());
    assert_eq!(db.layout(), SCHEMA_VERSION);
    // Opening again changes nothing.
    let mut store = db.open().unwrap();
    store.commit(&[start(1, "ann", "bob")]).unwrap();
    drop(store);
    assert_eq!(db.layout(), SCHEMA_VERSION);
    db.set_layout(SCHEMA_VERSION + 1);
    for open in [Db::open, Db::open_read_only] {
        match open(db) {
            Err(StoreError::Newer { found }) => assert_eq!(found, SCHEMA_VERSION + 1),
            Err(e) => panic!("{e}"),
            Ok(_) => panic!("a later layout opened"),
        }
    }
}

fn a_store_opened_to_read_cannot_write(db: &dyn Db) {
    let mut store = db.open().unwrap();
    store
        .commit(&[
            start(1, "ann", "bob"),
            StoreOp::Finish {
                table: 1,
                result: result(Some(Side::White), EndReason::Resigned),
            },
        ])
        .unwrap();
    let finished = store.finished().unwrap();
    drop(store);
    let mut reader = db.open_read_only().unwrap();
    assert_eq!(reader.finished().unwrap(), finished);
    assert!(reader.commit(&[start(2, "carl", "dan")]).is_err());
    drop(reader);
    assert_eq!(db.open().unwrap().load().unwrap().next_table, 2);
}

/// A case of the contract.
type Case = fn(&dyn Db);

/// Every case, by name.
const CASES: &[(&str, Case)] = &[
    ("empty", empty_store_holds_nothing),
    ("round_trip", commits_load_back_and_outlive_the_store),
    ("replace", later_operations_replace_earlier_ones),
    ("truncate", a_take_back_truncates_the_moves),
    ("finished", finished_games_leave_the_snapshot_for_the_export),
    ("all_or_nothing", a_commit_is_all_or_nothing),
    ("layout", the_layout_is_written_and_a_later_one_refused),
    ("read_only", a_store_opened_to_read_cannot_write),
];

/// Runs every case on a fresh database from `fresh`; fails naming the
/// cases that failed.
fn keeps_the_contract<'c>(fresh: &dyn Fn(&str) -> Box<dyn Db + 'c>) {
    let mut failed = Vec::new();
    for (name, case) in CASES {
        let db = fresh(name);
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| case(&*db)));
        if outcome.is_err() {
            failed.push(*name);
        }
    }
    assert!(failed.is_empty(), "cases failed: {failed:?}");
}

#[test]
fn the_sqlite_store_keeps_the_contract() {
    keeps_the_contract(&|case| {
        let dir = std::env::temp_dir().join(format!("reversi-store-{case}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Box::new(SqliteDb(dir.join("salon.sqlite")))
    });
}

#[test]
fn the_postgres_store_keeps_the_contract() {
    let Some(cluster) = Cluster::start("contract") else {
        return;
    };
    keeps_the_contract(&|case| {
        let url = PgUrl::parse(&cluster.create_database(case)).unwrap();
        Box::new(PgDb {
            cluster: &cluster,
            name: case.into(),
            url,
        })
    });
}

/// A connection the database closes (PostgreSQL restarted, an
/// administrator's `pg_terminate_backend`) is opened again: the next
/// commit and load go through.
#[test]
fn a_postgres_connection_closed_by_the_database_is_opened_again() {
    let Some(cluster) = Cluster::start("reopen") else {
        return;
    };
    let url = PgUrl::parse(&cluster.create_database("salon")).unwrap();
    let mut store = PgStore::connect(&url).unwrap();
    store.commit(&[start(1, "ann", "bob")]).unwrap();
    let terminate = "SELECT COUNT(pg_terminate_backend(pid)) FROM pg_stat_activity \
                     WHERE application_name = 'reversi salon'";
    assert_eq!(cluster.sql("salon", terminate), Some(1));
    store
        .commit(&[play(1, 1, record(Side::Black, "f5", None))])
        .unwrap();
    assert_eq!(cluster.sql("salon", terminate), Some(1));
    let snap = store.load().unwrap();
    assert_eq!(snap.games[0].moves, [record(Side::Black, "f5", None)]);
}

/// Processes started at once on an empty database create its tables once.
#[test]
fn postgres_stores_opened_at_once_migrate_an_empty_database_once() {
    let Some(cluster) = Cluster::start("migrate") else {
        return;
    };
    let url = PgUrl::parse(&cluster.create_database("salon")).unwrap();
    let barrier = std::sync::Barrier::new(4);
    std::thread::scope(|s| {
        let opened: Vec<_> = (0..4)
            .map(|_| {
                s.spawn(|| {
                    barrier.wait();
                    PgStore::connect(&url).map(|mut store| store.layout())
                })
            })
            .collect();
        for o in opened {
            assert_eq!(o.join().unwrap().unwrap().unwrap(), SCHEMA_VERSION);
        }
    });
    assert_eq!(
        cluster.sql("salon", "SELECT COUNT(*) FROM schema_version"),
        Some(1)
    );
}
