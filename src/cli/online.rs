//! `reversi online`: the online screen (lobby and tables of a salon server),
//! or with `--bot SPEC` the headless client that plays games with the
//! built-in engine and prints one line per finished game. Both speak
//! `ws://` and `wss://`; `--ca FILE` (or `REVERSI_CA`) adds a certificate
//! to trust, read once at the start.

use super::UserError;
use crate::arena::PlayerSpec;
use crate::net::client::{BotConfig, BotEvent, BotPlayer, ClientError, Seating, Trust, run_bot};
use crate::net::protocol::{ClockSpec, ColourChoice, Opponent, ScoringRule, TableSpec, Variant};
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

/// The environment variable naming a certificate file to trust, as `--ca`.
pub const CA_VAR: &str = "REVERSI_CA";

/// Arguments of `reversi online`.
#[derive(Debug, clap::Args)]
pub struct OnlineArgs {
    /// The server, ws://host:port or wss://host:port (default: the one used
    /// last, else ws://127.0.0.1:7878).
    pub url: Option<String>,
    /// Also trust the certificates of this PEM file over wss:// (a
    /// self-hosted server's certificate, or the authority that signed it);
    /// default: the file named by REVERSI_CA, if set. Mozilla's root
    /// certificates are always trusted.
    #[arg(long, value_name = "FILE")]
    pub ca: Option<PathBuf>,
    /// The name to play under (letters, digits, '_', '-', '.'; at most 20;
    /// default: the one used last).
    #[arg(long)]
    pub name: Option<String>,
    /// Play headless instead of opening the screen, as a built-in player of
    /// `match`: `level:N` (1–12), `depth:N`, `time:SECS`, or the reference
    /// players `greedy` and `random`.
    #[arg(long, value_name = "SPEC")]
    pub bot: Option<String>,
    /// Games to finish (with --bot).
    #[arg(long, default_value_t = 1, value_parser = super::parse_at_least_one, requires = "bot")]
    pub games: u32,
    /// Create a table at once (with --bot: always create, never join).
    #[arg(long, conflicts_with_all = ["join", "watch"])]
    pub create: bool,
    /// Join this table at once.
    #[arg(long, value_name = "ID", conflicts_with = "watch")]
    pub join: Option<u64>,
    /// Watch this table at once (not with --bot).
    #[arg(long, value_name = "ID", conflicts_with = "bot")]
    pub watch: Option<u64>,
    /// The colour at tables this client creates.
    #[arg(long, value_enum, default_value_t = ColourArg::Random)]
    pub colour: ColourArg,
    /// The board of tables this client creates.
    #[arg(long, value_enum, default_value_t = VariantName::Eight)]
    pub variant: VariantName,
    /// Anti Reversi (on 8×8) and the scoring rule of tables this client
    /// creates.
    #[command(flatten)]
    pub rules: super::start::RuleFlags,
    /// The clock of tables this client creates, `BASE+INC` in seconds (e.g.
    /// `300+5`); none by default.
    #[arg(long, value_name = "BASE+INC")]
    pub clock: Option<String>,
    /// Invite only this player to tables this client creates.
    #[arg(long, value_name = "NAME")]
    pub invite: Option<String>,
    /// Give up after this many seconds without reaching the server (with --bot).
    #[arg(long, default_value_t = 60)]
    pub give_up: u64,
    /// Only ASCII glyphs on the screen.
    #[arg(long)]
    pub ascii: bool,
    /// Leave the mouse to the terminal (no click to play).
    #[arg(long)]
    pub no_mouse: bool,
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
    /// Anti Reversi on 8×8 (also spelt `--anti`, as in `play`).
    #[value(hide = true)]
    Anti,
}

fn parse_clock(text: &str) -> Result<ClockSpec, UserError> {
    let bad = || {
        UserError::input(format!(
            "--clock {text}: expected BASE+INC in seconds, e.g. 300+5"
        ))
    };
    let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
    let secs = |s: &str| -> Result<f64, UserError> {
        let v: f64 = s.trim().parse().map_err(|_| bad())?;
        if v.is_finite() && v >= 0.0 {
            Ok(v)
        } else {
            Err(bad())
        }
    };
    let (base, inc) = (secs(base)?, secs(inc)?);
    // The server's limits, said here before any connection is made.
    if !(1.0..=10_800.0).contains(&base) || inc > 60.0 {
        return Err(UserError::input(format!(
            "--clock {text}: the base time must be 1 s to 3 h (10800) and the increment at most 60 s"
        )));
    }
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let ms = |v: f64| (v * 1000.0).round() as u64;
    Ok(ClockSpec {
        base_ms: ms(base),
        increment_ms: ms(inc),
    })
}

