//! The PostgreSQL store: the SQLite store's tables in a PostgreSQL
//! database (`reversi server --db postgres://USER@HOST:PORT/DATABASE`),
//! returning the same data.
//!
//! * Every [`Store::commit`] is one transaction, and it returns once
//!   PostgreSQL has committed it: the server acknowledges a move only then.
//!   A session of a database configured with `synchronous_commit = off`
//!   turns it back on, so that a commit is flushed to the database's disk
//!   before it returns.
//! * The layout's number is the one row of the `schema_version` table
//!   ([`SCHEMA_VERSION`]; no table: an empty database, layout 0). Opening
//!   the store applies the migrations from the layout found, in one
//!   transaction under an advisory lock, so that processes opening one
//!   database at once migrate it once.
//! * A connection the database closed (a restart of PostgreSQL, an
//!   administrator's `pg_terminate_backend`) is opened again at the next
//!   call; a commit that failed because the connection broke is run again
//!   once on the new connection. Running a batch twice leaves what running
//!   it once does (every operation sets or deletes rows by their keys), so
//!   a batch whose `COMMIT` was lost on the way back is not applied twice
//!   in effect.
//! * An export connects with `default_transaction_read_only`
//!   ([`PgStore::open_read_only`]): nothing is written or migrated.
//! * Where the database is: a [`PgUrl`] (in [`url`]), which shows without
//!   its password.
//!
//! The client is the synchronous `postgres` crate: the [`Store`] trait is
//! synchronous and runs on the server's commit thread, which waits for each
//! commit before it acknowledges the batch, so an asynchronous client would
//! only move that wait into a runtime of its own. The crate is
//! `tokio-postgres` driven by a small runtime of its own, which may be
//! neither run nor dropped inside another tokio runtime (the server reads
//! its store on one); so the connection lives on a thread of its own and
//! [`PgStore`] hands it each call over a channel, and can be called and
//! dropped from any thread. The connection has no TLS: keep the database on
//! the same machine (a Unix socket, loopback) or a private network.

use super::{
    GameRow, SCHEMA_VERSION, Snapshot, Store, StoreError, StoreOp, StoredGame, StoredWaiting, json,
    move_record, now_secs, read_waiting, seated, side_name, snapshot,
};
use crate::net::protocol::MoveRecord;
use crate::net::text::name_key;
use postgres::{Client, Config, IsolationLevel, NoTls, Statement, Transaction};
use std::collections::HashMap;
use std::sync::mpsc;

mod url;

pub use url::PgUrl;

/// The database's tables as each migration leaves them: `MIGRATIONS[n]`
/// brings layout `n` to `n + 1` (layout 0: no table).
const MIGRATIONS: [&str; 1] = [LAYOUT_1];

const _: () = assert!(MIGRATIONS.len() as i64 == SCHEMA_VERSION);

/// Layout 1: the SQLite tables, with 64-bit integers, and the layout's
/// number.
const LAYOUT_1: &str = "
CREATE TABLE schema_version (
    only_row BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (only_row),
    version BIGINT NOT NULL
);
CREATE TABLE games (
    id BIGINT PRIMARY KEY,
    spec TEXT NOT NULL,
    black TEXT NOT NULL,
    white TEXT NOT NULL,
    started BIGINT NOT NULL,
    result TEXT
);
CREATE INDEX games_unfinished ON games (id) WHERE result IS NULL;
CREATE TABLE waiting (
    id BIGINT PRIMARY KEY,
    spec TEXT NOT NULL,
    creator TEXT NOT NULL
);
CREATE TABLE moves (
    game BIGINT NOT NULL,
    ply BIGINT NOT NULL,
    side TEXT NOT NULL,
    square TEXT NOT NULL,
    black_ms BIGINT,
    white_ms BIGINT,
    PRIMARY KEY (game, ply)
);
CREATE TABLE sessions (
    key TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    token_hash TEXT NOT NULL
);
";

/// The advisory lock held while a database is migrated (any number the
/// salon alone uses: "reversi" in ASCII).
const MIGRATION_LOCK: i64 = 0x0072_6576_6572_7369;

/// The error and its causes on one line (the `postgres` crate's own
/// message names only the kind: "db error", "error connecting to server").
pub(super) fn chain(e: &postgres::Error) -> String {
    let mut text = e.to_string();
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        text.push_str(": ");
        text.push_str(&s.to_string());
        source = s.source();
    }
    text
}

