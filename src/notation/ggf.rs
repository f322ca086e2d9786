//! GGF, the Generic Game Format of the Othello game servers (GGS) and engine GUIs
//! such as NBoard: `(;GM[Othello]PC[..]DT[..]PB[..]PW[..]RE[..]TY[8]BO[8 … *]B[f5]W[d6]…;)`.
//!
//! Read tolerantly (several games per file, any case, whitespace anywhere between
//! properties, `PA` or `pass` for passes, optional `/eval/time` after moves,
//! missing passes re-derived); written canonically. Errors name the line and
//! column and what was expected. Spec: <https://skatgame.net/mburo/ggsa/ggf>.
//!
//! Three properties of ours, which other GGF readers skip as unknown tags:
//! - `RU[…]`, the rules in full: `normal` or `anti`, then `empties-to-nobody`
//!   or `empties-to-winner` (e.g. `RU[anti empties-to-winner]`). `TY` still
//!   carries the board size and the `a` of Anti Reversi for other readers. A
//!   record without `RU` takes the usual scoring of its board size, unless its
//!   `RE` is the final score under the other scoring rule.
//! - `CU[ply]`, where the players were after undoing moves.
//! - `RV[…]`, a cached game review: the depth (`d8`), then per move the best
//!   move and the values of the best and of the played move for the mover
//!   (`c4/+2/-6`; `~+1.25` an estimate), `-` where not reviewed. Kept here as
//!   text; `crate::ai::review` reads and writes it.
//!
//! `RE` is Black's score minus White's (`RE[+12]`), as scored by the record's
//! rules (in Anti Reversi the lower score wins); `RE[?]` while the game is
//! unfinished; a suffix `:f` (forfeit), `:r` (resignation), `:t` (time) or
//! `:s` (a score set without playing out, e.g. a draw) when the game ended
//! before the board was played out.

use crate::notation::{parse_move, write_move};
use crate::rules::{
    Bitboard, BoardSize, Color, Game, GameError, Move, Outcome, Position, Rules, Scoring, Status,
};
use std::fmt::Write as _;

/// A game read from or written to GGF: the game itself plus its metadata.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    /// Rules, start position and moves; the cursor at the end unless the
    /// game says otherwise (`CU[ply]`, written when moves were undone).
    pub game: Game,
    /// Black's name (`PB`).
    pub black: String,
    /// White's name (`PW`).
    pub white: String,
    /// Place (`PC`), e.g. the program that recorded the game.
    pub place: String,
    /// Date (`DT`), as written in the file.
    pub date: String,
    /// How the game ended (`RE`): its final score, or `None` while unfinished.
    pub result: Option<Outcome>,
    /// How the game ended when it was not played out (a resignation, a loss
    /// on time, another forfeit); `None` when played out, unfinished, or
    /// when the record gives a result without saying how.
    pub ended_early: Option<EndedEarly>,
    /// Per move (same length as the game's moves): evaluation and time annotations.
    pub notes: Vec<MoveNote>,
    /// Our cached review (`RV`), verbatim; empty when there is none.
    pub review: String,
}

/// Optional annotations of one move: `B[f5/eval/time]`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MoveNote {
    /// The mover's evaluation in discs, if given.
    pub eval: Option<f64>,
    /// Time used in seconds, if given.
    pub time: Option<f64>,
}

/// A GGF syntax or content error: where and what was expected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {message}")]
pub struct GgfError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// What was expected or what is wrong.
    pub message: String,
}

impl Record {
    /// A record of `game` with default metadata (names "Black"/"White", result from
    /// the game if it is over).
    #[must_use]
    pub fn new(game: Game) -> Record {
        let notes = vec![MoveNote::default(); game.len()];
        let mut r = Record {
            game,
            black: "Black".into(),
            white: "White".into(),
            place: "reversi".into(),
            date: String::new(),
            result: None,
            ended_early: None,
            notes,
            review: String::new(),
        };
        r.result = r.final_outcome();
        r
    }

