import type { Command } from 'commander';
import { planJsonSchema } from '../../plan/json-schema';

export function registerSchema(program: Command): void {
  program
    .command('schema')
    .description(
      "print the plan's JSON Schema (for editors: `# yaml-language-server: " +
        '$schema=...` in a *.team.yaml; see docs/plans.md)',
    )
    .action(() => {
      process.stdout.write(`${JSON.stringify(planJsonSchema(), null, 2)}\n`);
    });
}
