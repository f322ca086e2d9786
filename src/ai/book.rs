//! The opening book: positions of the standard 8×8 game that the game
//! collections reach often, each with what a search found for the best move
//! the games did not try (its *leaf*), and the value of the position
//! propagated by negamax through the book (the best of the leaf and of the
//! book's children, each seen from the side to move).
//!
//! Positions are stored side-relative and merged under the board's eight
//! symmetries: the key of a position is the least of its eight images, as
//! the pair (discs of the side to move, discs of the other side). A move is
//! stored in the orientation of that least image and mapped back on lookup.
//!
//! The file format (all integers little-endian) is documented in
//! `docs/book.md`: a 16-byte header (`RVBOOK`, a version byte, a reserved
//! byte, the entry count as a u32, the build's search depth as a u32),
//! then the entries sorted by key, 26 bytes each: the two bitboards (u64),
//! the value (i16, hundredths of a disc, for the side to move), the leaf's
//! value (i16, [`NO_LEAF`] when every legal move leads into the book), the
//! leaf's move (u8 square in the stored orientation, 255 for none), the
//! leaf's search depth (u8; [`EXACT_DEPTH`] for an exact solve) and the
//! number of games that reached the position (u32).
//!
//! Depends on [`crate::rules`] only; building (which searches) lives in
//! `reversi book` (`src/cli/book.rs`).

use crate::random::Rng;
use crate::rules::{Bitboard, BoardSize, Color, Move, Position, Square, Symmetry, canonical};
use std::sync::{Arc, OnceLock};

/// The leaf value of an entry whose legal moves all lead into the book.
pub const NO_LEAF: i16 = i16::MIN;

/// The leaf depth of an exact solve.
pub const EXACT_DEPTH: u8 = 255;

const MAGIC: &[u8; 6] = b"RVBOOK";
const VERSION: u8 = 1;
const HEADER: usize = 16;
const ENTRY: usize = 26;

/// The key of a position under the board's symmetries: the least of its
/// eight side-relative images.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Key {
    /// The discs of the side to move.
    pub player: u64,
    /// The discs of the other side.
    pub opponent: u64,
}

impl Key {
    /// The key of `position` and the symmetry that maps it onto the key's
    /// orientation.
    #[must_use]
    pub fn of(position: &Position) -> (Key, Symmetry) {
        let ((player, opponent), s) = canonical(position);
        (Key { player, opponent }, s)
    }
}

/// One position of the book.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The position's key.
    pub key: Key,
    /// The negamax value for the side to move, in hundredths of a disc.
    pub value: i16,
    /// The value of the best move outside the book ([`NO_LEAF`]: none).
    pub leaf_value: i16,
    /// That move's square, in the key's orientation (`None`: no leaf).
    pub leaf_move: Option<u8>,
    /// The depth the leaf was searched to ([`EXACT_DEPTH`]: solved).
    pub leaf_depth: u8,
    /// How many games of the collections reached the position.
    pub games: u32,
}

/// Why a book cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BookError {
    /// Not a book file, or one of another version.
    #[error("not a reversi opening book (it does not start with RVBOOK version {VERSION})")]
    NotABook,
    /// The size does not match the entry count.
    #[error("the book is cut short or has extra bytes: {len} bytes for {count} entries")]
    Length {
        /// The file's length.
        len: usize,
        /// The entries the header announces.
        count: usize,
    },
    /// Keys out of order or repeated, or a malformed entry.
    #[error("entry {0} is out of order, repeated or malformed")]
    Entry(usize),
}

/// How a book move is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// It leads to a position of the book: its value is that position's.
    Book,
    /// The best move the games did not play, as searched.
    Leaf,
}

/// A move of a book position with its value for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move.
    pub mv: Move,
    /// Its value in hundredths of a disc, for the side to move.
    pub value: i32,
    /// Where the value comes from.
    pub source: Source,
    /// The leaf's search depth ([`EXACT_DEPTH`]: solved); for a move into
    /// the book, that of the position reached.
    pub depth: u8,
    /// How many games of the collections played it (0 for a leaf).
    pub games: u32,
}

