#!/usr/bin/env node
// Part of `npm run lint`: no import circle in src/, and no folder importing one above it.
// oxlint's import/no-cycle skips `import type`, and type imports are how the low layers once came to
// depend on the rules above them, so this counts every `import`/`export ... from` line, types included.
// Usage: node scripts/check-imports.js. Prints each circle as a path and each layer breach; exits 1 on any.
const { readdirSync, readFileSync, existsSync, statSync } = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', 'src');

// Which folders (or files) of src/ each folder may import from, itself always. A folder not listed, or a
// file directly in src/, is bound only by the circle check. Lowest first: the plan and the contract
// (shapes), errors.ts and format.ts (leaves), the rules (team), then the sides that run them.
const BASE = ['errors.ts', 'objects.ts', 'contract', 'plan'];
const MAY_IMPORT = {
  // Our thin layer over the Temporal SDK (its internals behind adapters, the update retry): the lowest of
  // all, it imports nothing of the house.
  sdk: [],
  contract: ['errors.ts', 'plan'],
  plan: ['errors.ts', 'contract'],
  // activities/interface.ts: the activity's input and output shapes, free of Node (the workflow imports it too).
  // agent/chain.ts and agent/sha256.ts: the hash chain that proves an attempt's agent steps, pure and Node-free.
  team: [...BASE, 'activities/interface.ts', 'agent/chain.ts', 'agent/sha256.ts'],
  // The journal workflow confirms an attempt's proof as the run does: the same nonce bookkeeping and the same
  // confirmation activity on the worker's stop queue.
  agent: [...BASE, 'team/governance.ts', 'workflows/stop-channel.ts'],
  // The ledger workflow signals the runs it aborts with the team run's own message; its Node side sends
  // updates through sdk/'s retry. It confirms a worker's proof as a run does (the confirmation activity on the
  // worker's stop queue), bound to the request by agent/sha256.ts, or takes its signature as a run takes a signed
  // result (workflows/signed-proofs.ts).
  ledger: [
    ...BASE,
    'sdk',
    'team',
    'config',
    'activities/interface.ts',
    'workflows/messages.ts',
    'workflows/stop-channel.ts',
    'workflows/signed-proofs.ts',
    'agent/sha256.ts',
  ],
  // OpenTelemetry's config and teamrun's spans (src/telemetry): beside sdk/, it imports only config's error.
  telemetry: ['errors.ts', 'config/errors.ts'],
  // workflows/search-attributes.ts: the gateway starts a run an attempt asks for with its TeamName attribute.
  activities: [
    ...BASE,
    'sdk',
    'team',
    'ledger',
    'agent',
    'config',
    'codec',
    'format.ts',
    'telemetry',
    'workflows/search-attributes.ts',
  ],
  // A report reads a closed run through the client and the workflow's message names, and an agent task's journal
  // (its transcript); only the CLI is above it.
  report: [
    ...BASE,
    'sdk',
    'team',
    'agent',
    'format.ts',
    'config',
    'codec',
    'client',
    'workflows',
    'activities/interface.ts',
  ],
};
// The operator's doors sit side by side on one layer: the CLI (cli/) and the MCP door (mcp/) never import each
// other; what both use (the run reader, plan checks, start errors, the user's error type) lives below both, in
// operator/, which imports neither. src/main.ts, the program, mounts both.
const NEVER = {
  cli: ['mcp'],
  mcp: ['cli'],
  operator: ['cli', 'mcp'],
};
// Inside a feature's folder, a side never imports one above it: the ledger's activities reach the ledger
// workflow through handle.ts and messages.ts, never through its operator's client or the workflow's code.
const SIDE_RULES = [
  { files: ['ledger/activities.ts', 'ledger/renewal.ts'], never: ['ledger/client.ts', 'ledger/workflow.ts'] },
  {
    files: ['ledger/rules.ts', 'ledger/state.ts', 'ledger/block-book.ts'],
    never: ['activities', 'client', 'handle', 'messages', 'renewal', 'run-ledger', 'workflow'].map(
      (f) => `ledger/${f}.ts`,
    ),
  },
];

function* sources(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(full);
    else if (entry.name.endsWith('.ts')) yield full;
  }
}

