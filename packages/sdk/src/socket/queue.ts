/**
 * An async iterator fed by callbacks, registered eagerly (a generator would only start listening at
 * its first `next()`, missing what arrives before). `register` returns its unsubscribe function.
 */
export function queueIterator<T>(
  register: (push: (v: T) => void, end: (err?: Error) => void) => () => void,
): AsyncGenerator<T> {
  const queue: T[] = [];
  let wake: (() => void) | null = null;
  let ended: { err?: Error } | null = null;
  const poke = () => {
    wake?.();
    wake = null;
  };
  const off = register(
    (v) => {
      queue.push(v);
      poke();
    },
    (err) => {
      ended ??= err ? { err } : {};
      poke();
    },
  );
  async function* run(): AsyncGenerator<T> {
    try {
      for (;;) {
        while (queue.length > 0) yield queue.shift()!;
        if (ended) {
          if (ended.err) throw ended.err;
          return;
        }
        await new Promise<void>((r) => {
          wake = r;
        });
      }
    } finally {
      off();
    }
  }
  return run();
}