/// What the book says of one move played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookStep {
    /// The book's best move in the position.
    pub best: BookMove,
    /// The move played as the book knows it: into the book, or its leaf;
    /// `None` for a move the book does not know.
    pub played: Option<BookMove>,
}

impl BookStep {
    /// Whether the move played stays in the book (leads to a book position).
    #[must_use]
    pub fn stays(&self) -> bool {
        self.played.is_some_and(|m| m.source == Source::Book)
    }
}

/// An opening book: entries sorted by key.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Book {
    entries: Vec<Entry>,
    depth: u32,
}

static SHIPPED: &[u8] = include_bytes!("../../data/book.rvb");

impl Book {
    /// A book of `entries` (any order; a repeated key keeps the last) built
    /// with searches of `depth`.
    #[must_use]
    pub fn new(mut entries: Vec<Entry>, depth: u32) -> Book {
        entries.sort_by_key(|e| e.key);
        entries.dedup_by(|later, earlier| {
            let same = later.key == earlier.key;
            if same {
                *earlier = *later;
            }
            same
        });
        Book { entries, depth }
    }

    /// The book shipped with the program (`data/book.rvb`), read once.
    ///
    /// # Errors
    /// [`BookError`] if the shipped file is damaged.
    pub fn shipped() -> Result<Arc<Book>, BookError> {
        static BOOK: OnceLock<Result<Arc<Book>, BookError>> = OnceLock::new();
        BOOK.get_or_init(|| Book::from_bytes(SHIPPED).map(Arc::new))
            .clone()
    }

    /// The entries, sorted by key.
    #[must_use]
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The search depth the book was built with.
    #[must_use]
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// The number of positions.
    #[must_use]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book has no position.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entry of a key.
    #[must_use]
    pub fn get(&self, key: Key) -> Option<&Entry> {
        self.entries
            .binary_search_by_key(&key, |e| e.key)
            .ok()
            .map(|i| &self.entries[i])
    }

    /// The entry of `position` (standard 8×8 positions only).
    #[must_use]
    pub fn entry(&self, position: &Position) -> Option<&Entry> {
        if position.size() != BoardSize::Eight {
            return None;
        }
        self.get(Key::of(position).0)
    }

    /// The known moves of `position`, best first: each move into a book
    /// position with that position's value, and the leaf. Empty when the
    /// position is not in the book.
    #[must_use]
    pub fn moves(&self, position: &Position) -> Vec<BookMove> {
        if position.size() != BoardSize::Eight {
            return Vec::new();
        }
        let (key, symmetry) = Key::of(position);
        let Some(entry) = self.get(key) else {
            return Vec::new();
        };
        let mut moves = Vec::new();
        for sq in position.legal_moves().iter() {
            let mv = Move::Place(sq);
            let child = position.play_unchecked(mv);
            if let Some(e) = self.entry(&after_passes(child)) {
                let value = child_value(&child, e);
                moves.push(BookMove {
                    mv,
                    value,
                    source: Source::Book,
                    depth: e.leaf_depth,
                    games: e.games,
                });
            } else if entry.leaf_move == Some(symmetry.square(sq, BoardSize::Eight).index() as u8)
                && entry.leaf_value != NO_LEAF
            {
                moves.push(BookMove {
                    mv,
                    value: i32::from(entry.leaf_value),
                    source: Source::Leaf,
                    depth: entry.leaf_depth,
                    games: 0,
                });
            }
        }
        moves.sort_by_key(|m| std::cmp::Reverse(m.value));
        moves
    }

    /// The book's value of the standard start for `side`, in hundredths of
    /// a disc (`None` when the book does not know the start).
    #[must_use]
    pub fn par(&self, side: Color) -> Option<i32> {
        let start = self.entry(&Position::initial(BoardSize::Eight))?;
        let v = i32::from(start.value);
        Some(if side == Color::Black { v } else { -v })
    }

