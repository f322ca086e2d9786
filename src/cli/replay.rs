//! `reversi replay`: open a game file (GGF, WTHOR, Logistello's list,
//! transcripts) or the moves of `--moves` directly in replay mode.

use super::play::{PlayArgs, PlayerArg, load_game_of, require_terminal, setup};
use super::{UserError, VariantArg};
use crate::i18n::Lang;
use crate::notation::collection::Format;
use crate::ui::{self, Look, Options, Player};
use std::path::PathBuf;

/// The game a command works on: a game file or a transcript (shared by
/// `replay` and `review`).
#[derive(Debug, clap::Args)]
#[command(group = clap::ArgGroup::new("source").required(true).args(["file", "moves"]))]
pub struct GameSource {
    /// A game file: GGF, WTHOR (`.wtb`, names from `WTHOR.JOU`/`WTHOR.TRN`
    /// beside it), Logistello's list (`.gam`) or transcripts, one game a
    /// line (known by the name, else by the content).
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,
    /// Which game of a file with several, from 1.
    #[arg(long, value_name = "N", requires = "file", value_parser = super::parse_at_least_one)]
    pub game: Option<u32>,
    /// The moves instead of a file, e.g. `f5d6c3`.
    #[arg(long, value_name = "TRANSCRIPT", conflicts_with = "file")]
    pub moves: Option<String>,
    /// Start position of `--moves` as a board string (OBF).
    #[arg(
        long,
        value_name = "OBF",
        allow_hyphen_values = true,
        requires = "moves"
    )]
    pub position: Option<String>,
    /// Board size of `--moves`.
    #[arg(long, value_enum, requires = "moves")]
    pub variant: Option<VariantArg>,
    /// The rules of `--moves` (a game file carries its own).
    #[command(flatten)]
    pub rules: super::start::RuleFlags,
}

impl GameSource {
    /// The game file, if the source is one.
    ///
    /// # Errors
    /// A rule flag given with a file, which carries its own rules (status 2).
    pub fn file(&self) -> Result<Option<&std::path::Path>, UserError> {
        match &self.file {
            Some(_) if self.rules.is_set() => Err(UserError::input(
                "--anti and --empties-to-* set the rules of --moves; a game file carries its own",
            )),
            file => Ok(file.as_deref()),
        }
    }

    /// The game of `--moves` (from the start or `--position`), two people
    /// at the board.
    ///
    /// # Errors
    /// A bad transcript, board string or variant (status 2).
    pub fn transcript_setup(&self) -> Result<ui::Setup, UserError> {
        let play = PlayArgs {
            black: Some(PlayerArg::Human),
            white: Some(PlayerArg::Human),
            variant: self.variant,
            rules: self.rules,
            moves: self.moves.clone(),
            position: self.position.clone(),
            ..PlayArgs::default()
        };
        // Both sides are given: no colour is drawn, nothing is said.
        setup(&play, 0, Lang::En)
    }
}

/// Arguments of `reversi replay`.
#[derive(Debug, clap::Args)]
#[command(allow_negative_numbers = true)]
pub struct ReplayArgs {
    /// The game to replay.
    #[command(flatten)]
    pub source: GameSource,
    /// Only ASCII characters.
    #[arg(long)]
    pub ascii: bool,
    /// The language of the game screen (see `reversi --help`).
    #[arg(long, value_enum, value_name = "LANG")]
    pub lang: Option<super::LangArg>,
    /// Do not capture the mouse.
    #[arg(long)]
    pub no_mouse: bool,
    /// The opening book (the hint and the analysis use it).
    #[command(flatten)]
    pub book: super::BookFlags,
}

/// The status line of a game from a collection: players, tournament, year and
/// the recorded result.
fn collection_note(lang: Lang, r: &crate::notation::ggf::Record) -> String {
    use crate::rules::Color;
    use crate::ui::words;
    // A file without names (or with the sides for names) names the sides in
    // the screen's language.
    let name = |name: &str, color: Color| match name.trim() {
        "" | "?" | "Black" | "White" => words::side_name(lang, color),
        name => name.to_string(),
    };
    let mut s = crate::tr!(
        lang,
        "players-vs",
        black = name(&r.black, Color::Black),
        white = name(&r.white, Color::White)
    );
    let place: Vec<&str> = [r.place.as_str(), r.date.as_str()]
        .into_iter()
        .filter(|t| !t.is_empty())
        .collect();
    if !place.is_empty() {
        s.push_str(&format!(" ({})", place.join(", ")));
    }
    let result = match r.result {
        Some(o) if r.ended_early.is_some() => crate::tr!(
            lang,
            "note-not-played-out",
            result = words::outcome(lang, o)
        ),
        Some(o) => words::outcome(lang, o),
        None => "?".into(),
    };
    crate::tr!(lang, "note-collection", players = s, result = result)
}

/// Runs `reversi replay`.
///
/// # Errors
/// A bad file or transcript (status 2), no terminal (status 2) or a terminal
/// failure.
pub fn run(args: &ReplayArgs) -> Result<(), UserError> {
    let lang = super::screen_language(args.lang);
    let start = match args.source.file()? {
        Some(path) => {
            let (record, count) = load_game_of(path, args.source.game)?;
            let mut s = ui::record::view_of(lang, &record);
            if matches!(
                Format::from_path(path),
                Some(Format::Wthor | Format::Logbook)
            ) {
                s.note = Some(collection_note(lang, &record));
            }
            if count > 1 {
                s.note = Some(crate::tr!(
                    lang,
                    "note-game-of",
                    n = args.source.game.unwrap_or(1),
                    count = count,
                    note = s.note.unwrap_or_default()
                ));
            }
            s
        }
        None => {
            let mut s = args.source.transcript_setup()?;
            s.players = [Player::Human, Player::Human];
            s.game.jump(0);
            s.replay = true;
            s.note = Some(crate::tr!(lang, "note-replay-transcript", n = s.game.len()));
            s
        }
    };
    require_terminal()?;
    let options = Options {
        start: Some(start),
        look: Look {
            color: !ui::no_color(),
            ascii: args.ascii,
        },
        mouse: !args.no_mouse,
        hash_mb: 64,
        book: args.book.load()?,
        seed: None,
        save: None,
        offer_resume: false,
        online: None,
        learn: false,
        lang,
    };
    ui::run(options).map_err(UserError::from)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::ggf::Record;
    use crate::rules::{BoardSize, Color, Game, Outcome, Rules};

    #[test]
    fn a_collection_game_is_told_in_the_screens_language() {
        let mut r = Record::new(Game::new(Rules::standard(BoardSize::Eight)));
        r.black = "Black".into();
        r.white = "?".into();
        r.place = "Paris".into();
        r.result = Some(Outcome {
            winner: Some(Color::White),
            black: 9,
            white: 55,
        });
        let note = collection_note(Lang::Fr, &r);
        assert!(
            note.starts_with("Noirs contre Blancs (Paris), victoire des Blancs 55–9"),
            "{note}"
        );
        r.black = "Pellizzari Maximili".into();
        r.result = Some(Outcome {
            winner: None,
            black: 32,
            white: 32,
        });
        let note = collection_note(Lang::En, &r);
        assert!(
            note.starts_with("Pellizzari Maximili vs White (Paris), Draw 32–32"),
            "{note}"
        );
    }
}
