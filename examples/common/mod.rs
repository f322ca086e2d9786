//! What the measuring examples share.

use reversi::notation::parse_transcript;
use reversi::rules::{Position, Rules};

/// The position with `empties` empty squares of each of the first `count`
/// games of `text` (move transcripts from the start, one game a line), with
/// the game's 0-based line: games that never reach it, or reach it with the
/// side to move unable to move, are left out.
pub fn positions_at(
    text: &str,
    rules: &Rules,
    empties: u32,
    count: usize,
) -> Vec<(usize, Position)> {
    let mut out = Vec::new();
    for (i, line) in text.lines().take(count).enumerate() {
        let start = Position::initial(rules.size);
        let Ok(moves) = parse_transcript(line.trim(), &start) else {
            continue;
        };
        let mut p = start;
        for m in moves {
            if p.empties().count() <= empties {
                break;
            }
            p = p.play_unchecked(m);
        }
        if p.empties().count() == empties && p.has_legal_move() {
            out.push((i, p));
        }
    }
    out
}
