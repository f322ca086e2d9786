//! Random message sequences: no panic, and the invariants hold after every step.

use super::*;
/// The program's seeded generator with the draw the fuzzer uses.
struct Rng(crate::random::Rng);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        crate::random::below(&mut self.0, n as usize) as u64
    }
}

fn random_message(rng: &mut Rng, app: &App, jobs: &[(u64, Position, JobKind)]) -> Msg {
    const KEYS: &[Key] = &[
        Key::Up,
        Key::Down,
        Key::Left,
        Key::Right,
        Key::Enter,
        Key::Esc,
        Key::Tab,
        Key::BackTab,
        Key::Home,
        Key::End,
        Key::PageUp,
        Key::PageDown,
        Key::Other,
    ];
    const CHARS: &str = "abcdefghijklmnopqrstuvwxyz12345678 ?+-=.HLNQ0";
    match rng.below(24) {
        0..=3 => Msg::Key(KeyPress::plain(KEYS[rng.below(KEYS.len() as u64) as usize])),
        4..=8 => {
            let c = CHARS.as_bytes()[rng.below(CHARS.len() as u64) as usize] as char;
            // Rarely quit, start over or step back, so that games get long.
            let c = match c {
                'q' | 'n' if rng.below(10) != 0 => 'j',
                'u' if rng.below(3) != 0 => 'k',
                c => c,
            };
            Msg::Key(KeyPress::plain(Key::Char(c)))
        }
        9 => Msg::Click {
            x: rng.below(u64::from(app.area.0) + 5) as u16,
            y: rng.below(u64::from(app.area.1) + 5) as u16,
        },
        10..=13 => {
            // A click on a legal square, found with the drawing's layout.
            let (w, h) = app.area;
            let target = app.current().and_then(|m| {
                let legal: Vec<Square> = m.game.position().legal_moves().iter().collect();
                let sq = *legal.get(rng.below(legal.len().max(1) as u64) as usize)?;
                match layout(Rect::new(0, 0, w, h), m.game.rules().size) {
                    ScreenLayout::Game { board, .. } => Some(board.cell(sq)),
                    ScreenLayout::TooSmall { .. } => None,
                }
            });
            match target {
                Some(c) => Msg::Click { x: c.x, y: c.y },
                None => Msg::Key(KeyPress::plain(Key::Enter)),
            }
        }
        14 => {
            let (width, height) = match rng.below(4) {
                0 => (rng.below(160) as u16, rng.below(60) as u16),
                1 => (80, 24),
                _ => (100, 40),
            };
            Msg::Resize { width, height }
        }
        15..=17 => Msg::Tick(app.clock + Duration::from_millis(rng.below(3000))),
        _ => {
            // A reply from the "worker": usually for a real job, sometimes stale.
            let pick = if rng.below(4) == 0 {
                rng.below(jobs.len() as u64 + 1) as usize
            } else {
                jobs.len().wrapping_sub(1)
            };
            let Some(&(id, position, kind)) = jobs.get(pick) else {
                return Msg::Tick(app.clock);
            };
            let legal = position.moves_list();
            let mv = if legal.is_empty() || rng.below(10) == 0 {
                Move::Pass
            } else {
                legal[rng.below(legal.len() as u64) as usize]
            };
            match (kind, rng.below(7)) {
                (_, 6) => Msg::Failed {
                    id,
                    message: "fuzz".into(),
                },
                (_, 0) => Msg::Progress {
                    id,
                    progress: Progress {
                        depth: 3,
                        best_move: mv,
                        score: Score::Estimate(5),
                        nodes: 10,
                        elapsed: Duration::ZERO,
                    },
                },
                (JobKind::Move { .. }, _) => Msg::Searched {
                    id,
                    position,
                    result: SearchResult {
                        book: false,
                        best_move: mv,
                        score: Score::Exact(2),
                        depth: 2,
                        pv: vec![mv],
                        nodes: 5,
                        elapsed: Duration::ZERO,
                    },
                },
                (JobKind::Hint { .. } | JobKind::Review { .. }, _) => Msg::Analysed {
                    id,
                    position,
                    evals: legal
                        .iter()
                        .map(|&mv| MoveEval {
                            book: false,
                            mv,
                            score: Score::Estimate(rng.below(2000) as i32 - 1000),
                        })
                        .collect(),
                },
            }
        }
    }
}

