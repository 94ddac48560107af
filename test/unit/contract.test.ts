import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { RunResult, StatusView, WithIsoTimes } from '../../src/contract';
import * as contract from '../../src/contract';
import { validatePlan } from '../../src/plan/validate';
import { TeamRun } from '../../src/team/run';
import { withIsoTimes } from '../../src/workflows/iso-times';

const dir = path.join(__dirname, '../../src/contract');

describe('the contract module (src/contract)', () => {
  it('holds types only: the workflow bundle may import it and gets no code', () => {
    expect(Object.keys(contract)).toEqual([]);
    for (const file of readdirSync(dir)) {
      const source = readFileSync(path.join(dir, file), 'utf8');
      const edges = source.match(/^(import|export)\b[^;]*?\bfrom '[^']+';/gm) ?? [];
      for (const edge of edges) expect(edge, `${file}: ${edge}`).toMatch(/^(import|export) type\b/);
    }
  });

  it('is what the run answers: a status with ISO twins, and a result', () => {
    const validation = validatePlan({ name: 'contract', tasks: [{ key: 'a', executor: { kind: 'noop' } }] });
    if (!validation.ok) throw new Error('plan');
    const run = TeamRun.start(validation.plan, 'wf-contract', 0);
    const status = withIsoTimes(run.status(5));
    expectTypeOf(status).toEqualTypeOf<WithIsoTimes<StatusView>>();
    expect(status.startedAtIso).toBe(new Date(0).toISOString());
    expectTypeOf(run.finish(10)).toEqualTypeOf<RunResult>();
  });
});
