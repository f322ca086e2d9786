//! The game review in replay: background jobs nearest to the shown move
//! first, never blocking a step; cancelled on leaving replay; jumps between
//! mistakes; the review saved in the record and shown at once when loaded;
//! screen snapshots of the graph in colour, `NO_COLOR` and `--ascii`.

use super::*;
use crate::ai::review::{Class, PlyReview};
use crate::i18n::Lang;
use crate::notation::ggf::{parse_ggf, write_ggf};
use crate::ui::app::Job;
use crate::ui::model::Mode;
use crate::ui::{record, review};

/// A game with a pass, played out to its end.
fn with_pass_finished() -> Game {
    let moves = fixed_game(BoardSize::Eight, WITH_A_PASS);
    let rules = Rules::standard(BoardSize::Eight);
    let mut g = Game::with_moves(rules, Position::initial(rules.size), &moves).unwrap();
    while let Some(&mv) = g.position().moves_list().first() {
        g.play(mv).unwrap();
    }
    g
}

fn replay_app(game: Game, look: Look) -> App {
    let mut app = app_with([Player::Human, Player::Human], game, look);
    press(&mut app, Key::Char('v'));
    press(&mut app, Key::Home);
    app
}

/// Black's made-up value after `k` moves: a wave, exact in the last 12 plies.
fn made_up(game: &Game, k: usize) -> Score {
    let len = game.len();
    if k + 12 >= len {
        let last = game.position_at(len).unwrap();
        let sign = if last.side_to_move() == Color::Black {
            1
        } else {
            -1
        };
        Score::Exact(sign * game.rules().final_margin(&last))
    } else {
        Score::Estimate(((k as f64 * 0.35).sin() * 900.0) as i32)
    }
}

/// Scores for the job's position: the played move at the made-up value, one
/// other move better by 6 discs at plies in `mistakes`, else no better.
fn answer(app: &App, job: &Job, mistakes: &[usize]) -> Msg {
    let g = game(app);
    let i = (0..g.len())
        .find(|&i| g.position_at(i) == Some(job.position))
        .expect("a position of the game");
    let sign = if job.position.side_to_move() == Color::Black {
        1
    } else {
        -1
    };
    let played = g.moves()[i];
    let value = match made_up(g, i + 1) {
        Score::Exact(v) => Score::Exact(sign * v),
        Score::Estimate(v) => Score::Estimate(sign * v),
    };
    let mut evals = vec![MoveEval {
        book: false,
        mv: played,
        score: value,
    }];
    if let Some(other) = job.position.moves_list().into_iter().find(|m| *m != played) {
        let better = match value {
            Score::Exact(v) if mistakes.contains(&i) => Score::Exact(v + 6),
            Score::Estimate(v) if mistakes.contains(&i) => Score::Estimate(v + 600),
            s => s.negate().negate(),
        };
        let e = MoveEval {
            book: false,
            mv: other,
            score: if mistakes.contains(&i) { better } else { value },
        };
        if mistakes.contains(&i) {
            evals.insert(0, e);
        } else {
            evals.push(e);
        }
    }
    Msg::Analysed {
        id: job.id,
        position: job.position,
        evals,
    }
}

fn started(fx: &[Effect]) -> Option<Job> {
    fx.iter().find_map(|e| match e {
        Effect::Start(j) => Some(*j),
        _ => None,
    })
}

/// Answers every job until the review is complete; returns the jobs' plies
/// in the order they were asked for.
fn run_review(app: &mut App, first: Vec<Effect>, mistakes: &[usize]) -> Vec<usize> {
    let mut order = Vec::new();
    let mut fx = first;
    while let Some(job) = started(&fx) {
        let g = game(app);
        order.push(
            (0..g.len())
                .find(|&i| g.position_at(i) == Some(job.position))
                .unwrap(),
        );
        let msg = answer(app, &job, mistakes);
        fx = update(app, msg);
    }
    order
}