/// Whether `e` says the connection is gone (closed, an I/O error, or the
/// server ending the session: a fatal error, an operator's intervention,
/// class 57P), rather than that the database refused a statement.
fn broken(e: &postgres::Error) -> bool {
    e.is_closed()
        || std::error::Error::source(e).is_some_and(|s| s.is::<std::io::Error>())
        || e.as_db_error()
            .is_some_and(|d| d.severity() == "FATAL" || d.code().code().starts_with("57P"))
}

/// The store's statements, prepared once per connection.
struct Statements {
    session: Statement,
    wait: Statement,
    unwait: Statement,
    start: Statement,
    play: Statement,
    truncate: Statement,
    finish: Statement,
}

impl Statements {
    fn prepare(client: &mut Client) -> Result<Statements, postgres::Error> {
        Ok(Statements {
            session: client.prepare(
                "INSERT INTO sessions (key, name, token_hash) VALUES ($1, $2, $3)
                 ON CONFLICT (key) DO UPDATE SET name = EXCLUDED.name, token_hash = EXCLUDED.token_hash",
            )?,
            wait: client.prepare(
                "INSERT INTO waiting (id, spec, creator) VALUES ($1, $2, $3)
                 ON CONFLICT (id) DO UPDATE SET spec = EXCLUDED.spec, creator = EXCLUDED.creator",
            )?,
            unwait: client.prepare("DELETE FROM waiting WHERE id = $1")?,
            start: client.prepare(
                "INSERT INTO games (id, spec, black, white, started, result) VALUES ($1, $2, $3, $4, $5, NULL)
                 ON CONFLICT (id) DO UPDATE SET spec = EXCLUDED.spec, black = EXCLUDED.black,
                     white = EXCLUDED.white, started = EXCLUDED.started, result = NULL",
            )?,
            play: client.prepare(
                "INSERT INTO moves (game, ply, side, square, black_ms, white_ms)
                 SELECT * FROM UNNEST($1::BIGINT[], $2::BIGINT[], $3::TEXT[], $4::TEXT[], $5::BIGINT[], $6::BIGINT[])
                 ON CONFLICT (game, ply) DO UPDATE SET side = EXCLUDED.side, square = EXCLUDED.square,
                     black_ms = EXCLUDED.black_ms, white_ms = EXCLUDED.white_ms",
            )?,
            truncate: client.prepare("DELETE FROM moves WHERE game = $1 AND ply > $2")?,
            finish: client.prepare("UPDATE games SET result = $2 WHERE id = $1")?,
        })
    }
}

