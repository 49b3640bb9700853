//! The identities a gateway owns: each open one holds its record's OS lock, its record in
//! memory, and its exchanges. A running turn's keeper writes the record at each step (after
//! the spawn, at the chat id, at the result), so a crash at any point leaves a record the next
//! gateway can continue from. A record (or lock) that is a symlink, not a regular file of this
//! user, or over `MAX_RECORD_BYTES` is refused with its path before anything is read.

use crate::env::DEFAULT_MAX_SESSIONS;
use crate::env::MAX_SESSIONS_ENV;
use std::collections::HashMap;
use std::collections::VecDeque;
use std::path::Path;
use std::path::PathBuf;
use std::sync::Arc;

use thiserror::Error;

use super::exchange::Ending;
use super::exchange::Exchange;
use super::exchange::ExchangeFailure;
use super::identity::Identity;
use super::lock::LockError;
use super::lock::RecordLock;
use super::record;
use super::record::PendingRun;
use super::record::Record;
use super::record::RecordError;
use crate::dialog::pending::PendingDialog;

/// Largest session record read (64 MiB); a larger one is refused with its path and size
/// before it is read into memory.
pub(crate) const MAX_RECORD_BYTES: u64 = super::record::MAX_RECORD_BYTES;
/// Finished exchanges remembered per identity (beyond the record's replay).
const REMEMBERED_EXCHANGES: usize = 16;

/// Streamed and prepended to Cursor's prompt after a turn that did not finish.
pub(crate) const INTERRUPTED_NOTICE: &str = "[Cursor] The previous turn was interrupted. Report its state and do not repeat completed actions.";

/// The refusal text for a different request while a turn runs.
pub(crate) const BUSY_MESSAGE: &str = "A different request is already running for this Cursor worker; send it again when the answer lands";

/// Why an identity could not be opened.
#[derive(Debug, Error)]
pub enum StoreError {
    #[error(transparent)]
    Locked(#[from] LockError),
    #[error(transparent)]
    Record(#[from] RecordError),
    #[error(
        "this gateway already has {capacity} Cursor sessions busy (the limit, set by {MAX_SESSIONS_ENV}); send the request again when one of them has answered"
    )]
    Full { capacity: usize },
    #[error("could not prepare the session folder {path}: {source}")]
    Folder {
        path: PathBuf,
        #[source]
        source: crate::state::StateError,
    },
    #[error("loading the session record stopped unexpectedly: {0}")]
    Load(String),
    /// The record is a symlink, not a regular file of this user, or too large.
    #[error("the session record cannot be used: {0}")]
    RecordFile(#[source] crate::state::StateError),
}

/// Identities open in this gateway.
#[derive(Debug)]
pub struct SessionStore {
    dir: PathBuf,
    capacity: usize,
    open: std::sync::Mutex<OpenSessions>,
}

/// Open identities by digest, each with the tick of its last use (the least recently used
/// idle one is closed first).
#[derive(Debug, Default)]
struct OpenSessions {
    by_digest: HashMap<String, (Slot, u64)>,
    tick: u64,
}

/// An identity's place in the store: empty while its record is being loaded (off the runtime's
/// threads), so concurrent requests for it wait for that one load instead of racing for its
/// file lock.
type Slot = Arc<tokio::sync::OnceCell<Arc<tokio::sync::Mutex<Session>>>>;

/// Folder of session records (and their `.lock` files) inside the state folder.
pub(crate) const SESSIONS_DIR: &str = "sessions";

impl SessionStore {
    /// A store keeping records in `<state_dir>/sessions`.
    pub fn new(state_dir: &Path, capacity: usize) -> SessionStore {
        SessionStore {
            dir: state_dir.join(SESSIONS_DIR),
            capacity: capacity.max(1),
            open: std::sync::Mutex::new(OpenSessions::default()),
        }
    }

    /// The capacity from [`MAX_SESSIONS_ENV`], else the default.
    pub(crate) fn capacity_from_env() -> usize {
        std::env::var(MAX_SESSIONS_ENV)
            .ok()
            .and_then(|v| v.trim().parse().ok())
            .filter(|n: &usize| *n > 0)
            .unwrap_or(DEFAULT_MAX_SESSIONS)
    }

    /// The folder holding the records.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The record file of an identity.
    pub fn record_path(&self, identity: &Identity) -> PathBuf {
        self.dir.join(format!("{}.v3.json", identity.digest()))
    }

