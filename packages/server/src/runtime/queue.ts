/**
 * A per-room serial queue. Reads run one at a time in order; consecutive writes are handed over
 * together (up to `maxBatch`) so a busy room commits many actions in one transaction. A `solo`
 * write (a watcher tick under its advisory lock) always runs alone.
 */
export interface QueuedWrite<T = unknown> {
  kind: 'write';
  solo: boolean;
  run: unknown;
  resolve: (v: T) => void;
  reject: (e: unknown) => void;
}

interface QueuedRead {
  kind: 'read';
  fn: () => Promise<unknown>;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
}

type Job = QueuedWrite | QueuedRead;

export class RoomQueue {
  private jobs: Job[] = [];
  private running = false;

  constructor(
    private readonly drain: (batch: QueuedWrite[]) => Promise<void>,
    private readonly maxBatch: number,
    private readonly onIdle: () => void,
  ) {}

  get busy(): boolean {
    return this.running || this.jobs.length > 0;
  }

  write<T>(run: unknown, solo = false): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.jobs.push({ kind: 'write', solo, run, resolve: resolve as (v: unknown) => void, reject });
      this.pump();
    });
  }

  read<T>(fn: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.jobs.push({ kind: 'read', fn, resolve: resolve as (v: unknown) => void, reject });
      this.pump();
    });
  }

  private pump(): void {
    if (this.running) return;
    this.running = true;
    void this.loop();
  }

  private async loop(): Promise<void> {
    try {
      while (this.jobs.length > 0) {
        const first = this.jobs[0] as Job;
        if (first.kind === 'read') {
          this.jobs.shift();
          try {
            first.resolve(await first.fn());
          } catch (err) {
            first.reject(err);
          }
          continue;
        }
        const batch: QueuedWrite[] = [];
        while (batch.length < this.maxBatch) {
          const j = this.jobs[0];
          if (j?.kind !== 'write') break;
          if (j.solo && batch.length > 0) break;
          batch.push(j);
          this.jobs.shift();
          if (j.solo) break;
        }
        try {
          await this.drain(batch);
        } catch (err) {
          for (const j of batch) j.reject(err);
        }
      }
    } finally {
      this.running = false;
      this.onIdle();
    }
  }
}
