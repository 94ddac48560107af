import type { Command } from 'commander';
import { type GraphTask } from '../../report/graph';
/** `graph`, `logs` and `runs`: what an operator looks at besides one run's status. */
export declare function registerObserve(program: Command): void;
/** The options `runs` and `report --team` share, as a filter. */
export declare function runsFilter(options: {
    team?: string;
    status?: string;
    since?: string;
    limit?: number;
}): {
    team: string | undefined;
    statuses: string[] | undefined;
    since: number | undefined;
    limit: number | undefined;
};
/** The graph as the options ask: DOT, SVG, or stages for the terminal (the default). */
export declare function renderGraph(name: string, tasks: GraphTask[], options: {
    dot?: boolean;
    svg?: boolean;
}): string;
