/**
 * Pager totals of very large lists, remembered for a few seconds per process.
 *
 * An exact count of 85,000 orders is an index-only scan of 85,000 entries on every page view, many times the
 * cost of the page itself. A total at or above `threshold` is reused for `ttlMs`: the pager of a list that
 * large may trail the rows by an order or two for a few seconds. Totals below the threshold are never reused,
 * so small lists (and every workflow that watches a count change) stay exact. Decision 0032.
 */
export class PagerTotals<T = number> {
  private readonly totals = new Map<string, { n: T; at: number }>();

  constructor(
    private readonly threshold = 10_000,
    private readonly ttlMs = 10_000,
    private readonly maxKeys = 1_000,
    private readonly now: () => number = Date.now,
    /** The list's size in a total (the total itself for a plain count; a count with a sum names its count). */
    private readonly sizeOf: (total: T) => number = (total) => total as number,
  ) {}

  /** The counts running for large lists whose total expired, shared by the requests that wait on them. */
  private readonly counting = new Map<string, Promise<T>>();

  async get(key: string, count: () => Promise<T>): Promise<T> {
    const known = this.totals.get(key);
    const t = this.now();
    if (known && t - known.at < this.ttlMs) return known.n;
    if (!known) return this.count(key, count, t);
    // A large list's expired total is counted once for every request that finds it expired meanwhile: at 50
    // connections each of them counted the 85,000 orders again (docs/benchmarks.md, finding 29). A small
    // list is never shared, so a count after a change always starts after it.
    let running = this.counting.get(key);
    if (!running) {
      running = this.count(key, count, t).finally(() => this.counting.delete(key));
      this.counting.set(key, running);
    }
    return running;
  }

  /** A total remembered and still fresh, else undefined (for a caller that counts within another statement). */
  known(key: string): T | undefined {
    const known = this.totals.get(key);
    return known && this.now() - known.at < this.ttlMs ? known.n : undefined;
  }

  /** A total the caller counted itself: kept only at or above the threshold, as `get` keeps its counts. */
  remember(key: string, n: T, t = this.now()): void {
    if (this.sizeOf(n) >= this.threshold) {
      if (this.totals.size >= this.maxKeys) this.totals.clear();
      this.totals.set(key, { n, at: t });
    } else {
      this.totals.delete(key);
    }
  }

  private async count(key: string, count: () => Promise<T>, t: number): Promise<T> {
    const n = await count();
    this.remember(key, n, t);
    return n;
  }
}
