/**
 * One limit across a tree of teams (`budget.tree` and `maxTasks`, team/tree-limits.ts): what each running child
 * (`<key>#<token>`) holds of it, and what ended children's trees used of it. Pure; part of the run's snapshot
 * (team/spawn.ts; the budget's for `maxTasks`).
 */

export interface TreeHoldSnapshot {
  held: Record<string, number>;
  charged: number;
}

export class TreeHolds {
  private readonly s: TreeHoldSnapshot;

  constructor(snapshot?: TreeHoldSnapshot) {
    this.s = { held: { ...snapshot?.held }, charged: snapshot?.charged ?? 0 };
  }

  /** What ended children's trees used of the limit. */
  get charged(): number {
    return this.s.charged;
  }

  /** What running children hold of the limit. */
  get held(): number {
    return Object.values(this.s.held).reduce((a, b) => a + b, 0);
  }

  /** Whether the child `<key>#<token>` holds a share. */
  holding(id: string): boolean {
    return Object.hasOwn(this.s.held, id);
  }

  /** What the child `<key>#<token>` holds (0: nothing). */
  heldBy(id: string): number {
    return this.holding(id) ? this.s.held[id] : 0;
  }

  /** What each running child holds, by `<key>#<token>` (a copy). */
  get holds(): Record<string, number> {
    return { ...this.s.held };
  }

  /** A child (`<key>#<token>`) starts holding `share`. */
  hold(id: string, share: number): void {
    this.s.held[id] = share;
  }

  /** A child (`<key>#<token>`) was granted `more` beyond its share (it asked): it holds that too. */
  add(id: string, more: number): void {
    this.hold(id, this.heldBy(id) + more);
  }

  /**
   * A child ended: its hold is released and what its tree used charged (all of the hold when `used` is null).
   * Returns what was charged (0 when it held nothing).
   */
  settle(id: string, used: number | null): number {
    const held = this.s.held[id];
    if (held === undefined) return 0;
    delete this.s.held[id];
    const charge = used === null ? held : used;
    this.s.charged += charge;
    return charge;
  }

  /** The snapshot, or undefined while nothing was ever held (older snapshots stay as they were). */
  snapshot(): TreeHoldSnapshot | undefined {
    if (this.s.charged === 0 && Object.keys(this.s.held).length === 0) return undefined;
    return { held: { ...this.s.held }, charged: this.s.charged };
  }
}
