//! Paths in the system's own spelling. Joins of a `/`-separated relative path are made one
//! component at a time, so a path shown to the user or handed to Cursor on Windows reads
//! `C:\x\.claude\settings.json`, never a mixed `C:\x\.claude/settings.json`. And a path another
//! program reports in Windows' verbatim form (`\\?\C:\x`: what `std::fs::canonicalize` and
//! Node's `path.toNamespacedPath` give) is read back in its plain spelling (`C:\x`), which is
//! how the workspace and every folder we compare with are spelled. The string work is pure and
//! compiled everywhere, so its tests run on every system.

use std::borrow::Cow;
use std::path::Path;
use std::path::PathBuf;

/// `base` joined with the `/`-separated `rel` one component at a time, so the result has the
/// system's separators (`C:\x\.claude\settings.json` on Windows). Empty components (`a//b`, a
/// trailing `/`) are skipped.
pub fn joined(base: &Path, rel: &str) -> PathBuf {
    rel.split('/')
        .filter(|part| !part.is_empty())
        .fold(base.to_path_buf(), |path, part| path.join(part))
}

/// The plain spelling of a Windows verbatim path: `\\?\C:\x` → `C:\x`, `\\?\UNC\srv\share\x`
/// → `\\srv\share\x`. Inside a verbatim path `/` is no separator for Windows, but no Windows
/// file name can hold one, so a `/` there (`\\?\C:\x/src/a.ts`, written by hand or by a model)
/// can only have meant one: the plain spelling reads it as a separator. `None` when `text` is
/// not verbatim, or is verbatim with no plain spelling (`\\?\Volume{…}\x`).
pub(crate) fn plain_windows_spelling(text: &str) -> Option<String> {
    let rest = text.strip_prefix(r"\\?\")?;
    if let Some(unc) = rest
        .strip_prefix(r"UNC\")
        .or_else(|| rest.strip_prefix("UNC/"))
    {
        return Some(format!(r"\\{unc}"));
    }
    let bytes = rest.as_bytes();
    let drive = bytes.first().is_some_and(u8::is_ascii_alphabetic) && bytes.get(1) == Some(&b':');
    drive.then(|| rest.to_string())
}

/// `path` in its plain spelling on Windows ([`plain_windows_spelling`]); unchanged on other
/// systems, where `\\?\` is an ordinary (if odd) file name.
pub(crate) fn plain(path: &Path) -> Cow<'_, Path> {
    if !cfg!(windows) {
        return Cow::Borrowed(path);
    }
    match path.to_str().and_then(plain_windows_spelling) {
        Some(plain) => Cow::Owned(PathBuf::from(plain)),
        None => Cow::Borrowed(path),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joins_have_the_systems_separators() {
        let base = Path::new("base");
        let sep = std::path::MAIN_SEPARATOR;
        assert_eq!(
            joined(base, ".claude/settings.local.json").to_str(),
            Some(format!("base{sep}.claude{sep}settings.local.json").as_str())
        );
        assert_eq!(joined(base, "a//b/"), base.join("a").join("b"));
        assert_eq!(joined(base, ""), base);
    }

    #[test]
    fn verbatim_paths_have_a_plain_spelling() {
        let plain = |text: &str| plain_windows_spelling(text);
        assert_eq!(
            plain(r"\\?\C:\ws\src\components\Button.tsx").as_deref(),
            Some(r"C:\ws\src\components\Button.tsx")
        );
        assert_eq!(
            plain(r"\\?\c:\ws/src/components\Button.tsx").as_deref(),
            Some(r"c:\ws/src/components\Button.tsx")
        );
        assert_eq!(
            plain(r"\\?\UNC\srv\share\w").as_deref(),
            Some(r"\\srv\share\w")
        );
        assert_eq!(plain(r"\\?\Volume{x}\w"), None);
        assert_eq!(plain(r"\\?\"), None);
        assert_eq!(plain(r"C:\ws\a.ts"), None);
        assert_eq!(plain("C:/ws/a.ts"), None);
        assert_eq!(plain("/ws/a.ts"), None);
        assert_eq!(plain("src/a.ts"), None);
    }

    #[test]
    fn only_windows_reads_a_verbatim_prefix() {
        let verbatim = Path::new(r"\\?\C:\ws\a.ts");
        if cfg!(windows) {
            assert_eq!(plain(verbatim), Path::new(r"C:\ws\a.ts"));
        } else {
            assert_eq!(plain(verbatim), verbatim);
        }
        assert_eq!(plain(Path::new("src/a.ts")), Path::new("src/a.ts"));
    }
}