/// A count of moves as the database keeps it.
fn plies(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// Moves to store with one statement (one round trip to the database):
/// a run of consecutive [`StoreOp::Move`]s, as columns.
#[derive(Default)]
struct Moves {
    /// The index of each (game, ply) in the columns: a move stored twice in
    /// one run (played, taken back and played again needs a truncation,
    /// which ends the run) keeps the later record, as running them in turn
    /// would.
    index: HashMap<(i64, i64), usize>,
    game: Vec<i64>,
    ply: Vec<i64>,
    side: Vec<&'static str>,
    square: Vec<String>,
    black_ms: Vec<Option<i64>>,
    white_ms: Vec<Option<i64>>,
}

impl Moves {
    fn push(&mut self, table: u64, ply: usize, record: &MoveRecord) {
        let key = (table.cast_signed(), plies(ply));
        let side = side_name(record.side);
        let black_ms = record.black_ms.map(u64::cast_signed);
        let white_ms = record.white_ms.map(u64::cast_signed);
        if let Some(&i) = self.index.get(&key) {
            self.side[i] = side;
            self.square[i].clone_from(&record.square);
            self.black_ms[i] = black_ms;
            self.white_ms[i] = white_ms;
            return;
        }
        self.index.insert(key, self.game.len());
        self.game.push(key.0);
        self.ply.push(key.1);
        self.side.push(side);
        self.square.push(record.square.clone());
        self.black_ms.push(black_ms);
        self.white_ms.push(white_ms);
    }

    /// Stores the run, if any, and starts a new one.
    fn flush(&mut self, tx: &mut Transaction<'_>, st: &Statements) -> Result<(), postgres::Error> {
        if !self.game.is_empty() {
            let run = std::mem::take(self);
            tx.execute(
                &st.play,
                &[
                    &run.game,
                    &run.ply,
                    &run.side,
                    &run.square,
                    &run.black_ms,
                    &run.white_ms,
                ],
            )?;
        }
        Ok(())
    }
}

/// Applies `ops` in `tx`, in order; each run of moves is one statement.
fn apply(
    tx: &mut Transaction<'_>,
    st: &Statements,
    ops: &[StoreOp],
) -> Result<(), postgres::Error> {
    let mut moves = Moves::default();
    for op in ops {
        if let StoreOp::Move { table, ply, record } = op {
            moves.push(*table, *ply, record);
            continue;
        }
        moves.flush(tx, st)?;
        match op {
            StoreOp::Session { name, token_hash } => {
                tx.execute(&st.session, &[&name_key(name), name, token_hash])?;
            }
            StoreOp::Wait {
                table,
                spec,
                creator,
            } => {
                tx.execute(
                    &st.wait,
                    &[&table.cast_signed(), &json(spec), &json(creator)],
                )?;
            }
            StoreOp::Unwait { table } => {
                tx.execute(&st.unwait, &[&table.cast_signed()])?;
            }
            StoreOp::Start {
                table,
                spec,
                black,
                white,
            } => {
                tx.execute(&st.unwait, &[&table.cast_signed()])?;
                tx.execute(
                    &st.start,
                    &[
                        &table.cast_signed(),
                        &json(spec),
                        &json(black),
                        &json(white),
                        &now_secs(),
                    ],
                )?;
            }
            StoreOp::Move { .. } => {}
            StoreOp::Truncate { table, plies: kept } => {
                tx.execute(&st.truncate, &[&table.cast_signed(), &plies(*kept)])?;
            }
            StoreOp::Finish { table, result } => {
                tx.execute(&st.finish, &[&table.cast_signed(), &json(result)])?;
            }
        }
    }
    moves.flush(tx, st)
}

/// The layout of the database `tx` sees (0: no `schema_version` table).
fn layout(tx: &mut Transaction<'_>) -> Result<i64, postgres::Error> {
    let exists: bool = tx
        .query_one("SELECT to_regclass('schema_version') IS NOT NULL", &[])?
        .get(0);
    if !exists {
        return Ok(0);
    }
    Ok(tx
        .query_opt("SELECT version FROM schema_version", &[])?
        .map_or(0, |r| r.get(0)))
}

/// Brings the database up to [`SCHEMA_VERSION`] in one transaction.
fn upgrade(client: &mut Client) -> Result<(), StoreError> {
    let mut tx = client.transaction()?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])?;
    let found = layout(&mut tx)?;
    if found > SCHEMA_VERSION {
        return Err(StoreError::Newer { found });
    }
    for migration in &MIGRATIONS[usize::try_from(found).unwrap_or(0)..] {
        tx.batch_execute(migration)?;
    }
    tx.execute(
        "INSERT INTO schema_version (version) VALUES ($1)
         ON CONFLICT (only_row) DO UPDATE SET version = EXCLUDED.version",
        &[&SCHEMA_VERSION],
    )?;
    tx.commit()?;
    Ok(())
}

/// The games finished or not, with their moves, by number.
fn games(tx: &mut Transaction<'_>, finished: bool) -> Result<Vec<StoredGame>, StoreError> {
    let filter = if finished {
        "result IS NOT NULL"
    } else {
        "result IS NULL"
    };
    let rows: Vec<GameRow> = tx
        .query(
            &format!(
                "SELECT id, spec, black, white, started, result FROM games WHERE {filter} ORDER BY id"
            ),
            &[],
        )?
        .iter()
        .map(|r| GameRow {
            id: r.get(0),
            spec: r.get(1),
            black: r.get(2),
            white: r.get(3),
            started: r.get(4),
            result: r.get(5),
        })
        .collect();
    let mut moves: HashMap<i64, Vec<_>> = HashMap::new();
    for r in tx.query(
        &format!(
            "SELECT m.game, m.side, m.square, m.black_ms, m.white_ms FROM moves m
             JOIN games g ON g.id = m.game WHERE g.{filter} ORDER BY m.game, m.ply"
        ),
        &[],
    )? {
        moves.entry(r.get(0)).or_default().push(move_record(
            r.get(1),
            r.get(2),
            r.get(3),
            r.get(4),
        ));
    }
    rows.into_iter()
        .map(|row| {
            let records = moves.remove(&row.id).unwrap_or_default();
            row.read(records)
        })
        .collect()
}

