import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { CliError, userFile } from '../../operator/context';

/** The plan `teamrun init agents` writes, and `teamrun dev --model mock` suggests when it is there. */
export const AGENTS_PLAN = 'agents.team.yaml';
/** The one directory the MCP filesystem server of `teamrun init agents` lets the agents touch. */
const WORK_DIR = 'work';

const CONFIG = `# teamrun's project config, written by \`teamrun init agents\`. Every field:
# node_modules/teamrun/docs/configuration.md (the defaults are in teamrun's own teamrun.yaml).
worker:
  llm:
    # The agents' model: an OpenAI-compatible endpoint (chat completions at <baseUrl>/chat/completions).
    # "mock" is the scripted mock model teamrun ships: \`teamrun dev\` (or \`teamrun worker\`) runs it in
    # its own process, with no key; its answers are tagged [mock model]. For a real model, e.g.:
    #   baseUrl: https://api.openai.com/v1     (and model: gpt-4o-mini in ${AGENTS_PLAN})
    #   baseUrl: http://127.0.0.1:11434/v1     (a local Ollama)
    baseUrl: mock
    # The environment variable holding the key (never written here, never in a run's history).
    apiKeyEnv: OPENAI_API_KEY
  # MCP servers whose tools the agents may call as <server>__<tool>: fs__write_file, fs__read_file, ...
  mcpServers:
    # The MCP filesystem server, confined to ./${WORK_DIR} (npx fetches it on first use, or
    # \`npm install -D @modelcontextprotocol/server-filesystem\` once).
    fs: { command: npx, args: [-y, '@modelcontextprotocol/server-filesystem', ${WORK_DIR}] }

# Dollars per million tokens, by model: a run with budget.maxUsd refuses a model without a price.
prices:
  mock: { inputPerMTok: 0, outputPerMTok: 0 }
  gpt-4o-mini: { inputPerMTok: 0.15, outputPerMTok: 0.6, cachePerMTok: 0.075 }
`;

const PLAN = `# A team of agents, written by \`teamrun init agents\`:
#
#   plan ──adds──> writer-1, writer-2     (agent tasks the planner writes with teamrun__add_tasks;
#     │                                    each writes its part to ./${WORK_DIR} through the MCP filesystem server)
#   review                                (messages writer-1 with teamrun__send_message)
#
#   npx teamrun dev --model mock                      # one terminal: Temporal, a worker, the mock model
#   npx teamrun start ${AGENTS_PLAN} --wait         # another: the run, to its end
#   npx teamrun graph RUN; npx teamrun logs RUN writer-1; npx teamrun report RUN
#
# With a real model: worker.llm.baseUrl in teamrun.yaml, and model: below (the mock answers any name).
# node_modules/teamrun/docs/agents.md tells the whole story.
name: agents
teammates: 3
lease: { ttlMs: 30000 }
budget:
  maxTokens: 200000
  maxUsd: 1
  maxSpawnedTasks: 6
tasks:
  - key: plan
    title: Split the work
    allowSpawn: true
    executor:
      kind: agent
      model: mock
      instructions: >-
        You plan. Add one agent task per part of the job with teamrun__add_tasks (keys writer-1,
        writer-2; executor kind "agent", model mock, tools [fs__list_allowed_directories,
        fs__write_file, teamrun__read_inbox, teamrun__set_output]), then answer with a one-line plan.
      prompt: Write a short guide to leases and fencing tokens, in two parts.
      tools: [teamrun__add_tasks]
      maxTurns: 5
  - key: review
    title: Review the plan and brief writer-1
    dependsOn: [plan]
    executor:
      kind: agent
      model: mock
      instructions: You review. Send writer-1 one concrete piece of advice with teamrun__send_message, then answer.
      prompt: 'The plan: {{outputs.plan.content}}'
      tools: [teamrun__send_message]
      maxTurns: 4
`;

const TEMPLATES: Record<string, Array<{ file: string; text: string; what: string }>> = {
  agents: [
    { file: 'teamrun.yaml', text: CONFIG, what: 'the model (mock), the MCP filesystem server, prices' },
    { file: AGENTS_PLAN, text: PLAN, what: 'a planner that adds two writers, a reviewer that advises one' },
  ],
};

export function registerInit(program: Command): void {
  program
    .command('init')
    .argument('<template>', `what to start: ${Object.keys(TEMPLATES).join(', ')}`)
    .description('write a starting project here: `teamrun init agents` (a config and a team of agents)')
    .option('--force', 'overwrite files that exist')
    .option('--dir <dir>', 'where to write (default: here)', '.')
    .action((template: string, options: { force?: boolean; dir: string }) => {
      const files = TEMPLATES[template];
      if (!files) {
        throw new CliError(`unknown template "${template}": teamrun init takes ${Object.keys(TEMPLATES).join(', ')}`);
      }
      const dir = path.resolve(options.dir);
      const existing = files.filter((f) => existsSync(path.join(dir, f.file))).map((f) => f.file);
      if (existing.length && !options.force) {
        throw new CliError(`${existing.join(' and ')} already exist in ${dir}: nothing written (--force overwrites)`);
      }
      userFile(() => {
        mkdirSync(path.join(dir, WORK_DIR), { recursive: true });
        for (const f of files) writeFileSync(path.join(dir, f.file), f.text);
      });
      const width = Math.max(...files.map((f) => f.file.length));
      process.stdout.write(
        [
          ...files.map((f) => `wrote ${f.file.padEnd(width)}  ${f.what}`),
          `made  ${`${WORK_DIR}/`.padEnd(width)}  the directory the agents' file tools may touch`,
          '',
          "Next (no key needed: the model is teamrun's scripted mock):",
          '  npx teamrun dev --model mock                 # leave it running',
          `  npx teamrun start ${AGENTS_PLAN} --wait    # in another terminal`,
          '  npx teamrun graph RUN                        # who added what, who messaged whom',
          'For a real model: worker.llm.baseUrl in teamrun.yaml (its key in $OPENAI_API_KEY) and model: in the plan.',
          '',
        ].join('\n'),
      );
    });
}
