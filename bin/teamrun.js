#!/usr/bin/env node
// Runs the TypeScript sources through tsx, so the package works from a clone without a build step.
const path = require('node:path');
require('tsx/cjs');
require(path.join(__dirname, '..', 'src', 'cli', 'main.ts')).main();