    /// The outcome by the rules when the game at its last recorded move is
    /// over, else `None`.
    #[must_use]
    pub fn final_outcome(&self) -> Option<Outcome> {
        let last = self
            .game
            .position_at(self.game.len())
            .unwrap_or(self.game.start());
        self.game.rules().outcome(&last)
    }

    /// Whether the game is over: played out at its last recorded move, or
    /// given a result (a resignation, a loss on time, a result recorded
    /// before the board was full).
    #[must_use]
    pub fn is_finished(&self) -> bool {
        self.result.is_some() || self.final_outcome().is_some()
    }
}

/// How a game with a result ended before its board was played out: the
/// suffix of its `RE`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndedEarly {
    /// `:r`, the loser resigned.
    Resigned,
    /// `:t`, the loser's time ran out.
    Time,
    /// `:f`, any other forfeit (an illegal move, an engine that stopped
    /// answering, a game stopped early with a recorded result).
    Forfeit,
    /// `:s`, a score the players did not play to: agreed, or given when
    /// the game was given up (a draw claimed against an absent opponent).
    Agreed,
}

impl EndedEarly {
    /// The `RE` suffix, without its colon.
    #[must_use]
    pub fn suffix(self) -> char {
        match self {
            EndedEarly::Resigned => 'r',
            EndedEarly::Time => 't',
            EndedEarly::Forfeit => 'f',
            EndedEarly::Agreed => 's',
        }
    }
}

/// The outcome of a forfeit written as Black's score minus White's: the winner
/// takes every square (in Anti Reversi, the loser does, so the winner has the
/// lower score).
#[must_use]
pub fn forfeit_outcome(rules: Rules, winner: Color) -> Outcome {
    let all = rules.size.squares();
    let winner_high = !rules.anti;
    let black = if (winner == Color::Black) == winner_high {
        all
    } else {
        0
    };
    Outcome {
        winner: Some(winner),
        black,
        white: all - black,
    }
}

/// `RU` text of `rules`, e.g. `anti empties-to-winner`.
fn rules_text(rules: Rules) -> String {
    format!(
        "{} {}",
        if rules.anti { "anti" } else { "normal" },
        match rules.scoring {
            Scoring::EmptiesToNobody => "empties-to-nobody",
            Scoring::EmptiesToWinner => "empties-to-winner",
        }
    )
}

/// Reads `RU` text: (anti, scoring), each `None` when not given.
fn parse_rules_text(t: &str) -> Result<(Option<bool>, Option<Scoring>), String> {
    let (mut anti, mut scoring) = (None, None);
    for word in t.split_whitespace() {
        match word.to_ascii_lowercase().as_str() {
            "normal" => anti = Some(false),
            "anti" => anti = Some(true),
            "empties-to-nobody" => scoring = Some(Scoring::EmptiesToNobody),
            "empties-to-winner" => scoring = Some(Scoring::EmptiesToWinner),
            w => {
                return Err(format!(
                    "\"{w}\" is not a rule (normal, anti, empties-to-nobody, empties-to-winner)"
                ));
            }
        }
    }
    Ok((anti, scoring))
}

/// Reads `RE`: Black's score minus White's and the suffix after `:`, or `None`
/// for `?` and anything without a number.
fn parse_result(t: &str) -> Option<(f64, String)> {
    let mut parts = t.trim().splitn(2, ':');
    let margin = parts.next()?.trim().parse::<f64>().ok()?;
    let suffix = parts.next().unwrap_or("").trim().to_ascii_lowercase();
    Some((margin, suffix))
}

