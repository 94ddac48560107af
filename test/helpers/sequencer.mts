/**
 * Orders the test files longest first, so the slowest ones start at once and do not form the run's tail (the run ends
 * when its last file does; three workers share the files). vitest's own order does this only on a machine that ran the
 * suite before (its cache of durations); a fresh clone has no cache and falls back to file size, which started the
 * slowest file (spawn-scale, 166 s) ten minutes into the CI's run. So the durations of a CI run are kept beside the
 * tests (test/durations.json, from `node scripts/test-durations.js REPORT`), and used where the cache has none.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const DURATIONS = path.join(import.meta.dirname, '..', 'durations.json');

/** The kept durations (ms) by file path from the repository's root; none when the file is missing or unreadable. */
function keptDurations(): Record<string, number> {
  try {
    const parsed: unknown = JSON.parse(readFileSync(DURATIONS, 'utf8'));
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, number>) : {};
  } catch {
    return {};
  }
}

export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const kept = keptDurations();
    const root = this.ctx.config.root;
    const estimate = (spec: TestSpecification): { failed: boolean; ms: number | undefined } => {
      const file = path.relative(root, spec.moduleId).split(path.sep).join('/');
      const cached = this.ctx.cache.getFileTestResults(`${spec.project.name}:${file}`);
      const ms = cached?.duration ?? kept[file];
      return { failed: cached?.failed ?? false, ms: typeof ms === 'number' ? ms : undefined };
    };
    const known = new Map(files.map((spec) => [spec, estimate(spec)]));
    return [...files].sort((a, b) => {
      // Projects run one after the other, as vitest's own order has them.
      const group = a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder;
      if (group !== 0) return group;
      if (a.project.name !== b.project.name) return a.project.name < b.project.name ? -1 : 1;
      const ea = known.get(a)!;
      const eb = known.get(b)!;
      // A file that failed last time first, then files never timed (new ones: learn their time early), then longest.
      if (ea.failed !== eb.failed) return ea.failed ? -1 : 1;
      if ((ea.ms === undefined) !== (eb.ms === undefined)) return ea.ms === undefined ? -1 : 1;
      return (eb.ms ?? 0) - (ea.ms ?? 0);
    });
  }
}
