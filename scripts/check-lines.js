#!/usr/bin/env node
// Part of `npm run lint`: no source line over 120 characters, and no file in src/ over 400 lines. Prettier
// keeps code within its printWidth, but it never breaks a comment, a string or a template literal; this
// catches those. A file past 400 lines no longer reads in one sitting: split it along its seams.
// Usage: node scripts/check-lines.js [dir or file ...] (default: src). Prints file:line per offender.
const { readdirSync, readFileSync, statSync } = require('node:fs');
const path = require('node:path');

const MAX = 120;
const MAX_FILE_LINES = 400;
const SRC = path.resolve(__dirname, '..', 'src');
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
    const lines = readFileSync(file, 'utf8').split('\n');
    // A file ending in a newline splits into one empty string past its last line.
    const count = lines.at(-1) === '' ? lines.length - 1 : lines.length;
    const inSrc = !path.relative(SRC, path.resolve(file)).startsWith('..');
    if (inSrc && count > MAX_FILE_LINES) {
      offenders++;
      console.log(`${file}: ${count} lines (max ${MAX_FILE_LINES} in src/)`);
    }
    lines.forEach((line, i) => {
      if (line.length > MAX) {
        offenders++;
        console.log(`${file}:${i + 1}: ${line.length} characters (max ${MAX})`);
      }
    });
  }
}
if (offenders > 0) {
  console.log(`${offenders} line(s) over ${MAX} characters or file(s) over ${MAX_FILE_LINES} lines`);
  process.exit(1);
}