/// Writes one game as a single GGF line (all recorded moves, redo tail included).
#[must_use]
pub fn write_ggf(record: &Record) -> String {
    let game = &record.game;
    let rules = game.rules();
    let mut s = String::from("(;GM[Othello]");
    let clean = |t: &str| t.replace(']', ")").replace(['\n', '\r'], " ");
    let _ = write!(s, "PC[{}]", clean(&record.place));
    if !record.date.is_empty() {
        let _ = write!(s, "DT[{}]", clean(&record.date));
    }
    let _ = write!(
        s,
        "PB[{}]PW[{}]",
        clean(&record.black),
        clean(&record.white)
    );
    match record.result {
        Some(o) => {
            let _ = write!(s, "RE[{:+}", o.black_margin());
            if let Some(e) = record.ended_early {
                let _ = write!(s, ":{}", e.suffix());
            }
            s.push(']');
        }
        None => s.push_str("RE[?]"),
    }
    let _ = write!(
        s,
        "TY[{}{}]RU[{}]",
        rules.size.side(),
        if rules.anti { "a" } else { "" },
        rules_text(rules)
    );
    let start = game.start();
    let side = usize::from(rules.size.side());
    let _ = write!(s, "BO[{side}");
    for row in 0..side {
        s.push(' ');
        for col in 0..side {
            let sq = crate::rules::Square::at(col as u8, row as u8);
            s.push(match start.disc_at(sq) {
                Some(Color::Black) => '*',
                Some(Color::White) => 'O',
                None => '-',
            });
        }
    }
    let _ = write!(
        s,
        " {}]",
        if start.side_to_move() == Color::Black {
            '*'
        } else {
            'O'
        }
    );
    for (i, mv) in game.moves().iter().enumerate() {
        let mover = game
            .position_at(i)
            .map_or(Color::Black, |p| p.side_to_move());
        let tag = if mover == Color::Black { 'B' } else { 'W' };
        let text = write_move(*mv);
        let note = record.notes.get(i).cloned().unwrap_or_default();
        let _ = write!(s, "{tag}[{text}");
        match (note.eval, note.time) {
            (None, None) => {}
            (e, t) => {
                let _ = write!(s, "/{}", e.map(|e| format!("{e:.2}")).unwrap_or_default());
                if let Some(t) = t {
                    let _ = write!(s, "/{t:.2}");
                }
            }
        }
        s.push(']');
    }
    if game.ply() < game.len() {
        // Where the players were after undoing moves (a tag of ours; other
        // readers skip tags they do not know).
        let _ = write!(s, "CU[{}]", game.ply());
    }
    if !record.review.trim().is_empty() {
        let _ = write!(s, "RV[{}]", clean(&record.review));
    }
    s.push_str(";)");
    s
}

/// Reads every game in a GGF text.
///
/// # Errors
/// [`GgfError`] at the first malformed game: unbalanced brackets, a bad board,
/// an unreadable or illegal move.
pub fn parse_ggf(text: &str) -> Result<Vec<Record>, GgfError> {
    let mut p = Parser {
        chars: text.chars().collect(),
        i: 0,
        line: 1,
        column: 1,
    };
    let mut records = Vec::new();
    loop {
        p.skip_ws();
        if p.peek().is_none() {
            break;
        }
        records.push(p.game()?);
    }
    if records.is_empty() {
        return Err(p.error("expected a game starting with \"(;\""));
    }
    Ok(records)
}

struct Parser {
    chars: Vec<char>,
    i: usize,
    line: usize,
    column: usize,
}

struct Prop {
    key: String,
    value: String,
    line: usize,
    column: usize,
}

