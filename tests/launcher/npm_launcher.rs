//! The npm package's Node launcher (npm/multi-cursor) in front of a fake platform binary: it
//! passes arguments, stdin, stdout and the exit status through, dies of the signal the binary
//! died of, names the platform and the other ways in when the platform package is missing, and
//! its postinstall replaces the launcher by a hard link to the binary. It looks for the platform
//! package only where npm puts it, at this version and the user's (or root's), and the
//! postinstall never writes through a name planted where its temporary file goes. Needs `node`
//! (which scripts/test needs anyway, to install Claude Code).

use std::os::unix::fs::MetadataExt;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::Command;
use std::process::Output;

/// A fake binary: prints its arguments and its stdin's first line, then exits as asked.
const FAKE_BINARY: &str = "#!/bin/sh\n\
echo \"args: $*\"\n\
read -r line; echo \"stdin: $line\"\n\
case \"$1\" in\n\
  exit) exit \"$2\" ;;\n\
  signal) kill -TERM $$ ;;\n\
esac\n";

fn node_platform() -> String {
    let out = Command::new("node")
        .args(["-p", "process.platform + '-' + process.arch"])
        .output()
        .expect("node is needed for this test (scripts/test needs it to install Claude Code)");
    String::from_utf8(out.stdout).unwrap().trim().to_owned()
}

fn run(launcher: &Path, args: &[&str]) -> Output {
    multi_cursor_test_support::output_with_stdin(Command::new(launcher).args(args), b"from stdin\n")
}

/// The launcher package copied into `modules/multi-cursor`; returns its folder.
fn launcher_package(modules: &Path) -> std::path::PathBuf {
    let package = modules.join("multi-cursor");
    multi_cursor_test_support::copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("npm/multi-cursor"),
        &package,
    );
    package
}

/// A platform package `multi-cursor-<platform>` at `version` in `modules`, its binary the fake
/// one printing `marker`; returns the package's folder.
fn platform_package(modules: &Path, version: &str, marker: &str) -> std::path::PathBuf {
    let name = format!("multi-cursor-{}", node_platform());
    let package = modules.join(&name);
    std::fs::create_dir_all(package.join("bin")).unwrap();
    std::fs::write(
        package.join("package.json"),
        format!("{{\"name\":\"{name}\",\"version\":\"{version}\"}}"),
    )
    .unwrap();
    let binary = package.join("bin/multi-cursor");
    std::fs::write(&binary, format!("#!/bin/sh\necho {marker}\n")).unwrap();
    std::fs::set_permissions(&binary, std::fs::Permissions::from_mode(0o755)).unwrap();
    package
}

#[test]
fn node_launcher_runs_the_platform_binary_and_postinstall_links_it() {
    let dir = tempfile::tempdir().unwrap();
    let modules = dir.path().join("node_modules");
    let package = modules.join("multi-cursor");
    multi_cursor_test_support::copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("npm/multi-cursor"),
        &package,
    );
    let platform = node_platform();
    let platform_package = modules.join(format!("multi-cursor-{platform}"));
    std::fs::create_dir_all(platform_package.join("bin")).unwrap();
    std::fs::write(
        platform_package.join("package.json"),
        format!(
            "{{\"name\":\"multi-cursor-{platform}\",\"version\":\"{}\"}}",
            env!("CARGO_PKG_VERSION")
        ),
    )
    .unwrap();
    let binary = platform_package.join("bin/multi-cursor");
    std::fs::write(&binary, FAKE_BINARY).unwrap();
    std::fs::set_permissions(&binary, std::fs::Permissions::from_mode(0o755)).unwrap();
    let launcher = package.join("bin/multi-cursor");

    let passed = run(&launcher, &["exit", "42", "two words"]);
    assert_eq!(passed.status.code(), Some(42), "{passed:?}");
    assert_eq!(
        String::from_utf8_lossy(&passed.stdout),
        "args: exit 42 two words\nstdin: from stdin\n"
    );

    let killed = run(&launcher, &["signal"]);
    assert_eq!(killed.status.signal(), Some(15), "{killed:?}");

    // No binary for multi-cursor-claude in the fake package: the spawn error, not a hang.
    let no_claude = run(&package.join("bin/multi-cursor-claude"), &[]);
    assert_eq!(no_claude.status.code(), Some(126), "{no_claude:?}");

    // The postinstall: bin/multi-cursor becomes the binary itself (a hard link).
    let installed = Command::new("node")
        .arg(package.join("lib/install.cjs"))
        .output()
        .unwrap();
    assert!(installed.status.success(), "{installed:?}");
    assert_eq!(
        std::fs::metadata(&launcher).unwrap().ino(),
        std::fs::metadata(&binary).unwrap().ino()
    );
    let linked = run(&launcher, &["exit", "3"]);
    assert_eq!(linked.status.code(), Some(3), "{linked:?}");

    // Without the platform package: the platform and the other ways in, exit 127.
    std::fs::remove_dir_all(&platform_package).unwrap();
    let fresh = dir.path().join("fresh");
    multi_cursor_test_support::copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("npm/multi-cursor"),
        &fresh,
    );
    let missing = run(&fresh.join("bin/multi-cursor"), &["--version"]);
    assert_eq!(missing.status.code(), Some(127), "{missing:?}");
    let message = String::from_utf8_lossy(&missing.stderr);
    assert!(message.contains(&format!("({platform})")), "{message}");
    assert!(
        message.contains("cargo install --locked multi-cursor"),
        "{message}"
    );
}

