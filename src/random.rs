//! Random numbers straight from the operating system's generator (`getrandom`): the gateway's
//! token, the placeholder credential, run markers, message ids, and the unique part of
//! temporary and record names.
//!
//! rand's thread-local generator, used before, seeded itself from this same source, and with
//! rand_core, rand_chacha, ppv-lite86 and zerocopy it was five crates in every build for a
//! few reads per run.
//!
//! The system's generator does not fail once the system is up (Linux's `getrandom(2)` waits
//! only for the boot-time seeding; macOS and Windows never fail). If it ever did, nothing that
//! needs these numbers can go on safely, so each function here panics, with the system's
//! error, as rand's generator did.

/// 32 random bits.
pub(crate) fn u32() -> u32 {
    getrandom::u32().unwrap_or_else(|error| failed(error))
}

/// 64 random bits.
pub(crate) fn u64() -> u64 {
    getrandom::u64().unwrap_or_else(|error| failed(error))
}

/// 128 random bits.
pub(crate) fn u128() -> u128 {
    let mut bytes = [0u8; 16];
    if let Err(error) = getrandom::fill(&mut bytes) {
        failed(error);
    }
    u128::from_ne_bytes(bytes)
}

fn failed(error: getrandom::Error) -> ! {
    panic!("the operating system's random number generator failed: {error}")
}

#[cfg(test)]
mod tests {
    #[test]
    fn two_draws_differ() {
        assert_ne!(super::u128(), super::u128());
        assert_ne!(super::u64(), super::u64());
        // 32 bits may repeat by chance (1 in 4 billion); four draws all equal may not.
        let draws = [super::u32(), super::u32(), super::u32(), super::u32()];
        assert!(draws.iter().any(|d| *d != draws[0]), "{draws:?}");
    }
}
