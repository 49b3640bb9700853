//! The tokens every gateway of this user recorded in the ledger since local midnight, for
//! `MULTI_CURSOR_BUDGET_DAILY_TOKENS`. Read incrementally: each refresh reads only the bytes
//! appended to this month's file since the last one (the whole file once a day, at the first
//! refresh after midnight).

use std::io::Read;
use std::io::Seek;
use std::io::SeekFrom;
use std::path::PathBuf;

use super::ledger::Ledger;
use super::ledger::parse_line;

/// Most bytes read from the ledger in one refresh (a month of heavy use is far below it).
pub(crate) const MAX_READ: u64 = 256 * 1024 * 1024;

/// The running sum of today's tokens and where in the month's file it stopped.
#[derive(Debug, Default)]
pub(crate) struct DailyTally {
    day: Option<jiff::civil::Date>,
    midnight: Option<jiff::Timestamp>,
    file: PathBuf,
    offset: u64,
    tokens: u64,
}

impl DailyTally {
    /// Today's input + output tokens across gateways, reading what was appended since the last
    /// call. A ledger that cannot be read counts as what was read so far (logged).
    pub(crate) fn refresh(&mut self, ledger: &Ledger) -> u64 {
        let now = jiff::ZonedDateTime::now();
        let today = now.date();
        if self.day != Some(today) {
            *self = DailyTally {
                day: Some(today),
                midnight: now.start_of_day().ok().map(|z| z.timestamp()),
                file: ledger.month_file(&now),
                offset: 0,
                tokens: 0,
            };
        }
        if let Err(error) = self.read_new() {
            tracing::warn!(%error, file = %self.file.display(), "could not read the Cursor ledger for the daily budget");
        }
        self.tokens
    }

    fn read_new(&mut self) -> std::io::Result<()> {
        let mut file =
            match crate::state::open_state_file(&self.file, std::fs::OpenOptions::new().read(true))
            {
                Ok(file) => file,
                Err(crate::state::StateError::Io { source, .. })
                    if source.kind() == std::io::ErrorKind::NotFound =>
                {
                    return Ok(());
                }
                Err(error) => return Err(std::io::Error::other(error.to_string())),
            };
        let size = file.metadata()?.len();
        if size < self.offset {
            // The file was replaced or cut: count it again from the start.
            self.offset = 0;
            self.tokens = 0;
        }
        if size == self.offset {
            return Ok(());
        }
        file.seek(SeekFrom::Start(self.offset))?;
        let mut bytes = Vec::new();
        file.take(MAX_READ).read_to_end(&mut bytes)?;
        // Only whole lines: a line being appended right now is read next time.
        let Some(end) = memchr::memrchr(b'\n', &bytes) else {
            return Ok(());
        };
        let midnight = self.midnight;
        for line in bytes[..end].split(|b| *b == b'\n') {
            let Some(line) = parse_line(line) else {
                continue;
            };
            let today = match (midnight, line.time.parse::<jiff::Timestamp>()) {
                (Some(midnight), Ok(at)) => at >= midnight,
                _ => false,
            };
            if today {
                self.tokens = self.tokens.saturating_add(line.tokens().billed());
            }
        }
        self.offset += end as u64 + 1;
        Ok(())
    }
}