impl Parser {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.i).copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.i += 1;
        if c == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Some(c)
    }

    fn skip_ws(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.bump();
        }
    }

    fn error(&self, message: impl Into<String>) -> GgfError {
        GgfError {
            line: self.line,
            column: self.column,
            message: message.into(),
        }
    }

    fn expect(&mut self, c: char, what: &str) -> Result<(), GgfError> {
        self.skip_ws();
        if self.peek() == Some(c) {
            self.bump();
            Ok(())
        } else {
            let found = self.peek().map_or("the end of the file".to_string(), |c| {
                format!("'{}'", c.escape_debug())
            });
            Err(self.error(format!("expected {what}, found {found}")))
        }
    }

    fn props(&mut self) -> Result<Vec<Prop>, GgfError> {
        let mut props = Vec::new();
        loop {
            self.skip_ws();
            match self.peek() {
                Some(';') => {
                    self.bump();
                    self.expect(')', "\")\" after \";\" to end the game")?;
                    return Ok(props);
                }
                Some(c) if c.is_ascii_alphabetic() => {
                    let (line, column) = (self.line, self.column);
                    let mut key = String::new();
                    while let Some(c) = self.peek().filter(char::is_ascii_alphabetic) {
                        key.push(c.to_ascii_uppercase());
                        self.bump();
                    }
                    self.expect('[', &format!("\"[\" after property {key}"))?;
                    let mut value = String::new();
                    loop {
                        match self.bump() {
                            Some(']') => break,
                            Some('\\') => {
                                if let Some(c) = self.bump() {
                                    value.push(c);
                                }
                            }
                            Some(c) => value.push(c),
                            None => {
                                return Err(GgfError {
                                    line,
                                    column,
                                    message: format!("property {key} is not closed by \"]\""),
                                });
                            }
                        }
                    }
                    props.push(Prop {
                        key,
                        value,
                        line,
                        column,
                    });
                }
                Some(c) => {
                    return Err(self.error(format!(
                        "expected a property such as B[f5] or \";)\" to end the game, found '{c}'"
                    )));
                }
                None => {
                    return Err(
                        self.error("expected \";)\" to end the game, found the end of the file")
                    );
                }
            }
        }
    }

    fn game(&mut self) -> Result<Record, GgfError> {
        self.expect('(', "\"(;\" to start a game")?;
        self.expect(';', "\";\" after \"(\"")?;
        let props = self.props()?;
        build(&props)
    }
}

/// The error at a property (1-based line and column).
fn at(line: usize, column: usize, message: String) -> GgfError {
    GgfError {
        line,
        column,
        message,
    }
}

/// A record from its properties: the header (`GM`, `TY`, `BO`, `RU`), the
/// moves, the cursor (`CU`), the result (`RE`) and the text tags.
fn build(props: &[Prop]) -> Result<Record, GgfError> {
    let find = |k: &str| props.iter().find(|p| p.key == k);
    let text = |k: &str| {
        find(k)
            .map(|p| p.value.trim().to_string())
            .unwrap_or_default()
    };
    let header = header(props)?;
    let start = header.start;
    let mut game = Game::from_position(header.rules, start).map_err(|e| at(1, 1, e.to_string()))?;
    let notes = play_moves(&mut game, props)?;
    let written = find("RE").and_then(|p| parse_result(&p.value));
    if header.scoring.is_none()
        && let Some((margin, _)) = &written
    {
        game = rescore_to_match(game, *margin)?;
    }
    if let Some(p) = find("CU") {
        jump_to_cursor(&mut game, p)?;
    }
    let (result, ended_early) = result_of(&game, written);
    Ok(Record {
        game,
        black: text("PB"),
        white: text("PW"),
        place: text("PC"),
        date: text("DT"),
        result,
        ended_early,
        notes,
        review: text("RV"),
    })
}

/// What a record's header says: its rules and start position, and the
/// scoring rule if `RU` names one.
struct Header {
    rules: Rules,
    start: Position,
    scoring: Option<Scoring>,
}

/// The rules and start position from `GM`, `TY`, `BO` and `RU`.
fn header(props: &[Prop]) -> Result<Header, GgfError> {
    let find = |k: &str| props.iter().find(|p| p.key == k);
    if let Some(gm) = find("GM")
        && !gm.value.trim().eq_ignore_ascii_case("othello")
    {
        return Err(at(
            gm.line,
            gm.column,
            format!("GM[{}] is not an Othello game", gm.value),
        ));
    }
    let (size_from_type, anti) = match find("TY") {
        Some(p) => parse_type(&p.value).ok_or_else(|| {
            at(
                p.line,
                p.column,
                format!("TY[{}]: expected a board size 8 or 6, e.g. TY[8]", p.value),
            )
        })?,
        None => (None, false),
    };
    let start = match find("BO") {
        Some(p) => parse_bo(&p.value).map_err(|m| at(p.line, p.column, format!("BO: {m}")))?,
        None => Position::initial(size_from_type.unwrap_or(BoardSize::Eight)),
    };
    if let (Some(size), Some(p)) = (size_from_type, find("BO"))
        && size != start.size()
    {
        return Err(at(
            p.line,
            p.column,
            format!("BO is {} but TY says {size}", start.size()),
        ));
    }
    let (ru_anti, scoring) = match find("RU") {
        Some(p) => parse_rules_text(&p.value)
            .map_err(|m| at(p.line, p.column, format!("RU[{}]: {m}", p.value)))?,
        None => (None, None),
    };
    let mut rules = Rules::standard(start.size());
    rules.anti = ru_anti.unwrap_or(anti);
    if let Some(scoring) = scoring {
        rules.scoring = scoring;
    }
    Ok(Header {
        rules,
        start,
        scoring,
    })
}