#[test]
fn the_review_scores_every_move_nearest_first_without_blocking_a_step() {
    let mut app = replay_app(with_pass_finished(), COLOUR);
    let len = game(&app).len();
    for _ in 0..20 {
        press(&mut app, Key::Right);
    }
    let fx = press(&mut app, Key::Char('a'));
    let job = started(&fx).expect("a to review starts a job");
    assert!(matches!(job.kind, JobKind::Review { .. }));
    assert_eq!(
        job.position,
        game(&app).position_at(19).unwrap(),
        "the shown move first"
    );
    // Stepping while the job runs starts nothing and moves at once.
    assert!(press(&mut app, Key::Right).is_empty());
    assert!(press(&mut app, Key::Left).is_empty());
    assert_eq!(game(&app).ply(), 20);
    let msg = answer(&app, &job, &[]);
    let fx = update(&mut app, msg);
    let mut order = vec![19];
    order.extend(run_review(&mut app, fx, &[]));
    assert_eq!(order.len(), len, "every move once");
    // Nearest first: the distance from the shown move never decreases.
    let dist: Vec<usize> = order.iter().map(|i| i.abs_diff(19)).collect();
    assert!(dist.windows(2).all(|w| w[0] <= w[1]), "{order:?}");
    let m = playing(&app);
    assert!(m.reviews.plies(&m.game).iter().all(Option::is_some));
    let screen = render(&app, 100, 40);
    assert!(
        screen.contains("Black ") && screen.contains("/move"),
        "{screen}"
    );
    assert!(
        screen.contains("exact") && screen.contains("estimate"),
        "the graph's caption"
    );
    // A pass is reviewed as forced.
    let pass = game(&app)
        .moves()
        .iter()
        .position(|m| *m == Move::Pass)
        .unwrap();
    let r = playing(&app)
        .reviews
        .get(&game(&app).position_at(pass).unwrap(), Move::Pass);
    assert!(r.is_some_and(|r| r.is_pass() && r.class() == Class::Best));
    assert!(press(&mut app, Key::End).is_empty(), "nothing left to do");
}

#[test]
fn leaving_replay_cancels_the_review_and_keeps_what_was_done() {
    let mut app = replay_app(with_pass_finished(), COLOUR);
    let job = started(&press(&mut app, Key::Char('a'))).unwrap();
    let msg = answer(&app, &job, &[]);
    let next = started(&update(&mut app, msg)).expect("the next ply");
    let fx = press(&mut app, Key::Esc);
    assert!(fx.contains(&Effect::Stop(next.id)), "{fx:?}");
    assert!(matches!(playing(&app).mode, Mode::Play));
    // A late answer of the cancelled job is dropped.
    let late = answer(&app, &next, &[]);
    assert!(started(&update(&mut app, late)).is_none());
    let m = playing(&app);
    assert_eq!(
        m.reviews.plies(&m.game).iter().flatten().count(),
        1,
        "the finished ply is kept"
    );
    // Back in replay the review is not running until asked for again.
    press(&mut app, Key::Char('v'));
    assert!(!review::is_shown(playing(&app)));
    let fx = press(&mut app, Key::Char('a'));
    let again = started(&fx).unwrap();
    assert_ne!(again.position, job.position, "the done ply is not redone");
    // A failed job is not retried forever.
    let fx = update(
        &mut app,
        Msg::Failed {
            id: again.id,
            message: "boom".into(),
        },
    );
    let after = started(&fx).unwrap();
    assert_ne!(after.position, again.position);
}

#[test]
fn brackets_jump_to_the_previous_and_next_mistake() {
    let mut app = replay_app(with_pass_finished(), COLOUR);
    let fx = press(&mut app, Key::Char('a'));
    let mistakes = [4, 17, 30];
    run_review(&mut app, fx, &mistakes);
    press(&mut app, Key::Home);
    for want in mistakes {
        press(&mut app, Key::Char(']'));
        assert_eq!(game(&app).ply(), want + 1, "shows the mistake's move");
        let (before, mv) = playing(&app).shown_move().unwrap();
        let r: PlyReview = playing(&app).reviews.get(&before, mv).unwrap();
        assert_eq!(r.loss(), 6.0);
        assert!(
            review::verdict(Lang::En, playing(&app))
                .concat()
                .contains("mistake, -6.0")
        );
    }
    press(&mut app, Key::Char(']'));
    assert_eq!(game(&app).ply(), 31);
    assert!(app.status.as_deref().unwrap().contains("No later mistake"));
    press(&mut app, Key::Char('['));
    assert_eq!(game(&app).ply(), 18);
    press(&mut app, Key::Char('['));
    press(&mut app, Key::Char('['));
    assert_eq!(game(&app).ply(), 5);
    assert!(
        app.status
            .as_deref()
            .unwrap()
            .contains("No earlier mistake")
    );
    // The mistakes are marked in the move list.
    let screen = render(&app, 100, 40);
    let mv = game(&app).moves()[4];
    assert!(screen.contains(&format!("{mv}?")), "{screen}");
}

