import type { Command } from 'commander';
import { readPlan } from '../plan-file';
import { renderGraph } from './observe';

export function registerValidate(program: Command): void {
  program
    .command('validate <plan>')
    .description('check a plan file (YAML or JSON): schema and graph; prints every problem with its path')
    .option('--graph', 'also print the task graph (stages; with --dot as Graphviz DOT)')
    .option('--dot', 'with --graph: print the graph as DOT')
    .action((file: string, options: { graph?: boolean; dot?: boolean }) => {
      const { plan } = readPlan(file);
      process.stdout.write(`${file}: ok (${plan.tasks.length} tasks, ${plan.teammates} teammates)\n`);
      if (options.graph) {
        const tasks = plan.tasks.map((t) => ({ key: t.key, title: t.title ?? t.key, status: null, dependsOn: t.dependsOn }));
        process.stdout.write(`${renderGraph(plan.name, tasks, { dot: options.dot })}\n`);
      }
    });
}
