import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/devserver/server';
import { spawnTeamrun, teamrun, waitForOutput } from '../cli/teamrun-cli';
import { KEY1, codecFixture, keyIdsIn } from '../helpers/codec';
import { temporalBinary } from '../helpers/env';

const fx = codecFixture();
afterAll(() => fx.cleanup());

describe('teamrun dev with codec.server set', () => {
  it('runs the codec server beside the embedded Web UI, points the UI at it, and encrypts the runs', async () => {
    const [port, uiPort] = [await freePort(), await freePort()];
    const config = fx.config(
      'dev',
      { currentKeyId: 'k1', keys: [KEY1], server: { port: 0, tokenEnv: 'TEAMRUN_TEST_CODEC_TOKEN' } },
      { devServer: { dbFile: path.join(fx.dir, 'dev.db') } },
    );
    const env = { ...fx.env, TEMPORAL_ADDRESS: `127.0.0.1:${port}`, TEAMRUN_CONFIG: config };
    const dev = spawnTeamrun(['dev', '--ui-port', String(uiPort)], env);
    let codecUrl = '';
    try {
      await waitForOutput(dev, 'Press Ctrl-C to stop.');
      codecUrl = /Codec server:\s+(http:\/\/\S+) \(the Web UI decodes payloads through it\)/.exec(dev.stdout())![1];

      // The UI server hands its browser code the codec endpoint, token in the path.
      const settings = (await (await fetch(`http://127.0.0.1:${uiPort}/api/v1/settings`)).json()) as {
        Codec?: { Endpoint?: string };
      };
      expect(settings.Codec?.Endpoint).toBe(`${codecUrl}/t/${fx.token}`);
      // ...and the codec server answers that browser, from the UI's origin, with CORS.
      const decode = await fetch(`${settings.Codec!.Endpoint}/decode`, {
        method: 'POST',
        headers: { Origin: `http://localhost:${uiPort}`, 'Content-Type': 'application/json', 'X-Namespace': 'default' },
        body: JSON.stringify({ payloads: [] }),
      });
      expect(decode.status).toBe(200);
      expect(decode.headers.get('access-control-allow-origin')).toBe(`http://localhost:${uiPort}`);

      const demo = await teamrun(['demo', '--ui-port', String(uiPort)], env);
      expect(demo.code, demo.stdout + demo.stderr).toBe(0);
      const id = /started team run (\S+):/.exec(demo.stdout)![1];
      const { stdout } = await promisify(execFile)(
        temporalBinary(),
        ['workflow', 'show', '-w', id, '-o', 'json', '--address', `127.0.0.1:${port}`],
        {
          maxBuffer: 64 * 1024 * 1024,
        },
      );
      expect(keyIdsIn(JSON.parse(stdout))).toEqual(new Set(['k1']));
      expect(stdout).not.toContain('Fetch the sources');
    } finally {
      dev.child.kill('SIGINT');
    }
    const exit = await dev.exited;
    expect(exit.code, exit.stderr).toBe(0);
    await expect(fetch(`${codecUrl}/decode`, { method: 'POST' })).rejects.toThrow();
  });
});