/// Plays the `B` and `W` properties in order, re-deriving passes the record
/// left out; returns each move's annotations.
fn play_moves(game: &mut Game, props: &[Prop]) -> Result<Vec<MoveNote>, GgfError> {
    let mut notes = Vec::new();
    for p in props.iter().filter(|p| p.key == "B" || p.key == "W") {
        let color = if p.key == "B" {
            Color::Black
        } else {
            Color::White
        };
        let mut parts = p.value.split('/');
        let mv_text = parts.next().unwrap_or("").trim();
        let eval = parts.next().and_then(|t| t.trim().parse::<f64>().ok());
        let time = parts.next().and_then(parse_time);
        let mv = parse_move(mv_text).map_err(|_| {
            at(
                p.line,
                p.column,
                format!(
                    "{}[{}]: \"{mv_text}\" is not a square or PA",
                    p.key, p.value
                ),
            )
        })?;
        if game.side_to_move() != color
            && mv != Move::Pass
            && matches!(game.status(), Status::MustPass(_))
        {
            game.play(Move::Pass)
                .map_err(|e| at(p.line, p.column, e.to_string()))?;
            notes.push(MoveNote::default());
        }
        if game.side_to_move() != color {
            return Err(at(
                p.line,
                p.column,
                format!(
                    "{}[{}]: expected a move by {}",
                    p.key,
                    p.value,
                    game.side_to_move()
                ),
            ));
        }
        game.play(mv).map_err(|e| {
            let err = GameError::Illegal {
                index: game.ply() + 1,
                error: e,
            };
            at(p.line, p.column, format!("{}[{}]: {err}", p.key, p.value))
        })?;
        notes.push(MoveNote { eval, time });
    }
    Ok(notes)
}

/// With no scoring rule written, the game keeps the usual one unless the
/// written margin (`RE`) is the final score under the other.
fn rescore_to_match(game: Game, margin: f64) -> Result<Game, GgfError> {
    let rules = game.rules();
    let last = game.position();
    let mut other = rules;
    other.scoring = match rules.scoring {
        Scoring::EmptiesToNobody => Scoring::EmptiesToWinner,
        Scoring::EmptiesToWinner => Scoring::EmptiesToNobody,
    };
    let margin_under = |r: Rules| r.outcome(&last).map(|o| f64::from(o.black_margin()));
    if margin_under(rules) != Some(margin) && margin_under(other) == Some(margin) {
        return Game::with_moves(other, game.start(), game.moves())
            .map_err(|e| at(1, 1, e.to_string()));
    }
    Ok(game)
}

/// Moves the cursor to the ply that `CU` names.
fn jump_to_cursor(game: &mut Game, p: &Prop) -> Result<(), GgfError> {
    match p.value.trim().parse::<usize>() {
        Ok(ply) if ply <= game.len() => {
            game.jump(ply);
            Ok(())
        }
        _ => Err(at(
            p.line,
            p.column,
            format!(
                "CU[{}]: the cursor must be a number of moves from 0 to {}",
                p.value,
                game.len()
            ),
        )),
    }
}