    fn map(&self) -> std::sync::MutexGuard<'_, OpenSessions> {
        self.open
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The open session of `identity`, opening it (lock, load, migrate: blocking file I/O, run
    /// on the blocking pool) if needed. When the store is full an idle identity is closed first
    /// (its lock released, its file kept).
    pub async fn open(
        &self,
        identity: &Identity,
    ) -> Result<Arc<tokio::sync::Mutex<Session>>, StoreError> {
        let digest = identity.digest();
        let slot = self.slot(&digest)?;
        let loaded = slot
            .get_or_try_init(|| {
                let (dir, identity, digest) = (self.dir.clone(), identity.clone(), digest.clone());
                async move {
                    let session = tokio::task::spawn_blocking(move || {
                        Session::load(&dir, &identity, &digest)
                    })
                    .await
                    .map_err(|e| StoreError::Load(e.to_string()))??;
                    Ok::<_, StoreError>(Arc::new(tokio::sync::Mutex::new(session)))
                }
            })
            .await;
        match loaded {
            Ok(session) => {
                // A waiter whose retry succeeded after another's load failed (and dropped the
                // slot) puts it back, so the next request finds this session.
                self.map()
                    .by_digest
                    .entry(digest)
                    .or_insert_with(|| (Arc::clone(&slot), 0));
                Ok(Arc::clone(session))
            }
            Err(error) => {
                // Nothing is kept of a failed load: the next request tries again.
                let mut open = self.map();
                if open
                    .by_digest
                    .get(&digest)
                    .is_some_and(|(s, _)| Arc::ptr_eq(s, &slot) && s.get().is_none())
                {
                    open.by_digest.remove(&digest);
                }
                Err(error)
            }
        }
    }

    /// The slot of `digest`, made (closing the least recently used idle identity when the
    /// store is full) if there is none.
    fn slot(&self, digest: &str) -> Result<Slot, StoreError> {
        let mut open = self.map();
        open.tick += 1;
        let tick = open.tick;
        if let Some((slot, used)) = open.by_digest.get_mut(digest) {
            *used = tick;
            return Ok(Arc::clone(slot));
        }
        if open.by_digest.len() >= self.capacity {
            let idle = open
                .by_digest
                .iter()
                .filter(|(_, (slot, _))| {
                    slot.get()
                        .is_some_and(|s| s.try_lock().is_ok_and(|s| !s.is_busy()))
                })
                .min_by_key(|(_, (_, used))| *used)
                .map(|(k, _)| k.clone());
            match idle {
                Some(key) => {
                    open.by_digest.remove(&key);
                }
                None => {
                    return Err(StoreError::Full {
                        capacity: self.capacity,
                    });
                }
            }
        }
        let slot = Slot::default();
        open.by_digest
            .insert(digest.to_string(), (Arc::clone(&slot), tick));
        Ok(slot)
    }
}

/// One open identity.
#[derive(Debug)]
pub struct Session {
    pub identity: Identity,
    pub record: Record,
    path: PathBuf,
    _locks: Vec<RecordLock>,
    exchanges: VecDeque<Arc<Exchange>>,
    /// True while the record's `pendingRun` was left by an earlier gateway.
    inherited_pending: bool,
}

/// What to do with a request, decided under the session's lock.
#[derive(Debug)]
pub enum Claim {
    /// Answer from this exchange (running: join; completed: replay; failed: same failure).
    Join(Arc<Exchange>),
    /// Another exchange is running: 409.
    Busy,
    /// Start a new turn.
    Start,
}

impl Session {
    fn load(dir: &Path, identity: &Identity, digest: &str) -> Result<Session, StoreError> {
        crate::state::ensure_private_dir(dir).map_err(|source| StoreError::Folder {
            path: dir.to_path_buf(),
            source,
        })?;
        let path = dir.join(format!("{digest}.v3.json"));
        let legacy_path = dir.join(format!("{digest}.json"));
        let check = |p: &Path| {
            crate::state::check_state_file(p, MAX_RECORD_BYTES).map_err(StoreError::RecordFile)
        };
        let legacy_exists = check(&legacy_path)?.is_some();
        let mut lock_paths = vec![lock_path(&path)];
        if legacy_exists {
            lock_paths.push(lock_path(&legacy_path));
        }
        lock_paths.sort();
        let locks = lock_paths
            .iter()
            .map(|p| RecordLock::acquire(p))
            .collect::<Result<Vec<_>, _>>()?;
        let id_value = identity.to_value();
        // Checked again under the lock, just before reading: never through a link, never more
        // than the cap.
        check(&path)?;
        let current = record::load(&path, &id_value)?;
        let legacy = if legacy_exists && check(&legacy_path)?.is_some() {
            record::load_legacy(&legacy_path, &id_value)?
        } else {
            None
        };
        let record = match (current, legacy) {
            (Some(current), Some(legacy)) if record::ambiguous(&current, &legacy, &legacy_path) => {
                return Err(RecordError::Ambiguous {
                    current: path,
                    current_chat: current.chat_id.unwrap_or_else(|| "none".to_string()),
                    legacy: legacy_path,
                    legacy_chat: legacy.agent_id,
                }
                .into());
            }
            (Some(current), _) => current,
            (None, Some(legacy)) => {
                let migrated = record::migrate(legacy, &legacy_path);
                migrated.save(&path)?;
                tracing::info!(from = %legacy_path.display(), to = %path.display(), "migrated a v2 session record");
                migrated
            }
            (None, None) => Record::new(id_value),
        };
        let mut exchanges = VecDeque::new();
        if let Some(pending) = &record.pending_run {
            exchanges.push_back(Exchange::failed(
                pending.key.clone(),
                ExchangeFailure::Unfinished,
            ));
        }
        let inherited_pending = record.pending_run.is_some();
        Ok(Session {
            identity: identity.clone(),
            record,
            path,
            _locks: locks,
            exchanges,
            inherited_pending,
        })
    }

