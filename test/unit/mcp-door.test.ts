import { randomBytes } from 'node:crypto';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { bearerMatches, httpToken, isLoopback } from '../../src/mcp/http';
import { TOOLS } from '../../src/mcp/server';
import { inputJsonSchema, parseArguments, refusal } from '../../src/mcp/tool';
import type { McpContext } from '../../src/mcp/context';
import { Redactor } from '../../src/activities/redact';
import { validatePlan } from '../../src/plan/validate';
import { TeamRun } from '../../src/team/run';
import { TeamControlError } from '../../src/plan/requests/control';

describe('the MCP door', () => {
  it('takes only the exact bearer token, and refuses to serve HTTP without a long enough one', () => {
    const token = randomBytes(32).toString('hex');
    expect(bearerMatches(`Bearer ${token}`, token)).toBe(true);
    expect(bearerMatches(`bearer ${token}`, token)).toBe(true);
    expect(bearerMatches(`Bearer ${token}x`, token)).toBe(false);
    expect(bearerMatches(`Bearer ${token.slice(1)}`, token)).toBe(false);
    expect(bearerMatches(token, token)).toBe(false);
    expect(bearerMatches(undefined, token)).toBe(false);
    expect(() => httpToken({})).toThrow(/set TEAMRUN_MCP_TOKEN/);
    expect(() => httpToken({ TEAMRUN_MCP_TOKEN: 'short' })).toThrow(/5 characters: give at least 16/);
    expect(httpToken({ TEAMRUN_MCP_TOKEN: token })).toBe(token);
  });

  it('refuses a long token of few characters: its entropy, not only its length', () => {
    expect(() => httpToken({ TEAMRUN_MCP_TOKEN: 'aaaaaaaaaaaaaaaa' })).toThrow(/looks guessable: about 0 bits/);
    expect(() => httpToken({ TEAMRUN_MCP_TOKEN: 'ab'.repeat(20) })).toThrow(/looks guessable: about 40 bits/);
    for (const token of [
      randomBytes(16).toString('hex'),
      randomBytes(24).toString('base64'),
      'test-token-0123456789abcdef',
    ])
      expect(httpToken({ TEAMRUN_MCP_TOKEN: token })).toBe(token);
  });

  it('takes every loopback address as loopback (so its Host header is checked)', () => {
    for (const host of ['127.0.0.1', '127.0.0.2', '127.1.2.3', '::1', '[::1]', 'localhost', '::ffff:127.0.0.2'])
      expect(isLoopback(host)).toBe(true);
    for (const host of ['0.0.0.0', '10.0.0.1', '::', '128.0.0.1', 'example.com']) expect(isLoopback(host)).toBe(false);
  });

  it('lists every tool with an object schema, and no tool takes an actor from its caller', () => {
    for (const tool of TOOLS) {
      const schema = inputJsonSchema(tool) as { type: string; properties?: Record<string, unknown> };
      expect(schema.type).toBe('object');
      expect(Object.keys(schema.properties ?? {})).not.toContain('actor');
    }
  });

  it('refuses bad arguments with a code and the field', () => {
    const adjudicate = TOOLS.find((t) => t.name === 'adjudicate')!;
    expect(() => parseArguments(adjudicate, { runId: 'r', key: 'k', decision: 'maybe' })).toThrow(
      expect.objectContaining({ code: 'invalid_decision', message: expect.stringMatching(/^adjudicate: decision: /) }),
    );
    const steer = TOOLS.find((t) => t.name === 'steer_task')!;
    expect(() => parseArguments(steer, { runId: 'r', key: 'k', text: 'x'.repeat(9_000) })).toThrow(
      expect.objectContaining({ message: expect.stringContaining('text: at most 8 KiB') }),
    );
  });

  it('tells a model that steers a misspelt key which task it meant, not to interrupt a task that does not exist', () => {
    const validation = validatePlan({
      name: 'door',
      tasks: [{ key: 'solo', executor: { kind: 'agent', model: 'm', prompt: 'go' } }],
    });
    if (!validation.ok) throw new Error('plan');
    const run = TeamRun.start(validation.plan, 'wf-door', 0);
    run.claim(0);
    let refused: unknown;
    try {
      run.validateSteer({ key: 'sollo', text: 'be brief' });
    } catch (err) {
      refused = err;
    }
    // As the run's update handler sends a refusal (src/workflows/handlers.ts) and the client receives it.
    const { code, message } = refused as TeamControlError;
    const failure = ApplicationFailure.nonRetryable(`${code}: ${message}`, code);
    const ctx = { actor: 'model', redactor: new Redactor([]) } as unknown as McpContext;
    const result = refusal(ctx, new WorkflowUpdateFailedError('Update failed', failure));
    const text = (result.content[0] as { text: string }).text;
    expect(text).toBe('not_found: steerTask: unknown task "sollo" (did you mean "solo"?)');
    expect(text).not.toContain('interrupt_task');
  });
});
