//! The plugin a launched session loads (`claude --plugin-dir <folder>`): the one built with
//! this binary, so `/multi-cursor:*` and the skill are there without a marketplace step and
//! always match the helper that answers them. It carries no hooks: the plugin's hooks speak
//! only in plain `claude` sessions (in a launched one they are silent, and the launcher's own
//! `--settings` hooks do the work), and they run under Node, which a launcher installed with
//! cargo may not find. Leaving them out also keeps a marketplace install's hooks from running,
//! since this plugin replaces it for the session.
//!
//! The folder is, in order: the `plugin/` folder beside the executable's `bin/` folder when
//! its manifest names this plugin at this binary's version (the npm packages carry one) and no
//! other user could have put it there or change it ([`trusted`]: it, everything in it and every
//! folder on the path to it belong to the user or root, are no links and are not writable by
//! group or others, a sticky folder such as `/tmp` excepted; a binary unpacked one folder below
//! a shared folder would otherwise load a `plugin/` another user planted there, whose hooks and
//! commands Claude Code runs as the user), else
//! the copy of `plugin/` compiled into the binary ([`FILES`]), written once into the state
//! folder at `plugin/<version>-<digest>/` (private modes, atomically: a complete folder is
//! renamed into place, never written through a link).
//!
//! Measured with Claude Code 2.1.328: a `--plugin-dir` plugin replaces an installed plugin of
//! the same name for that session (one set of commands, its hooks only; `init` lists it with
//! source `multi-cursor@inline`), so a marketplace install does not double the hooks. Two
//! `--plugin-dir` folders of the same name are both listed, and only the first one's hooks
//! run: when the user passes a `--plugin-dir` holding a multi-cursor plugin (a development
//! copy), ours is not added. `MULTI_CURSOR_PLUGIN=off` leaves the flag out altogether.

use std::ffi::OsString;
use std::fs;
use std::io::Write;
use std::path::Path;
use std::path::PathBuf;

use sha2::Digest;

/// The plugin's name (`plugin/.claude-plugin/plugin.json`).
pub(crate) const NAME: &str = "multi-cursor";

use crate::env::PLUGIN_ENV;

/// Folder of the state folder holding the written copies.
pub(crate) const STATE_SUBDIR: &str = "plugin";

/// Largest plugin manifest read (a manifest is a few hundred bytes).
const MANIFEST_LIMIT: u64 = 64 * 1024;

/// Most entries looked at in a `plugin/` folder beside the binary (ours has about a dozen);
/// a folder holding more is not used.
const MAX_BESIDE_ENTRIES: usize = 1024;

/// One file of the plugin compiled into the binary.
#[derive(Debug)]
pub(crate) struct PluginFile {
    /// Path inside the plugin folder.
    pub path: &'static str,
    pub bytes: &'static [u8],
    /// Written 0700 (the shim) rather than 0600.
    pub executable: bool,
}

macro_rules! plugin_file {
    ($path:literal, $executable:literal) => {
        PluginFile {
            path: $path,
            bytes: include_bytes!(concat!("../../plugin/", $path)),
            executable: $executable,
        }
    };
}

/// Every file of `plugin/` but its npm manifest and lockfile (which only serve Claude Code's
/// `npm ci` in a marketplace install; a launched session runs this binary) and its hooks (see
/// the module's documentation).
pub(crate) const FILES: &[PluginFile] = &[
    plugin_file!(".claude-plugin/plugin.json", false),
    plugin_file!("README.md", false),
    plugin_file!("scripts/multi-cursor", true),
    plugin_file!("commands/login.md", false),
    plugin_file!("commands/models.md", false),
    plugin_file!("commands/rules.md", false),
    plugin_file!("commands/status.md", false),
    plugin_file!("commands/usage.md", false),
    plugin_file!("skills/multi-cursor/SKILL.md", false),
];

/// Whether the launcher should load its plugin, from `MULTI_CURSOR_PLUGIN`.
pub(crate) fn enabled(value: Option<&str>) -> anyhow::Result<bool> {
    match value.map(str::trim).map(str::to_ascii_lowercase).as_deref() {
        None | Some("" | "on" | "1" | "true" | "yes") => Ok(true),
        Some("off" | "0" | "false" | "no") => Ok(false),
        Some(other) => anyhow::bail!(
            "{PLUGIN_ENV}={other:?} is not understood: set it to `off` to start Claude Code without multi-cursor's own plugin, or unset it"
        ),
    }
}

