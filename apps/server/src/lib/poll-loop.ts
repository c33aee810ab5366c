/**
 * A poll loop, as the mail outbox's worker and the push sender run one: `work` every `everyMs`, and at once
 * when asked (`flush`). Calls during a run share it; a call that comes during a run makes it run once more
 * before it ends (what the caller committed may have come after the run's last claim), so whoever awaits
 * the run finds their rows handled. A failed run is reported to `failed` and the loop goes on.
 */
export class PollLoop {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private askedAgain = false;
  /** Set by `stop`: a run under way ends after its current batch. */
  stopped = false;

  constructor(
    private readonly work: () => Promise<unknown>,
    private readonly failed: (err: unknown) => void,
  ) {}

  /** Runs every `everyMs` (0: never; only when asked). */
  start(everyMs: number): void {
    if (this.timer || everyMs === 0) return;
    this.timer = setInterval(() => void this.flush(), everyMs);
    this.timer.unref();
  }

  /** Stops the timer and waits for the run under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  flush(): Promise<void> {
    if (this.running) {
      this.askedAgain = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.askedAgain = false;
          await this.work();
        } while (this.askedAgain && !this.stopped);
      } catch (err) {
        this.failed(err);
      } finally {
        this.running = null;
      }
    })();
    return this.running;
  }
}