/// The third probe: with npm's two places empty, the launcher fell back to Node's full lookup
/// and ran a platform package planted one folder up (by another user) as the user. Only npm's
/// places count, and the message names the package missing and where it looked.
#[test]
fn a_platform_package_in_an_ancestors_node_modules_is_not_run() {
    let dir = tempfile::tempdir().unwrap();
    let version = env!("CARGO_PKG_VERSION");
    platform_package(&dir.path().join("node_modules"), version, "PLANTED");
    let package = launcher_package(&dir.path().join("app/node_modules"));
    let output = run(&package.join("bin/multi-cursor"), &[]);
    assert_eq!(output.status.code(), Some(127), "{output:?}");
    assert!(
        !String::from_utf8_lossy(&output.stdout).contains("PLANTED"),
        "{output:?}"
    );
    let message = String::from_utf8_lossy(&output.stderr);
    let name = format!("multi-cursor-{}", node_platform());
    assert!(
        message.contains(&format!("npm did not install the package {name}@{version}")),
        "{message}"
    );
    assert!(
        message.contains(
            &package
                .join("node_modules")
                .join(&name)
                .display()
                .to_string()
        ),
        "{message}"
    );
}

/// A platform package where npm puts it is run only at this package's version, and only when
/// it and its binary are the user's (or root's) and not writable by everyone.
#[test]
fn a_platform_package_of_another_version_or_user_is_not_run() {
    let dir = tempfile::tempdir().unwrap();
    let modules = dir.path().join("node_modules");
    let package = launcher_package(&modules);
    let launcher = package.join("bin/multi-cursor");
    let platform = platform_package(&modules, "0.0.0-other", "OTHER");
    let output = run(&launcher, &[]);
    assert_eq!(output.status.code(), Some(127), "{output:?}");
    let message = String::from_utf8_lossy(&output.stderr);
    assert!(message.contains("0.0.0-other, not"), "{message}");

    std::fs::remove_dir_all(&platform).unwrap();
    let platform = platform_package(&modules, env!("CARGO_PKG_VERSION"), "OURS");
    let output = run(&launcher, &[]);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    assert_eq!(String::from_utf8_lossy(&output.stdout), "OURS\n");

    let binary = platform.join("bin/multi-cursor");
    std::fs::set_permissions(&binary, std::fs::Permissions::from_mode(0o777)).unwrap();
    let output = run(&launcher, &[]);
    assert_eq!(output.status.code(), Some(127), "{output:?}");
    let message = String::from_utf8_lossy(&output.stderr);
    assert!(
        message.contains("is writable by everyone (mode 777)"),
        "{message}"
    );
    std::fs::set_permissions(&binary, std::fs::Permissions::from_mode(0o755)).unwrap();

    if !nix::unistd::geteuid().is_root() {
        eprintln!("skipped: only root can give the package to another user");
        return;
    }
    nix::unistd::chown(&platform, Some(nix::unistd::Uid::from_raw(65_534)), None).unwrap();
    let output = run(&launcher, &[]);
    assert_eq!(output.status.code(), Some(127), "{output:?}");
    let message = String::from_utf8_lossy(&output.stderr);
    assert!(message.contains("belongs to uid 65534"), "{message}");
}

/// The postinstall's temporary file is made exclusively: a link planted at its name is never
/// written through (a copy without COPYFILE_EXCL followed it and overwrote its target).
#[test]
fn the_postinstall_never_writes_through_a_planted_name() {
    let dir = tempfile::tempdir().unwrap();
    let modules = dir.path().join("node_modules");
    let package = launcher_package(&modules);
    let platform = platform_package(&modules, env!("CARGO_PKG_VERSION"), "OURS");
    let victim = dir.path().join("victim");
    std::fs::write(&victim, "untouched").unwrap();
    let target = package.join("bin/multi-cursor");
    let temp = dir.path().join("planted.tmp");
    std::os::unix::fs::symlink(&victim, &temp).unwrap();
    let script = "const { linkOver } = require(process.argv[1]);\n\
                  try { linkOver(process.argv[2], process.argv[3], process.argv[4]); }\n\
                  catch (error) { process.stdout.write(error.code); process.exit(0); }\n\
                  process.exit(1);";
    let output = Command::new("node")
        .arg("-e")
        .arg(script)
        .arg(package.join("lib/install.cjs"))
        .arg(platform.join("bin/multi-cursor"))
        .arg(&target)
        .arg(&temp)
        .output()
        .unwrap();
    assert!(output.status.success(), "linkOver went on: {output:?}");
    assert_eq!(String::from_utf8_lossy(&output.stdout), "EEXIST");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "untouched");
    assert!(
        std::fs::read_to_string(&target)
            .unwrap()
            .starts_with("#!/usr/bin/env node"),
        "the launcher stays"
    );
}