/// Whether the user's arguments already load a multi-cursor plugin with `--plugin-dir`.
pub(crate) fn given_by_user(args: &[OsString]) -> bool {
    let mut words = args.iter();
    while let Some(word) = words.next() {
        if word == "--" {
            return false;
        }
        let folder = if word == "--plugin-dir" {
            words.next().cloned()
        } else {
            word.to_str()
                .and_then(|w| w.strip_prefix("--plugin-dir="))
                .map(OsString::from)
        };
        if folder.is_some_and(|folder| manifest_version(Path::new(&folder)).is_some()) {
            return true;
        }
    }
    false
}

/// The version in `folder/.claude-plugin/plugin.json` when that manifest names this plugin.
fn manifest_version(folder: &Path) -> Option<String> {
    let bytes =
        crate::state::read_regular_file(&folder.join(".claude-plugin/plugin.json"), MANIFEST_LIMIT)
            .ok()?;
    let manifest: serde_json::Value = serde_json::from_slice(&bytes).ok()?;
    (manifest["name"] == NAME)
        .then(|| manifest["version"].as_str().map(str::to_string))
        .flatten()
}

/// What is beside the binary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Beside {
    /// No `plugin/` folder holding this plugin at this version.
    Nothing,
    /// One to use.
    Use(PathBuf),
    /// One that another user could have put there or could change: not used.
    Untrusted {
        /// The `plugin/` folder.
        folder: PathBuf,
        /// What is wrong, naming the path.
        why: String,
    },
}

/// The `plugin/` folder beside `exe`'s folder (`<package>/bin/multi-cursor` →
/// `<package>/plugin`) when it holds this plugin at this binary's version, and whether it can
/// be trusted ([`trusted`]).
pub(crate) fn beside(exe: &Path) -> Beside {
    let Some(folder) = fs::canonicalize(exe)
        .ok()
        .and_then(|exe| Some(exe.parent()?.parent()?.join("plugin")))
    else {
        return Beside::Nothing;
    };
    if manifest_version(&folder).as_deref() != Some(env!("CARGO_PKG_VERSION")) {
        return Beside::Nothing;
    }
    match trusted(&folder) {
        Ok(()) => Beside::Use(folder),
        Err(why) => Beside::Untrusted { folder, why },
    }
}

/// `Ok` when no other user could have made or could change `folder` (whose parent is a
/// canonical path): every folder from `/` down to it, and everything in it, belongs to this
/// user or root and is not writable by group or others (a sticky folder excepted:
/// [`crate::platform::writable_by_others`]), and nothing in it is a link. `Err` names the first
/// path that fails and why. On Windows, with no uids or modes, only links are checked.
pub(crate) fn trusted(folder: &Path) -> Result<(), String> {
    let judge = |path: &Path| -> Result<fs::Metadata, String> {
        let meta = fs::symlink_metadata(path)
            .map_err(|error| format!("{} cannot be read: {error}", path.display()))?;
        if meta.file_type().is_symlink() {
            return Err(format!("{} is a link", path.display()));
        }
        match crate::platform::writable_by_others(&meta) {
            Some(why) => Err(format!("{} is {why}", path.display())),
            None => Ok(meta),
        }
    };
    for ancestor in folder.ancestors().skip(1) {
        judge(ancestor)?;
    }
    let mut pending = vec![folder.to_path_buf()];
    let mut seen = 0usize;
    while let Some(path) = pending.pop() {
        seen += 1;
        if seen > MAX_BESIDE_ENTRIES {
            return Err(format!(
                "{} holds more than {MAX_BESIDE_ENTRIES} entries",
                folder.display()
            ));
        }
        if judge(&path)?.is_dir() {
            let entries = fs::read_dir(&path)
                .map_err(|error| format!("{} cannot be read: {error}", path.display()))?;
            for entry in entries {
                let entry =
                    entry.map_err(|error| format!("{} cannot be read: {error}", path.display()))?;
                pending.push(entry.path());
            }
        }
    }
    Ok(())
}

/// `<version>-<digest of the compiled-in files>`: a changed plugin never reuses an old copy.
fn copy_name() -> String {
    let mut digest = sha2::Sha256::new();
    for file in FILES {
        digest.update(file.path.as_bytes());
        digest.update([0, u8::from(file.executable)]);
        digest.update((file.bytes.len() as u64).to_le_bytes());
        digest.update(file.bytes);
    }
    let hash = hex::encode(digest.finalize());
    format!("{}-{}", env!("CARGO_PKG_VERSION"), &hash[..16])
}

