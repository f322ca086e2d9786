//! The load benchmark: pairs of fast bots (random legal moves, no search)
//! play games through a server, `concurrency` games at once, and the time
//! from sending a move to receiving the server's acknowledgement (the
//! `moved` message, sent after the move is committed to disk) is measured.
//! Each bot keeps within the limits the server states in `welcome` (a
//! [`Pacer`] a little inside the server's token bucket), so a run against a
//! server with its default limits measures the server, not its rate limit.
//! Connections go through [`Connection::open`], so `wss://` works as
//! `ws://` does. [`abuse`] holds two measurements of misbehaving clients.

pub mod abuse;

use super::client::{ClientError, Connection, GameView, Trust};
use super::protocol::{
    ClientMsg, ColourChoice, Limits, Opponent, PROTOCOL_VERSION, ServerMsg, TableId, TableSpec,
};
use crate::random;
use crate::rules::{Move, Position};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use tokio::sync::Mutex;

/// What to run.
#[derive(Clone, Debug)]
pub struct LoadConfig {
    /// The server, `ws://host:port`.
    pub url: String,
    /// Games to play in all.
    pub games: usize,
    /// Games at once (two connections each).
    pub concurrency: usize,
    /// Stop after this long, finished or not.
    pub time_limit: Duration,
    /// How long a bot waits before each of its moves (0: at once).
    pub think: Duration,
    /// The certificates believed over `wss://`.
    pub trust: Trust,
}

/// What was measured.
#[derive(Clone, Debug, Default)]
pub struct LoadReport {
    /// Games finished.
    pub games: usize,
    /// Moves acknowledged.
    pub moves: usize,
    /// Wall-clock time of the run.
    pub elapsed: Duration,
    /// Move round trips, sorted.
    pub round_trips: Vec<Duration>,
    /// Errors (refusals, dropped connections, time-outs).
    pub errors: usize,
    /// The first few errors.
    pub error_samples: Vec<String>,
}

impl LoadReport {
    /// The `q` quantile (0..=1) of the round trips, in milliseconds.
    #[must_use]
    pub fn quantile_ms(&self, q: f64) -> f64 {
        quantile_ms(&self.round_trips, q)
    }

    /// Games per second.
    #[must_use]
    pub fn games_per_sec(&self) -> f64 {
        #[allow(clippy::cast_precision_loss)]
        let g = self.games as f64;
        g / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// The `q` quantile (0..=1) of `sorted` durations, in milliseconds (0 for
/// none): the nearest rank, rounded up, so p99 of 100 samples is the 99th.
#[must_use]
pub fn quantile_ms(sorted: &[Duration], q: f64) -> f64 {
    let Some(last) = sorted.len().checked_sub(1) else {
        return 0.0;
    };
    #[allow(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        clippy::cast_precision_loss
    )]
    let i = ((q * sorted.len() as f64).ceil() as usize)
        .saturating_sub(1)
        .min(last);
    sorted[i].as_secs_f64() * 1000.0
}

#[derive(Default)]
struct Shared {
    round_trips: Vec<Duration>,
    games: usize,
    errors: usize,
    samples: Vec<String>,
}

impl Shared {
    fn error(&mut self, e: impl std::fmt::Display) {
        self.errors += 1;
        if self.samples.len() < 5 {
            self.samples.push(e.to_string());
        }
    }
}

