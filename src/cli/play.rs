//! `reversi play`: start a game at once, set up from flags, in the full-screen
//! UI. Also the no-argument `reversi`, which opens the new-game screen.

use super::{UserError, VariantArg};
use crate::ai::Level;
use crate::i18n::Lang;
use crate::random;
use crate::rules::Color;
use crate::ui::{self, Look, Options, Player, Setup};
use clap::ValueEnum;
use std::path::{Path, PathBuf};

/// Arguments of `reversi play`.
#[derive(Debug, Default, clap::Args)]
#[command(allow_negative_numbers = true)]
pub struct PlayArgs {
    /// Who plays Black: `human`, `ai` or `ai:LEVEL` (1–12 or a level name).
    /// Unset: the other side's opposite (a person against the AI).
    #[arg(long, value_name = "PLAYER", value_parser = parse_player, conflicts_with = "colour")]
    pub black: Option<PlayerArg>,
    /// Who plays White, as for `--black`.
    #[arg(long, value_name = "PLAYER", value_parser = parse_player, conflicts_with = "colour")]
    pub white: Option<PlayerArg>,
    /// Your colour against the AI (shorthand for `--black`/`--white`).
    #[arg(long, value_enum, value_name = "COLOUR", alias = "color")]
    pub colour: Option<ColourArg>,
    /// The AI's level, 1 (beginner) to 12 (master) by number or name; the
    /// default is 3 (casual).
    #[arg(long, value_name = "N", long_help = super::level_help())]
    pub level: Option<Level>,
    /// Board size (taken from `--position` when that is given).
    #[arg(long, value_enum)]
    pub variant: Option<VariantArg>,
    /// Anti Reversi and the scoring rule.
    #[command(flatten)]
    pub rules: super::start::RuleFlags,
    /// Seed for the colour draw and the AI's randomness (repeatable games).
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// Moves already played, e.g. `f5d6c3` (from the start or from `--position`).
    #[arg(long, value_name = "TRANSCRIPT")]
    pub moves: Option<String>,
    /// Start position as a board string (OBF): 64 or 36 squares of `X`, `O`,
    /// `-`, then the side to move.
    #[arg(long, value_name = "OBF", allow_hyphen_values = true)]
    pub position: Option<String>,
    /// Only ASCII characters (for terminals without good Unicode).
    #[arg(long)]
    pub ascii: bool,
    /// The language of the game screen (see `reversi --help`).
    #[arg(long, value_enum, value_name = "LANG")]
    pub lang: Option<super::LangArg>,
    /// Do not capture the mouse (leaves text selection to the terminal).
    #[arg(long)]
    pub no_mouse: bool,
    /// The AI's transposition table size in MiB.
    #[arg(long, value_name = "MB", default_value_t = 64,
          value_parser = super::parse_hash)]
    pub hash: u32,
    /// The opening book (levels 10–12 and the hint use it).
    #[command(flatten)]
    pub book: super::BookFlags,
    /// Load a saved game (GGF): an unfinished one is resumed, a finished one
    /// opens in replay.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["moves", "position", "resume"])]
    pub load: Option<PathBuf>,
    /// Which game of a file with several (with `--load`), from 1.
    #[arg(long, value_name = "N", requires = "load", value_parser = super::parse_at_least_one)]
    pub game: Option<u32>,
    /// Resume the autosaved unfinished game without asking.
    #[arg(long, conflicts_with_all = ["moves", "position"])]
    pub resume: bool,
    /// Where `s` saves the game (default: a new file under the data directory).
    #[arg(long, value_name = "PATH")]
    pub save: Option<PathBuf>,
}

/// A player on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayerArg {
    /// A person.
    Human,
    /// The AI, at a level or at `--level`.
    Ai(Option<Level>),
}

/// A colour on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColourArg {
    /// Black (moves first).
    Black,
    /// White.
    White,
    /// Drawn at random; the screen says who got which.
    Random,
}

fn parse_player(text: &str) -> Result<PlayerArg, String> {
    let t = text.trim().to_ascii_lowercase();
    match t.split_once(':') {
        None if t == "human" => Ok(PlayerArg::Human),
        None if t == "ai" => Ok(PlayerArg::Ai(None)),
        Some(("ai", level)) => level
            .parse::<Level>()
            .map(|l| PlayerArg::Ai(Some(l)))
            .map_err(|e| e.to_string()),
        _ => Err(format!("`{text}` is no player: use human, ai or ai:LEVEL")),
    }
}

