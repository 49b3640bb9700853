//! Cursor's commit trailer (2026.10.01, a public host note): the commits Cursor's agent makes
//! carry "Made with Cursor" unless `attribution` is off in Cursor's global `cli-config.json`
//! (`"attribution": false`, or `"attributeCommitsToAgent": false` inside it). multi-cursor
//! never edits that file for it; `doctor` says when it is on.

use super::Check;
use super::DoctorOptions;
use crate::cursor::locate::AgentInfo;
use crate::policy::PolicyInputs;
use crate::policy::cursor_config::global_path;

const NAME: &str = "Commit trailer";

/// The first Cursor CLI seen adding the trailer.
const TRAILER_SINCE: &str = "2026.10.01";

/// Largest `cli-config.json` read (as the config reader's limit).
const MAX_CONFIG_BYTES: u64 = 4 * 1024 * 1024;

/// Whether `config` turns commit attribution off.
fn attribution_off(config: &serde_json::Value) -> bool {
    let attribution = &config["attribution"];
    attribution == &serde_json::Value::Bool(false)
        || attribution["attributeCommitsToAgent"] == serde_json::Value::Bool(false)
}

/// A warning when Cursor 2026.10.01+ would put "Made with Cursor" on its commits.
pub(super) fn check_attribution(options: &DoctorOptions, agent: &AgentInfo) -> Check {
    let inputs = PolicyInputs {
        home: options.home.clone(),
        ..PolicyInputs::from_env()
    };
    check_with(&inputs, agent)
}

/// [`check_attribution`] with Cursor's config found from `inputs`.
fn check_with(inputs: &PolicyInputs, agent: &AgentInfo) -> Check {
    if agent.version.as_str() < TRAILER_SINCE {
        return Check::pass(
            NAME,
            format!(
                "Cursor {} adds no commit trailer (seen from {TRAILER_SINCE})",
                agent.version
            ),
        );
    }
    let Some(file) = global_path(inputs) else {
        return Check::pass(NAME, "no Cursor config folder to read");
    };
    let config = crate::state::read_regular_file(&file, MAX_CONFIG_BYTES)
        .ok()
        .and_then(|bytes| serde_json::from_slice::<serde_json::Value>(&bytes).ok())
        .unwrap_or(serde_json::Value::Null);
    if attribution_off(&config) {
        return Check::pass(
            NAME,
            format!(
                "off in {}: Cursor's commits carry no trailer",
                file.display()
            ),
        );
    }
    Check::warn(
        NAME,
        format!(
            "Cursor {} adds a “Made with Cursor” trailer to the commits its agent makes (attribution is on: not turned off in {})",
            agent.version,
            file.display()
        ),
        format!(
            "to leave it out, set \"attribution\": {{\"attributeCommitsToAgent\": false}} in {}",
            file.display()
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn agent(version: &str) -> AgentInfo {
        AgentInfo {
            path: "/bin/agent".into(),
            version: version.into(),
            supports_auto_review: true,
            skipped: Vec::new(),
        }
    }

    #[test]
    fn the_trailer_is_a_warning_until_attribution_is_off() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join(".cursor")).unwrap();
        let inputs = PolicyInputs {
            home: Some(dir.path().to_path_buf()),
            ..PolicyInputs::default()
        };
        let old = check_with(&inputs, &agent("2026.09.18-9a7762b"));
        assert!(old.passed && old.fix.is_none(), "{old:?}");
        let on = check_with(&inputs, &agent("2026.10.01-1b2c3d4"));
        assert!(on.passed && on.fix.is_some(), "{on:?}");
        assert!(on.detail.contains("Made with Cursor"), "{on:?}");
        let file = dir.path().join(".cursor/cli-config.json");
        for off in [
            r#"{"version":1,"attribution":{"attributeCommitsToAgent":false}}"#,
            r#"{"version":1,"attribution":false}"#,
        ] {
            std::fs::write(&file, off).unwrap();
            let check = check_with(&inputs, &agent("2026.10.01-1b2c3d4"));
            assert!(check.fix.is_none(), "{off}: {check:?}");
        }
        std::fs::write(
            &file,
            r#"{"version":1,"attribution":{"attributeCommitsToAgent":true}}"#,
        )
        .unwrap();
        let check = check_with(&inputs, &agent("2026.10.01-1b2c3d4"));
        assert!(check.fix.is_some(), "{check:?}");
    }
}
