#!/usr/bin/env node
// `npm run build` (and `prepare`, so a clone's `npm install` builds too): the compiled code and
// declarations in dist/, the workflow bundle workers load instead of bundling TypeScript at start
// (dist/workflow-bundle.js), and the plan's JSON Schema (dist/plan.schema.json).
const { execFileSync } = require('node:child_process');
const { rmSync, writeFileSync } = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..');
const dist = path.join(root, 'dist');

async function main() {
  const began = Date.now();
  rmSync(dist, { recursive: true, force: true });
  execFileSync(path.join(root, 'node_modules', '.bin', 'tsc'), ['-p', path.join(root, 'tsconfig.build.json')], {
    stdio: 'inherit',
  });

  const { bundleWorkflowCode } = require('@temporalio/worker');
  const quiet = { log() {}, trace() {}, debug() {}, info() {}, warn: console.warn, error: console.error };
  // Four bundles: the plain one, one with the codec's failure converter (with `codec:` set,
  // failures the workflow raises are encrypted too), and each of them with the OpenTelemetry workflow
  // interceptors (`-otel`, for a worker with tracing on: dist/sdk/workflow-tracing.js, Temporal's with a
  // lighter scheduleActivity); createWorker picks by the config.
  const codec = { failureConverterPath: path.join(dist, 'codec', 'failure-converter.js') };
  const otel = {
    workflowInterceptorModules: [path.join(dist, 'sdk', 'workflow-tracing.js')],
  };
  for (const [file, extra] of [
    ['workflow-bundle.js', {}],
    ['workflow-bundle-codec.js', codec],
    ['workflow-bundle-otel.js', otel],
    ['workflow-bundle-codec-otel.js', { ...codec, ...otel }],
  ]) {
    const { code } = await bundleWorkflowCode({
      workflowsPath: path.join(dist, 'workflows', 'index.js'),
      logger: quiet,
      ...extra,
      // The worker reads the bundle's inline source map; one without the sources' text is a
      // quarter of the size, and the sources (compiled JS) ship beside it anyway.
      webpackConfigHook: (config) => ({ ...config, devtool: 'inline-nosources-cheap-source-map' }),
    });
    writeFileSync(path.join(dist, file), code);
  }

  const { planJsonSchema } = require(path.join(dist, 'plan', 'json-schema.js'));
  writeFileSync(path.join(dist, 'plan.schema.json'), `${JSON.stringify(planJsonSchema(), null, 2)}\n`);
  process.stderr.write(`teamrun build: dist/ in ${((Date.now() - began) / 1000).toFixed(1)} s\n`);
}

main().catch((err) => {
  process.stderr.write(`teamrun build failed: ${err.stack ?? err}\n`);
  process.exit(1);
});
