import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRun, temporalAddress, testConfig, waitFor } from '../helpers/env';
import { startOpenAiServer, type OpenAiServer } from '../helpers/openai-server';
import { workerForTest } from '../helpers/scenario';
import { teamrun } from './teamrun-cli';

const cli = (...args: string[]) => teamrun([...args, '--address', temporalAddress()], {}, 60_000);
const KEY_ENV = 'TEAMRUN_TEST_AGENT_KEY';
/** The model key the worker is given; the model server echoes it back, as a leaky model might. */
const API_KEY = 'sk-cli-test-3b9f2c71d04e';

/**
 * `teamrun steer` and `teamrun logs` (the built CLI) against a running agent: the steer's text
 * reaches the model's next request, and the logs print the transcript's model, tool and steer
 * steps with the worker's model key redacted.
 */
describe('teamrun steer / teamrun logs of an agent task', () => {
  let server: OpenAiServer;
  beforeAll(async () => {
    server = await startOpenAiServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('steers a running agent into its next model call, and prints its redacted transcript', async ({
    onTestFinished,
  }) => {
    const usage = { promptTokens: 50, completionTokens: 10 };
    // Turn 1 asks for a tool; turn 2 is held until the CLI has steered the agent and read its transcript (a fixed
    // 25 s was not enough at load 36: the run had ended before `teamrun logs`); turn 3 answers.
    let release!: () => void;
    const read = new Promise<void>((resolve) => (release = resolve));
    onTestFinished(() => release());
    server.script('cli-steer', (r) =>
      r.turn === 1
        ? {
            usage,
            content: `My key is ${r.authorization?.replace(/^Bearer /, '')}`,
            toolCalls: [{ name: 'teamrun__set_output', arguments: { output: `draft, key ${API_KEY}` } }],
          }
        : r.turn === 2
          ? { usage, until: read, toolCalls: [{ name: 'teamrun__set_output', arguments: { output: 'final' } }] }
          : { usage, content: 'done' },
    );
    const worker = await workerForTest(
      {
        config: testConfig({ llm: { baseUrl: server.baseUrl, apiKeyEnv: KEY_ENV } }),
        env: { [KEY_ENV]: API_KEY },
      },
      onTestFinished,
    );
    const handle = await startRun(
      {
        name: 'cli-steer',
        lease: { ttlMs: 15_000, heartbeatEveryMs: 2_500 },
        tasks: [
          {
            key: 'writer',
            executor: {
              kind: 'agent',
              model: 'cli-steer',
              instructions: 'You write.',
              prompt: 'Write the release notes',
              tools: ['teamrun__set_output'],
            },
          },
        ],
      },
      worker.taskQueue,
    );
    const mine = () => server.requests.filter((r) => r.idempotencyKey?.startsWith(`${handle.workflowId}/`));
    await waitFor('the second model call', () => mine().some((r) => r.turn === 2), 90_000);
    // The model really saw the key: the test's leak is real, so its absence below is the redaction.
    expect(mine()[0].authorization).toBe(`Bearer ${API_KEY}`);

    const steer = await cli('steer', handle.workflowId, 'writer', 'Cite the ticket numbers.', '--actor', 'alice');
    expect(steer).toMatchObject({ code: 0, stdout: 'steered "writer": the text joins model call 3\n' });
    const running = await cli('logs', handle.workflowId, 'writer');
    expect(running.code).toBe(0);
    expect(running.stdout).toContain('[tool, turn 1] teamrun__set_output ok');
    expect(running.stdout).toContain('[steer] 1 waiting for the next model call');
    release();

    expect((await handle.result()).status).toBe('succeeded');
    const third = mine().find((r) => r.turn === 3);
    expect(third?.messages.at(-1)).toEqual({ role: 'user', content: 'Guidance from alice: Cite the ticket numbers.' });

    const logs = await cli('logs', handle.workflowId, 'writer');
    expect(logs.code).toBe(0);
    const transcript = logs.stdout.slice(logs.stdout.indexOf('transcript (journal'));
    const steps = transcript
      .split('\n')
      .map((line) => /^\[([a-z]+)(?:, turn (\d+))?\]/.exec(line))
      .filter((m) => m !== null)
      .map((m) => (m[2] ? `${m[1]} ${m[2]}` : m[1]));
    expect(steps).toEqual([
      'system',
      'user',
      'model 1',
      'tool 1',
      'tool 1',
      'model 2',
      'tool 2',
      'tool 2',
      'steer 3',
      'model 3',
    ]);
    expect(transcript).toContain(`My key is [redacted:${KEY_ENV}]`);
    expect(transcript).toContain('[steer, turn 3] alice: Cite the ticket numbers.');
    expect(transcript).toMatch(/\[model, turn 3\] \(50 in, 10 out\) done/);
    expect(`${running.stdout}${running.stderr}${logs.stdout}${logs.stderr}`).not.toContain(API_KEY);
    // A worker, three model calls and three CLI runs: 33 s in CI, past the default 120 s twice at load 30+.
  }, 300_000);
});