    /// The book moves a player may draw from at `position` with a margin of
    /// `margin` hundredths of a disc: those within the margin of the best
    /// move and of the side's [`Book::par`] (so that the moves of a whole
    /// game give up at most the margin against the book's value of the
    /// start), best first. The best move alone when the side is already
    /// below its par by more than the margin; empty off the book.
    #[must_use]
    pub fn candidates(&self, position: &Position, margin: i32) -> Vec<BookMove> {
        let moves = self.moves(position);
        let Some(best) = moves.first().map(|m| m.value) else {
            return moves;
        };
        let floor = match self.par(position.side_to_move()) {
            Some(par) => (best - margin).max((par - margin).min(best)),
            None => best - margin,
        };
        moves.into_iter().filter(|m| m.value >= floor).collect()
    }

    /// A book move for `position` drawn among [`Book::candidates`], each with
    /// a chance in proportion to the number of the collections' games that
    /// played it (a leaf counts as one game): the lines players know best
    /// come most often. `None` off the book.
    #[must_use]
    pub fn choose(&self, position: &Position, margin: i32, rng: &mut Rng) -> Option<BookMove> {
        let candidates = self.candidates(position, margin);
        crate::random::weighted(rng, &candidates, |m| u64::from(m.games)).copied()
    }

    /// What the book says of each move of a game from `start`: for every
    /// ply whose position the book knows, its best move and the move played
    /// as the book knows it (`None` where the position is not in the book,
    /// or the game is not the standard 8×8 one from the start).
    #[must_use]
    pub fn follow(&self, start: &Position, moves: &[Move]) -> Vec<Option<BookStep>> {
        let standard = *start == Position::initial(BoardSize::Eight);
        let mut p = *start;
        let mut out = Vec::with_capacity(moves.len());
        for &mv in moves {
            let step = if standard && mv != Move::Pass {
                let known = self.moves(&p);
                known.first().map(|&best| BookStep {
                    best,
                    played: known.iter().find(|k| k.mv == mv).copied(),
                })
            } else {
                None
            };
            out.push(step);
            p = p.play_unchecked(mv);
        }
        out
    }

    /// Where each side left the book in a game from `start`: for Black
    /// (`[0]`) and White (`[1]`), the first ply at which that side, in a
    /// position the book knows, played a move that does not stay in it, and
    /// what the book says there ([`Book::follow`]).
    #[must_use]
    pub fn departures(&self, start: &Position, moves: &[Move]) -> [Option<(usize, BookStep)>; 2] {
        let mut out = [None, None];
        let mut p = *start;
        for (i, step) in self.follow(start, moves).into_iter().enumerate() {
            let side = usize::from(p.side_to_move() == Color::White);
            if let Some(step) = step
                && !step.stays()
                && out[side].is_none()
            {
                out[side] = Some((i, step));
            }
            p = p.play_unchecked(moves[i]);
        }
        out
    }

