//! Variables from a file beside the executable: `<exe without extension>.env`. On Unix a test
//! puts a `#!/bin/sh` wrapper exporting its variables in front of the fake; Windows runs no
//! shebang, so a test there copies the fake as `<dir>/agent.exe` and writes `<dir>/agent.env`.
//! Each line `NAME=VALUE` sets a variable and a line `NAME` (no `=`) removes one, before
//! anything else reads the environment; the children the fake starts (lingerers) inherit the
//! result. Without the file, nothing changes.

use std::path::Path;

use crate::error::Error;

/// Largest sidecar read, in bytes: a few dozen variables.
const MAX_BYTES: u64 = 64 * 1024;

/// Applies the sidecar of the running executable, when there is one.
pub(crate) fn apply() -> Result<(), Error> {
    let exe = std::env::current_exe()
        .map_err(|error| Error::new(format!("finding this executable: {error}")))?;
    apply_file(&exe.with_extension("env"))
}

fn apply_file(path: &Path) -> Result<(), Error> {
    let text = match std::fs::metadata(path) {
        Err(_) => return Ok(()),
        Ok(meta) if meta.len() > MAX_BYTES => {
            return Err(Error::new(format!(
                "{} is over {MAX_BYTES} bytes",
                path.display()
            )));
        }
        Ok(_) => {
            std::fs::read_to_string(path).map_err(|error| Error::io("reading", path, &error))?
        }
    };
    for line in text.lines().filter(|line| !line.is_empty()) {
        // SAFETY: called first thing in `main`, before the fake starts any thread, so nothing
        // reads the environment concurrently.
        match line.split_once('=') {
            Some((name, value)) => unsafe { std::env::set_var(name, value) },
            None => unsafe { std::env::remove_var(line) },
        }
    }
    Ok(())
}