/// Builds the game and the players the flags ask for; a colour drawn at
/// random (with `random`'s lowest bit) is said in `lang`.
///
/// # Errors
/// [`UserError`] (status 2) for a bad board string or transcript, or a
/// `--variant` that contradicts `--position`.
pub fn setup(args: &PlayArgs, random: u64, lang: Lang) -> Result<Setup, UserError> {
    let game = super::start::Start {
        position: args.position.as_deref(),
        variant: args.variant,
        moves: args.moves.as_deref(),
        moves_flag: Some("--moves"),
    }
    .game(|size| args.rules.rules(size))?;

    let level = args.level.unwrap_or(Level::DEFAULT);
    let resolve = |p: PlayerArg| match p {
        PlayerArg::Human => Player::Human,
        PlayerArg::Ai(l) => Player::Ai(l.unwrap_or(level)),
    };
    let opposite = |p: PlayerArg| match p {
        PlayerArg::Human => Player::Ai(level),
        PlayerArg::Ai(_) => Player::Human,
    };
    let mut note = None;
    let players = match (args.black, args.white) {
        (Some(b), Some(w)) => [resolve(b), resolve(w)],
        (Some(b), None) => [resolve(b), opposite(b)],
        (None, Some(w)) => [opposite(w), resolve(w)],
        (None, None) => {
            let colour = match args.colour.unwrap_or(ColourArg::Random) {
                ColourArg::Black => Color::Black,
                ColourArg::White => Color::White,
                ColourArg::Random => {
                    let c = if random & 1 == 0 {
                        Color::Black
                    } else {
                        Color::White
                    };
                    note = Some(crate::tr!(lang, "note-drawn", you = ui::words::side(c)));
                    c
                }
            };
            match colour {
                Color::Black => [Player::Human, Player::Ai(level)],
                Color::White => [Player::Ai(level), Player::Human],
            }
        }
    };
    Ok(Setup {
        game,
        players,
        names: [None, None],
        note,
        replay: false,
        reviews: ui::model::Reviews::default(),
    })
}

/// Runs `reversi play`.
///
/// # Errors
/// Bad flags (status 2) or a terminal failure.
pub fn run(args: &PlayArgs) -> Result<(), UserError> {
    let lang = super::screen_language(args.lang);
    let seed = args.seed.unwrap_or_else(random::fresh_seed);
    let colour_draw = random::next(&mut random::stream(seed, 1));
    let setup = if let Some(path) = &args.load {
        ui::record::setup_of(lang, &load_game(path, args.game)?)
    } else if args.resume {
        resume(lang)?
    } else {
        setup(args, colour_draw, lang)?
    };
    require_terminal()?;
    let options = Options {
        start: Some(setup),
        look: Look {
            color: !ui::no_color(),
            ascii: args.ascii,
        },
        mouse: !args.no_mouse,
        hash_mb: args.hash as usize,
        book: args.book.load()?,
        seed: Some(seed),
        save: args.save.clone(),
        offer_resume: false,
        online: None,
        learn: false,
        lang,
    };
    ui::run(options).map_err(UserError::from)
}

/// Fails with status 2 and a clear message (writing nothing to stdout) when
/// stdin or stdout is not a terminal.
///
/// # Errors
/// [`UserError`] without a terminal.
pub fn require_terminal() -> Result<(), UserError> {
    if ui::has_terminal() {
        Ok(())
    } else {
        Err(UserError::input(ui::NO_TERMINAL))
    }
}

/// Game `n` (from 1; the first when `None`) of a GGF file.
///
/// # Errors
/// [`UserError`] (status 2) for an unreadable or malformed file or a game
/// number out of range.
pub fn load_game(path: &Path, n: Option<u32>) -> Result<crate::notation::ggf::Record, UserError> {
    Ok(load_game_of(path, n)?.0)
}