fn check_invariants(app: &App) {
    let Some(m) = app.current() else {
        return;
    };
    let g = &m.game;
    let size = g.rules().size;
    assert!(
        size.contains(m.input.cursor()),
        "cursor {} off the board",
        m.input.cursor()
    );
    assert!(g.ply() <= g.len());
    let replaying = matches!(m.mode, crate::ui::model::Mode::Replay(_));
    if !app.quit && !replaying {
        assert!(
            !matches!(g.status(), Status::MustPass(_)),
            "a forced pass is never left pending (replay shows a pass as a step)"
        );
    }
    if replaying {
        assert!(m.ai.is_none() && m.hint.is_none(), "replay plays nothing");
    }
    if let Some(job) = &m.ai {
        assert_eq!(
            job.position,
            g.position(),
            "the AI searches the board shown"
        );
        assert!(m.player(g.side_to_move()).is_ai());
    }
    if let Some(Hint { position, .. }) = &m.hint {
        assert_eq!(*position, g.position(), "a hint is for the board shown");
    }
    // The game on screen is a game the rules accept, move by move.
    let replay = Game::with_moves(g.rules(), g.start(), g.moves()).expect("legal history");
    assert_eq!(replay.moves(), g.moves());
}

#[test]
fn random_message_sequences_never_panic_and_keep_invariants() {
    let (mut longest, mut finished, mut passes) = (0, 0, 0);
    for seed in 1..=4u64 {
        let mut rng = Rng(crate::random::seeded(seed));
        let look = if seed % 2 == 0 { COLOUR } else { NO_COLOUR };
        let mut app = if seed <= 2 {
            App::new(Choices::default(), look, seed, Instant::now())
        } else {
            // Start next to a pass, so that passes are exercised too.
            let (before, mv) = game_before_pass();
            let rules = Rules::standard(BoardSize::Eight);
            let g = Game::with_moves(rules, Position::initial(rules.size), &before).unwrap();
            let ai = Player::Ai(Level::MIN);
            let players = if seed == 3 {
                [Player::Human, Player::Human]
            } else {
                [ai, Player::Human]
            };
            let mut app = app_with(players, g, look);
            typed(&mut app, &mv.to_string());
            app
        };
        let mut jobs: Vec<(u64, Position, JobKind)> = Vec::new();
        let backend = TestBackend::new(1, 1);
        let mut terminal = Terminal::new(backend).unwrap();
        for step in 0..1500 {
            let msg = random_message(&mut rng, &app, &jobs);
            for fx in update(&mut app, msg) {
                if let Effect::Start(job) = fx {
                    jobs.push((job.id, job.position, job.kind));
                    if jobs.len() > 8 {
                        jobs.remove(0);
                    }
                }
            }
            check_invariants(&app);
            if let Some(m) = app.current() {
                longest = longest.max(m.game.ply());
                finished += usize::from(m.game.outcome().is_some());
                passes += usize::from(m.game.played().contains(&Move::Pass));
            }
            if app.quit {
                app = App::new(Choices::default(), COLOUR, seed + step, app.clock);
                jobs.clear();
            }
            if step % 3 == 0 {
                let (w, h) = app.area;
                terminal.backend_mut().resize(w, h);
                terminal.draw(|f| view(&app, f)).unwrap();
            }
        }
    }
    // The random walk reaches deep into games, their ends and passes.
    assert!(longest >= 30, "longest game {longest} plies");
    assert!(finished > 0 && passes > 0, "{finished} {passes}");
}