/// Runs the benchmark against `config.url`.
pub async fn run_load(config: &LoadConfig) -> LoadReport {
    let shared = Arc::new(Mutex::new(Shared::default()));
    let next = Arc::new(AtomicUsize::new(0));
    let started = Instant::now();
    let mut tasks = Vec::new();
    for pair in 0..config.concurrency.max(1) {
        let shared = Arc::clone(&shared);
        let next = Arc::clone(&next);
        let config = config.clone();
        tasks.push(tokio::spawn(async move {
            if let Err(e) = run_pair(pair, &config, &next, &shared).await {
                shared.lock().await.error(e);
            }
        }));
    }
    let all = futures_util::future::join_all(tasks);
    if tokio::time::timeout(config.time_limit, all).await.is_err() {
        shared.lock().await.error(format!(
            "time limit of {} s reached",
            config.time_limit.as_secs()
        ));
    }
    let elapsed = started.elapsed();
    let mut s = shared.lock().await;
    let mut round_trips = std::mem::take(&mut s.round_trips);
    round_trips.sort_unstable();
    LoadReport {
        games: s.games,
        moves: round_trips.len(),
        elapsed,
        round_trips,
        errors: s.errors,
        error_samples: s.samples.clone(),
    }
}

/// A client-side token bucket kept a little inside the server's: 90 % of
/// its rate, two messages short of its burst.
#[derive(Clone, Debug)]
pub struct Pacer {
    tokens: f64,
    last: Instant,
    rate: f64,
    burst: f64,
}

impl Pacer {
    /// A bucket within `limits`, with the `hello` already sent taken from it.
    #[must_use]
    pub fn within(limits: &Limits) -> Pacer {
        let burst = (f64::from(limits.burst) - 2.0).max(1.0);
        Pacer {
            tokens: burst - 1.0,
            last: Instant::now(),
            rate: limits.messages_per_sec * 0.9,
            burst,
        }
    }

    /// The messages per second it allows on average.
    #[must_use]
    pub fn rate(&self) -> f64 {
        self.rate
    }

    fn refill(&mut self) {
        let now = Instant::now();
        self.tokens =
            (self.tokens + now.duration_since(self.last).as_secs_f64() * self.rate).min(self.burst);
        self.last = now;
    }

    /// Waits until one more message is within the limits, and counts it.
    pub async fn wait(&mut self) {
        self.refill();
        if self.tokens < 1.0 && self.rate > 0.0 {
            tokio::time::sleep(Duration::from_secs_f64((1.0 - self.tokens) / self.rate)).await;
            self.refill();
        }
        self.tokens -= 1.0;
    }
}

/// A bot's connection, paced within the server's limits (when it states
/// them).
struct Bot {
    conn: Connection,
    pacer: Option<Pacer>,
}

impl Bot {
    async fn pace(&mut self) {
        if let Some(p) = &mut self.pacer {
            p.wait().await;
        }
    }

    async fn send(&mut self, msg: &ClientMsg) -> Result<(), ClientError> {
        self.pace().await;
        self.conn.send(msg).await
    }

    async fn recv(&mut self) -> Result<ServerMsg, ClientError> {
        self.conn.recv().await
    }
}

/// Opens a connection to `url` and says hello as `name`; returns it with
/// the limits the server stated.
async fn hello(
    url: &str,
    trust: &Trust,
    name: String,
) -> Result<(Connection, Option<Limits>), ClientError> {
    let mut c = Connection::open_with(url, trust).await?;
    c.send(&ClientMsg::Hello {
        protocol: PROTOCOL_VERSION,
        name,
        token: None,
        lobby: false,
    })
    .await?;
    match c.recv().await? {
        ServerMsg::Welcome { limits, .. } => Ok((c, limits)),
        ServerMsg::Error { message, .. } => Err(ClientError::Protocol(message)),
        other => Err(ClientError::Protocol(format!(
            "expected welcome, got {other:?}"
        ))),
    }
}

async fn bot(url: &str, trust: &Trust, name: String) -> Result<Bot, ClientError> {
    let (conn, limits) = hello(url, trust, name).await?;
    Ok(Bot {
        conn,
        pacer: limits.as_ref().map(Pacer::within),
    })
}

/// The limits the server at `url` states (`None` from a server that does
/// not state them), from one short connection.
///
/// # Errors
/// [`ClientError`] when the server cannot be reached or refuses the hello.
pub async fn server_limits(url: &str, trust: &Trust) -> Result<Option<Limits>, ClientError> {
    let name = format!("lt{}-probe", std::process::id() % 10_000);
    let (conn, limits) = hello(url, trust, name).await?;
    conn.close().await;
    Ok(limits)
}

