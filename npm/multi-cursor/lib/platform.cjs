"use strict";
// Where this machine's multi-cursor binary is: in the platform package npm installed beside
// this one (optionalDependencies + os/cpu make npm fetch only the matching one).
const fs = require("node:fs");
const path = require("node:path");

/** The platforms a package is published for, as npm spells `os`-`cpu`. */
const PLATFORMS = ["linux-x64", "linux-arm64", "darwin-arm64", "darwin-x64", "win32-x64"];

function platformKey() {
  return `${process.platform}-${process.arch}`;
}

/**
 * The path of binary `name` ("multi-cursor" or "multi-cursor-claude") for this machine, or
 * null when the platform package is not installed.
 */
function findBinary(name) {
  const pkg = `multi-cursor-${platformKey()}`;
  const exe = process.platform === "win32" ? `${name}.exe` : name;
  const own = path.join(__dirname, "..");
  // Where npm puts it: nested in a global install, hoisted beside us in a project. Two stat
  // calls; Node's module resolution (the fallback, for other layouts) costs milliseconds.
  for (const dir of [path.join(own, "node_modules", pkg), path.join(own, "..", pkg)]) {
    if (fs.existsSync(path.join(dir, "package.json"))) return path.join(dir, "bin", exe);
  }
  let manifest;
  try {
    manifest = require.resolve(`${pkg}/package.json`, { paths: [own] });
  } catch {
    return null;
  }
  return path.join(path.dirname(manifest), "bin", exe);
}

/** What to tell a user whose install has no binary, in the words they see. */
function missingMessage(name) {
  const key = platformKey();
  const supported = PLATFORMS.includes(key);
  const why = supported
    ? `npm did not install the package multi-cursor-${key} (an install with --omit=optional or --no-optional, or a lockfile made on another platform). Reinstall with: npm install -g multi-cursor`
    : `there is no prebuilt multi-cursor for ${key} (prebuilt: ${PLATFORMS.join(", ")}).`;
  // scripts/install is a bash script that builds on Linux or macOS.
  const checkout = process.platform === "win32" ? "" : ",\nor scripts/install in a checkout of multi-cursor";
  return [
    `${name}: no multi-cursor binary for this platform (${key}): ${why}`,
    `Other ways to install: cargo install --locked multi-cursor (needs Rust, https://rustup.rs)${checkout}.`,
  ].join("\n");
}

module.exports = { PLATFORMS, platformKey, findBinary, missingMessage };
