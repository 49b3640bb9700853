//! Fresh identifiers: UUID-shaped chat and request ids, login challenges.
//!
//! Randomness comes from std's randomly keyed hasher mixed with the clock, the pid and a
//! counter; good enough to make ids distinct across runs, which is all a test needs.

use std::collections::hash_map::RandomState;
use std::hash::BuildHasher;
use std::hash::Hasher;
use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering;
use std::time::SystemTime;
use std::time::UNIX_EPOCH;

/// Distinguishes ids made within one process.
static COUNTER: AtomicU64 = AtomicU64::new(0);

/// A random 64-bit number.
fn random_u64() -> u64 {
    let mut hasher = RandomState::new().build_hasher();
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|elapsed| elapsed.as_nanos())
        .unwrap_or_default();
    hasher.write_u128(nanos);
    hasher.write_u32(std::process::id());
    hasher.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
    hasher.finish()
}

/// Sixteen random bytes.
fn random_bytes() -> [u8; 16] {
    let mut bytes = [0u8; 16];
    bytes[..8].copy_from_slice(&random_u64().to_be_bytes());
    bytes[8..].copy_from_slice(&random_u64().to_be_bytes());
    bytes
}

/// A version-4 UUID string like the real CLI's chat ids (`xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx`).
pub(crate) fn uuid() -> String {
    let mut bytes = random_bytes();
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    let hex: String = bytes.iter().map(|byte| format!("{byte:02x}")).collect();
    format!(
        "{}-{}-{}-{}-{}",
        &hex[..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..]
    )
}

/// A 43-character base64url string, the shape of a PKCE challenge.
pub(crate) fn challenge() -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    (0..43)
        .map(|_| {
            let index = usize::try_from(random_u64() % 64).unwrap_or_default();
            char::from(ALPHABET[index])
        })
        .collect()
}

/// Milliseconds since the Unix epoch, for `timestamp_ms` fields.
pub(crate) fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|elapsed| u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX))
        .unwrap_or_default()
}

/// Whether `id` has a UUID's shape (8-4-4-4-12 hexadecimal digits), as the 2026 CLI requires of
/// a `--resume` id.
pub(crate) fn is_uuid(id: &str) -> bool {
    let groups: Vec<&str> = id.split('-').collect();
    groups.len() == 5
        && groups
            .iter()
            .zip([8, 4, 4, 4, 12])
            .all(|(group, len)| group.len() == len && group.bytes().all(|b| b.is_ascii_hexdigit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uuids_are_shaped_and_distinct() {
        let first = uuid();
        let second = uuid();
        assert_ne!(first, second);
        assert_eq!(first.len(), 36);
        assert_eq!(first.as_bytes()[14], b'4');
        assert_eq!(first.matches('-').count(), 4);
    }

    #[test]
    fn challenges_are_base64url() {
        let text = challenge();
        assert_eq!(text.len(), 43);
        assert!(
            text.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        );
    }

    #[test]
    fn uuid_shapes() {
        assert!(is_uuid(&uuid()));
        assert!(is_uuid("0f1e2d3c-4b5a-4697-8877-665544332211"));
        assert!(!is_uuid("chat-gone"));
        assert!(!is_uuid("0f1e2d3c-4b5a-4697-8877-66554433221"));
        assert!(!is_uuid("0f1e2d3c-4b5a-4697-8877-66554433221g"));
    }
}
