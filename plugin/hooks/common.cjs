"use strict";
// What the plugin's two hooks share: when to stay silent, reading the hook's input, and keeping
// printed text free of control characters.

const fs = require("node:fs");

/** Largest hook input read (Claude Code's hook payloads are a few kilobytes). */
const INPUT_LIMIT = 1 << 20;

/**
 * Whether the hook must print nothing: in a session multi-cursor launched
 * (MULTI_CURSOR_GATEWAY_URL is set), or inside Cursor's agent, which since 2026.10 runs Claude
 * Code's plugins' hooks itself (it sets CURSOR_PLUGIN_ROOT for them, and CURSOR_AGENT in its
 * shell): a Cursor worker of ours would otherwise be told to start Claude Code with
 * multi-cursor, or refused a model.
 */
function quiet() {
  const env = process.env;
  return Boolean(env.MULTI_CURSOR_GATEWAY_URL || env.CURSOR_PLUGIN_ROOT || env.CURSOR_AGENT);
}

/** The hook's JSON input from stdin (read whole, so Claude Code never blocks), or null. */
function readInput() {
  const chunks = [];
  let size = 0;
  const buffer = Buffer.alloc(65536);
  for (;;) {
    let read;
    try {
      read = fs.readSync(0, buffer, 0, buffer.length, null);
    } catch (error) {
      if (error.code === "EAGAIN") continue;
      break;
    }
    if (read === 0) break;
    if (size < INPUT_LIMIT) chunks.push(Buffer.from(buffer.subarray(0, read)));
    size += read;
  }
  if (size > INPUT_LIMIT) return null;
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    return null;
  }
}

/** `text` without C0/C1 control characters (a path or model name could carry an escape). */
function printable(text) {
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, "");
}

module.exports = { quiet, readInput, printable };
