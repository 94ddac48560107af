import type { Command } from 'commander';
import { configFrom } from '../../operator/context';
import { KIND_OPTION_HELP, planChecks, readPlan } from '../../operator/plan-file';
import { renderGraph } from './observe';
import { fairShareNote } from '../../operator/fair-share';

interface ValidateCliOptions {
  graph?: boolean;
  dot?: boolean;
  kind?: string[];
  tool?: string[];
}

export function registerValidate(program: Command): void {
  program
    .command('validate <plan>')
    .description(
      'check a plan file (YAML or JSON): schema, graph, size and executor kinds; prints every problem with its path',
    )
    .option('--graph', 'also print the task graph (stages; with --dot as Graphviz DOT)')
    .option('--dot', 'with --graph: print the graph as DOT')
    .option('--kind <kind...>', KIND_OPTION_HELP)
    .option(
      '--tool <name...>',
      "custom tools your workers register (createWorker's tools); with a config file, an agent's tool on an " +
        'MCP server it does not list is a problem',
    )
    .action((file: string, options: ValidateCliOptions, command: Command) => {
      const config = configFrom(command);
      // Only a config file says which MCP servers the workers have; without one, any well-formed tool passes.
      const knownTools =
        config.file !== null || options.tool
          ? { servers: Object.keys(config.worker.mcpServers), custom: options.tool ?? [] }
          : undefined;
      const { plan } = readPlan(file, { ...planChecks(config, options.kind), knownTools });
      process.stdout.write(`${file}: ok (${plan.tasks.length} tasks, ${plan.teammates} teammates)\n`);
      const fairShares = fairShareNote(plan);
      if (fairShares) process.stderr.write(`note: ${fairShares}\n`);
      if (options.graph) {
        const tasks = plan.tasks.map((t) => ({
          key: t.key,
          title: t.title ?? t.key,
          status: null,
          dependsOn: t.dependsOn,
        }));
        process.stdout.write(`${renderGraph(plan.name, tasks, { dot: options.dot })}\n`);
      }
    });
}