    /// The file's bytes (see the module docs).
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER + ENTRY * self.entries.len());
        out.extend_from_slice(MAGIC);
        out.push(VERSION);
        out.push(0);
        let count = u32::try_from(self.entries.len()).unwrap_or(u32::MAX);
        out.extend_from_slice(&count.to_le_bytes());
        out.extend_from_slice(&self.depth.to_le_bytes());
        for e in self.entries.iter().take(count as usize) {
            out.extend_from_slice(&e.key.player.to_le_bytes());
            out.extend_from_slice(&e.key.opponent.to_le_bytes());
            out.extend_from_slice(&e.value.to_le_bytes());
            out.extend_from_slice(&e.leaf_value.to_le_bytes());
            out.push(e.leaf_move.unwrap_or(255));
            out.push(e.leaf_depth);
            out.extend_from_slice(&e.games.to_le_bytes());
        }
        out
    }

    /// Reads a book file's bytes.
    ///
    /// # Errors
    /// [`BookError`] for anything but a well-formed book.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookError> {
        if bytes.len() < HEADER || &bytes[..6] != MAGIC || bytes[6] != VERSION {
            return Err(BookError::NotABook);
        }
        let word = |at: usize| {
            u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
        };
        let count = word(8) as usize;
        let depth = word(12);
        if bytes.len() != HEADER + count.saturating_mul(ENTRY) {
            return Err(BookError::Length {
                len: bytes.len(),
                count,
            });
        }
        let mut entries = Vec::with_capacity(count);
        for (i, chunk) in bytes[HEADER..].chunks_exact(ENTRY).enumerate() {
            let u64_at = |at: usize| {
                let mut b = [0u8; 8];
                b.copy_from_slice(&chunk[at..at + 8]);
                u64::from_le_bytes(b)
            };
            let i16_at = |at: usize| i16::from_le_bytes([chunk[at], chunk[at + 1]]);
            let key = Key {
                player: u64_at(0),
                opponent: u64_at(8),
            };
            let leaf = chunk[20];
            let entry = Entry {
                key,
                value: i16_at(16),
                leaf_value: i16_at(18),
                leaf_move: (leaf != 255).then_some(leaf),
                leaf_depth: chunk[21],
                games: u32::from_le_bytes([chunk[22], chunk[23], chunk[24], chunk[25]]),
            };
            let malformed = key.player & key.opponent != 0
                || leaf != 255 && (leaf >= 64 || (key.player | key.opponent) >> leaf & 1 == 1)
                || (entry.leaf_move.is_some() == (entry.leaf_value == NO_LEAF));
            if malformed || entries.last().is_some_and(|p: &Entry| p.key >= key) {
                return Err(BookError::Entry(i));
            }
            entries.push(entry);
        }
        Ok(Book { entries, depth })
    }
}

/// `position`, after the passes forced on the side to move (a book stores
/// positions where someone can move).
#[must_use]
pub fn after_passes(position: Position) -> Position {
    if !position.has_legal_move() && !position.is_game_over() {
        position.play_unchecked(Move::Pass)
    } else {
        position
    }
}

/// The value, for the side that moved into `child`, of the book entry of
/// `child` after its forced passes.
fn child_value(child: &Position, entry: &Entry) -> i32 {
    let v = i32::from(entry.value);
    if child.has_legal_move() { -v } else { v }
}

/// The negamax values of `entries` (their `value` fields are set): each
/// position's value is the best of its leaf and of its moves into the book.
/// Positions are done from the fullest board down, so that a move's value is
/// known before its parent needs it. Entries with neither a leaf nor a move
/// into the book keep the value they have.
pub fn propagate(entries: &mut [Entry]) {
    let mut order: Vec<usize> = (0..entries.len()).collect();
    let discs = |e: &Entry| (e.key.player | e.key.opponent).count_ones();
    order.sort_by_key(|&i| std::cmp::Reverse(discs(&entries[i])));
    let mut index: std::collections::HashMap<Key, usize> = std::collections::HashMap::new();
    for (i, e) in entries.iter().enumerate() {
        index.insert(e.key, i);
    }
    for &i in &order {
        let e = entries[i];
        let position = Position::from_side_relative(
            e.key.player,
            e.key.opponent,
            crate::rules::Color::Black,
            BoardSize::Eight,
        );
        let mut best = (e.leaf_value != NO_LEAF).then_some(i32::from(e.leaf_value));
        for sq in position.legal_moves().iter() {
            let child = position.play_unchecked(Move::Place(sq));
            let key = Key::of(&after_passes(child)).0;
            if let Some(&j) = index.get(&key) {
                let v = child_value(&child, &entries[j]);
                best = Some(best.map_or(v, |b| b.max(v)));
            }
        }
        if let Some(v) = best {
            entries[i].value = clamp(v);
        }
    }
}

/// A value in hundredths clamped to what an entry holds (a full board's
/// margin at most).
#[must_use]
pub fn clamp(v: i32) -> i16 {
    v.clamp(-6400, 6400) as i16
}

