#!/usr/bin/env node
// The CLI from the TypeScript sources, through tsx: what the tests run, so they always see the
// code as it is in src/. The package's own `teamrun` command is the compiled dist/main.js.
const path = require('node:path');
require('tsx/cjs');
require(path.join(__dirname, '..', 'src', 'main.ts')).main();