/// The tables waiting for a player, by number.
fn waiting(tx: &mut Transaction<'_>) -> Result<Vec<StoredWaiting>, StoreError> {
    tx.query("SELECT id, spec, creator FROM waiting ORDER BY id", &[])?
        .iter()
        .map(|r| read_waiting(r.get(0), r.get(1), r.get(2)))
        .collect()
}

/// The connection, on its thread.
struct Conn {
    config: Config,
    shown: String,
    read_only: bool,
    client: Client,
    statements: Option<Statements>,
}

impl Conn {
    /// Connects (and for writing, migrates); for reading only, checks that
    /// the database holds a salon this program reads.
    fn open(url: PgUrl, read_only: bool) -> Result<Conn, StoreError> {
        let (mut config, shown) = url.into_parts();
        if read_only {
            let options = match config.get_options() {
                Some(o) => format!("{o} -c default_transaction_read_only=on"),
                None => "-c default_transaction_read_only=on".into(),
            };
            config.options(&options);
        }
        let client = Conn::connect(&config, &shown)?;
        let mut conn = Conn {
            config,
            shown,
            read_only,
            client,
            statements: None,
        };
        if read_only {
            match conn.layout()? {
                0 => return Err(StoreError::Empty),
                found if found > SCHEMA_VERSION => return Err(StoreError::Newer { found }),
                _ => {}
            }
        } else {
            upgrade(&mut conn.client)?;
        }
        Ok(conn)
    }

    fn connect(config: &Config, shown: &str) -> Result<Client, StoreError> {
        let mut client = config
            .connect(NoTls)
            .map_err(|source| StoreError::Connect {
                url: shown.to_string(),
                source,
            })?;
        let synchronous: String = client.query_one("SHOW synchronous_commit", &[])?.get(0);
        if synchronous == "off" {
            client.batch_execute("SET synchronous_commit = on")?;
        }
        Ok(client)
    }

    /// Opens a new connection in place of this one.
    fn reopen(&mut self) -> Result<(), StoreError> {
        self.statements = None;
        self.client = Conn::connect(&self.config, &self.shown)?;
        Ok(())
    }

    /// Runs `f` on the connection, opening it again first if the database
    /// closed it; once more on a new connection if it broke during `f`.
    fn run<T>(
        &mut self,
        mut f: impl FnMut(&mut Conn) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        if self.client.is_closed() {
            self.reopen()?;
        }
        match f(self) {
            Err(StoreError::Postgres(e)) if self.client.is_closed() || broken(&e) => {
                self.reopen()?;
                f(self)
            }
            r => r,
        }
    }

    fn layout(&mut self) -> Result<i64, StoreError> {
        self.run(|c| {
            let mut tx = c.client.transaction()?;
            Ok(layout(&mut tx)?)
        })
    }

    fn commit(&mut self, ops: &[StoreOp]) -> Result<(), StoreError> {
        self.run(|c| {
            if c.statements.is_none() {
                c.statements = Some(Statements::prepare(&mut c.client)?);
            }
            let Conn {
                client, statements, ..
            } = c;
            let st = statements.as_ref().ok_or(StoreError::Worker)?;
            let mut tx = client.transaction()?;
            apply(&mut tx, st, ops)?;
            tx.commit()?;
            Ok(())
        })
    }

    /// A transaction that sees one state of the whole database.
    fn consistent(client: &mut Client) -> Result<Transaction<'_>, postgres::Error> {
        client
            .build_transaction()
            .isolation_level(IsolationLevel::RepeatableRead)
            .read_only(true)
            .start()
    }

    fn load(&mut self) -> Result<Snapshot, StoreError> {
        self.run(|c| {
            let mut tx = Conn::consistent(&mut c.client)?;
            let games = games(&mut tx, false)?;
            let waiting = waiting(&mut tx)?;
            let players = seated(&games, &waiting);
            let keys: Vec<&str> = players.iter().map(|(_, key)| key.as_str()).collect();
            let hashes: HashMap<String, String> = tx
                .query(
                    "SELECT key, token_hash FROM sessions WHERE key = ANY($1)",
                    &[&keys],
                )?
                .iter()
                .map(|r| (r.get(0), r.get(1)))
                .collect();
            let sessions = players
                .into_iter()
                .filter_map(|(name, key)| hashes.get(&key).map(|h| (name, h.clone())))
                .collect();
            let max: i64 = tx
                .query_one(
                    "SELECT GREATEST((SELECT COALESCE(MAX(id), 0) FROM games),
                                     (SELECT COALESCE(MAX(id), 0) FROM waiting))",
                    &[],
                )?
                .get(0);
            tx.commit()?;
            Ok(snapshot(games, waiting, sessions, max))
        })
    }

    fn finished(&mut self) -> Result<Vec<StoredGame>, StoreError> {
        self.run(|c| {
            let mut tx = Conn::consistent(&mut c.client)?;
            let games = games(&mut tx, true)?;
            tx.commit()?;
            Ok(games)
        })
    }
}

