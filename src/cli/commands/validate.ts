import type { Command } from 'commander';
import { loadPlanFile } from '../../plan/load';
import { CliError } from '../context';

export function registerValidate(program: Command): void {
  program
    .command('validate <plan>')
    .description('check a plan file (YAML or JSON): schema and graph; prints every problem with its path')
    .action((file: string) => {
      const result = loadPlanFile(file);
      if (!result.ok) {
        const lines = result.problems.map((p) => `  ${p.path}: ${p.message}`).join('\n');
        throw new CliError(`${file}: ${result.problems.length} problem(s)\n${lines}`);
      }
      process.stdout.write(`${file}: ok (${result.plan.tasks.length} tasks, ${result.plan.teammates} teammates)\n`);
    });
}
