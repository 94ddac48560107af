// Shared by the stand-in CLIs: reads the prompt, picks a scenario from it, and prints the
// events the calling stand-in builds, one JSON object a line, with a pause between them.
// Scenarios (a word in the prompt): "spend" (many costly turns, slowly), "hang" (waits for a
// signal after its first turn), "fail" (an error result); anything else a short successful run;
// $STANDIN_SCENARIO, when set, is the scenario whatever the prompt says.
// "[write]" in the prompt: it first appends the prompt's first line to standin-change.txt in its cwd;
// "[flaky]": it fails (as "fail") when that file was not there before it wrote.
// On SIGINT a stand-in writes its session state to $STANDIN_STATE_DIR/<session>.json 500 ms later, and exits.
'use strict';
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

// Names its state files: under the worker's sandbox every stand-in has a PID namespace of its own, so its pid (2)
// is the same for all of them; `pid` in the files is that namespace's (find the host's by STANDIN_STATE_DIR).
const me = `${process.pid}-${crypto.randomUUID().slice(0, 8)}`;

function prompt(argv) {
  const at = argv.indexOf('--prompt');
  if (at !== -1) return argv[at + 1];
  const joined = argv.find((a) => a.startsWith('--prompt='));
  if (joined !== undefined) return joined.slice('--prompt='.length);
  try {
    return fs.readFileSync(0, 'utf8');
  } catch {
    return '';
  }
}

function stateFile(name) {
  const dir = process.env.STANDIN_STATE_DIR;
  return dir ? path.join(dir, name) : undefined;
}

function write(name, value) {
  const file = stateFile(name);
  if (file) fs.writeFileSync(file, JSON.stringify(value));
}

/** `cli.events(scenario, session)` gives the lines; `cli.session` the id it reports. */
async function run(cli) {
  const argv = process.argv.slice(2);
  const text = prompt(argv);
  const change = path.join(process.cwd(), 'standin-change.txt');
  const existed = fs.existsSync(change);
  if (text.includes('[write]')) fs.appendFileSync(change, `${text.split('\n')[0]}\n`);
  const flakyFails = text.includes('[flaky]') && !existed;
  // STANDIN_SCENARIO (from the worker's agentClis env) overrides the prompt: one worker's CLI hangs, another's not.
  const scenario = flakyFails
    ? 'fail'
    : process.env.STANDIN_SCENARIO || (['spend', 'hang', 'fail'].find((s) => text.includes(s)) ?? 'ok');
  const resume = argv.includes('--resume')
    ? argv[argv.indexOf('--resume') + 1]
    : argv.includes('resume')
      ? argv[argv.indexOf('resume') + 1]
      : null;
  const session = resume ?? cli.session;
  write(`started-${me}.json`, {
    pid: process.pid,
    token: process.env.TEAMRUN_FENCING_TOKEN ?? null,
    argv,
    prompt: text,
    cwd: process.cwd(),
    env: Object.keys(process.env).filter(
      (k) => k.startsWith('TEAMRUN_') || k.startsWith('TEMPORAL_') || k === 'STANDIN_KEY',
    ),
  });
  // Saving takes a while, as a real CLI's does (half a second here): long enough that anything which kills the CLI
  // without the grace period it was promised (bwrap, say, ended by the same SIGINT) loses the session.
  process.on('SIGINT', () => {
    const interruptedAt = Date.now();
    setTimeout(() => {
      write(`${session}.json`, { session, interruptedAt, pid: process.pid });
      process.exit(130);
    }, 500);
  });
  const pause = (ms) => new Promise((r) => setTimeout(r, ms));
  for (const line of cli.events(scenario, session, text)) {
    if (line === 'WAIT') {
      await pause(600_000);
      continue;
    }
    process.stdout.write(`${JSON.stringify(line)}\n`);
    await pause(scenario === 'spend' ? 300 : 20);
  }
  write(`finished-${me}.json`, { pid: process.pid });
  process.exitCode = scenario === 'fail' ? 1 : 0;
}

module.exports = { run };
