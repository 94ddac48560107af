interface Node {
    key: string;
    dependsOn: string[];
}
/**
 * Returns one dependency cycle as a path that starts and ends on the same key
 * (`a -> b -> a`), or null. Iterative, so a 20,000-task chain cannot overflow the stack.
 */
export declare function findCycle(tasks: ReadonlyArray<Node>): string[] | null;
/** A cycle path for a message: a long one keeps its ends and says how many keys it leaves out. */
export declare function formatCycle(cycle: ReadonlyArray<string>, maxKeys?: number): string;
/**
 * Work one plan's suggestions may take in all: distance-band cells, and entries read from the
 * pair index. Past either, problems simply carry no suggestion.
 */
export declare const SUGGESTION_LIMITS: {
    readonly cells: 4000000;
    readonly postings: 5000000;
    readonly postingsPerWord: 60000;
    readonly verifiedPerWord: 64;
};
/**
 * Known keys indexed for "did you mean": by lower case (a case typo is found at once), and by
 * the pairs of adjacent characters each holds, so only keys that share most of a word's pairs
 * are compared with it (a key a few edits away keeps most of them). The search is bounded per
 * word and per plan, so a plan with thousands of misspelt keys still checks in milliseconds.
 */
export declare class KeyIndex {
    private readonly source;
    private readonly keys;
    private readonly byLower;
    private readonly byPair;
    private readonly work;
    private shared;
    private built;
    /** Built on the first search: a plan without a misspelt key never pays for the index. */
    constructor(source: Iterable<string>);
    private build;
    /** The closest known key to a misspelt one, if it is close enough to be a likely typo. */
    nearest(word: string): string | undefined;
    /** Keys sharing the most character pairs with `word`, best first; every key for a word too short to have pairs. */
    private candidates;
}
/** The closest of `candidates` to a misspelt word (a one-off search; a plan's checks share a `KeyIndex`). */
export declare function nearest(word: string, candidates: ReadonlyArray<string>): string | undefined;
export {};