/// [`load_game`] and how many games the file holds.
///
/// # Errors
/// As [`load_game`].
pub fn load_game_of(
    path: &Path,
    n: Option<u32>,
) -> Result<(crate::notation::ggf::Record, usize), UserError> {
    use crate::notation::collection::{self, Format};
    // By the name, else by the first game in the file: GGF keeps its
    // reviews and cursor; the other collections (transcripts included) are
    // read as `convert` reads them.
    let format = Format::from_path(path).unwrap_or_else(|| {
        std::fs::read(path).map_or(Format::Ggf, |b| Format::sniff(&String::from_utf8_lossy(&b)))
    });
    let mut records = match format {
        Format::Ggf => ui::record::load(path).map_err(UserError::input)?,
        f => collection::read_path(path, Some(f)).map_err(UserError::input)?,
    };
    let count = records.len();
    let n = n.unwrap_or(1) as usize;
    if n > count {
        return Err(UserError::input(format!(
            "{} holds {}; --game {n} is not one of them",
            path.display(),
            super::counted(count, "game", "games")
        )));
    }
    Ok((records.swap_remove(n - 1), count))
}

/// The autosaved unfinished game, for `--resume`.
fn resume(lang: Lang) -> Result<Setup, UserError> {
    let dir = crate::dirs::data_dir().map_err(UserError::input)?;
    match ui::record::read_autosave(lang, &dir, std::time::SystemTime::now()) {
        ui::record::Autosaved::Unfinished(r) => Ok(ui::record::setup_of(lang, &r)),
        ui::record::Autosaved::Nothing => Err(UserError::input(format!(
            "no unfinished game to resume (looked for {})",
            dir.join(ui::record::AUTOSAVE).display()
        ))),
        ui::record::Autosaved::Corrupt { message } => Err(UserError::input(message)),
    }
}

/// Runs `reversi` with no subcommand: the new-game screen in `lang`, in
/// ASCII only with `ascii`, capturing the mouse with `mouse`.
///
/// # Errors
/// A terminal failure.
pub fn run_interactive(ascii: bool, mouse: bool, lang: Lang) -> Result<(), UserError> {
    require_terminal()?;
    let mut options = Options::interactive(lang);
    options.look.ascii = ascii;
    options.mouse = mouse;
    ui::run(options).map_err(UserError::from)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Scoring;
    use clap::Parser;

    fn parse(args: &[&str]) -> Result<PlayArgs, clap::Error> {
        #[derive(Parser)]
        struct T {
            #[command(flatten)]
            a: PlayArgs,
        }
        let mut v = vec!["play"];
        v.extend_from_slice(args);
        T::try_parse_from(v).map(|t| t.a)
    }

    #[test]
    fn players_from_flags() {
        let a = parse(&["--black", "ai:5", "--white", "ai:master"]).unwrap();
        let s = setup(&a, 0, Lang::En).unwrap();
        assert_eq!(
            s.players,
            [Player::Ai(Level::new(5).unwrap()), Player::Ai(Level::MAX)]
        );
        let a = parse(&["--white", "human", "--level", "2"]).unwrap();
        let s = setup(&a, 0, Lang::En).unwrap();
        assert_eq!(
            s.players,
            [Player::Ai(Level::new(2).unwrap()), Player::Human]
        );
        let a = parse(&["--colour", "random"]).unwrap();
        let s0 = setup(&a, 0, Lang::En).unwrap();
        let s1 = setup(&a, 1, Lang::En).unwrap();
        assert_ne!(s0.players, s1.players);
        assert!(s0.note.unwrap().contains("you play"));
    }

    #[test]
    fn conflicting_and_bad_flags_are_errors() {
        assert!(parse(&["--colour", "black", "--black", "human"]).is_err());
        assert!(parse(&["--empties-to-winner", "--empties-to-nobody"]).is_err());
        assert!(parse(&["--black", "robot"]).is_err());
        assert!(parse(&["--level", "13"]).is_err());
        assert!(parse(&["--frobnicate"]).is_err());
        let a = parse(&["--moves", "f5z9"]).unwrap();
        assert_eq!(setup(&a, 0, Lang::En).unwrap_err().status, 2);
        let a = parse(&[
            "--variant",
            "6x6",
            "--position",
            &format!("{} X", "-".repeat(27) + "OX------XO" + &"-".repeat(27)),
        ])
        .unwrap();
        assert_eq!(setup(&a, 0, Lang::En).unwrap_err().status, 2);
    }

    #[test]
    fn position_and_moves_set_up_the_game() {
        let a = parse(&["--variant", "6x6", "--moves", "c2", "--anti"]).unwrap();
        let s = setup(&a, 0, Lang::En).unwrap();
        assert_eq!(s.game.ply(), 1);
        assert!(s.game.rules().anti);
        assert_eq!(s.game.rules().scoring, Scoring::EmptiesToWinner);
    }
}
