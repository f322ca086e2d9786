//! `reversi compare`: two `reversi match --ggf` runs over the same openings,
//! compared game by game ([`crate::arena::paired`]).

use super::UserError;
use crate::arena::paired::{Tally, compare};
use crate::notation::collection::{self, Format};
use std::path::PathBuf;

/// Arguments of `reversi compare`.
#[derive(Debug, clap::Args)]
pub struct CompareArgs {
    /// The first run's games (`reversi match --ggf`).
    #[arg(value_name = "FIRST")]
    pub first: PathBuf,
    /// The second run's games, over the same openings against the same
    /// opponent.
    #[arg(value_name = "SECOND")]
    pub second: PathBuf,
    /// The common opponent's name, when both runs have the same two players.
    #[arg(long, value_name = "NAME")]
    pub opponent: Option<String>,
}

/// Runs `reversi compare`.
///
/// # Errors
/// Status 2 when a file cannot be read or the runs do not hold the same
/// games (count, openings, colours, results).
pub fn run(args: &CompareArgs) -> Result<(), UserError> {
    let read =
        |path: &PathBuf| collection::read_path(path, Some(Format::Ggf)).map_err(UserError::input);
    let (first, second) = (read(&args.first)?, read(&args.second)?);
    let c = compare(&first, &second, args.opponent.as_deref()).map_err(UserError::input)?;
    let line = |t: &Tally, path: &PathBuf| {
        format!(
            "{}: {} +{} ={} -{} ({:.1} %)",
            path.display(),
            t.player,
            t.wins,
            t.draws,
            t.losses,
            100.0 * t.score()
        )
    };
    println!("{} games against {}", c.games, c.opponent);
    println!("{}", line(&c.runs[0], &args.first));
    println!("{}", line(&c.runs[1], &args.second));
    println!(
        "first less second, game by game: {:+.1} ± {:.1} points (95 %), {} result{} differ{}",
        c.points,
        c.points_ci,
        c.differing,
        if c.differing == 1 { "" } else { "s" },
        if c.differing == 1 { "s" } else { "" },
    );
    println!(
        "disc margin a game: {:+.2} ± {:.2} (95 %)",
        c.margin, c.margin_ci
    );
    Ok(())
}