#[test]
fn a_saved_review_comes_back_at_once() {
    let mut app = replay_app(with_pass_finished(), COLOUR);
    let fx = press(&mut app, Key::Char('a'));
    run_review(&mut app, fx, &[7]);
    let r = record::record_of(playing(&app));
    let text = write_ggf(&r);
    assert!(text.contains("RV[d"), "{text}");
    let setup = record::setup_of(Lang::En, &parse_ggf(&text).unwrap()[0]);
    let mut loaded = App::new(Choices::default(), COLOUR, 1, Instant::now());
    start(&mut loaded, setup);
    let now = loaded.clock;
    let fx = update(&mut loaded, Msg::Tick(now));
    assert!(started(&fx).is_none(), "nothing to compute again");
    assert!(review::is_shown(playing(&loaded)), "shown at once");
    assert_eq!(
        playing(&loaded).reviews.plies(game(&loaded)),
        playing(&app).reviews.plies(game(&app))
    );
    press(&mut loaded, Key::Char(']'));
    assert_eq!(game(&loaded).ply(), 8);

    // A damaged review is reported and left out; the game still loads.
    let bad = text.replace("RV[d", "RV[x");
    let setup = record::setup_of(Lang::En, &parse_ggf(&bad).unwrap()[0]);
    assert!(setup.note.unwrap().contains("review was not read"));
    assert_eq!(setup.reviews, crate::ui::model::Reviews::default());
}

fn reviewed_screen(look: Look) -> String {
    let mut app = replay_app(with_pass_finished(), look);
    let fx = press(&mut app, Key::Char('a'));
    run_review(&mut app, fx, &[4, 17, 30]);
    for _ in 0..31 {
        press(&mut app, Key::Right);
    }
    app.status = None;
    render(&app, 100, 40)
}

#[test]
fn snapshot_review_colour() {
    insta::assert_snapshot!(reviewed_screen(COLOUR));
}

#[test]
fn snapshot_review_no_colour() {
    insta::assert_snapshot!(reviewed_screen(NO_COLOUR));
}

#[test]
fn snapshot_review_ascii() {
    insta::assert_snapshot!(reviewed_screen(Look {
        color: false,
        ascii: true
    }));
}

/// A book that knows the position after f5: d6 and f4 lead into it, f6 is
/// its leaf at -3 discs.
fn small_book() -> crate::ai::book::Book {
    use crate::ai::book::{Book, Entry, Key, NO_LEAF, propagate};
    let after = |t: &str| {
        let g = Game::with_moves(
            Rules::standard(BoardSize::Eight),
            Position::initial(BoardSize::Eight),
            &fixed_game(BoardSize::Eight, t),
        )
        .unwrap();
        g.position()
    };
    let entry = |p: Position, leaf: Option<(&str, i16)>, value: i16| {
        let (key, s) = Key::of(&p);
        Entry {
            key,
            value,
            leaf_value: leaf.map_or(NO_LEAF, |l| l.1),
            leaf_move: leaf.map(|l| s.square(sq(l.0), BoardSize::Eight).index() as u8),
            leaf_depth: 10,
            games: 1,
        }
    };
    let mut entries = vec![
        entry(after("f5"), Some(("f6", -300)), 0),
        entry(after("f5d6"), None, 120),
        entry(after("f5f4"), None, -500),
    ];
    propagate(&mut entries);
    Book::new(entries, 10)
}

#[test]
fn the_review_says_where_each_side_left_the_book() {
    let moves = fixed_game(BoardSize::Eight, "f5f6e6f4");
    let rules = Rules::standard(BoardSize::Eight);
    let game = Game::with_moves(rules, Position::initial(rules.size), &moves).unwrap();
    let mut app = replay_app(game, COLOUR);
    app.book = Some(std::sync::Arc::new(small_book()));
    press(&mut app, Key::Char('a'));
    let screen = render(&app, 100, 40);
    // The line wraps in the panel.
    assert!(
        screen.contains("left the book: move 2 f6")
            && screen.contains("(book -3.0; its best f4 +5.0)"),
        "{screen}"
    );
    assert_eq!(
        screen.matches("left the book").count(),
        1,
        "Black never left it"
    );
    app.lang = crate::i18n::Lang::Fr;
    let french = render(&app, 100, 40);
    assert!(
        french.contains("sortie du livre\u{a0}: coup 2 f6"),
        "{french}"
    );
}