/// The table `--create` asks for.
fn table_spec(args: &OnlineArgs) -> Result<TableSpec, UserError> {
    Ok(TableSpec {
        variant: match (args.variant, args.rules.anti) {
            (VariantName::Eight, false) => Variant::Eight,
            (VariantName::Six, false) => Variant::Six,
            (VariantName::Eight | VariantName::Anti, _) => Variant::Anti,
            (VariantName::Six, true) => {
                return Err(UserError::input(
                    "--anti: a salon plays Anti Reversi on 8×8 only, not with --variant 6x6",
                ));
            }
        },
        scoring: args.rules.scoring().map(ScoringRule::from),
        colour: match args.colour {
            ColourArg::Black => ColourChoice::Black,
            ColourArg::White => ColourChoice::White,
            ColourArg::Random => ColourChoice::Random,
        },
        clock: args.clock.as_deref().map(parse_clock).transpose()?,
        opponent: match &args.invite {
            None => Opponent::Open,
            Some(name) => Opponent::Invite {
                name: crate::net::text::validate_name(name)
                    .map_err(|e| UserError::input(format!("--invite {name:?}: {e}")))?,
            },
        },
    })
}

fn checked_name(name: &str) -> Result<String, UserError> {
    crate::net::text::validate_name(name)
        .map_err(|e| UserError::input(format!("--name {name:?}: {e}")))
}

/// The server's WebSocket address for `url` as typed (`http://` read as
/// `ws://`, `https://` as `wss://`, `host:port` as `ws://host:port`).
fn checked_url(url: &str) -> Result<String, UserError> {
    let meant = crate::net::client::salon_url(url);
    let parsed = meant
        .parse::<tokio_tungstenite::tungstenite::http::Uri>()
        .ok();
    let scheme = parsed.as_ref().and_then(|u| u.scheme_str());
    if matches!(scheme, Some("ws" | "wss")) && parsed.as_ref().and_then(|u| u.host()).is_some() {
        Ok(meant)
    } else {
        Err(UserError::input(format!(
            "{url:?}: expected a server address ws://host:port or wss://host:port (http://, https:// and host:port are read as those)"
        )))
    }
}

/// The certificates to believe: Mozilla's roots, and those of `--ca` (else
/// of the file `REVERSI_CA` names).
fn trust(args: &OnlineArgs) -> Result<Trust, UserError> {
    trust_with(args.ca.as_ref())
}

/// Mozilla's roots, and the certificates of `ca` (else of the file
/// `REVERSI_CA` names): the `--ca` flag of `online` and `loadtest`.
pub(super) fn trust_with(ca: Option<&PathBuf>) -> Result<Trust, UserError> {
    let (flag, path) = match (ca, std::env::var_os(CA_VAR)) {
        (Some(path), _) => ("--ca", path.clone()),
        (None, Some(path)) if !path.is_empty() => (CA_VAR, PathBuf::from(path)),
        _ => return Ok(Trust::default()),
    };
    Trust::with_pem_file(&path).map_err(|e| UserError::input(format!("{flag} {e}")))
}

/// Runs `reversi online`.
///
/// # Errors
/// A bad engine spec, name, address or clock (status 2), a refusal by the
/// server or a server that cannot be reached with `--bot` (status 1).
pub fn run(args: &OnlineArgs) -> Result<(), UserError> {
    match &args.bot {
        Some(bot) => run_bot_client(args, bot),
        None => run_screen(args),
    }
}

/// The online screen; afterwards, the local game's screens (back to the
/// new-game screen, or a replay of the finished game).
fn run_screen(args: &OnlineArgs) -> Result<(), UserError> {
    use crate::ui::online::{self, Intent, Start, settings};
    let spec = table_spec(args)?;
    let trust = trust(args)?;
    let config = crate::dirs::config_dir().ok();
    let remembered = config
        .as_deref()
        .map_or_else(|| settings::parse_all(""), settings::read);
    let url = args.url.clone().unwrap_or_else(|| remembered.url.clone());
    let url = checked_url(&url)?;
    let name = match &args.name {
        Some(n) => checked_name(n)?,
        None => remembered.name.clone(),
    };
    super::play::require_terminal()?;
    let server = online::Server::new(url, name, &remembered.tokens);
    let connect = crate::net::text::validate_name(&server.name).is_ok();
    if connect && let Some(dir) = &config {
        // Remembered for the next time, as the connect form does.
        let _ = settings::save(dir, &server);
    }
    let intent = if args.create {
        Some(Intent::Create(spec))
    } else if let Some(id) = args.join {
        Some(Intent::Join(id))
    } else {
        args.watch.map(Intent::Watch)
    };
    let look = crate::ui::Look {
        color: !crate::ui::no_color(),
        ascii: args.ascii,
    };
    let start = Start {
        server,
        connect,
        intent,
        trust,
    };
    let mut options = crate::ui::Options::interactive(super::screen_language(args.lang));
    options.look = look;
    options.mouse = !args.no_mouse;
    options.offer_resume = false;
    options.online = Some(start);
    crate::ui::run(options).map_err(UserError::from)
}