// `import ... from './x.js'`, `import type ...`, `export ... from`, `import './x.js'`, across lines; and the
// lazy loads (`require('./x')`, `typeof import('./x')`), which tie modules together just the same.
const IMPORT = /(?:^|\n)\s*(?:import|export)\s(?:[^'";]*?\sfrom\s)?\s*['"]([^'"]+)['"]/g;
const LAZY = /\b(?:require|import)\(\s*['"]([^'"]+)['"]\s*\)/g;

function resolve(from, spec) {
  if (!spec.startsWith('.')) return null;
  const base = path.resolve(path.dirname(from), spec).replace(/\.js$/, '');
  for (const candidate of [`${base}.ts`, path.join(base, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

const rel = (file) => path.relative(ROOT, file).split(path.sep).join('/');
const graph = new Map();
for (const file of sources(ROOT)) {
  const text = readFileSync(file, 'utf8');
  const targets = new Set();
  for (const match of [...text.matchAll(IMPORT), ...text.matchAll(LAZY)]) {
    const target = resolve(file, match[1]);
    if (target) targets.add(rel(target));
  }
  graph.set(
    rel(file),
    [...targets].sort((a, b) => a.localeCompare(b)),
  );
}

// The folder (or top-level file) a path belongs to, and whether `rule` (a folder or a file) covers it.
const layerOf = (file) => file.split('/')[0];
const covers = (rule, file) => file === rule || file.startsWith(`${rule}/`);

const breaches = [];
for (const [file, targets] of graph) {
  const allowed = MAY_IMPORT[layerOf(file)];
  for (const target of targets) {
    if (allowed && layerOf(target) !== layerOf(file) && !allowed.some((rule) => covers(rule, target))) {
      breaches.push(`${file} imports ${target} (${layerOf(file)}/ may import only ${allowed.join(', ')})`);
    }
    for (const rule of NEVER[layerOf(file)] ?? []) {
      if (covers(rule, target)) breaches.push(`${file} imports ${target} (${layerOf(file)}/ never imports ${rule}/)`);
    }
    for (const { files, never } of SIDE_RULES) {
      if (files.includes(file) && never.includes(target)) {
        breaches.push(`${file} imports ${target} (a side of ${layerOf(file)}/ above it)`);
      }
    }
  }
}

// Tarjan's strongly connected components: every component of two or more files (or a file importing
// itself) holds a circle; one circle through it is printed as a path.
let index = 0;
const indexOf = new Map();
const low = new Map();
const stack = [];
const onStack = new Set();
const components = [];
function strongConnect(node) {
  indexOf.set(node, index);
  low.set(node, index);
  index++;
  stack.push(node);
  onStack.add(node);
  for (const next of graph.get(node)) {
    if (!indexOf.has(next)) {
      strongConnect(next);
      low.set(node, Math.min(low.get(node), low.get(next)));
    } else if (onStack.has(next)) {
      low.set(node, Math.min(low.get(node), indexOf.get(next)));
    }
  }
  if (low.get(node) !== indexOf.get(node)) return;
  const component = [];
  let member;
  do {
    member = stack.pop();
    onStack.delete(member);
    component.push(member);
  } while (member !== node);
  if (component.length > 1 || graph.get(node).includes(node))
    components.push(component.sort((a, b) => a.localeCompare(b)));
}
for (const node of graph.keys()) if (!indexOf.has(node)) strongConnect(node);

// A shortest circle from the component's first file back to itself, inside the component.
function circleThrough(component) {
  const inside = new Set(component);
  const start = component[0];
  const previous = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift();
    for (const next of graph.get(node)) {
      if (!inside.has(next)) continue;
      if (next === start) {
        const circle = [start];
        for (let at = node; at !== null && at !== start; at = previous.get(at)) circle.splice(1, 0, at);
        return [...circle, start];
      }
      if (!previous.has(next)) {
        previous.set(next, node);
        queue.push(next);
      }
    }
  }
  return [start, start];
}

for (const component of components) {
  console.log(`import circle (${component.length} files): ${circleThrough(component).join(' -> ')}`);
}
for (const breach of breaches) console.log(`layer: ${breach}`);
if (components.length > 0 || breaches.length > 0) {
  console.log(`${components.length} import circle(s), ${breaches.length} layer breach(es) in src/`);
  process.exit(1);
}