/// How the game ended: the board's final score when played out, else the
/// written margin (`RE`) with the winner by the rules' sign, and how it
/// ended early by its suffix (`None` without one: a result recorded as it
/// stands).
fn result_of(game: &Game, written: Option<(f64, String)>) -> (Option<Outcome>, Option<EndedEarly>) {
    let over = game
        .rules()
        .outcome(&game.position_at(game.len()).unwrap_or(game.start()));
    match (over, written) {
        (Some(o), _) => (Some(o), None),
        (None, Some((margin, suffix))) => {
            let m = margin.round() as i32;
            let winner = match m.signum() {
                0 => None,
                1 if !game.rules().anti => Some(Color::Black),
                -1 if game.rules().anti => Some(Color::Black),
                _ => Some(Color::White),
            };
            let outcome = Outcome {
                winner,
                black: m.max(0).unsigned_abs(),
                white: (-m).max(0).unsigned_abs(),
            };
            let early = match suffix.as_str() {
                "r" => Some(EndedEarly::Resigned),
                "t" => Some(EndedEarly::Time),
                "f" => Some(EndedEarly::Forfeit),
                "s" => Some(EndedEarly::Agreed),
                _ => None,
            };
            (Some(outcome), early)
        }
        (None, _) => (None, None),
    }
}

/// `TY` values: an optional `s` (synchro), the board size, then letters; `a`
/// marks Anti Reversi. Returns `None` for a size we do not play.
fn parse_type(t: &str) -> Option<(Option<BoardSize>, bool)> {
    let t = t.trim().to_ascii_lowercase();
    let rest = t.trim_start_matches('s');
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    let size = match digits.as_str() {
        "8" => BoardSize::Eight,
        "6" => BoardSize::Six,
        _ => return None,
    };
    let letters: String = rest[digits.len()..]
        .chars()
        .take_while(char::is_ascii_alphabetic)
        .collect();
    Some((Some(size), letters.contains('a')))
}

fn parse_time(t: &str) -> Option<f64> {
    let t = t.trim();
    if t.is_empty() {
        return None;
    }
    t.split(':').try_fold(0.0, |acc, part| {
        part.trim().parse::<f64>().ok().map(|v| acc * 60.0 + v)
    })
}

fn parse_bo(v: &str) -> Result<Position, String> {
    let mut tokens = v.split_whitespace();
    let size = match tokens.next() {
        Some("8") => BoardSize::Eight,
        Some("6") => BoardSize::Six,
        Some(t) => return Err(format!("expected the board size 8 or 6, found \"{t}\"")),
        None => return Err("expected the board size, then the squares".into()),
    };
    let all: String = tokens.collect();
    let n = size.squares() as usize;
    let chars: Vec<char> = all.chars().collect();
    if chars.len() != n + 1 {
        return Err(format!(
            "expected {n} squares and the side to move, found {} characters",
            chars.len()
        ));
    }
    let (mut black, mut white) = (0u64, 0u64);
    let side = usize::from(size.side());
    for (k, c) in chars[..n].iter().enumerate() {
        let bit = 1u64 << ((k / side) * 8 + k % side);
        match c {
            '*' | 'x' | 'X' | '#' => black |= bit,
            'O' | 'o' => white |= bit,
            '-' | '.' => {}
            c => return Err(format!("'{c}' is not a square (*, O or -)")),
        }
    }
    let to_move = match chars[n] {
        '*' | 'x' | 'X' | '#' => Color::Black,
        'O' | 'o' => Color::White,
        c => return Err(format!("'{c}' is not a side to move (* or O)")),
    };
    Position::from_discs(Bitboard(black), Bitboard(white), to_move, size).map_err(|e| e.to_string())
}

/// The current UTC time as GGS writes dates: `2026.11.29_13:04:51.UTC`.
#[must_use]
pub fn utc_date(now: std::time::SystemTime) -> String {
    let secs = now
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (days, rem) = ((secs / 86_400) as i64, secs % 86_400);
    // Civil date from days since 1970-01-01 (H. Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}.{m:02}.{d:02}_{:02}:{:02}:{:02}.UTC",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}
