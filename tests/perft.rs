//! Perft from the start positions against the published counts (a pass is a
//! ply; a game that ends before the requested depth counts no leaf): depths 1–9
//! on 8×8 and 1–10 on 6×6, with every kernel set the CPU has (so that one
//! machine tests the portable set and each vector one).

use reversi::rules::{BoardSize, KernelSet, Position, perft, perft_with};

const EIGHT: [u64; 9] = [4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288];
const SIX: [u64; 10] = [4, 12, 56, 244, 1364, 7604, 47740, 308716, 2114912, 14976684];

fn check(size: BoardSize, expected: &[u64]) {
    let start = Position::initial(size);
    assert_eq!(perft(&start, 0), 1);
    for (depth, &leaves) in (1..).zip(expected) {
        assert_eq!(perft(&start, depth), leaves, "{size} perft {depth}");
        for set in KernelSet::available() {
            assert_eq!(
                perft_with(&start, depth, set),
                leaves,
                "{size} {set} perft {depth}"
            );
        }
    }
}

#[test]
fn perft_8x8_depths_1_to_9() {
    check(BoardSize::Eight, &EIGHT);
}

#[test]
fn perft_6x6_depths_1_to_10() {
    check(BoardSize::Six, &SIX);
}

#[test]
fn perft_counts_a_forced_pass_as_a_ply_and_a_finished_game_as_no_leaf() {
    use reversi::notation::parse_board;
    // Black must pass (c1 lies beyond White's a1 b1); White then has d1 only.
    let p =
        parse_board("OOX------------------------------------------------------------- X").unwrap();
    assert_eq!(perft(&p, 1), 1);
    assert_eq!(perft(&p, 2), 1);
    // White's d1 takes Black's last disc: the game is over before ply 3.
    assert_eq!(perft(&p, 3), 0);
    // A finished game has no leaf at any depth above 0.
    let over =
        parse_board("XXX------------------------------------------------------------- O").unwrap();
    assert_eq!(
        (perft(&over, 0), perft(&over, 1), perft(&over, 4)),
        (1, 0, 0)
    );
}