    /// True while one of its exchanges runs.
    pub(crate) fn is_busy(&self) -> bool {
        self.exchanges.iter().any(|e| e.is_running())
    }

    /// Decides what a request with exchange `key` gets.
    pub fn claim(&mut self, key: &str) -> Claim {
        let known = self.exchanges.iter().find(|e| {
            e.key() == key
                && match e.ending() {
                    None | Some(Ending::Completed) => true,
                    Some(Ending::Failed { acted, .. }) => acted,
                }
        });
        if let Some(exchange) = known {
            return Claim::Join(Arc::clone(exchange));
        }
        if let Some(replay) = self.record.replay.as_ref().filter(|r| r.key == key) {
            let exchange = Exchange::replay(key.to_string(), replay.events.clone());
            self.remember(Arc::clone(&exchange));
            return Claim::Join(exchange);
        }
        if self.is_busy() {
            Claim::Busy
        } else {
            Claim::Start
        }
    }

    /// A process group left by an earlier gateway's unfinished turn: taken from the record
    /// (once) so the caller can end it. The record stays interrupted.
    pub(crate) fn take_inherited_run(&mut self) -> Option<PendingRun> {
        if !self.inherited_pending {
            return None;
        }
        self.inherited_pending = false;
        self.record.interrupted = true;
        self.record.pending_run.take()
    }

    /// Keeps an exchange so identical requests find it.
    pub(crate) fn remember(&mut self, exchange: Arc<Exchange>) {
        self.exchanges.push_back(exchange);
        while self.exchanges.len() > REMEMBERED_EXCHANGES {
            match self.exchanges.iter().position(|e| !e.is_running()) {
                Some(index) => {
                    self.exchanges.remove(index);
                }
                None => break,
            }
        }
    }

    /// Forgets an exchange (one that failed before anything could run), so a retry runs.
    pub(crate) fn forget(&mut self, exchange: &Arc<Exchange>) {
        self.exchanges.retain(|e| !Arc::ptr_eq(e, exchange));
    }

    /// Waits on `dialog` from now on (an answer given without a Cursor run opened it), and
    /// writes the record.
    pub(crate) async fn wait_on_dialog(
        &mut self,
        dialog: Option<PendingDialog>,
    ) -> Result<(), RecordError> {
        self.record.dialog = dialog;
        self.persist().await
    }

    /// Writes the record off the runtime's threads: a commit waits on fsync (milliseconds),
    /// which would otherwise stall every other request this gateway serves.
    pub(crate) async fn persist(&self) -> Result<(), RecordError> {
        // Serialised here; only the bytes go to the blocking pool (the record holds the whole
        // answer and its replay events: no copy of it).
        let bytes = self.record.to_bytes(&self.path)?;
        let path = self.path.clone();
        let target = path.clone();
        tokio::task::spawn_blocking(move || record::write_bytes(&target, &bytes))
            .await
            .unwrap_or_else(|error| {
                Err(record::write_error(
                    &path,
                    std::io::Error::other(error.to_string()),
                ))
            })
    }
}

fn lock_path(record: &Path) -> PathBuf {
    let mut name = record.as_os_str().to_os_string();
    name.push(".lock");
    PathBuf::from(name)
}

#[cfg(test)]
mod tests;
