//! Learning the pattern evaluation from our own games: self-play
//! ([`selfplay`]), training samples ([`dataset`]) and the fit of the weights
//! ([`fit`]), and the fit of the search's ProbCut models ([`tuning`]). Depends on `rules`, `notation` and `ai`; used by the
//! `reversi selfplay` and `reversi train` commands.

pub mod dataset;
pub mod fit;
pub mod selfplay;
pub mod tuning;