/// The squares of `position` whose moves lead to positions of `keys`
/// (after forced passes): the moves a leaf search leaves out.
#[must_use]
pub fn moves_into(position: &Position, mut contains: impl FnMut(Key) -> bool) -> Bitboard {
    let mut set = Bitboard::EMPTY;
    for sq in position.legal_moves().iter() {
        let child = after_passes(position.play_unchecked(Move::Place(sq)));
        if contains(Key::of(&child).0) {
            set = set | sq_bit(sq);
        }
    }
    set
}

fn sq_bit(sq: Square) -> Bitboard {
    Bitboard(sq.bit())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::{parse_square, parse_transcript};

    fn after(moves: &str) -> Position {
        let start = Position::initial(BoardSize::Eight);
        let mut p = start;
        for m in parse_transcript(moves, &start).expect("moves") {
            p = p.play(m).expect("legal");
        }
        p
    }

    #[test]
    fn the_four_first_moves_are_one_key() {
        let keys: Vec<Key> = ["f5", "d3", "c4", "e6"]
            .iter()
            .map(|m| Key::of(&after(m)).0)
            .collect();
        assert!(keys.iter().all(|&k| k == keys[0]));
        assert_ne!(Key::of(&after("f5d6")).0, Key::of(&after("f5f4")).0);
    }

    #[test]
    fn bytes_round_trip_and_damage_is_refused() {
        let mut entries = Vec::new();
        for line in ["f5", "f5d6", "f5f6", "f5f4", "f5d6c3"] {
            let (key, s) = Key::of(&after(line));
            let p = after(line);
            let leaf = p.legal_moves().iter().next().expect("a move");
            entries.push(Entry {
                key,
                value: 0,
                leaf_value: -150,
                leaf_move: Some(s.square(leaf, BoardSize::Eight).index() as u8),
                leaf_depth: 12,
                games: 7,
            });
        }
        propagate(&mut entries);
        let book = Book::new(entries, 12);
        let bytes = book.to_bytes();
        assert_eq!(Book::from_bytes(&bytes), Ok(book.clone()));
        assert_eq!(
            Book::from_bytes(&bytes[..bytes.len() - 1]).err(),
            Some(BookError::Length {
                len: bytes.len() - 1,
                count: 5
            })
        );
        assert_eq!(Book::from_bytes(b"RVBOOK"), Err(BookError::NotABook));
        let mut swapped = bytes.clone();
        swapped[HEADER..HEADER + 2 * ENTRY].rotate_left(ENTRY);
        assert_eq!(Book::from_bytes(&swapped), Err(BookError::Entry(1)));
    }

    /// Negamax through the book: a parent's value is the best of its
    /// leaf and of minus its children's values, whatever the orientation
    /// each position was stored in.
    #[test]
    fn values_propagate_and_moves_map_back_through_the_symmetries() {
        let root = after("f5");
        let (rk, rs) = Key::of(&root);
        let d6 = after("f5d6");
        let f4 = after("f5f4");
        let leaf_sq = parse_square("f6").expect("square");
        let entry = |p: &Position, leaf: Option<(Square, i16)>, value: i16| {
            let (key, s) = Key::of(p);
            Entry {
                key,
                value,
                leaf_value: leaf.map_or(NO_LEAF, |l| l.1),
                leaf_move: leaf.map(|l| s.square(l.0, BoardSize::Eight).index() as u8),
                leaf_depth: 10,
                games: 1,
            }
        };
        let mut entries = vec![
            entry(&root, Some((leaf_sq, -300)), 0),
            entry(&d6, None, 120),
            entry(&f4, None, -500),
        ];
        propagate(&mut entries);
        let book = Book::new(entries, 10);
        assert_eq!(book.get(rk).map(|e| e.value), Some(500));
        let moves = book.moves(&root);
        let found: Vec<(String, i32, Source)> = moves
            .iter()
            .map(|m| (m.mv.to_string(), m.value, m.source))
            .collect();
        assert_eq!(
            found,
            vec![
                ("f4".to_string(), 500, Source::Book),
                ("d6".to_string(), -120, Source::Book),
                ("f6".to_string(), -300, Source::Leaf),
            ]
        );
        // A game through the book: it stays in at f5 and f4, and leaves
        // it with d6's reply.
        let start = Position::initial(BoardSize::Eight);
        let f5 = Move::Place(parse_square("f5").expect("square"));
        let f4 = Move::Place(parse_square("f4").expect("square"));
        let f6 = Move::Place(leaf_sq);
        let steps = book.follow(&start, &[f5, f6]);
        assert_eq!(steps[0], None, "the start is not in this book");
        let left = steps[1].expect("f5 is in the book");
        assert_eq!(
            (left.best.mv, left.played.map(|m| m.source)),
            (f4, Some(Source::Leaf))
        );
        assert!(!left.stays());
        assert!(book.follow(&start, &[f5, f4])[1].is_some_and(|s| s.stays()));
        // White left it at ply 2 (index 1); Black never did.
        let [black, white] = book.departures(&start, &[f5, f6]);
        assert_eq!(black, None);
        assert_eq!(white, Some((1, left)));
        // The same position seen from another first move.
        let mirrored = after("d3");
        assert_eq!(Key::of(&mirrored).0, rk);
        let _ = rs;
        assert_eq!(book.moves(&mirrored).len(), 3);
        assert_eq!(book.moves(&mirrored)[0].value, 500);
    }

    /// A book of the start (valued `start` for Black), of f5 and of three
    /// White replies, each with its value for White and its games.
    fn replies_book(start: i16) -> Book {
        let entry = |moves: &str, value: i16, games: u32| Entry {
            key: Key::of(&after(moves)).0,
            value,
            leaf_value: NO_LEAF,
            leaf_move: None,
            leaf_depth: 18,
            games,
        };
        Book::new(
            vec![
                entry("", start, 1000),
                entry("f5", -60, 1000),
                // Values for Black, to move after White's reply.
                entry("f5d6", 60, 50),
                entry("f5f6", 130, 30),
                entry("f5f4", 400, 920),
            ],
            18,
        )
    }

    fn names(moves: &[BookMove]) -> Vec<String> {
        moves.iter().map(|m| m.mv.to_string()).collect()
    }

    /// The choice keeps within the margin of the best move and of the
    /// side's value of the start, whatever the games played most.
    #[test]
    fn candidates_stay_within_the_margin_of_the_best_and_of_the_start() {
        let f5 = after("f5");
        // White's par is -0.60: d6 and f6 are within a disc of both.
        let book = replies_book(60);
        assert_eq!(book.par(Color::White), Some(-60));
        assert_eq!(names(&book.candidates(&f5, 100)), ["d6", "f6"]);
        assert_eq!(names(&book.candidates(&f5, 0)), ["d6"]);
        // White's par +0.20: f6 gives up more than a disc against it.
        let book = replies_book(-20);
        assert_eq!(names(&book.candidates(&f5, 100)), ["d6"]);
        // Already below the par by more than the margin: the best alone.
        let book = replies_book(-300);
        assert_eq!(names(&book.candidates(&f5, 100)), ["d6"]);
        // A large margin admits every move, within the start's too.
        let book = replies_book(60);
        assert_eq!(names(&book.candidates(&f5, 400)), ["d6", "f6", "f4"]);
    }

    /// Among the candidates, each is drawn as often as the games played
    /// it, and a seed repeats the draws.
    #[test]
    fn choices_follow_the_games_and_the_seed() {
        let f5 = after("f5");
        let book = replies_book(60);
        let mut rng = crate::random::seeded(5);
        let draws = 8000;
        let d6 = (0..draws)
            .filter(|_| {
                let m = book.choose(&f5, 100, &mut rng).expect("in the book");
                m.mv.to_string() == "d6"
            })
            .count();
        // d6 was played by 50 games of 80: 5,000 draws expected.
        assert!((4700..=5300).contains(&d6), "d6 drawn {d6} times");
        let first = |seed| book.choose(&f5, 100, &mut crate::random::seeded(seed));
        assert_eq!(first(9), first(9));
        assert_eq!(book.choose(&after("f5d6c3"), 100, &mut rng), None);
    }
}
