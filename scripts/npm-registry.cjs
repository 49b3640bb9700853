#!/usr/bin/env node
"use strict";
// A tiny read-only npm registry on 127.0.0.1 for scripts/test-install: serves every
// `<name>-<version>.tgz` in a folder (packuments built from each tarball's package.json) and
// answers 404 for anything else. Usage: npm-registry.cjs <folder> <port-file>
const fs = require("node:fs");
const http = require("node:http");
const path = require("node:path");
const crypto = require("node:crypto");
const { execFileSync } = require("node:child_process");

const [folder, portFile] = process.argv.slice(2);
const packages = new Map();
for (const file of fs.readdirSync(folder).filter((f) => f.endsWith(".tgz"))) {
  const bytes = fs.readFileSync(path.join(folder, file));
  const manifest = JSON.parse(
    execFileSync("tar", ["-xzOf", path.join(folder, file), "package/package.json"], { encoding: "utf8" }),
  );
  const entry = packages.get(manifest.name) ?? { versions: {}, files: new Map() };
  entry.versions[manifest.version] = {
    ...manifest,
    dist: {
      integrity: `sha512-${crypto.createHash("sha512").update(bytes).digest("base64")}`,
      shasum: crypto.createHash("sha1").update(bytes).digest("hex"),
      tarball: `/${manifest.name}/-/${file}`,
    },
  };
  entry.latest = manifest.version;
  entry.files.set(file, bytes);
  packages.set(manifest.name, entry);
}

const server = http.createServer((req, res) => {
  const url = decodeURIComponent(new URL(req.url, "http://localhost").pathname);
  const [, name, dash, file] = url.split("/");
  const entry = packages.get(name);
  const send = (status, type, body) => {
    res.writeHead(status, { "content-type": type });
    res.end(body);
  };
  if (!entry) return send(404, "application/json", '{"error":"not found"}');
  if (dash === "-" && entry.files.has(file)) return send(200, "application/octet-stream", entry.files.get(file));
  if (dash !== undefined) return send(404, "application/json", '{"error":"not found"}');
  const base = `http://127.0.0.1:${server.address().port}`;
  const versions = Object.fromEntries(
    Object.entries(entry.versions).map(([v, m]) => [v, { ...m, dist: { ...m.dist, tarball: base + m.dist.tarball } }]),
  );
  send(200, "application/json", JSON.stringify({ name, "dist-tags": { latest: entry.latest }, versions }));
});
server.listen(0, "127.0.0.1", () => fs.writeFileSync(portFile, String(server.address().port)));
