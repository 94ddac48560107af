/** One task of the graph: a plan's task (status null) or a run's, with its status. */
export interface GraphTask {
    key: string;
    title: string;
    status: string | null;
    dependsOn: string[];
}
export interface PlacedTask extends GraphTask {
    x: number;
    y: number;
    /** 1-based stage: tasks in one stage can run at once as far as the graph goes. */
    stage: number;
}
export interface GraphLayout {
    width: number;
    height: number;
    tasks: PlacedTask[];
    edges: Array<{
        from: string;
        to: string;
        points: Array<{
            x: number;
            y: number;
        }>;
    }>;
}
/** Past this many tasks the report leaves the drawing out (layout time grows fast); DOT and text still list them. */
export declare const GRAPH_MAX_TASKS = 400;
/** Colours per task status, shared by the SVG, the DOT output and the report's legend. */
export declare const STATUS_COLOURS: Record<string, {
    fill: string;
    stroke: string;
}>;
/** Lays the task graph out left to right with dagre: dependencies on the left, dependents on the right. */
export declare function layoutTaskGraph(tasks: ReadonlyArray<GraphTask>): GraphLayout;
/**
 * The graph as inline SVG: a box per task (its title, its key, its status colour), an arrow per
 * dependency. `href(key)` makes each box a link (the report links to the task's timeline row).
 */
export declare function graphSvg(graph: GraphLayout, href?: (key: string) => string): string;
/** Graphviz DOT of the graph (`dot -Tsvg` draws it), with the same colours and titles. */
export declare function graphDot(tasks: ReadonlyArray<GraphTask>, name: string): string;
/** The graph for a terminal: stage by stage (what can run at once), each task with what it waits on. */
export declare function graphText(tasks: ReadonlyArray<GraphTask>): string;
