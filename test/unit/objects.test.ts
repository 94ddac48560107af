import { describe, expect, it } from 'vitest';
import { extended } from '../../src/objects';

describe('extended', () => {
  it('is the spread `{ ...base, ...extra }`: same keys, same order, the later value wins, the base untouched', () => {
    const base = { holder: 'teammate-1', executor: { kind: 'noop' }, title: 'from the base' };
    const extra = { workflowId: 'run-1', title: 'from extra', fencingToken: 3 };
    const made = extended(base, extra);
    expect(made).toEqual({ ...base, ...extra });
    expect(Object.keys(made)).toEqual(Object.keys({ ...base, ...extra }));
    expect(JSON.stringify(made)).toBe(JSON.stringify({ ...base, ...extra }));
    expect(base.title).toBe('from the base');
    expect(made).not.toBe(base);
  });

  it('copies own enumerable properties only, as a spread does', () => {
    const base = Object.create({ inherited: true }) as Record<string, unknown>;
    base.own = 1;
    Object.defineProperty(base, 'hidden', { value: 2, enumerable: false });
    expect(extended(base, { more: 3 })).toEqual({ own: 1, more: 3 });
  });
});
