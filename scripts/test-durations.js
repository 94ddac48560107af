#!/usr/bin/env node
// Keeps each test file's duration from a vitest JSON report (`--reporter=json --outputFile.json=FILE`; CI writes
// .teamrun/vitest-report.json) in test/durations.json, which test/helpers/sequencer.mts reads to start the longest files
// first on a machine with no vitest cache (a fresh clone). Usage: node scripts/test-durations.js REPORT
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const reportPath = process.argv[2];
if (!reportPath) {
  console.error('usage: node scripts/test-durations.js VITEST_JSON_REPORT');
  process.exit(2);
}
const report = JSON.parse(fs.readFileSync(reportPath, 'utf8'));
const durations = {};
for (const file of report.testResults ?? []) {
  // The report names files by absolute path (of the clone that ran them): keep the part from test/ on.
  const at = file.name.split(path.sep).join('/').lastIndexOf('/test/');
  if (at < 0 || !(file.endTime >= file.startTime)) continue;
  durations[file.name.slice(at + 1)] = Math.round(file.endTime - file.startTime);
}
const sorted = Object.fromEntries(Object.entries(durations).sort(([a], [b]) => (a < b ? -1 : 1)));
const out = path.join(root, 'test', 'durations.json');
fs.writeFileSync(out, `${JSON.stringify(sorted, null, 2)}\n`);
console.log(
  `${Object.keys(sorted).length} files, ${(Object.values(sorted).reduce((s, ms) => s + ms, 0) / 1000).toFixed(0)} s in all -> ${path.relative(root, out)}`,
);
