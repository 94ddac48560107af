import { describe, expect, it } from 'vitest';
import { bearerMatches, httpToken } from '../../src/mcp/http';
import { TOOLS } from '../../src/mcp/server';
import { inputJsonSchema, parseArguments } from '../../src/mcp/tool';

describe('the MCP door', () => {
  it('takes only the exact bearer token, and refuses to serve HTTP without a long enough one', () => {
    const token = 'a'.repeat(32);
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
});