/// Why the compiled-in plugin could not be written.
#[derive(Debug, thiserror::Error)]
#[error("could not write multi-cursor's plugin into {}: {source}", .path.display())]
pub(crate) struct WriteError {
    path: PathBuf,
    #[source]
    source: anyhow::Error,
}

/// The written copy of the compiled-in plugin in `state_dir`, written now when it is missing
/// or does not hold exactly [`FILES`].
pub(crate) fn written_copy(state_dir: &Path) -> Result<PathBuf, WriteError> {
    let parent = state_dir.join(STATE_SUBDIR);
    let folder = parent.join(copy_name());
    let fail = |path: &Path| {
        let path = path.to_path_buf();
        move |source: anyhow::Error| WriteError { path, source }
    };
    crate::state::ensure_private_dir(&parent).map_err(|e| fail(&parent)(e.into()))?;
    if holds_files(&folder) {
        return Ok(folder);
    }
    // A folder of that name that is not a faithful copy (a file deleted or edited): replaced.
    match fs::symlink_metadata(&folder) {
        Ok(meta) if meta.is_dir() => {
            fs::remove_dir_all(&folder).map_err(|e| fail(&folder)(e.into()))?;
        }
        Ok(_) => fs::remove_file(&folder).map_err(|e| fail(&folder)(e.into()))?,
        Err(_) => {}
    }
    let temp = parent.join(format!(
        ".{}.{}.{:016x}.tmp",
        copy_name(),
        std::process::id(),
        crate::random::u64()
    ));
    let written = write_files(&temp).and_then(|()| {
        fs::rename(&temp, &folder).or_else(|error| {
            // Another launcher renamed its complete copy first.
            if holds_files(&folder) {
                Ok(())
            } else {
                Err(error.into())
            }
        })
    });
    if written.is_err() || temp.exists() {
        let _ = fs::remove_dir_all(&temp);
    }
    written.map_err(fail(&folder))?;
    Ok(folder)
}

/// Writes [`FILES`] into the new folder `root` (0700 folders; 0600 files, 0700 executables),
/// each file created new (never through a link) and synced.
fn write_files(root: &Path) -> anyhow::Result<()> {
    crate::platform::create_private_dir(root, false)?;
    for file in FILES {
        let path = root.join(file.path);
        if let Some(dir) = path.parent() {
            crate::platform::create_private_dir(dir, true)?;
        }
        let mut options = fs::OpenOptions::new();
        options.write(true).create_new(true);
        crate::platform::with_mode(
            &mut options,
            Some(if file.executable { 0o700 } else { 0o600 }),
        );
        let mut out = crate::platform::no_follow(&mut options).open(&path)?;
        out.write_all(file.bytes)?;
        out.sync_all()?;
    }
    Ok(())
}

/// Whether `folder` is a real folder (not a link) whose files are exactly [`FILES`]' bytes.
fn holds_files(folder: &Path) -> bool {
    let is_dir = fs::symlink_metadata(folder).is_ok_and(|meta| meta.is_dir());
    is_dir
        && FILES.iter().all(|file| {
            crate::state::read_state_file(&folder.join(file.path), file.bytes.len() as u64)
                .is_ok_and(|bytes| bytes.as_deref() == Some(file.bytes))
        })
}

