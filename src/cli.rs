//! The command-line interface: clap definitions and the dispatch to each
//! subcommand. Errors are reported here, after any terminal state is restored.
//!
//! Exit status: 0 on success, 2 for bad input (a clap error, a bad square,
//! transcript or board string), 1 for other failures.

mod bench;
mod perft;
mod show;
mod solve;

use clap::{Parser, Subcommand, ValueEnum};
use std::process::ExitCode;

use crate::rules::BoardSize;

/// Reversi (Othello) in the terminal.
#[derive(Debug, Parser)]
#[command(name = "reversi", version, about, long_about = None)]
pub struct Cli {
    /// What to do; without a subcommand, shows the start position.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Count the leaves of the game tree to DEPTH plies (a pass is a ply; a game
    /// over before DEPTH counts no leaf), printing one line per depth.
    Perft(perft::PerftArgs),
    /// Print a position as text: the board with coordinates, legal moves, disc
    /// counts, side to move and status.
    Show(show::ShowArgs),
    /// Solve OBF positions exactly (one per line, from FILE or standard input),
    /// printing the best move, the score, nodes, time and nodes/s.
    Solve(solve::SolveArgs),
    /// Run the fixed benchmark suite (perft, midgame, endgame), one figure per line.
    Bench(bench::BenchArgs),
}

/// Board size on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum, Default)]
pub enum VariantArg {
    /// The standard 8×8 board.
    #[default]
    #[value(name = "8x8")]
    Eight,
    /// The 6×6 board (empties go to the winner by default).
    #[value(name = "6x6")]
    Six,
}

impl From<VariantArg> for BoardSize {
    fn from(v: VariantArg) -> BoardSize {
        match v {
            VariantArg::Eight => BoardSize::Eight,
            VariantArg::Six => BoardSize::Six,
        }
    }
}

/// An error for the user: the message and the exit status.
#[derive(Debug)]
pub struct UserError {
    /// What to print on stderr.
    pub message: String,
    /// The exit status (2 for bad input).
    pub status: u8,
}

impl UserError {
    /// Bad input from the user: exit status 2.
    pub fn input(message: impl std::fmt::Display) -> UserError {
        UserError {
            message: message.to_string(),
            status: 2,
        }
    }
}

impl From<anyhow::Error> for UserError {
    fn from(e: anyhow::Error) -> UserError {
        UserError {
            message: format!("{e:#}"),
            status: 1,
        }
    }
}

impl From<std::io::Error> for UserError {
    fn from(e: std::io::Error) -> UserError {
        UserError {
            message: e.to_string(),
            status: 1,
        }
    }
}

/// Parses the command line, runs the command and turns errors into an exit status.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("reversi: {}", e.message);
            ExitCode::from(e.status)
        }
    }
}

fn run(cli: Cli) -> Result<(), UserError> {
    match cli.command {
        Some(Command::Perft(args)) => perft::run(&args),
        Some(Command::Show(args)) => show::run(&args),
        Some(Command::Solve(args)) => solve::run(&args),
        Some(Command::Bench(args)) => bench::run(&args),
        None => show::run(&show::ShowArgs::default()),
    }
}
