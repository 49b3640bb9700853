//! The installed plugin's `scripts/multi-cursor` shim runs the helper from the plugin's own
//! `node_modules` (where Claude Code's `npm ci` puts this platform's package), from PATH (never
//! itself, even with its own folder on PATH) or from cargo's bin folder, and otherwise says
//! exactly how to install it: `npm install -g multi-cursor` first, then `cargo install --locked
//! --path <the checkout the marketplace was added from>`.
//! `--report` (what the slash commands use) always exits 0 and names a failing exit status.

use multi_cursor_test_support::plugin;

use std::ffi::OsString;
use std::path::Path;
use std::process::Command;
use std::process::Output;

fn shim(installed: &Path, home: &Path, path: OsString, args: &[&str]) -> Output {
    Command::new(installed.join("scripts/multi-cursor"))
        .args(args)
        .env_clear()
        .env("HOME", home)
        .env("PATH", path)
        .output()
        .unwrap()
}

fn with_path_helper() -> OsString {
    let mut path = OsString::from(plugin::helper_dir());
    path.push(":/usr/bin:/bin");
    path
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn shim_finds_the_helper_or_says_how_to_install_it() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let installed = plugin::install(&home, &dir.path().join("project"));
    let system = OsString::from("/usr/bin:/bin");

    // Found on PATH: the helper's own output and status.
    let mut with_helper = OsString::from(plugin::helper_dir());
    with_helper.push(":/usr/bin:/bin");
    let found = shim(&installed, &home, with_helper.clone(), &["--version"]);
    assert_eq!(found.status.code(), Some(0), "{found:?}");
    assert_eq!(
        text(&found.stdout).trim(),
        format!("multi-cursor {}", env!("CARGO_PKG_VERSION"))
    );
    let failing = shim(
        &installed,
        &home,
        with_helper.clone(),
        &["status", "--no-such-flag"],
    );
    assert_eq!(
        failing.status.code(),
        Some(2),
        "the helper's status: {failing:?}"
    );
    let reported = shim(
        &installed,
        &home,
        with_helper,
        &["--report", "status", "--no-such-flag"],
    );
    assert_eq!(reported.status.code(), Some(0), "{reported:?}");
    assert!(
        text(&reported.stdout).contains("[multi-cursor exited with status 2]"),
        "{reported:?}"
    );

    // Found in cargo's bin folder when PATH lacks it.
    let cargo_bin = home.join(".cargo/bin");
    std::fs::create_dir_all(&cargo_bin).unwrap();
    std::os::unix::fs::symlink(
        env!("CARGO_BIN_EXE_multi-cursor"),
        cargo_bin.join("multi-cursor"),
    )
    .unwrap();
    let from_cargo = shim(&installed, &home, system.clone(), &["--version"]);
    assert_eq!(from_cargo.status.code(), Some(0), "{from_cargo:?}");

    // The plugin's own platform package comes before PATH and cargo's folder.
    let own = installed.join("node_modules/multi-cursor-test-platform/bin");
    std::fs::create_dir_all(&own).unwrap();
    std::fs::write(
        own.join("multi-cursor"),
        "#!/bin/sh\necho \"plugin's own binary: $*\"\n",
    )
    .unwrap();
    std::fs::set_permissions(
        own.join("multi-cursor"),
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    let from_plugin = shim(&installed, &home, with_path_helper(), &["--version"]);
    assert_eq!(from_plugin.status.code(), Some(0), "{from_plugin:?}");
    assert_eq!(
        text(&from_plugin.stdout).trim(),
        "plugin's own binary: --version"
    );
    std::fs::remove_dir_all(installed.join("node_modules")).unwrap();
    std::fs::remove_file(cargo_bin.join("multi-cursor")).unwrap();

    // Missing, with the shim's own folder on PATH: no recursion, the install line.
    let mut own_bin = OsString::from(installed.join("scripts"));
    own_bin.push(":/usr/bin:/bin");
    let missing = shim(&installed, &home, own_bin, &["--version"]);
    assert_eq!(missing.status.code(), Some(127), "{missing:?}");
    let checkout = plugin::checkout().canonicalize().unwrap();
    let install_line = format!("cargo install --locked --path '{}'", checkout.display());
    assert!(text(&missing.stderr).contains(&install_line), "{missing:?}");
    assert!(
        text(&missing.stderr).contains("Install it with: npm install -g multi-cursor\n"),
        "{missing:?}"
    );
    assert!(text(&missing.stdout).is_empty(), "{missing:?}");

    let missing_report = shim(&installed, &home, system, &["--report", "--cursor-models"]);
    assert_eq!(missing_report.status.code(), Some(0), "{missing_report:?}");
    assert!(
        text(&missing_report.stdout).contains(&install_line),
        "{missing_report:?}"
    );
}
