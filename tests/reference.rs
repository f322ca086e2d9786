//! The bitboard rules against a slow, obvious array-based reference
//! (tests/common): on every position of thousands of seeded random games on
//! both board sizes, the same legal moves, the same flips for every legal move,
//! the same position after each move, the same pass / game-over status and the
//! same score and outcome under both scoring rules, normal and Anti. Also
//! `moves` and `flips` of every kernel set the CPU has, `neighbours` and
//! `around`, against the reference on random (mostly unreachable)
//! bitboards.

mod common;

use common::{RefBoard, RefStatus, XorShift, bits_of, random_game};
use reversi::rules::movegen::{around, flips, neighbours};
use reversi::rules::{BoardSize, Color, KernelSet, Move, Position, Rules, Scoring, Status};

/// Games per board size; about 60 (8×8) or 32 (6×6) positions each.
const GAMES: usize = 3000;

fn check_position(p: &Position, r: &RefBoard) {
    let ref_legal = r.legal_moves();
    assert_eq!(
        p.legal_moves().0,
        bits_of(&ref_legal),
        "legal moves of {p:?}"
    );
    for &(c, row) in &ref_legal {
        let sq = reversi::rules::Square::at(c as u8, row as u8);
        assert_eq!(
            p.flips(sq).0,
            bits_of(&r.flips(c, row)),
            "flips of {sq} in {p:?}"
        );
    }
    // Every empty square: flips nonempty exactly on the legal moves, and
    // every kernel set agrees.
    let sets = KernelSet::available();
    for sq in p.empties() {
        let f = flips(sq.index(), p.player(), p.opponent());
        for set in &sets {
            assert_eq!(f, set.flips(sq.index(), p.player(), p.opponent()), "{set}");
        }
        assert_eq!(f != 0, p.legal_moves().contains(sq), "{sq} in {p:?}");
    }
    let status = match p.status() {
        Status::ToMove(c) => {
            assert_eq!(c, p.side_to_move());
            RefStatus::ToMove
        }
        Status::MustPass(c) => {
            assert_eq!(c, p.side_to_move());
            RefStatus::MustPass
        }
        Status::GameOver => RefStatus::GameOver,
    };
    assert_eq!(status, r.status(), "status of {p:?}");
    assert_eq!(p.is_game_over(), status == RefStatus::GameOver);
    assert_eq!(p.is_legal(Move::Pass), status == RefStatus::MustPass);
    for color in Color::ALL {
        assert_eq!(p.count(color), r.count(color));
    }
    for anti in [false, true] {
        for scoring in [Scoring::EmptiesToNobody, Scoring::EmptiesToWinner] {
            let rules = Rules {
                size: p.size(),
                anti,
                scoring,
            };
            let o = rules.score(p);
            let (winner, black, white) = r.score(anti, scoring == Scoring::EmptiesToWinner);
            assert_eq!(
                (o.winner, o.black, o.white),
                (winner, black, white),
                "{rules} score of {p:?}"
            );
            assert_eq!(rules.outcome(p).is_some(), status == RefStatus::GameOver);
            // The search's margin agrees with the score: positive for the winner.
            let margin = rules.final_margin(p);
            let expected = match winner {
                None => 0,
                Some(c) if c == p.side_to_move() => black.abs_diff(white) as i32,
                Some(_) => -(black.abs_diff(white) as i32),
            };
            assert_eq!(margin, expected, "{rules} margin of {p:?}");
        }
    }
}

fn compare_random_games(size: BoardSize, seed: u64) -> usize {
    let mut rng = XorShift::new(seed);
    let mut checked = 0;
    for _ in 0..GAMES {
        let (moves, positions) = random_game(&mut rng, size);
        let mut r = RefBoard::from_position(&positions[0]);
        for (i, p) in positions.iter().enumerate() {
            assert_eq!(RefBoard::from_position(p), r, "position {i} differs");
            check_position(p, &r);
            checked += 1;
            if let Some(&mv) = moves.get(i) {
                r = match mv {
                    Move::Place(sq) => r.play(sq.column() as usize, sq.row() as usize),
                    Move::Pass => r.pass(),
                };
            }
        }
        assert_eq!(r.status(), RefStatus::GameOver);
    }
    checked
}

#[test]
fn bitboards_agree_with_the_reference_on_8x8_random_games() {
    let n = compare_random_games(BoardSize::Eight, 0x5eed_0008);
    assert!(n > 150_000, "{n} positions");
}

#[test]
fn bitboards_agree_with_the_reference_on_6x6_random_games() {
    let n = compare_random_games(BoardSize::Six, 0x5eed_0006);
    assert!(n > 80_000, "{n} positions");
}

/// Random disc sets of varied density: sparse, even, dense.
fn random_discs(rng: &mut XorShift) -> (u64, u64) {
    let pick = |rng: &mut XorShift| match rng.below(3) {
        0 => rng.next_u64() & rng.next_u64(),
        1 => rng.next_u64(),
        _ => rng.next_u64() | rng.next_u64(),
    };
    let occupied = pick(rng);
    let p = occupied & pick(rng);
    (p, occupied & !p)
}

/// The squares one king step from a square of `p`, by coordinates.
fn reference_neighbours(p: u64) -> u64 {
    let mut n = 0;
    for sq in (0..64).filter(|s| p >> s & 1 == 1) {
        let (c, r) = (sq % 8, sq / 8);
        for dc in -1..=1 {
            for dr in -1..=1 {
                let (nc, nr) = (c + dc, r + dr);
                if (dc, dr) != (0, 0) && (0..8).contains(&nc) && (0..8).contains(&nr) {
                    n |= 1u64 << (nr * 8 + nc);
                }
            }
        }
    }
    n
}

#[test]
fn kernels_agree_with_the_reference_on_random_bitboards() {
    let mut rng = XorShift::new(0xb17b_0a4d);
    let sets = KernelSet::available();
    for _ in 0..40_000 {
        let (p, o) = random_discs(&mut rng);
        let r = RefBoard::from_bits(p, o);
        let legal = bits_of(&r.legal_moves());
        for set in &sets {
            assert_eq!(set.moves(p, o), legal, "{set} moves({p:#x}, {o:#x})");
        }
        assert_eq!(neighbours(p), reference_neighbours(p), "neighbours({p:#x})");
        assert_eq!(around(p), reference_neighbours(p) | p, "around({p:#x})");
        let empty = !(p | o);
        for sq in 0..64 {
            if empty >> sq & 1 == 0 {
                continue;
            }
            let expected = bits_of(&r.flips(sq % 8, sq / 8));
            assert_eq!(flips(sq, p, o), expected, "sq {sq} p {p:#x} o {o:#x}");
            for set in &sets {
                assert_eq!(
                    set.flips(sq, p, o),
                    expected,
                    "{set} sq {sq} p {p:#x} o {o:#x}"
                );
            }
        }
    }
}

#[test]
fn six_by_six_masks_agree_with_the_reference_on_random_bitboards() {
    let mut rng = XorShift::new(0x6666);
    let mask = BoardSize::Six.mask();
    for _ in 0..20_000 {
        let (p, o) = random_discs(&mut rng);
        let (p, o) = (p & mask, o & mask);
        let pos = Position::from_side_relative(p, o, Color::Black, BoardSize::Six);
        let mut r = RefBoard::from_bits(p, o);
        r.side = 6;
        assert_eq!(pos.legal_moves().0, bits_of(&r.legal_moves()), "{pos:?}");
        assert_eq!(
            pos.status() == Status::GameOver,
            r.status() == RefStatus::GameOver
        );
    }
}
