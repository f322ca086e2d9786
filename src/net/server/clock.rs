//! The time the hub gives the lobby, in milliseconds since the server
//! started: the monotonic clock, or a clock moved by hand
//! ([`ServerClock::manual`]), with which a test of grace periods and
//! abandoned games moves time forward at once instead of waiting for it.
//! Only the lobby's time is affected: connections keep their own timeouts
//! on the real clock.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};
use tokio::sync::Notify;

/// The lobby's clock.
#[derive(Clone, Debug, Default)]
pub struct ServerClock {
    manual: Option<Arc<Manual>>,
}

#[derive(Debug, Default)]
struct Manual {
    now_ms: AtomicU64,
    moved: Notify,
}

impl ServerClock {
    /// A clock that stands still at 0 until [`ServerClock::advance`] moves
    /// it.
    #[must_use]
    pub fn manual() -> ServerClock {
        ServerClock {
            manual: Some(Arc::default()),
        }
    }

    /// Moves a manual clock forward by `by`, waking the hub for any
    /// deadline passed; the real clock ignores it.
    pub fn advance(&self, by: Duration) {
        if let Some(m) = &self.manual {
            let ms = u64::try_from(by.as_millis()).unwrap_or(u64::MAX);
            m.now_ms.fetch_add(ms, Ordering::SeqCst);
            m.moved.notify_waiters();
        }
    }

    /// The time started at `epoch`: the hub's clock.
    pub(super) fn start(&self, epoch: Instant) -> Started {
        Started {
            clock: self.clone(),
            epoch,
        }
    }
}

/// A clock with its start.
#[derive(Debug)]
pub(super) struct Started {
    clock: ServerClock,
    epoch: Instant,
}

impl Started {
    /// Milliseconds since the start.
    pub(super) fn now(&self) -> u64 {
        match &self.clock.manual {
            Some(m) => m.now_ms.load(Ordering::SeqCst),
            None => u64::try_from(self.epoch.elapsed().as_millis()).unwrap_or(u64::MAX),
        }
    }

    /// Resolves once the time is `deadline` (milliseconds since the start)
    /// or later; never without a deadline.
    pub(super) async fn until(&self, deadline: Option<u64>) {
        let Some(deadline) = deadline else {
            return std::future::pending().await;
        };
        match &self.clock.manual {
            None => {
                let at = self.epoch + Duration::from_millis(deadline);
                tokio::time::sleep_until(tokio::time::Instant::from_std(at)).await;
            }
            Some(m) => loop {
                let moved = m.moved.notified();
                if m.now_ms.load(Ordering::SeqCst) >= deadline {
                    return;
                }
                moved.await;
            },
        }
    }
}
