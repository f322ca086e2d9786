//! How much of the pattern evaluation's error a small network over its parts
//! can take off: the weights' table values (summed per pattern, or one per
//! instance) and a few raw counts feed a one-hidden-layer network per phase,
//! fitted to the residual `label − evaluation` on the training games and
//! measured on the held-out ones (the split of `reversi train`).
//!
//! ```sh
//! cargo run --release --example residual -- LABELS WEIGHTS MODE HIDDEN EPOCHS
//! ```
//! MODE: `groups` (one sum per table), `instances` (one value per instance) or
//! `squares` (the 128 occupancy bits of the two sides, no table values;
//! `squares8`: each training position in its 8 symmetries) or `shared8`
//! (the bits alone, one first layer for all phases, positions in their 8
//! symmetries).

use reversi::ai::pattern::{
    FEATURES, INSTANCES, PATTERNS, TABLE_OFFSETS, TABLES, class_map, features, weight_set,
};
use reversi::ai::{BIAS_SLOTS, PatternWeights};
use reversi::learn::dataset::validation_games;
use reversi::learn::relabel::Labelled;
use reversi::rules::movegen::{moves, neighbours};
use reversi::rules::{BoardSize, Symmetry};
use std::io::BufRead;

const CORNERS: u64 = 0x8100_0000_0000_0081;

struct Row {
    x: Vec<f32>,
    v0: f32,
    label: f32,
    phase: usize,
    empties: u32,
}

fn table_of(i: u32) -> usize {
    (0..TABLES)
        .rev()
        .find(|&t| TABLE_OFFSETS[t] as u32 <= i)
        .unwrap_or(0)
}

fn inputs(w: &PatternWeights, p: u64, o: u64, mode: &str) -> (Vec<f32>, f32, usize) {
    let groups = mode == "groups";
    let (map, _) = class_map();
    let empties = 64 - (p | o).count_ones();
    let ph = weight_set(empties, w.phases(), w.parity());
    let row = &w.classes()[ph];
    let f = features(p, o);
    let val = |i: u32| {
        let c = map[i as usize];
        match c.signum() {
            1 => f32::from(row[(c - 1) as usize]) / 100.0,
            -1 => -f32::from(row[(-c - 1) as usize]) / 100.0,
            _ => 0.0,
        }
    };
    let mut x = Vec::new();
    let mut v0 = f32::from(w.bias()[(empties as usize).min(BIAS_SLOTS - 1)]) / 100.0;
    if groups {
        let mut g = [0f32; TABLES];
        for &i in &f {
            let v = val(i);
            g[table_of(i)] += v;
            v0 += v;
        }
        x.extend(g.iter().map(|v| v / 4.0));
    } else if mode.starts_with("squares") || mode.starts_with("shared") {
        for &i in &f {
            v0 += val(i);
        }
        x.extend((0..64).map(|s| (p >> s & 1) as f32));
        x.extend((0..64).map(|s| (o >> s & 1) as f32));
        if mode.starts_with("shared") {
            return (x, v0, ph);
        }
    } else {
        for &i in &f {
            let v = val(i);
            x.push(v / 2.0);
            v0 += v;
        }
    }
    let empty = !(p | o);
    let (mp, mo) = (moves(p, o), moves(o, p));
    let pp = (neighbours(o) & empty).count_ones();
    let po = (neighbours(p) & empty).count_ones();
    x.push(mp.count_ones() as f32 / 10.0);
    x.push(mo.count_ones() as f32 / 10.0);
    x.push(pp as f32 / 10.0);
    x.push(po as f32 / 10.0);
    x.push((mp & CORNERS).count_ones() as f32);
    x.push((mo & CORNERS).count_ones() as f32);
    x.push((p & CORNERS).count_ones() as f32);
    x.push((o & CORNERS).count_ones() as f32);
    x.push(p.count_ones() as f32 / 20.0);
    x.push(o.count_ones() as f32 / 20.0);
    x.push((empties & 1) as f32);
    x.push(v0 / 10.0);
    (x, v0, ph)
}

struct Net {
    d: usize,
    h: usize,
    linear: bool,
    p: Vec<f32>, // w1 (h×d), b1 (h), w2 (h), b2 (1)
}

