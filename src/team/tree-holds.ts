/**
 * One limit across a tree of teams (`budget.tree`, team/tree-limits.ts): what each running child (`<key>#<token>`)
 * holds of it, and what ended children's trees used of it. Pure; part of the run's snapshot (team/spawn.ts).
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

  /** A child (`<key>#<token>`) starts holding `share`. */
  hold(id: string, share: number): void {
    this.s.held[id] = share;
  }

  /** A child ended: its hold is released and what its tree used charged (all of the hold when `used` is null). */
  settle(id: string, used: number | null): void {
    const held = this.s.held[id];
    if (held === undefined) return;
    delete this.s.held[id];
    this.s.charged += used === null ? held : used;
  }

  /** The snapshot, or undefined while nothing was ever held (older snapshots stay as they were). */
  snapshot(): TreeHoldSnapshot | undefined {
    if (this.s.charged === 0 && Object.keys(this.s.held).length === 0) return undefined;
    return { held: { ...this.s.held }, charged: this.s.charged };
  }
}
