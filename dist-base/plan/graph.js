"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.KeyIndex = exports.SUGGESTION_LIMITS = void 0;
exports.findCycle = findCycle;
exports.formatCycle = formatCycle;
exports.nearest = nearest;
/**
 * Returns one dependency cycle as a path that starts and ends on the same key
 * (`a -> b -> a`), or null. Iterative, so a 20,000-task chain cannot overflow the stack.
 */
function findCycle(tasks) {
    const deps = new Map(tasks.map((t) => [t.key, t.dependsOn]));
    const state = new Map();
    for (const root of deps.keys()) {
        if (state.has(root))
            continue;
        const stack = [{ key: root, next: 0 }];
        state.set(root, 'open');
        while (stack.length) {
            const top = stack[stack.length - 1];
            const children = deps.get(top.key) ?? [];
            if (top.next >= children.length) {
                state.set(top.key, 'done');
                stack.pop();
                continue;
            }
            const child = children[top.next++];
            const s = state.get(child);
            if (s === 'open') {
                const from = stack.findIndex((f) => f.key === child);
                return [...stack.slice(from).map((f) => f.key), child];
            }
            if (s === undefined && deps.has(child)) {
                state.set(child, 'open');
                stack.push({ key: child, next: 0 });
            }
        }
    }
    return null;
}
/** A cycle path for a message: a long one keeps its ends and says how many keys it leaves out. */
function formatCycle(cycle, maxKeys = 12) {
    if (cycle.length <= maxKeys)
        return cycle.join(' -> ');
    const head = cycle.slice(0, Math.ceil(maxKeys / 2));
    const tail = cycle.slice(cycle.length - Math.floor(maxKeys / 2));
    return [...head, `(${cycle.length - head.length - tail.length} more)`, ...tail].join(' -> ');
}
/**
 * Levenshtein distance between `a` and `b` if it is at most `limit`, else `limit + 1`. Only the
 * diagonal band of width `2 * limit + 1` is computed, and it stops as soon as the band is all
 * past the limit, so a comparison costs at most `a.length * (2 * limit + 1)` cells.
 */
function boundedDistance(a, b, limit, work) {
    if (Math.abs(a.length - b.length) > limit)
        return limit + 1;
    const over = limit + 1;
    let prev = new Array(b.length + 1);
    let row = new Array(b.length + 1);
    for (let j = 0; j <= b.length; j++)
        prev[j] = j <= limit ? j : over;
    for (let i = 1; i <= a.length; i++) {
        const from = Math.max(1, i - limit);
        const to = Math.min(b.length, i + limit);
        // Cells just outside the band read as "past the limit"; the rest of the row is never read.
        row[0] = i <= limit ? i : over;
        if (from > 1)
            row[from - 1] = over;
        if (to < b.length)
            row[to + 1] = over;
        let best = row[0];
        for (let j = from; j <= to; j++) {
            const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
            row[j] = Math.min(over, prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost);
            if (row[j] < best)
                best = row[j];
        }
        work.cells += to - from + 1;
        if (best > limit)
            return over;
        [prev, row] = [row, prev];
    }
    return prev[b.length];
}
/**
 * Work one plan's suggestions may take in all: distance-band cells, and entries read from the
 * pair index. Past either, problems simply carry no suggestion.
 */
exports.SUGGESTION_LIMITS = {
    cells: 4_000_000,
    postings: 5_000_000,
    postingsPerWord: 60_000,
    verifiedPerWord: 64,
};
/**
 * Known keys indexed for "did you mean": by lower case (a case typo is found at once), and by
 * the pairs of adjacent characters each holds, so only keys that share most of a word's pairs
 * are compared with it (a key a few edits away keeps most of them). The search is bounded per
 * word and per plan, so a plan with thousands of misspelt keys still checks in milliseconds.
 */
class KeyIndex {
    source;
    keys = [];
    byLower = new Map();
    byPair = new Map();
    work = { cells: 0, postings: 0 };
    shared = null;
    built = false;
    /** Built on the first search: a plan without a misspelt key never pays for the index. */
    constructor(source) {
        this.source = source;
    }
    build() {
        this.built = true;
        for (const key of this.source) {
            const id = this.keys.push(key) - 1;
            if (!this.byLower.has(key.toLowerCase()))
                this.byLower.set(key.toLowerCase(), key);
            for (const pair of pairs(key)) {
                const ids = this.byPair.get(pair);
                if (ids)
                    ids.push(id);
                else
                    this.byPair.set(pair, [id]);
            }
        }
    }
    /** The closest known key to a misspelt one, if it is close enough to be a likely typo. */
    nearest(word) {
        if (!this.built)
            this.build();
        const exact = this.byLower.get(word.toLowerCase());
        if (exact !== undefined && exact !== word)
            return exact;
        // Two edits for short keys, a third of the length for longer ones (at most 8): a likely typo, not any key at all.
        const limit = Math.min(8, Math.max(2, Math.floor(word.length / 3)));
        let best;
        let bestDistance = limit + 1;
        for (const candidate of this.candidates(word, limit)) {
            if (this.work.cells > exports.SUGGESTION_LIMITS.cells)
                break;
            const d = boundedDistance(word, candidate, bestDistance - 1, this.work);
            if (d < bestDistance) {
                best = candidate;
                bestDistance = d;
            }
        }
        return best;
    }
    /** Keys sharing the most character pairs with `word`, best first; every key for a word too short to have pairs. */
    candidates(word, limit) {
        const wanted = pairs(word);
        if (wanted.size === 0)
            return this.keys
                .filter((key) => Math.abs(key.length - word.length) <= limit)
                .slice(0, exports.SUGGESTION_LIMITS.verifiedPerWord);
        this.shared ??= new Int32Array(this.keys.length);
        const shared = this.shared;
        const touched = [];
        // Rarest pairs first: they tell keys apart; the commonest ones are skipped past the word's share of the budget.
        const lists = [...wanted].map((pair) => this.byPair.get(pair) ?? []).sort((a, b) => a.length - b.length);
        let read = 0;
        let used = 0;
        for (const ids of lists) {
            if (read + ids.length > exports.SUGGESTION_LIMITS.postingsPerWord ||
                this.work.postings + ids.length > exports.SUGGESTION_LIMITS.postings)
                break;
            read += ids.length;
            this.work.postings += ids.length;
            used += 1;
            for (const id of ids)
                if (shared[id]++ === 0)
                    touched.push(id);
        }
        // Each edit changes at most two pairs: a key sharing fewer of those read cannot be within the limit.
        const floor = Math.max(1, used - 2 * limit);
        const close = touched.filter((id) => shared[id] >= floor && Math.abs(this.keys[id].length - word.length) <= limit);
        close.sort((a, b) => shared[b] - shared[a] || a - b);
        const picked = close.slice(0, exports.SUGGESTION_LIMITS.verifiedPerWord).map((id) => this.keys[id]);
        for (const id of touched)
            shared[id] = 0;
        return picked;
    }
}
exports.KeyIndex = KeyIndex;
/** The distinct pairs of adjacent characters in a word, each as one number. */
function pairs(word) {
    const out = new Set();
    for (let i = 0; i + 1 < word.length; i++)
        out.add(word.charCodeAt(i) * 65_536 + word.charCodeAt(i + 1));
    return out;
}
/** The closest of `candidates` to a misspelt word (a one-off search; a plan's checks share a `KeyIndex`). */
function nearest(word, candidates) {
    return new KeyIndex(candidates).nearest(word);
}