impl Net {
    fn new(d: usize, h: usize, seed: u64) -> Net {
        let mut rng = reversi::random::seeded(seed);
        let n = h * d + h + h + 1;
        let mut p = vec![0f32; n];
        let s = (2.0 / d as f32).sqrt();
        for v in p.iter_mut().take(h * d) {
            *v = (reversi::random::unit(&mut rng) as f32 * 2.0 - 1.0) * s;
        }
        for v in p[h * d + h..h * d + 2 * h].iter_mut() {
            *v = (reversi::random::unit(&mut rng) as f32 * 2.0 - 1.0) * 0.1;
        }
        Net {
            d,
            h,
            linear: false,
            p,
        }
    }
    fn forward(&self, x: &[f32], hid: &mut [f32]) -> f32 {
        let (d, h) = (self.d, self.h);
        let (w1, rest) = self.p.split_at(h * d);
        let (b1, rest) = rest.split_at(h);
        let (w2, b2) = rest.split_at(h);
        let mut out = b2[0];
        for (((a, row), b), w) in hid.iter_mut().zip(w1.chunks(d)).zip(b1).zip(w2) {
            let s = b + row.iter().zip(x).map(|(w, x)| w * x).sum::<f32>();
            *a = if self.linear { s } else { s.max(0.0) };
            out += w * *a;
        }
        out
    }

    fn backward(&self, x: &[f32], hid: &[f32], dout: f32, g: &mut [f32]) {
        let (d, h) = (self.d, self.h);
        let w2 = &self.p[h * d + h..h * d + 2 * h];
        let (g1, rest) = g.split_at_mut(h * d);
        let (gb1, rest) = rest.split_at_mut(h);
        let (gw2, gb2) = rest.split_at_mut(h);
        gb2[0] += dout;
        for (j, (&a, &w)) in hid.iter().zip(w2).enumerate() {
            gw2[j] += dout * a;
            if self.linear || a > 0.0 {
                let dh = dout * w;
                gb1[j] += dh;
                for (gk, xk) in g1[j * d..(j + 1) * d].iter_mut().zip(x) {
                    *gk += dh * xk;
                }
            }
        }
    }
}

/// Positions a gradient step averages over.
const BATCH: usize = 256;

/// Adam over a parameter vector: a learning rate of 1e-3 falling linearly
/// to a twentieth of that over `steps` steps, a little weight decay.
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    t: i32,
    steps: usize,
}

impl Adam {
    fn new(n: usize, steps: usize) -> Adam {
        Adam {
            m: vec![0f32; n],
            v: vec![0f32; n],
            t: 0,
            steps,
        }
    }

    /// One step of `p` along the gradient `g`.
    fn step(&mut self, p: &mut [f32], g: &[f32]) {
        self.t += 1;
        let t = self.t;
        let lr = 1e-3 * (1.0 - t as f32 / self.steps as f32).max(0.05);
        let c1 = 1.0 - 0.9f32.powi(t.min(10_000));
        let c2 = 1.0 - 0.999f32.powi(t.min(100_000));
        for (((p, &g), m), v) in p.iter_mut().zip(g).zip(&mut self.m).zip(&mut self.v) {
            let gk = g + 1e-5 * *p;
            *m = 0.9 * *m + 0.1 * gk;
            *v = 0.999 * *v + 0.001 * gk * gk;
            *p -= lr * (*m / c1) / ((*v / c2).sqrt() + 1e-8);
        }
    }
}

/// Shuffles `order` in place (Fisher–Yates).
fn shuffle(order: &mut [usize], rng: &mut reversi::random::Rng) {
    for i in (1..order.len()).rev() {
        let j = (reversi::random::next(rng) % (i as u64 + 1)) as usize;
        order.swap(i, j);
    }
}

fn train(rows: &[&Row], d: usize, h: usize, epochs: usize, seed: u64, linear: bool) -> Net {
    let mut net = Net::new(d, h, seed);
    net.linear = linear;
    let mut g = vec![0f32; net.p.len()];
    let mut hid = vec![0f32; h];
    let mut order: Vec<usize> = (0..rows.len()).collect();
    let mut rng = reversi::random::seeded(seed ^ 77);
    let mut adam = Adam::new(net.p.len(), epochs * rows.len().div_ceil(BATCH));
    for _ in 0..epochs {
        shuffle(&mut order, &mut rng);
        for chunk in order.chunks(BATCH) {
            g.iter_mut().for_each(|x| *x = 0.0);
            for &i in chunk {
                let r = rows[i];
                let y = net.forward(&r.x, &mut hid);
                let target = r.label - r.v0;
                let dout = (y - target).clamp(-20.0, 20.0) / chunk.len() as f32;
                net.backward(&r.x, &hid, dout, &mut g);
            }
            adam.step(&mut net.p, &g);
        }
    }
    net
}

