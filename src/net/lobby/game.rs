//! What happens in a running game: moves (a player's, and the engine's,
//! replaced by a legal one if the table refuses it), the end, resignation,
//! take-backs and the chat.

use super::{AWAY_GRACE_MS, ConnId, Lobby, Output, refuse};
use crate::net::protocol::{ErrorCode, GameResult, ServerMsg, TableId};
use crate::net::store::StoreOp;
use crate::net::table::{Played, Refusal};
use crate::net::text::clean;
use crate::random;
use crate::rules::{Color, Move, Square};

impl Lobby {
    pub(super) fn play(
        &mut self,
        now: u64,
        name: &str,
        id: TableId,
        square: &str,
        out: &mut Output,
    ) -> Result<(), Refusal> {
        let (side, table) = self.seated_mut(id, name)?;
        let played = table.play(side, square, now)?;
        self.played(now, id, played, out);
        Ok(())
    }

    pub(super) fn ai_move(
        &mut self,
        now: u64,
        id: TableId,
        job: (usize, u64),
        mv: Result<Move, String>,
        out: &mut Output,
    ) {
        self.tick_into(now, out);
        if self.searching.get(&id) != Some(&job) {
            return;
        }
        let Some(table) = self.tables.get_mut(&id) else {
            return;
        };
        if table.game().len() != job.0 {
            return;
        }
        let Some((side, _)) = table.ai_to_move() else {
            return;
        };
        let refused = match mv {
            Ok(Move::Place(sq)) => match table.place(side, sq, now) {
                Ok(played) => return self.played(now, id, played, out),
                Err(r) => format!("{sq} refused: {}", r.message),
            },
            Ok(Move::Pass) => "a pass, though the engine has a move".to_string(),
            Err(why) => format!("no move: {why}"),
        };
        // The table would wait for the engine forever: a legal move drawn
        // at random is played in its place.
        let moves: Vec<Square> = table.game().position().legal_moves().iter().collect();
        let Some(&sq) = random::pick(&mut self.rng, &moves) else {
            return;
        };
        tracing::warn!(table = id, ply = job.0, %sq, "the engine's answer was {refused}; a random legal move is played");
        if let Ok(played) = table.place(side, sq, now) {
            self.played(now, id, played, out);
        }
    }

    pub(super) fn played(&mut self, now: u64, id: TableId, played: Played, out: &mut Output) {
        let Some(table) = self.tables.get(&id) else {
            return;
        };
        let audience = self.audience(table);
        let last = played.moves.len();
        for (i, record) in played.moves.into_iter().enumerate() {
            let ply = played.first_ply + i;
            out.store.push(StoreOp::Move {
                table: id,
                ply,
                record: record.clone(),
            });
            let to_move = if i + 1 == last {
                table.to_move().map(Into::into)
            } else {
                Some(record.side.into()).map(|c: Color| c.opponent().into())
            };
            out.send(
                audience.clone(),
                ServerMsg::Moved {
                    table: id,
                    ply,
                    mv: record,
                    to_move,
                },
            );
        }
        if played.undo_lapsed {
            out.send(
                audience,
                ServerMsg::UndoDeclined {
                    table: id,
                    reason: crate::net::protocol::UndoEnd::Moved,
                },
            );
        }
        if let Some(result) = played.ended {
            self.ended(now, id, result, out);
        }
        self.after_change(now, id, out);
    }

    pub(super) fn ended(&mut self, now: u64, id: TableId, result: GameResult, out: &mut Output) {
        let Some(table) = self.tables.get(&id) else {
            return;
        };
        out.store.push(StoreOp::Finish { table: id, result });
        out.send(self.audience(table), ServerMsg::Ended { table: id, result });
        // A player whose connection is gone keeps the seat a while, to see
        // the result on coming back; then the table lets them go.
        if table.player_names().any(|n| self.is_gone(n)) {
            self.away.insert((now + AWAY_GRACE_MS, id));
        }
    }

    pub(super) fn undo(
        &mut self,
        now: u64,
        name: &str,
        id: TableId,
        out: &mut Output,
    ) -> Result<(), Refusal> {
        let (side, table) = self.seated_mut(id, name)?;
        table.request_undo(side)?;
        let engine_opposite = matches!(
            table.seats()[side.opponent().index()],
            Some(crate::net::protocol::Seat::Ai { .. })
        );
        let audience = self.audience(&self.tables[&id]);
        out.send(
            audience,
            ServerMsg::UndoRequested {
                table: id,
                by: side.into(),
            },
        );
        if engine_opposite {
            // The engine always agrees.
            let table = self
                .tables
                .get_mut(&id)
                .ok_or_else(|| refuse(ErrorCode::NoSuchTable, "gone"))?;
            if let Ok(Some(ply)) = table.reply_undo(side.opponent(), true, now) {
                self.undone(now, id, ply, out);
            }
        }
        Ok(())
    }

    pub(super) fn undo_reply(
        &mut self,
        now: u64,
        name: &str,
        id: TableId,
        accept: bool,
        out: &mut Output,
    ) -> Result<(), Refusal> {
        let (side, table) = self.seated_mut(id, name)?;
        match table.reply_undo(side, accept, now)? {
            Some(ply) => self.undone(now, id, ply, out),
            None => {
                let audience = self.audience(&self.tables[&id]);
                out.send(
                    audience,
                    ServerMsg::UndoDeclined {
                        table: id,
                        reason: crate::net::protocol::UndoEnd::Declined,
                    },
                );
            }
        }
        Ok(())
    }

    pub(super) fn undone(&mut self, now: u64, id: TableId, ply: usize, out: &mut Output) {
        let Some(table) = self.tables.get(&id) else {
            return;
        };
        // A search under way is for a position that no longer exists.
        self.searching.remove(&id);
        out.store.push(StoreOp::Truncate {
            table: id,
            plies: ply,
        });
        let clocks = table.clocks_at(now);
        out.send(
            self.audience(table),
            ServerMsg::Undone {
                table: id,
                ply,
                to_move: table.game().side_to_move().into(),
                black_ms: clocks.map(|c| c[0]),
                white_ms: clocks.map(|c| c[1]),
            },
        );
        self.after_change(now, id, out);
    }

    pub(super) fn chat(
        &mut self,
        conn: ConnId,
        name: &str,
        id: TableId,
        text: &str,
        out: &mut Output,
    ) -> Result<(), Refusal> {
        let table = self.table(id)?;
        if table.side_of(name).is_none() && !table.spectators.contains(&conn) {
            return Err(refuse(
                ErrorCode::NotSeated,
                format!("you are not at table {id}"),
            ));
        }
        let text = clean(text).trim().to_string();
        if text.is_empty() {
            return Err(refuse(
                ErrorCode::BadRequest,
                "the chat line is empty once control and invisible characters are removed",
            ));
        }
        if text.chars().count() > crate::net::protocol::MAX_CHAT_CHARS {
            return Err(refuse(
                ErrorCode::BadRequest,
                format!(
                    "chat lines hold at most {} characters",
                    crate::net::protocol::MAX_CHAT_CHARS
                ),
            ));
        }
        out.send(
            self.audience(table),
            ServerMsg::Chat {
                table: id,
                from: name.to_string(),
                text: text.clone(),
            },
        );
        if let Some(t) = self.tables.get_mut(&id) {
            t.remember_chat(name, &text);
        }
        Ok(())
    }
}
