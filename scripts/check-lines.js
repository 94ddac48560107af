#!/usr/bin/env node
// Part of `npm run lint`: no source line over 120 characters. Prettier keeps code within its
// printWidth, but it never breaks a comment, a string or a template literal; this catches those.
// Usage: node scripts/check-lines.js [dir or file ...] (default: src). Prints file:line per offender.
const { readdirSync, readFileSync, statSync } = require('node:fs');
const path = require('node:path');

const MAX = 120;
const SOURCE = /\.(ts|mts|cts|js|mjs|cjs)$/;

function* sources(target) {
  if (!statSync(target).isDirectory()) {
    yield target;
    return;
  }
  for (const entry of readdirSync(target, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(target, entry.name);
    if (entry.isDirectory()) yield* sources(full);
    else if (SOURCE.test(entry.name)) yield full;
  }
}

const targets = process.argv.length > 2 ? process.argv.slice(2) : ['src'];
let offenders = 0;
for (const target of targets) {
  for (const file of sources(target)) {
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (line.length > MAX) {
          offenders++;
          console.log(`${file}:${i + 1}: ${line.length} characters (max ${MAX})`);
        }
      });
  }
}
if (offenders > 0) {
  console.log(`${offenders} line(s) over ${MAX} characters`);
  process.exit(1);
}