/// One network for all phases: a first layer over the 128 occupancy bits
/// shared by every phase (so that its sums could follow the game move by
/// move), and one output layer per phase. Mini-batch Adam on one thread.
fn shared(train_rows: &[Row], valid_rows: &[Row], phases: usize, h: usize, epochs: usize) {
    let d = 128;
    let mut rng = reversi::random::seeded(5);
    let mut unit = || reversi::random::unit(&mut rng) as f32 * 2.0 - 1.0;
    // w1: d columns of h; b1: h; heads: phases × (h + 1).
    let n = d * h + h + phases * (h + 1);
    let mut p = vec![0f32; n];
    let s = (2.0 / 30.0f32).sqrt();
    for v in p.iter_mut().take(d * h) {
        *v = unit() * s;
    }
    for v in p[d * h + h..].iter_mut() {
        *v = unit() * 0.05;
    }
    let bits = |r: &Row| -> Vec<usize> { (0..d).filter(|&i| r.x[i] > 0.5).collect() };
    let forward = |p: &[f32], on: &[usize], ph: usize, hid: &mut [f32]| -> f32 {
        hid.copy_from_slice(&p[d * h..d * h + h]);
        for &i in on {
            for (a, w) in hid.iter_mut().zip(&p[i * h..(i + 1) * h]) {
                *a += w;
            }
        }
        let head = &p[d * h + h + ph * (h + 1)..d * h + h + (ph + 1) * (h + 1)];
        let mut out = head[h];
        for (a, w) in hid.iter_mut().zip(head) {
            *a = a.max(0.0);
            out += w * *a;
        }
        out
    };
    let mut g = vec![0f32; n];
    let mut hid = vec![0f32; h];
    let mut order: Vec<usize> = (0..train_rows.len()).collect();
    let mut rng = reversi::random::seeded(77);
    let mut adam = Adam::new(n, epochs * train_rows.len().div_ceil(BATCH));
    for _ in 0..epochs {
        shuffle(&mut order, &mut rng);
        for chunk in order.chunks(BATCH) {
            g.iter_mut().for_each(|x| *x = 0.0);
            for &k in chunk {
                let r = &train_rows[k];
                let on = bits(r);
                let y = forward(&p, &on, r.phase, &mut hid);
                let dout = (y - (r.label - r.v0)).clamp(-20.0, 20.0) / chunk.len() as f32;
                let ho = d * h + h + r.phase * (h + 1);
                g[ho + h] += dout;
                for j in 0..h {
                    g[ho + j] += dout * hid[j];
                    if hid[j] > 0.0 {
                        let dh = dout * p[ho + j];
                        g[d * h + j] += dh;
                        for &i in &on {
                            g[i * h + j] += dh;
                        }
                    }
                }
            }
            adam.step(&mut p, &g);
        }
    }
    for ph in 0..phases {
        let mae = |rows: &[Row], with: bool| {
            let mut hid = vec![0f32; h];
            let (mut sum, mut count) = (0f64, 0usize);
            for r in rows.iter().filter(|r| r.phase == ph) {
                let c = if with {
                    forward(&p, &bits(r), ph, &mut hid)
                } else {
                    0.0
                };
                sum += f64::from(((r.v0 + c).clamp(-64.0, 64.0) - r.label).abs());
                count += 1;
            }
            (sum / count.max(1) as f64, count)
        };
        let ((v0, nv), (v1, _)) = (mae(valid_rows, false), mae(valid_rows, true));
        let ((t0, nt), (t1, _)) = (mae(train_rows, false), mae(train_rows, true));
        println!(
            "phase {ph:2} train {nt:6} held {nv:6}: held-out MAE {v0:.3} -> {v1:.3}, train {t0:.3} -> {t1:.3}"
        );
    }
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [labels, weights, mode, hidden, epochs, ..] = args.as_slice() else {
        return Err("usage: residual LABELS WEIGHTS MODE HIDDEN EPOCHS".into());
    };
    let linear = hidden.ends_with('l');
    let h: usize = hidden.trim_end_matches('l').parse().map_err(|_| "hidden")?;
    let epochs: usize = epochs.parse().map_err(|_| "epochs")?;
    let w = PatternWeights::read(std::path::Path::new(weights)).map_err(|e| e.to_string())?;
    let file = std::fs::File::open(labels).map_err(|e| e.to_string())?;
    let mut train_rows = Vec::new();
    let mut valid_rows = Vec::new();
    let mut held: Vec<bool> = Vec::new();
    for line in std::io::BufReader::new(file).lines() {
        let line = line.map_err(|e| e.to_string())?;
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let l = Labelled::parse_line(&line).ok_or("bad line")?;
        if l.game >= held.len() {
            held = validation_games((l.game + 1).max(2 * held.len()), 0.1, 1);
        }
        let label = (l.target(0.0) as f32).round().clamp(-64.0, 64.0);
        // With `squares8` and `shared8`, each training position in its 8 symmetries.
        let copies = if mode.ends_with('8') && !held[l.game] {
            8
        } else {
            1
        };
        for sym in &Symmetry::ALL[..copies] {
            let (p, o) = (
                sym.bits(l.player, BoardSize::Eight),
                sym.bits(l.opponent, BoardSize::Eight),
            );
            let (x, v0, phase) = inputs(&w, p, o, mode);
            let row = Row {
                x,
                v0,
                label,
                phase,
                empties: 64 - (p | o).count_ones(),
            };
            if held[l.game] {
                valid_rows.push(row);
            } else {
                train_rows.push(row);
            }
        }
    }
    let d = train_rows[0].x.len();
    eprintln!(
        "{} training, {} held out, {d} inputs, {} features, {} instances, {} patterns",
        train_rows.len(),
        valid_rows.len(),
        FEATURES,
        INSTANCES,
        PATTERNS.len()
    );
    let phases = w.phases() * if w.parity() { 2 } else { 1 };
    if mode.starts_with("shared") {
        shared(&train_rows, &valid_rows, phases, h, epochs);
        return Ok(());
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut results = vec![None; phases];
    std::thread::scope(|s| {
        let hs: Vec<_> = (0..2)
            .map(|_| {
                s.spawn(|| {
                    let mut out = Vec::new();
                    loop {
                        let ph = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        if ph >= phases {
                            break;
                        }
                        let tr: Vec<&Row> = train_rows.iter().filter(|r| r.phase == ph).collect();
                        let va: Vec<&Row> = valid_rows.iter().filter(|r| r.phase == ph).collect();
                        if tr.is_empty() || va.is_empty() {
                            continue;
                        }
                        let net = train(&tr, d, h, epochs, 1 + ph as u64, linear);
                        let mae = |rows: &[&Row], with: bool| {
                            let mut hid = vec![0f32; h];
                            rows.iter()
                                .map(|r| {
                                    let c = if with { net.forward(&r.x, &mut hid) } else { 0.0 };
                                    f64::from(((r.v0 + c).clamp(-64.0, 64.0) - r.label).abs())
                                })
                                .sum::<f64>()
                                / rows.len() as f64
                        };
                        let lo = va.iter().map(|r| r.empties).min().unwrap_or(0);
                        let hi = va.iter().map(|r| r.empties).max().unwrap_or(0);
                        out.push((
                            ph,
                            format!(
                                "phase {ph:2} ({lo:2}-{hi:2} empties) train {:6} held {:6}: held-out MAE {:.3} -> {:.3}, train {:.3} -> {:.3}",
                                tr.len(),
                                va.len(),
                                mae(&va, false),
                                mae(&va, true),
                                mae(&tr, false),
                                mae(&tr, true)
                            ),
                        ));
                    }
                    out
                })
            })
            .collect();
        for h in hs {
            for (ph, line) in h.join().expect("thread") {
                results[ph] = Some(line);
            }
        }
    });
    for l in results.into_iter().flatten() {
        println!("{l}");
    }
    Ok(())
}
