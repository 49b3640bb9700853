//! Writing stdout the way a test asked for: whole outputs, fixed-size chunks that may span
//! lines, or one output split at chosen byte offsets, each write flushed on its own.
//!
//! Writes go straight to a duplicate of file descriptor 1 (no std line buffering), so every
//! chunk is exactly one `write(2)` as far as the kernel is concerned.

use std::fs::File;
use std::io::Write;
use std::thread;
use std::time::Duration;

use crate::error::Error;
use crate::sys;

/// Fixed-size chunking of everything written while it is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Chunking {
    /// Bytes per write (at least 1).
    pub size: usize,
    /// Pause after each write.
    pub pause: Duration,
}

/// Split points for the next output only.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Split {
    /// Strictly increasing byte offsets into the output (its trailing newline included).
    pub offsets: Vec<usize>,
    /// Pause after each write.
    pub pause: Duration,
}

/// The stdout writer of one run.
pub(crate) struct Emitter {
    /// Duplicate of fd 1; `None` once stdout was closed.
    stdout: Option<File>,
    /// Chunking in force, if any.
    chunking: Option<Chunking>,
    /// Bytes waiting to fill the current chunk.
    pending: Vec<u8>,
    /// Split points for the next output, if any.
    split: Option<Split>,
}

impl Emitter {
    /// A writer on this process's stdout.
    pub(crate) fn new() -> Result<Self, Error> {
        let stdout = sys::dup_stdout()
            .map_err(|error| Error::new(format!("duplicating stdout: {error}")))?;
        Ok(Self {
            stdout: Some(stdout),
            chunking: None,
            pending: Vec::new(),
            split: None,
        })
    }

    /// Turns chunking on (or off with `None`); bytes of an unfinished chunk are written first.
    pub(crate) fn set_chunking(&mut self, chunking: Option<Chunking>) -> Result<(), Error> {
        self.settle()?;
        self.chunking = chunking;
        Ok(())
    }

    /// Splits the next output at the given offsets.
    pub(crate) fn split_next(&mut self, split: Split) {
        self.split = Some(split);
    }

    /// Writes one output (a line with its newline, or raw text) under the current write mode.
    pub(crate) fn emit(&mut self, bytes: &[u8]) -> Result<(), Error> {
        if let Some(split) = self.split.take() {
            self.settle()?;
            return self.write_split(bytes, &split);
        }
        match self.chunking {
            Some(chunking) => self.write_chunked(bytes, chunking),
            None => self.write(bytes),
        }
    }

    /// Writes the bytes of an unfinished chunk, so nothing is held back across a pause.
    pub(crate) fn settle(&mut self) -> Result<(), Error> {
        if self.pending.is_empty() {
            return Ok(());
        }
        let pending = std::mem::take(&mut self.pending);
        self.write(&pending)
    }

    /// Writes any unfinished chunk, then closes stdout (fd 1 and our duplicate).
    pub(crate) fn close(&mut self) -> Result<(), Error> {
        self.settle()?;
        self.stdout = None;
        sys::close_stdout().map_err(|error| Error::new(format!("closing stdout: {error}")))
    }

    /// Writes `bytes` in `chunking.size` pieces, carrying the remainder to the next output.
    fn write_chunked(&mut self, bytes: &[u8], chunking: Chunking) -> Result<(), Error> {
        let mut rest = bytes;
        if !self.pending.is_empty() {
            let take = (chunking.size - self.pending.len()).min(rest.len());
            self.pending.extend_from_slice(&rest[..take]);
            rest = &rest[take..];
            if self.pending.len() < chunking.size {
                return Ok(());
            }
            let chunk = std::mem::take(&mut self.pending);
            self.write_paused(&chunk, chunking.pause)?;
        }
        let mut pieces = rest.chunks_exact(chunking.size);
        for piece in pieces.by_ref() {
            self.write_paused(piece, chunking.pause)?;
        }
        self.pending.extend_from_slice(pieces.remainder());
        Ok(())
    }

    /// Writes `bytes` in pieces cut at `split.offsets`.
    fn write_split(&mut self, bytes: &[u8], split: &Split) -> Result<(), Error> {
        let mut start = 0;
        for &offset in &split.offsets {
            if offset <= start || offset >= bytes.len() {
                continue;
            }
            self.write_paused(&bytes[start..offset], split.pause)?;
            start = offset;
        }
        self.write(&bytes[start..])
    }

    /// Writes and then pauses.
    fn write_paused(&mut self, bytes: &[u8], pause: Duration) -> Result<(), Error> {
        self.write(bytes)?;
        if !pause.is_zero() {
            thread::sleep(pause);
        }
        Ok(())
    }

    /// One write of `bytes`, flushed.
    fn write(&mut self, bytes: &[u8]) -> Result<(), Error> {
        let Some(stdout) = self.stdout.as_mut() else {
            return Err(Error::new("output after #!close-stdout"));
        };
        stdout
            .write_all(bytes)
            .and_then(|()| stdout.flush())
            .map_err(|error| Error::new(format!("writing stdout: {error}")))
    }
}
