import type { Command } from 'commander';
import { readPlan } from '../plan-file';

export function registerValidate(program: Command): void {
  program
    .command('validate <plan>')
    .description('check a plan file (YAML or JSON): schema and graph; prints every problem with its path')
    .action((file: string) => {
      const { plan } = readPlan(file);
      process.stdout.write(`${file}: ok (${plan.tasks.length} tasks, ${plan.teammates} teammates)\n`);
    });
}
