//! `reversi convert`: turn one game collection into another (WTHOR, GGF,
//! Logistello's list, transcripts), written atomically.

use super::UserError;
use crate::notation::collection::{self, Format, final_margin};
use std::path::PathBuf;

/// A collection format to read, on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FormatArg {
    /// The WTHOR database (`.wtb`).
    #[value(alias = "wtb")]
    Wthor,
    /// GGF.
    Ggf,
    /// Logistello's list (`+d3-c3…: -04 10`, `.gam`).
    #[value(alias = "gam")]
    Logbook,
    /// Transcripts, one game per line (`.txt`).
    #[value(alias = "txt")]
    Transcripts,
}

/// A collection format to write, on the command line (WTHOR is read only).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum OutFormatArg {
    /// GGF.
    Ggf,
    /// Logistello's list (`+d3-c3…: -04 10`, `.gam`).
    #[value(alias = "gam")]
    Logbook,
    /// Transcripts, one game per line (`.txt`).
    #[value(alias = "txt")]
    Transcripts,
}

impl From<FormatArg> for Format {
    fn from(f: FormatArg) -> Format {
        match f {
            FormatArg::Wthor => Format::Wthor,
            FormatArg::Ggf => Format::Ggf,
            FormatArg::Logbook => Format::Logbook,
            FormatArg::Transcripts => Format::Transcripts,
        }
    }
}

impl From<OutFormatArg> for Format {
    fn from(f: OutFormatArg) -> Format {
        match f {
            OutFormatArg::Ggf => Format::Ggf,
            OutFormatArg::Logbook => Format::Logbook,
            OutFormatArg::Transcripts => Format::Transcripts,
        }
    }
}

/// Arguments of `reversi convert`.
#[derive(Debug, clap::Args)]
pub struct ConvertArgs {
    /// The collection to read (`.wtb`, `.ggf`, `.gam`, `.txt`; other names are
    /// recognised by their contents).
    #[arg(value_name = "IN")]
    pub input: PathBuf,
    /// The file to write (replaced atomically).
    #[arg(value_name = "OUT")]
    pub output: PathBuf,
    /// Format of IN (default: from its extension, else its contents).
    #[arg(long, value_enum)]
    pub from: Option<FormatArg>,
    /// Format of OUT (default: from its extension).
    #[arg(long, value_enum)]
    pub to: Option<OutFormatArg>,
}

/// Runs `reversi convert`.
///
/// # Errors
/// Status 2 for an unreadable or malformed input (naming the file, the game and
/// the reason), an unknown output format or a game the output cannot hold.
pub fn run(args: &ConvertArgs) -> Result<(), UserError> {
    let to = args
        .to
        .map(Format::from)
        .or_else(|| Format::from_path(&args.output))
        .ok_or_else(|| {
            UserError::input(format!(
                "{}: unknown output format (name it .ggf, .gam or .txt, or give --to)",
                args.output.display()
            ))
        })?;
    if to == Format::Wthor {
        return Err(UserError::input(collection::CollectionError::WthorOut {
            path: args.output.clone(),
        }));
    }
    if args.output.is_dir() {
        return Err(UserError::input(format!(
            "{}: is a directory, not a file to write",
            args.output.display()
        )));
    }
    let records = collection::read_path(&args.input, args.from.map(Format::from))
        .map_err(UserError::input)?;
    let text = collection::write_text(&records, to, &args.output).map_err(UserError::input)?;
    crate::storage::atomic_write(&args.output, text.as_bytes())
        .map_err(|e| UserError::from(anyhow::anyhow!("{}: {e}", args.output.display())))?;
    let unfinished = records.iter().filter(|r| final_margin(r).is_none()).count();
    println!(
        "{} game{} from {} written to {} ({}); {unfinished} not over on the board",
        records.len(),
        if records.len() == 1 { "" } else { "s" },
        args.input.display(),
        args.output.display(),
        to.name()
    );
    Ok(())
}
