//! `reversi online`: the headless client. Plays games at a salon server with
//! the built-in engine and prints one line per finished game.

use super::UserError;
use crate::arena::PlayerSpec;
use crate::net::client::{BotConfig, Seating, run_bot};
use crate::net::protocol::{ClockSpec, ColourChoice, Opponent, TableSpec, Variant};
use std::io::Write;
use std::time::Duration;

/// Arguments of `reversi online`.
#[derive(Debug, clap::Args)]
pub struct OnlineArgs {
    /// The server.
    #[arg(default_value = "ws://127.0.0.1:7878")]
    pub url: String,
    /// The name to play under (letters, digits, '_', '-', '.'; at most 20).
    #[arg(long)]
    pub name: String,
    /// The engine: `level:N` (1–12), `depth:N` or `time:SECS`, as in `match`.
    #[arg(long, default_value = "level:1")]
    pub bot: String,
    /// Games to finish.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub games: u32,
    /// Always create a table (default: join an open table if there is one).
    #[arg(long, conflicts_with = "join")]
    pub create: bool,
    /// Join this table for the first game.
    #[arg(long, value_name = "ID")]
    pub join: Option<u64>,
    /// The colour at tables this client creates.
    #[arg(long, value_enum, default_value_t = ColourArg::Random)]
    pub colour: ColourArg,
    /// The variant of tables this client creates.
    #[arg(long, value_enum, default_value_t = VariantName::Eight)]
    pub variant: VariantName,
    /// The clock of tables this client creates, `BASE+INC` in seconds (e.g.
    /// `300+5`); none by default.
    #[arg(long, value_name = "BASE+INC")]
    pub clock: Option<String>,
    /// Invite only this player to tables this client creates.
    #[arg(long, value_name = "NAME")]
    pub invite: Option<String>,
    /// Give up after this many seconds without reaching the server.
    #[arg(long, default_value_t = 60)]
    pub give_up: u64,
    /// The language of the game screen (see `reversi --help`).
    #[arg(long, value_enum, value_name = "LANG")]
    pub lang: Option<super::LangArg>,
}

/// `--colour`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ColourArg {
    /// Black.
    Black,
    /// White.
    White,
    /// Drawn when the game starts.
    Random,
}

/// `--variant` of the tables created.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum VariantName {
    /// 8×8.
    #[value(name = "8x8")]
    Eight,
    /// 6×6.
    #[value(name = "6x6")]
    Six,
    /// Anti Reversi on 8×8.
    Anti,
}

fn parse_clock(text: &str) -> Result<ClockSpec, UserError> {
    let bad = || {
        UserError::input(format!(
            "--clock {text}: expected BASE+INC in seconds, e.g. 300+5"
        ))
    };
    let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
    let secs = |s: &str| -> Result<u64, UserError> {
        let v: f64 = s.trim().parse().map_err(|_| bad())?;
        if !(0.0..=86_400.0).contains(&v) {
            return Err(bad());
        }
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        Ok((v * 1000.0).round() as u64)
    };
    Ok(ClockSpec {
        base_ms: secs(base)?,
        increment_ms: secs(inc)?,
    })
}

/// Runs `reversi online`.
///
/// # Errors
/// A bad engine spec or clock (status 2), a refusal by the server or a server
/// that cannot be reached (status 1).
pub fn run(args: &OnlineArgs) -> Result<(), UserError> {
    let limits = match PlayerSpec::parse_builtin(&args.bot)
        .map_err(|e| UserError::input(format!("--bot {}: {e}", args.bot)))?
    {
        PlayerSpec::Builtin { limits, .. } => limits,
        PlayerSpec::External { .. } | PlayerSpec::Reference(_) => {
            return Err(UserError::input("--bot: expected a built-in engine"));
        }
    };
    let name = crate::net::text::validate_name(&args.name)
        .map_err(|e| UserError::input(format!("--name {:?}: {e}", args.name)))?;
    let spec = TableSpec {
        variant: match args.variant {
            VariantName::Eight => Variant::Eight,
            VariantName::Six => Variant::Six,
            VariantName::Anti => Variant::Anti,
        },
        scoring: None,
        colour: match args.colour {
            ColourArg::Black => ColourChoice::Black,
            ColourArg::White => ColourChoice::White,
            ColourArg::Random => ColourChoice::Random,
        },
        clock: args.clock.as_deref().map(parse_clock).transpose()?,
        opponent: args
            .invite
            .clone()
            .map_or(Opponent::Open, |name| Opponent::Invite { name }),
    };
    let config = BotConfig {
        url: args.url.clone(),
        name,
        limits,
        games: args.games,
        seating: match (args.create, args.join) {
            (true, _) => Seating::Create,
            (_, Some(id)) => Seating::Join(id),
            _ => Seating::Auto,
        },
        spec,
        give_up_after: Duration::from_secs(args.give_up),
        seed: rand::random(),
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .map_err(|e| UserError::from(anyhow::anyhow!("cannot start the runtime: {e}")))?;
    let mut report = |g: &crate::net::client::GameSummary| {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "{g}");
        let _ = out.flush();
    };
    runtime
        .block_on(run_bot(&config, &mut report))
        .map(|_| ())
        .map_err(|e| UserError::from(anyhow::anyhow!("{}: {e}", args.url)))
}
