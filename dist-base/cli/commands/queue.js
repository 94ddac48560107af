"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.registerQueue = registerQueue;
const queue_1 = require("../../client/queue");
const context_1 = require("../context");
const format_1 = require("../../format");
function registerQueue(program) {
    program
        .command('queue')
        .description('every open run awaiting adjudication, across runs: each pending task with its code, reason, actor and age')
        .option('--team <name>', 'only runs of this team (TeamName)')
        .option('--json', 'print JSON')
        .action(async (options, command) => {
        await (0, context_1.withClient)(command, async (client) => {
            const runs = await (0, queue_1.adjudicationQueue)(client, { team: options.team });
            if (options.json)
                return (0, context_1.printJson)(runs);
            if (!runs.length)
                return void process.stdout.write('no runs awaiting adjudication\n');
            const rows = runs.flatMap((run) => run.error
                ? [[run.workflowId, run.team ?? '-', '?', '?', '-', '-', '-', (0, format_1.oneLine)(run.error, 80)]]
                : run.pending.map((p) => [
                    run.workflowId,
                    run.team ?? '-',
                    p.key,
                    p.code,
                    String(p.fencingToken),
                    (0, format_1.duration)(p.ageMs),
                    p.actor ?? '-',
                    (0, format_1.oneLine)(p.reason ?? '', 60),
                ]));
            const tasks = runs.reduce((n, run) => n + run.pending.length, 0);
            process.stdout.write(`${(0, format_1.table)(['RUN', 'TEAM', 'TASK', 'CODE', 'TOKEN', 'AGE', 'ACTOR', 'REASON'], rows)}\n`);
            process.stdout.write(`${runs.length} run(s) awaiting adjudication, ${tasks} pending task(s)\n`);
        });
    });
}