/// One pair of bots: two connections playing game after game until the
/// shared count is reached.
async fn run_pair(
    pair: usize,
    config: &LoadConfig,
    next: &AtomicUsize,
    shared: &Mutex<Shared>,
) -> Result<(), ClientError> {
    let tag = std::process::id() % 10_000;
    let a_name = format!("lt{tag}-{pair}a");
    let b_name = format!("lt{tag}-{pair}b");
    let mut a = bot(&config.url, &config.trust, a_name).await?;
    let mut b = bot(&config.url, &config.trust, b_name.clone()).await?;
    let mut seeds = random::stream(0x10ad, pair as u64);
    while next.fetch_add(1, Ordering::Relaxed) < config.games {
        a.send(&ClientMsg::Create(TableSpec {
            colour: ColourChoice::Random,
            opponent: Opponent::Invite {
                name: b_name.clone(),
            },
            ..TableSpec::default()
        }))
        .await?;
        let table = loop {
            match a.recv().await? {
                ServerMsg::Game(state) => break state.table.id,
                ServerMsg::Error { message, .. } => return Err(ClientError::Protocol(message)),
                _ => {}
            }
        };
        b.send(&ClientMsg::Join { table }).await?;
        let (seed_a, seed_b) = (random::next(&mut seeds), random::next(&mut seeds));
        let (ra, rb) = tokio::join!(
            play_side(&mut a, table, seed_a, config.think),
            play_side(&mut b, table, seed_b, config.think)
        );
        let (rtt_a, rtt_b) = (ra?, rb?);
        let mut s = shared.lock().await;
        s.round_trips.extend(rtt_a);
        s.round_trips.extend(rtt_b);
        s.games += 1;
        drop(s);
        a.send(&ClientMsg::Leave { table }).await?;
        b.send(&ClientMsg::Leave { table }).await?;
    }
    a.conn.close().await;
    b.conn.close().await;
    Ok(())
}

/// Plays one side of a game with random legal moves; returns the round trip
/// of each of its moves.
async fn play_side(
    conn: &mut Bot,
    table: TableId,
    seed: u64,
    think: Duration,
) -> Result<Vec<Duration>, ClientError> {
    let mut rng = random::seeded(seed);
    let mut view: Option<GameView> = None;
    let mut pending: Option<(usize, Instant)> = None;
    let mut rtts = Vec::with_capacity(32);
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(30), conn.recv())
            .await
            .map_err(|_| ClientError::Protocol("no message for 30 s".into()))??;
        match msg {
            ServerMsg::Game(state) if state.table.id == table && state.you.is_some() => {
                view = Some(GameView::from_state(&state)?);
            }
            ServerMsg::Moved {
                table: t, ply, mv, ..
            } if t == table => {
                if let Some(v) = view.as_mut() {
                    v.apply(ply, &mv)?;
                }
                if let Some((p, sent)) = pending
                    && p == ply
                {
                    rtts.push(sent.elapsed());
                    pending = None;
                }
            }
            ServerMsg::Ended { table: t, .. } if t == table => return Ok(rtts),
            ServerMsg::Error { message, .. } => return Err(ClientError::Protocol(message)),
            _ => {}
        }
        if let Some(v) = &view
            && pending.is_none()
            && v.is_our_turn()
        {
            let square = random_move(&v.game.position(), &mut rng);
            if !think.is_zero() {
                tokio::time::sleep(think).await;
            }
            // The round trip starts once the pacing allows the move.
            conn.pace().await;
            pending = Some((v.moves.len() + 1, Instant::now()));
            conn.conn.send(&ClientMsg::Move { table, square }).await?;
        }
    }
}

fn random_move(position: &Position, rng: &mut random::Rng) -> String {
    random::pick(rng, &position.moves_list())
        .copied()
        .unwrap_or(Move::Pass)
        .to_string()
}
