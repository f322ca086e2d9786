//! Text laid out in rows of a given width: words wrapped, paths broken
//! after a slash or shortened in the middle, and an end cut to a `…`.
//! Widths are terminal columns: a wide character (Chinese, Japanese…) takes
//! two.

use ratatui::text::Line;
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// The columns `text` takes on a terminal.
#[must_use]
pub fn cols(text: &str) -> usize {
    text.width()
}

/// `text` split after at most `n` columns (at least one character, so that
/// a split always moves on).
fn split_cols(text: &str, n: usize) -> (&str, &str) {
    let mut used = 0;
    for (i, c) in text.char_indices() {
        let w = c.width().unwrap_or(0);
        if used + w > n && i > 0 {
            return text.split_at(i);
        }
        used += w;
    }
    (text, "")
}

/// `text` in at most `room` columns, its end replaced by `…` if need be.
#[must_use]
pub fn cut_to(text: &str, room: usize) -> String {
    if cols(text) <= room {
        return text.to_string();
    }
    let (head, _) = split_cols(text, room.saturating_sub(1));
    let mut cut = if cols(head) < room {
        head.to_string()
    } else {
        String::new()
    };
    cut.push('…');
    cut
}

/// `text` in rows of at most `width` columns, broken between words, and
/// a path too long for a row broken after a `/` (within a folder or file
/// name only when that name alone is wider than a row), so that every part
/// of it, the file name above all, is shown whole and in order.
#[must_use]
pub fn text_rows(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut rows: Vec<String> = Vec::new();
    let mut row = String::new();
    for word in text.split(' ') {
        let pieces = if cols(word) > width && word.contains('/') {
            path_pieces(word, width)
        } else {
            vec![word.to_string()]
        };
        for (i, piece) in pieces.into_iter().enumerate() {
            // The pieces after a path's first start rows of their own.
            let joined = i == 0 && !row.is_empty();
            if joined && cols(&row) + 1 + cols(&piece) <= width {
                row.push(' ');
                row.push_str(&piece);
                continue;
            }
            if !row.is_empty() || joined {
                rows.push(std::mem::take(&mut row));
            }
            let mut rest = piece.as_str();
            while cols(rest) > width {
                let (head, tail) = split_cols(rest, width);
                rows.push(head.to_string());
                rest = tail;
            }
            row = rest.to_string();
        }
    }
    rows.push(row);
    rows
}

/// A path in pieces of at most `width` columns, each ending after a `/`
/// where it can (a name wider than `width` is a piece of its own).
fn path_pieces(path: &str, width: usize) -> Vec<String> {
    let mut pieces = Vec::new();
    let mut piece = String::new();
    for part in path.split_inclusive('/') {
        if !piece.is_empty() && cols(&piece) + cols(part) > width {
            pieces.push(std::mem::take(&mut piece));
        }
        piece.push_str(part);
    }
    pieces.push(piece);
    pieces
}

/// `text` with every path longer than `width` shortened in the middle, so that
/// wrapping never splits it and its end (the file name) is always shown:
/// `/home/me/…/games/2026-11-30T20-21-35.ggf`.
#[must_use]
pub fn shorten_paths(text: &str, width: usize) -> String {
    text.split(' ')
        .map(|word| {
            if cols(word) <= width || !word.contains('/') {
                return word.to_string();
            }
            shorten_path(word, width.max(4))
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// One path in at most `width` columns: whole folders from the start and
/// from the end around a `…`, the last part always (its own end, if even that
/// is too long).
fn shorten_path(path: &str, width: usize) -> String {
    let parts: Vec<&str> = path.split('/').collect();
    let last = parts[parts.len() - 1];
    if cols(last) + 2 > width {
        // The end of the name that fits after the `…`.
        let mut start = last.len();
        for (i, _) in last.char_indices().rev() {
            if cols(&last[i..]) + 1 > width {
                break;
            }
            start = i;
        }
        return format!("…{}", &last[start..]);
    }
    // Take folders alternately from the end and the start while they fit.
    let (mut head, mut tail) = (0, 1);
    let size = |head: usize, tail: usize| {
        let h: usize = parts[..head].iter().map(|p| cols(p) + 1).sum();
        let t: usize = parts[parts.len() - tail..]
            .iter()
            .map(|p| cols(p) + 1)
            .sum();
        h + 1 + t
    };
    loop {
        let grown = if tail <= head {
            (head, tail + 1)
        } else {
            (head + 1, tail)
        };
        if grown.0 + grown.1 >= parts.len() || size(grown.0, grown.1) > width {
            break;
        }
        (head, tail) = grown;
    }
    let start: String = parts[..head].iter().map(|p| format!("{p}/")).collect();
    format!("{start}…/{}", parts[parts.len() - tail..].join("/"))
}

/// Rows `lines` take when wrapped word by word at `width`, as the panel's
/// paragraph wraps them (a word longer than the width is cut across rows).
pub(super) fn wrapped_height(lines: &[Line<'_>], width: u16) -> usize {
    let w = usize::from(width.max(1));
    lines
        .iter()
        .map(|l| {
            let text: String = l.spans.iter().map(|s| s.content.as_ref()).collect();
            // `fresh`: a wrapped row with nothing on it yet (the spaces at a
            // wrap are dropped; those starting the line are kept).
            let (mut rows, mut used, mut fresh) = (1, 0, false);
            for (i, word) in text.split(' ').enumerate() {
                let n = cols(word);
                let empty_row = i == 0 || fresh;
                let need = if empty_row { n } else { used + 1 + n };
                if need <= w {
                    used = need;
                    fresh = fresh && n == 0;
                } else {
                    rows += usize::from(!empty_row) + n.saturating_sub(1) / w;
                    used = if n == 0 { 0 } else { (n - 1) % w + 1 };
                    fresh = n == 0;
                }
            }
            rows
        })
        .sum::<usize>()
}