/// The headless client.
fn run_bot_client(args: &OnlineArgs, bot: &str) -> Result<(), UserError> {
    let player = match PlayerSpec::parse_builtin(bot)
        .map_err(|e| UserError::input(format!("--bot {bot}: {e}")))?
    {
        PlayerSpec::Builtin { limits, .. } => BotPlayer::Engine(limits),
        PlayerSpec::Reference(r) => BotPlayer::Reference(r),
        PlayerSpec::External { .. } => {
            return Err(UserError::input(
                "--bot: expected a built-in player (level:N, depth:N, greedy, random…), not an external engine",
            ));
        }
    };
    let Some(name) = &args.name else {
        return Err(UserError::input("--bot needs --name NAME"));
    };
    let name = checked_name(name)?;
    let url = args
        .url
        .clone()
        .unwrap_or_else(|| crate::ui::online::settings::DEFAULT_URL.into());
    let url = checked_url(&url)?;
    let config = BotConfig {
        url: url.clone(),
        trust: trust(args)?,
        token: None,
        name,
        player,
        games: args.games,
        seating: match (args.create, args.join) {
            (true, _) => Seating::Create,
            (_, Some(id)) => Seating::Join(id),
            _ => Seating::Auto,
        },
        spec: table_spec(args)?,
        give_up_after: Duration::from_secs(args.give_up),
        seed: rand::random(),
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .map_err(|e| UserError::from(anyhow::anyhow!("cannot start the runtime: {e}")))?;
    let mut report = |event: &BotEvent| match event {
        BotEvent::Finished(g) => {
            let mut out = std::io::stdout().lock();
            let _ = writeln!(out, "{g}");
            let _ = out.flush();
        }
        BotEvent::Seated { table, waiting } => {
            if *waiting {
                eprintln!("reversi online: at table {table}, waiting for an opponent");
            } else {
                eprintln!("reversi online: playing at table {table}");
            }
        }
        BotEvent::ServerSaid { code, message } => {
            eprintln!("reversi online: server says ({code:?}): {message}");
        }
        BotEvent::Retrying { reason, retry_in } => {
            eprintln!(
                "reversi online: {reason}; trying again in {:.1} s",
                retry_in.as_secs_f64()
            );
        }
    };
    runtime
        .block_on(run_bot(&config, &mut report))
        .map(|_| ())
        .map_err(|e| match e {
            // These name the address already.
            ClientError::Connect { .. } | ClientError::Tls { .. } | ClientError::Address { .. } => {
                UserError::from(anyhow::anyhow!("{e}"))
            }
            e => UserError::from(anyhow::anyhow!("{url}: {e}")),
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    fn spec(args: &[&str]) -> Result<TableSpec, UserError> {
        #[derive(Parser)]
        struct Wrap {
            #[command(flatten)]
            online: OnlineArgs,
        }
        let mut all = vec!["online"];
        all.extend_from_slice(args);
        table_spec(&Wrap::try_parse_from(all).unwrap().online)
    }

    #[test]
    fn created_tables_take_the_rule_flags_of_play() {
        let s = spec(&["--anti"]).unwrap();
        assert_eq!((s.variant, s.scoring), (Variant::Anti, None));
        let s = spec(&["--variant", "anti"]).unwrap();
        assert_eq!(s.variant, Variant::Anti, "the older spelling still works");
        let s = spec(&["--variant", "6x6", "--empties-to-nobody"]).unwrap();
        assert_eq!(
            (s.variant, s.scoring),
            (Variant::Six, Some(ScoringRule::EmptiesToNobody))
        );
        let s = spec(&["--anti", "--empties-to-winner"]).unwrap();
        assert_eq!(
            (s.variant, s.scoring),
            (Variant::Anti, Some(ScoringRule::EmptiesToWinner))
        );
        assert_eq!(spec(&[]).unwrap().variant, Variant::Eight);
        let e = spec(&["--variant", "6x6", "--anti"]).unwrap_err();
        assert!(e.message.contains("8×8 only"), "{}", e.message);
    }
}
