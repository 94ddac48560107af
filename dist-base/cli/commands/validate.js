"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.registerValidate = registerValidate;
const context_1 = require("../context");
const plan_file_1 = require("../plan-file");
const observe_1 = require("./observe");
function registerValidate(program) {
    program
        .command('validate <plan>')
        .description('check a plan file (YAML or JSON): schema, graph, size and executor kinds; prints every problem with its path')
        .option('--graph', 'also print the task graph (stages; with --dot as Graphviz DOT)')
        .option('--dot', 'with --graph: print the graph as DOT')
        .option('--kind <kind...>', plan_file_1.KIND_OPTION_HELP)
        .action((file, options, command) => {
        const { plan } = (0, plan_file_1.readPlan)(file, (0, plan_file_1.planChecks)((0, context_1.configFrom)(command), options.kind));
        process.stdout.write(`${file}: ok (${plan.tasks.length} tasks, ${plan.teammates} teammates)\n`);
        if (options.graph) {
            const tasks = plan.tasks.map((t) => ({
                key: t.key,
                title: t.title ?? t.key,
                status: null,
                dependsOn: t.dependsOn,
            }));
            process.stdout.write(`${(0, observe_1.renderGraph)(plan.name, tasks, { dot: options.dot })}\n`);
        }
    });
}
