//! `multi-cursor doctor` with an MCP server configured for Cursor in the project: the MCP check
//! fails naming the file and MULTI_CURSOR_APPROVE_MCPS=1, and passes once that is set.

use multi_cursor_test_support::doctor;

fn with_mcp_file(check: &doctor::Doctor) -> std::path::PathBuf {
    let file = check.project().join(".cursor/mcp.json");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, r#"{"mcpServers":{}}"#).unwrap();
    file
}

#[test]
fn configured_mcp_servers_need_the_opt_in() {
    let check = doctor::Doctor::new();
    let file = with_mcp_file(&check);
    let (output, _dir) = check.run();
    assert_eq!(output.code, Some(1), "{output:?}");
    let mcp = output.line("MCP servers");
    assert!(mcp.starts_with("[FAIL]"), "{mcp}");
    assert!(mcp.contains(&file.display().to_string()), "{mcp}");
    assert!(
        output
            .fix("MCP servers")
            .contains("MULTI_CURSOR_APPROVE_MCPS=1"),
        "{output:?}"
    );

    let check = doctor::Doctor::new();
    with_mcp_file(&check);
    let (output, _dir) = check.env("MULTI_CURSOR_APPROVE_MCPS", "1").run();
    assert_eq!(output.code, Some(0), "{output:?}");
    assert!(
        output
            .line("MCP servers")
            .contains("MULTI_CURSOR_APPROVE_MCPS=1 lets Cursor use them")
    );
}
