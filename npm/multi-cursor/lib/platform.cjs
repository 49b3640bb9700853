"use strict";
// Where this machine's multi-cursor binary is: in the platform package npm installed beside
// this one (optionalDependencies + os/cpu make npm fetch only the matching one). Only where npm
// puts it is looked at, never Node's full lookup (every ancestor's node_modules up to `/`,
// NODE_PATH, ~/.node_modules), where another user could plant a package one folder up; and the
// package found is used only when its package.json names it at this package's version and it
// and its binary belong to the user (or root) and are not writable by everyone.
const fs = require("node:fs");
const path = require("node:path");

/** The platforms a package is published for, as npm spells `os`-`cpu`. */
const PLATFORMS = ["linux-x64", "linux-arm64", "darwin-arm64", "darwin-x64", "win32-x64"];

/** Largest package.json read (a platform package's is a few hundred bytes). */
const MANIFEST_LIMIT = 64 * 1024;

function platformKey() {
  return `${process.platform}-${process.arch}`;
}

/** The platform package's name for this machine. */
function platformPackage() {
  return `multi-cursor-${platformKey()}`;
}

/** This package's folder. */
function ownFolder() {
  return path.join(__dirname, "..");
}

/** The JSON of the regular file `file`, read for at most `limit` + 1 bytes; null otherwise. */
function readJson(file, limit = MANIFEST_LIMIT) {
  let fd;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
  } catch {
    return null;
  }
  try {
    if (!fs.fstatSync(fd).isFile()) return null;
    const buffer = Buffer.alloc(limit + 1);
    let filled = 0;
    while (filled < buffer.length) {
      const read = fs.readSync(fd, buffer, filled, buffer.length - filled, null);
      if (read === 0) break;
      filled += read;
    }
    if (filled > limit) return null;
    return JSON.parse(buffer.subarray(0, filled).toString("utf8"));
  } catch {
    return null;
  } finally {
    fs.closeSync(fd);
  }
}

/** This package's version (its own package.json). */
function ownVersion() {
  return readJson(path.join(ownFolder(), "package.json"))?.version ?? null;
}

/** The two places npm puts the platform package: nested in a global install, hoisted beside us. */
function npmPlaces() {
  const pkg = platformPackage();
  const own = ownFolder();
  return [path.join(own, "node_modules", pkg), path.join(own, "..", pkg)];
}

/**
 * Why another user could have put `file` there or could change it, or null: it belongs to
 * someone but this user or root, or everyone may write it. Windows has no uids: null.
 */
function notOurs(file) {
  if (typeof process.getuid !== "function") return null;
  const stat = fs.statSync(file);
  const me = process.getuid();
  if (stat.uid !== me && stat.uid !== 0) return `belongs to uid ${stat.uid}, not to you (uid ${me}) or root`;
  if ((stat.mode & 0o002) !== 0) return `is writable by everyone (mode ${(stat.mode & 0o7777).toString(8)})`;
  return null;
}

/**
 * Where binary `name` ("multi-cursor" or "multi-cursor-claude") is for this machine:
 * `{ binary }`, or `{ problem }` saying what is wrong with the platform package (missing from
 * both of npm's places, another version, or another user's).
 */
function locateBinary(name) {
  const pkg = platformPackage();
  const exe = process.platform === "win32" ? `${name}.exe` : name;
  const version = ownVersion();
  const places = npmPlaces();
  for (const dir of places) {
    const manifestPath = path.join(dir, "package.json");
    if (!fs.existsSync(manifestPath)) continue;
    const manifest = readJson(manifestPath);
    if (manifest?.name !== pkg || manifest?.version !== version) {
      const found = typeof manifest?.version === "string" ? `${manifest?.name}@${manifest.version}` : "not a readable package.json";
      return { problem: `${dir} holds ${found}, not ${pkg}@${version}` };
    }
    const binary = path.join(dir, "bin", exe);
    for (const file of [dir, manifestPath, fs.existsSync(binary) ? binary : null]) {
      if (file === null) continue;
      const why = notOurs(file);
      if (why !== null) return { problem: `${file} ${why}` };
    }
    return { binary };
  }
  return { problem: `npm did not install the package ${pkg}@${version} (looked in ${places.join(" and ")})` };
}

/** The path of binary `name` for this machine, or null (see `locateBinary`). */
function findBinary(name) {
  return locateBinary(name).binary ?? null;
}

/**
 * What to tell a user whose install has no usable binary, in the words they see; `problem` is
 * what `locateBinary` found wrong.
 */
function missingMessage(name, problem) {
  const key = platformKey();
  const supported = PLATFORMS.includes(key);
  const why = supported
    ? `${problem ?? `npm did not install the package ${platformPackage()}`} (an install with --omit=optional or --no-optional, or a lockfile made on another platform, leaves it out). Reinstall with: npm install -g multi-cursor`
    : `there is no prebuilt multi-cursor for ${key} (prebuilt: ${PLATFORMS.join(", ")}).`;
  // scripts/install is a bash script that builds on Linux or macOS.
  const checkout = process.platform === "win32" ? "" : ",\nor scripts/install in a checkout of multi-cursor";
  return [
    `${name}: no multi-cursor binary for this platform (${key}): ${why}`.replace(/[\u0000-\u001f\u007f-\u009f]/g, ""),
    `Other ways to install: cargo install --locked multi-cursor (needs Rust, https://rustup.rs)${checkout}.`,
  ].join("\n");
}

module.exports = { PLATFORMS, platformKey, platformPackage, locateBinary, findBinary, missingMessage };
