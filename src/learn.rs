//! Learning the pattern evaluation from games: self-play ([`selfplay`]),
//! positions relabelled by search ([`relabel`]), positions labelled by the
//! search that played them in self-play ([`playlabels`]), training samples
//! ([`dataset`]) and the fit of the weights ([`fit`]), and the fit of the
//! search's ProbCut models ([`tuning`]). The long runs go through
//! [`crate::parallel`]. Depends on `rules`, `notation` and `ai`; used
//! by the `reversi selfplay`, `reversi relabel` and `reversi train` commands.

pub mod dataset;
pub mod fit;
pub mod playlabels;
pub mod relabel;
pub mod selfplay;
pub mod tuning;