/// The folder the launcher passes as `--plugin-dir`, or `None`: off through [`PLUGIN_ENV`],
/// already given by the user, beside the executable when it can be trusted, else the written
/// copy. A `plugin/` folder beside the executable that is not used because another user could
/// have made or changed it, or a copy that cannot be written, is told to `say` in one line (the
/// launcher says it on stderr; the wrapper only logs it, since its stderr is the host's); Claude
/// Code then starts with the written copy, or without a plugin.
pub(crate) fn for_launch(
    exe: &Path,
    state_dir: &Path,
    user_args: &[OsString],
    mut say: impl FnMut(&str),
) -> anyhow::Result<Option<PathBuf>> {
    if !enabled(std::env::var(PLUGIN_ENV).ok().as_deref())? || given_by_user(user_args) {
        return Ok(None);
    }
    match beside(exe) {
        Beside::Use(folder) => return Ok(Some(folder)),
        Beside::Untrusted { folder, why } => say(&crate::text::one_line(&format!(
            "multi-cursor: the plugin folder beside the binary, {}, is not loaded: {why}, so another user could have put it there or could change it; the built-in copy is used instead (make that folder and the path to it yours and not writable by others to use it).",
            folder.display()
        ))),
        Beside::Nothing => {}
    }
    match written_copy(state_dir) {
        Ok(folder) => Ok(Some(folder)),
        Err(error) => {
            say(&crate::text::one_line(&format!(
                "multi-cursor: {error}; Claude Code starts without it (/multi-cursor:* commands come only from an installed plugin)."
            )));
            Ok(None)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::platform::testing;

    /// Every file of the checkout's `plugin/` folder is compiled in, but the npm files and the
    /// hooks.
    #[test]
    fn every_plugin_file_is_compiled_in() {
        fn walk(dir: &Path, root: &Path, out: &mut Vec<String>) {
            for entry in fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    walk(&path, root, out);
                } else {
                    out.push(
                        path.strip_prefix(root)
                            .unwrap()
                            .to_string_lossy()
                            .replace('\\', "/"),
                    );
                }
            }
        }
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("plugin");
        let mut on_disk = Vec::new();
        walk(&root, &root, &mut on_disk);
        on_disk.retain(|p| {
            p != "package.json" && p != "package-lock.json" && !p.starts_with("hooks/")
        });
        on_disk.sort();
        let mut compiled: Vec<String> = FILES.iter().map(|f| f.path.to_string()).collect();
        compiled.sort();
        assert_eq!(compiled, on_disk);
        for file in FILES {
            match testing::mode_of(&root.join(file.path)) {
                Some(mode) => assert_eq!(mode & 0o100 != 0, file.executable, "{}", file.path),
                None => eprintln!("{}: no permission bits to compare here", file.path),
            }
        }
    }

    #[test]
    fn the_copy_is_written_once_privately_and_repaired() {
        let state = tempfile::tempdir().unwrap();
        let folder = written_copy(state.path()).unwrap();
        assert!(folder.ends_with(format!("plugin/{}", copy_name())));
        testing::assert_mode(&folder, 0o700);
        testing::assert_mode(&folder.join("scripts/multi-cursor"), 0o700);
        assert!(
            !folder.join("hooks").exists(),
            "no hooks in a launched session's plugin"
        );
        testing::assert_mode(&folder.join(".claude-plugin/plugin.json"), 0o600);
        let written_at = |p: &Path| fs::metadata(p).unwrap().modified().unwrap();
        let before = written_at(&folder.join("README.md"));
        std::thread::sleep(std::time::Duration::from_millis(20));
        assert_eq!(written_copy(state.path()).unwrap(), folder);
        assert_eq!(
            written_at(&folder.join("README.md")),
            before,
            "not rewritten"
        );

        fs::write(folder.join("commands/status.md"), "edited").unwrap();
        written_copy(state.path()).unwrap();
        assert_eq!(
            fs::read(folder.join("commands/status.md")).unwrap(),
            include_bytes!("../../plugin/commands/status.md")
        );
        let leftovers: Vec<_> = fs::read_dir(folder.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(leftovers.len(), 1, "{leftovers:?}");
    }

    #[test]
    fn a_link_in_place_of_the_copy_is_not_written_through() {
        let state = tempfile::tempdir().unwrap();
        let elsewhere = tempfile::tempdir().unwrap();
        fs::create_dir(state.path().join(STATE_SUBDIR)).unwrap();
        let name = state.path().join(STATE_SUBDIR).join(copy_name());
        testing::skip_unless!(testing::symlink_dir(elsewhere.path(), &name));
        let folder = written_copy(state.path()).unwrap();
        assert!(fs::symlink_metadata(&folder).unwrap().is_dir());
        assert_eq!(fs::read_dir(elsewhere.path()).unwrap().count(), 0);

        let linked_parent = tempfile::tempdir().unwrap();
        testing::skip_unless!(testing::symlink_dir(
            elsewhere.path(),
            &linked_parent.path().join(STATE_SUBDIR)
        ));
        let error = written_copy(linked_parent.path()).unwrap_err();
        assert!(error.to_string().contains("symlink"), "{error}");
    }

    #[test]
    fn the_switch_and_the_users_own_plugin_dir() {
        assert!(enabled(None).unwrap());
        assert!(!enabled(Some("off")).unwrap());
        assert!(!enabled(Some("0")).unwrap());
        assert!(enabled(Some("on")).unwrap());
        assert!(enabled(Some("maybe")).is_err());

        let state = tempfile::tempdir().unwrap();
        let ours = written_copy(state.path()).unwrap();
        let other = tempfile::tempdir().unwrap();
        let os = |words: &[&OsString]| words.iter().map(|w| (*w).clone()).collect::<Vec<_>>();
        let flag = OsString::from("--plugin-dir");
        assert!(given_by_user(&os(&[&flag, &ours.clone().into_os_string()])));
        let joined = OsString::from(format!("--plugin-dir={}", ours.display()));
        assert!(given_by_user(&os(&[&joined])));
        assert!(!given_by_user(&os(&[
            &flag,
            &other.path().as_os_str().to_os_string()
        ])));
        let after_dash = os(&[&OsString::from("--"), &flag, &ours.into_os_string()]);
        assert!(!given_by_user(&after_dash));
    }

    /// `<package>/bin/multi-cursor` and `<package>/plugin/` holding this plugin at
    /// `version`, in a private temporary folder of ours.
    fn package(version: &str) -> (tempfile::TempDir, PathBuf) {
        let package = tempfile::tempdir().unwrap();
        let exe = package.path().join("bin/multi-cursor");
        fs::create_dir_all(exe.parent().unwrap()).unwrap();
        fs::write(&exe, "").unwrap();
        let manifest = package.path().join("plugin/.claude-plugin/plugin.json");
        fs::create_dir_all(manifest.parent().unwrap()).unwrap();
        fs::write(
            &manifest,
            format!(r#"{{"name":"multi-cursor","version":"{version}"}}"#),
        )
        .unwrap();
        (package, exe)
    }

    #[test]
    fn a_plugin_folder_beside_the_executable_at_this_version() {
        let (old, exe) = package("0.0.1");
        assert_eq!(beside(&exe), Beside::Nothing, "another version");
        fs::remove_dir_all(old.path().join("plugin")).unwrap();
        assert_eq!(beside(&exe), Beside::Nothing, "none");
        let (current, exe) = package(env!("CARGO_PKG_VERSION"));
        assert_eq!(
            beside(&exe),
            Beside::Use(fs::canonicalize(current.path()).unwrap().join("plugin"))
        );
    }

    /// The third probe: a `plugin/` folder another user planted beside a binary unpacked
    /// under a shared folder was loaded. Not when it, anything in it or a folder above it
    /// belongs to another user or is writable by others.
    #[test]
    fn a_plugin_folder_another_user_could_change_is_not_used() {
        let untrusted = |exe: &Path, what: &str| match beside(exe) {
            Beside::Untrusted { why, .. } => assert!(why.contains(what), "{why}"),
            other => panic!("{other:?} used though {what}"),
        };
        let (package, exe) = package(env!("CARGO_PKG_VERSION"));
        let folder = package.path().join("plugin");
        let commands = folder.join("commands");
        fs::create_dir(&commands).unwrap();
        testing::skip_unless!(testing::set_mode(&commands, 0o777));
        untrusted(&exe, "writable by other users (mode 777)");
        testing::set_mode(&commands, 0o755).unwrap();
        testing::set_mode(&folder.join(".claude-plugin/plugin.json"), 0o666).unwrap();
        untrusted(&exe, "plugin.json is writable by other users");
        testing::set_mode(&folder.join(".claude-plugin/plugin.json"), 0o644).unwrap();
        testing::set_mode(package.path(), 0o757).unwrap();
        untrusted(&exe, "writable by other users (mode 757)");
        testing::set_mode(package.path(), 0o1777).unwrap();
        assert!(
            matches!(beside(&exe), Beside::Use(_)),
            "a sticky folder (as /tmp) is safe"
        );
        testing::set_mode(package.path(), 0o700).unwrap();
        testing::skip_unless!(testing::symlink_file(
            Path::new("/etc/hostname"),
            &commands.join("linked.md")
        ));
        untrusted(&exe, "linked.md is a link");
        fs::remove_file(commands.join("linked.md")).unwrap();
        assert!(matches!(beside(&exe), Beside::Use(_)));
        testing::skip_unless!(testing::give_to_nobody(&folder));
        untrusted(&exe, "owned by uid 65534");

        // The launcher says why in one line and uses the written copy.
        let state = tempfile::tempdir().unwrap();
        let mut said = Vec::new();
        let used = for_launch(&exe, state.path(), &[], |line| said.push(line.to_string()))
            .unwrap()
            .unwrap();
        assert_eq!(used, written_copy(state.path()).unwrap());
        assert_eq!(said.len(), 1, "{said:?}");
        assert!(said[0].contains("is not loaded"), "{said:?}");
        assert!(said[0].contains("owned by uid 65534"), "{said:?}");
    }
}
