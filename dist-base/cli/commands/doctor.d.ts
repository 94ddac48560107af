import type { Command } from 'commander';
/**
 * `teamrun doctor [run] [--fix]`: one line per check of what a run needs (the config file, the
 * connection, the search attributes, a worker on the task queue, the temporal CLI for `dev`);
 * given a run, also whether its workflow task fails and which queues it names nobody polls;
 * exit 0 only when every check passes.
 */
export declare function registerDoctor(program: Command): void;