/// A call handed to the connection's thread.
type Job = Box<dyn FnOnce(&mut Conn) + Send>;

/// The PostgreSQL store: a connection on a thread of its own.
#[derive(Debug)]
pub struct PgStore {
    jobs: Option<mpsc::Sender<Job>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl PgStore {
    /// Connects to the database at `url` and brings it up to
    /// [`SCHEMA_VERSION`] (creating the tables in an empty database).
    ///
    /// # Errors
    /// [`StoreError::Connect`] when the database cannot be reached or
    /// refuses the login, [`StoreError::Newer`] for a later layout,
    /// [`StoreError::Postgres`] when a migration fails (nothing of it is
    /// applied then).
    pub fn connect(url: &PgUrl) -> Result<PgStore, StoreError> {
        PgStore::start(url.clone(), false)
    }

    /// Connects to read the database only (an export): every transaction
    /// is read-only, nothing is migrated.
    ///
    /// # Errors
    /// As [`PgStore::connect`], and [`StoreError::Empty`] when the database
    /// holds no salon.
    pub fn open_read_only(url: &PgUrl) -> Result<PgStore, StoreError> {
        PgStore::start(url.clone(), true)
    }

    fn start(url: PgUrl, read_only: bool) -> Result<PgStore, StoreError> {
        let (jobs, rx) = mpsc::channel::<Job>();
        let (ready_tx, ready) = mpsc::sync_channel(1);
        let thread = std::thread::Builder::new()
            .name("salon-postgres".into())
            .spawn(move || {
                let mut conn = match Conn::open(url, read_only) {
                    Ok(conn) => {
                        let _ = ready_tx.send(Ok(()));
                        conn
                    }
                    Err(e) => {
                        let _ = ready_tx.send(Err(e));
                        return;
                    }
                };
                while let Ok(job) = rx.recv() {
                    job(&mut conn);
                }
            })
            .map_err(|_| StoreError::Worker)?;
        let store = PgStore {
            jobs: Some(jobs),
            thread: Some(thread),
        };
        ready.recv().map_err(|_| StoreError::Worker)??;
        Ok(store)
    }

    /// Runs `f` on the connection's thread and waits for its answer.
    fn call<T: Send + 'static>(
        &mut self,
        f: impl FnOnce(&mut Conn) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        let (tx, rx) = mpsc::sync_channel(1);
        let job: Job = Box::new(move |conn| {
            let _ = tx.send(f(conn));
        });
        self.jobs
            .as_ref()
            .ok_or(StoreError::Worker)?
            .send(job)
            .map_err(|_| StoreError::Worker)?;
        rx.recv().map_err(|_| StoreError::Worker)?
    }

    /// The layout number of the database ([`SCHEMA_VERSION`]).
    ///
    /// # Errors
    /// [`StoreError::Postgres`] when it cannot be read.
    pub fn layout(&mut self) -> Result<i64, StoreError> {
        self.call(Conn::layout)
    }
}

impl Drop for PgStore {
    /// Closes the connection and waits for its thread to end.
    fn drop(&mut self) {
        self.jobs = None;
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Store for PgStore {
    fn commit(&mut self, ops: &[StoreOp]) -> Result<(), StoreError> {
        if ops.is_empty() {
            return Ok(());
        }
        let ops = ops.to_vec();
        self.call(move |c| {
            if c.read_only {
                return Err(StoreError::ReadOnly);
            }
            c.commit(&ops)
        })
    }

    fn load(&mut self) -> Result<Snapshot, StoreError> {
        self.call(Conn::load)
    }

    fn finished(&mut self) -> Result<Vec<StoredGame>, StoreError> {
        self.call(Conn::finished)
    }
}
