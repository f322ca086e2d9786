//! The players' presence at their running games: a player whose connection
//! closes is announced to the others at the table (players and spectators),
//! a pending take-back request involving them is cancelled, and, on a table
//! without a clock, the opponent may claim the game (the win or a draw) once
//! the grace period is over; coming back is announced too. A table with a
//! clock keeps its clock: presence is only told.
//!
//! Also what version-1 connections get: no message or value they do not
//! know.

use super::{ConnId, Lobby, Output};
use crate::net::protocol::{
    EndReason, ErrorCode, GameResult, PROTOCOL_VERSION, ServerMsg, TableId, UndoEnd,
};
use crate::net::table::Refusal;
use crate::rules::Color;

impl Lobby {
    /// The player `name` of the running game at table `id` lost the
    /// connection at `now`.
    pub(super) fn went_away(&mut self, now: u64, id: TableId, name: &str, out: &mut Output) {
        let grace = self.config.claim_after_ms;
        let Some(table) = self.tables.get_mut(&id) else {
            return;
        };
        let Some(side) = table.side_of(name) else {
            return;
        };
        let claim_in_ms = table.went_away(side, now, grace);
        let cancelled = table.cancel_undo();
        self.tell_presence(id, side, name, claim_in_ms, out);
        if cancelled {
            let audience = self.audience(&self.tables[&id]);
            out.send(
                audience,
                ServerMsg::UndoDeclined {
                    table: id,
                    reason: UndoEnd::Disconnected,
                },
            );
        }
    }

    /// Tells everyone at table `id` but the player that `side`'s player
    /// `name` is connected (`claim_in_ms` `None` and back) or gone.
    pub(super) fn tell_presence(
        &self,
        id: TableId,
        side: Color,
        name: &str,
        claim_in_ms: Option<u64>,
        out: &mut Output,
    ) {
        let Some(table) = self.tables.get(&id) else {
            return;
        };
        let connected = !table.is_away(side);
        let own = self.sessions.get(name).and_then(|s| s.conn);
        let audience = self
            .audience(table)
            .into_iter()
            .filter(|&c| Some(c) != own)
            .collect();
        out.send(
            audience,
            ServerMsg::Presence {
                table: id,
                side: side.into(),
                name: name.to_string(),
                connected,
                claim_in_ms,
            },
        );
    }

    /// `name` claims the game at table `id`: the opponent is away past the
    /// grace period.
    pub(super) fn claim(
        &mut self,
        now: u64,
        name: &str,
        id: TableId,
        draw: bool,
        out: &mut Output,
    ) -> Result<(), Refusal> {
        self.end_by(now, name, id, out, |table, side| {
            table.claim(side, draw, now)
        })
    }

    /// Rewrites `out` for version-1 connections: no `presence`, an
    /// `abandoned` end told as a resignation (or a plain draw), the `claim`
    /// error code as `bad_request`.
    pub(super) fn for_old_versions(&self, out: &mut Output) {
        let old = |c: &ConnId| {
            self.conns
                .get(c)
                .is_some_and(|c| c.protocol != 0 && c.protocol < PROTOCOL_VERSION)
        };
        if !out.sends.iter().any(|d| d.to.iter().any(old)) {
            return;
        }
        let mut sends = Vec::with_capacity(out.sends.len());
        for d in std::mem::take(&mut out.sends) {
            let (to_old, to_new): (Vec<ConnId>, Vec<ConnId>) = d.to.iter().partition(|c| old(c));
            let version_1 = version_1(&d.msg);
            if to_old.is_empty() || version_1.as_ref() == Some(&d.msg) {
                sends.push(d);
                continue;
            }
            if !to_new.is_empty() {
                sends.push(super::Delivery {
                    to: to_new,
                    msg: d.msg,
                });
            }
            if let Some(msg) = version_1 {
                sends.push(super::Delivery { to: to_old, msg });
            }
        }
        out.sends = sends;
    }
}

/// `msg` as version 1 knows it, or `None` when it has no such message.
pub(super) fn version_1(msg: &ServerMsg) -> Option<ServerMsg> {
    let result_1 = |r: GameResult| match (r.reason, r.winner) {
        (EndReason::Abandoned, Some(_)) => GameResult {
            reason: EndReason::Resigned,
            ..r
        },
        // A draw that version 1 can read: equal scores, the discs shared.
        (EndReason::Abandoned, None) => {
            let half = (r.black + r.white) / 2;
            GameResult {
                reason: EndReason::Finished,
                black: half,
                white: half,
                ..r
            }
        }
        _ => r,
    };
    match msg {
        ServerMsg::Presence { .. } => None,
        ServerMsg::Ended { table, result } => Some(ServerMsg::Ended {
            table: *table,
            result: result_1(*result),
        }),
        ServerMsg::Game(state) => {
            let mut state = state.clone();
            state.result = state.result.map(result_1);
            Some(ServerMsg::Game(state))
        }
        ServerMsg::Error {
            code: ErrorCode::Claim,
            message,
            table,
            closed,
        } => Some(ServerMsg::Error {
            code: ErrorCode::BadRequest,
            message: message.clone(),
            table: *table,
            closed: *closed,
        }),
        other => Some(other.clone()),
    }
}
