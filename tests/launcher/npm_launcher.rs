//! The npm package's Node launcher (npm/multi-cursor) in front of a fake platform binary: it
//! passes arguments, stdin, stdout and the exit status through, dies of the signal the binary
//! died of, names the platform and the other ways in when the platform package is missing, and
//! its postinstall replaces the launcher by a hard link to the binary. Needs `node` (which
//! scripts/test needs anyway, to install Claude Code).

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

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

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

#[test]
fn node_launcher_runs_the_platform_binary_and_postinstall_links_it() {
    let dir = tempfile::tempdir().unwrap();
    let modules = dir.path().join("node_modules");
    let package = modules.join("multi-cursor");
    copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("npm/multi-cursor"),
        &package,
    );
    let platform = node_platform();
    let platform_package = modules.join(format!("multi-cursor-{platform}"));
    std::fs::create_dir_all(platform_package.join("bin")).unwrap();
    std::fs::write(
        platform_package.join("package.json"),
        format!("{{\"name\":\"multi-cursor-{platform}\",\"version\":\"0.0.0\"}}"),
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
    copy_dir(
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
