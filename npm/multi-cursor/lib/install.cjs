"use strict";
// postinstall (optional: npm 12 blocks dependency install scripts, and `bin` works without it):
// replaces each `bin` launcher by a hard link to (or, across file systems, a copy of) the
// platform binary, so no Node process stays between the shell and multi-cursor. Any failure
// keeps the Node launcher, which works the same, only a little slower to start.
//
// The temporary file beside the target is created exclusively, under a random name: a hard link
// (which never replaces an existing name) or a copy with COPYFILE_EXCL (which fails on any
// existing name, a link included), so a name planted there is never written through.
const crypto = require("node:crypto");
const fs = require("node:fs");
const path = require("node:path");
const { findBinary } = require("./platform.cjs");

/** Puts `binary` at `target` through the new temporary name `temp` (see above). */
function linkOver(binary, target, temp) {
  try {
    fs.linkSync(binary, temp);
  } catch (error) {
    if (error.code === "EEXIST") throw error;
    fs.copyFileSync(binary, temp, fs.constants.COPYFILE_EXCL);
  }
  try {
    fs.chmodSync(temp, 0o755);
    fs.renameSync(temp, target);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  }
}

/** A new temporary name beside `target`. */
function tempName(target) {
  return `${target}.${process.pid}.${crypto.randomBytes(8).toString("hex")}.tmp`;
}

function main() {
  // On Windows npm's shims (`multi-cursor.cmd`, `.ps1` and the sh one) run `node
  // bin/multi-cursor`, as the launcher's `#!/usr/bin/env node` line says, and are written before
  // this script runs: a binary put there would be read by node as a script. The launcher stays.
  if (process.platform === "win32") return;
  for (const name of ["multi-cursor", "multi-cursor-claude"]) {
    const binary = findBinary(name);
    if (binary === null || !fs.existsSync(binary)) return;
    const target = path.join(__dirname, "..", "bin", name);
    try {
      linkOver(binary, target, tempName(target));
    } catch (error) {
      process.stderr.write(`multi-cursor: kept the Node launcher for ${name} (${error.message})\n`);
    }
  }
}

if (require.main === module) main();

module.exports = { linkOver };
