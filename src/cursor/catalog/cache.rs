//! The catalog cache: `<state>/catalog.json`, written 0600 and atomically after a good fetch,
//! read back by the launcher (and by `serve`) so a launch need not wait for Cursor.

use std::path::Path;
use std::path::PathBuf;
use std::time::Duration;
use std::time::SystemTime;
use std::time::UNIX_EPOCH;

use serde::Deserialize;
use serde::Serialize;

use super::Catalog;
use super::CatalogError;
use super::CatalogModel;

/// File name of the catalog cache inside the state folder.
const CACHE_FILE: &str = "catalog.json";

/// Version of the cache file format; a cache with another version is ignored.
const CACHE_VERSION: u32 = 1;

/// Largest cache read, in bytes (a real one is a few KiB); a larger one is ignored and rebuilt.
const MAX_CACHE_BYTES: u64 = 4 * 1024 * 1024;

/// The cache file as stored: `{"version":1,"fetchedAtMs":…,"agent":"…","models":[…]}`.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct CacheFile {
    version: u32,
    fetched_at_ms: u64,
    agent: String,
    models: Vec<CatalogModel>,
}

/// A catalog read back from `<state>/catalog.json` by [`load_cached_from`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CachedCatalog {
    /// The catalog as it was fetched.
    pub catalog: Catalog,
    /// When it was fetched.
    pub fetched_at: SystemTime,
    /// The agent executable that answered (a cache from another agent may not fit this one).
    pub agent: PathBuf,
}

impl CachedCatalog {}

/// Where the cache lives inside `state_dir`.
pub(crate) fn cache_path(state_dir: &Path) -> PathBuf {
    state_dir.join(CACHE_FILE)
}

/// Reads the cache in `state_dir`. A missing cache is `None`; an unreadable, corrupted or
/// other-version cache is `None` with a warning, never an error (it is rebuilt by the next
/// fetch).
pub(crate) fn load_cached_from(state_dir: &Path) -> Option<CachedCatalog> {
    let path = cache_path(state_dir);
    // Never through a link (a FIFO there would hang `serve` at start), and bounded.
    let bytes = match crate::state::read_state_file(&path, MAX_CACHE_BYTES) {
        Ok(Some(bytes)) => bytes,
        Ok(None) => return None,
        Err(error) => {
            tracing::warn!(path = %path.display(), %error, "ignoring the model catalog cache: it cannot be read");
            return None;
        }
    };
    let file: CacheFile = match serde_json::from_slice(&bytes) {
        Ok(file) => file,
        Err(error) => {
            tracing::warn!(path = %path.display(), %error, "ignoring the corrupted model catalog cache; the next fetch rewrites it");
            return None;
        }
    };
    if file.version != CACHE_VERSION {
        tracing::warn!(path = %path.display(), version = file.version, "ignoring a model catalog cache of another version; the next fetch rewrites it");
        return None;
    }
    Some(CachedCatalog {
        catalog: Catalog::from_models(file.models),
        fetched_at: UNIX_EPOCH + Duration::from_millis(file.fetched_at_ms),
        agent: PathBuf::from(file.agent),
    })
}

/// Writes `catalog` (fetched now from `agent`) to the cache in `state_dir`: 0600, atomically,
/// creating the folder 0700 when missing.
pub(crate) fn store_cache_in(
    state_dir: &Path,
    catalog: &Catalog,
    agent: &Path,
) -> Result<(), CatalogError> {
    crate::state::ensure_private_dir(state_dir)?;
    let fetched_at_ms = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
        .unwrap_or_default();
    let file = CacheFile {
        version: CACHE_VERSION,
        fetched_at_ms,
        agent: agent.to_string_lossy().into_owned(),
        models: catalog.models().to_vec(),
    };
    let bytes = serde_json::to_vec_pretty(&file)?;
    crate::state::write_private_atomic(&cache_path(state_dir), &bytes)?;
    Ok(())
}

/// `store_cache_in` the state folder (`MULTI_CURSOR_STATE_DIR` or the platform default);
/// called after a successful [`fetch_catalog`](super::fetch_catalog).
pub fn store_cache(catalog: &Catalog, agent: &Path) -> Result<(), CatalogError> {
    let dir = crate::state::state_dir()?;
    store_cache_in(&dir, catalog, agent)
}
