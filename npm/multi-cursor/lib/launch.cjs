"use strict";
// The npm `bin` launcher: runs the platform package's binary with our arguments, stdin, stdout
// and stderr, forwards the signals sent to this process alone, and ends as the binary ended
// (same exit code; a death by signal re-raised as the same signal). It works with no install
// script ever run; when the postinstall (lib/install.cjs) could run, the `bin` files are links
// to the binary and this code is not on the path at all.
const { spawn } = require("node:child_process");
const { findBinary, missingMessage } = require("./platform.cjs");

// Sent to this process only (kill, a closing terminal): passed on to the binary.
const FORWARDED = ["SIGTERM", "SIGHUP"];
// Sent by the terminal to the whole foreground group, so the binary already has them: this
// process only must not die of them (multi-cursor leaves Ctrl-C to Claude Code).
const IGNORED = ["SIGINT", "SIGQUIT"];

function run(name) {
  const binary = findBinary(name);
  if (binary === null) {
    process.stderr.write(`${missingMessage(name)}\n`);
    process.exit(127);
  }
  const child = spawn(binary, process.argv.slice(2), { stdio: "inherit" });
  const handlers = new Map();
  for (const signal of FORWARDED) {
    const handler = () => {
      try {
        child.kill(signal);
      } catch {
        // the binary has already ended
      }
    };
    handlers.set(signal, handler);
    process.on(signal, handler);
  }
  for (const signal of IGNORED) {
    const handler = () => {};
    handlers.set(signal, handler);
    process.on(signal, handler);
  }
  child.on("error", (error) => {
    process.stderr.write(`${name}: could not start ${binary}: ${error.message}\n`);
    process.exit(126);
  });
  child.on("exit", (code, signal) => {
    if (signal !== null) {
      for (const [sig, handler] of handlers) process.removeListener(sig, handler);
      try {
        process.kill(process.pid, signal);
      } catch {
        // fall through to the shell's convention
      }
      process.exit(128 + (require("node:os").constants.signals[signal] ?? 0));
    }
    process.exit(code ?? 1);
  });
}

module.exports = { run };
