"use strict";
// The npm `bin` launcher: runs the platform package's binary with our arguments, stdin, stdout
// and stderr, forwards the signals sent to this process alone, and ends as the binary ended
// (same exit code; a death by signal re-raised as the same signal). It works with no install
// script ever run; when the postinstall (lib/install.cjs) could run, the `bin` files are links
// to the binary and this code is not on the path at all.
const { spawn } = require("node:child_process");
const { locateBinary, missingMessage } = require("./platform.cjs");

const WINDOWS = process.platform === "win32";
// Sent to this process only (kill, a closing terminal): passed on to the binary. Not on
// Windows: there a console's Ctrl-C, Ctrl-Break and closing reach every process attached to it,
// the binary included, and child.kill would end the binary at once (TerminateProcess).
const FORWARDED = WINDOWS ? [] : ["SIGTERM", "SIGHUP"];
// Sent by the terminal to the whole foreground group (on Windows, the console's events to every
// process on it), so the binary already has them: this process only must not die of them
// (multi-cursor leaves Ctrl-C to Claude Code). Node's default on Windows for Ctrl-C and
// Ctrl-Break (SIGBREAK) is to exit at once, which would hand the console back to the shell
// while multi-cursor still runs in it.
const IGNORED = WINDOWS ? ["SIGINT", "SIGBREAK", "SIGHUP"] : ["SIGINT", "SIGQUIT"];

function run(name) {
  const { binary, problem } = locateBinary(name);
  if (binary === undefined) {
    process.stderr.write(`${missingMessage(name, problem)}\n`);
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
    // On Windows a code above 255 is an NTSTATUS (0xC000013A after Ctrl-C), passed on as is.
    process.exit(code ?? 1);
  });
}

module.exports = { run };
