// A live status for long commands: on a terminal one line rewritten in place (live counts); when
// stderr is not a terminal (a pipe, a log file, CI) plain lines, only when the status says
// something new and at most one per `plainEveryMs`, so a log stays short.

export interface ProgressOptions {
  /** Is the stream a terminal? (default: process.stderr.isTTY) */
  tty?: boolean;
  /** Where the status goes (default: process.stderr). */
  write?: (text: string) => void;
  /** Milliseconds, for throttling (default: performance.now). */
  clock?: () => number;
  /** Terminal redraws at most this often (default 100 ms). */
  ttyEveryMs?: number;
  /** Plain lines at most this often (default 5 s); a forced update always prints. */
  plainEveryMs?: number;
  /** The terminal's width (default: process.stderr.columns, 80 when it reports none). */
  columns?: () => number;
}

export interface Progress {
  /** Rewriting in place (a terminal) rather than plain lines. */
  readonly tty: boolean;
  /** The current status; `force` skips the throttle (a phase change, say). */
  update(status: string, force?: boolean): void;
  /** A line of its own above the status (kept in the scrollback on a terminal). */
  line(text: string): void;
  /** Clear the terminal status line (call before the command prints its result). */
  done(): void;
}

const CLEAR = '\r\x1b[K';

export function progress(o: ProgressOptions = {}): Progress {
  const tty = o.tty ?? process.stderr.isTTY === true;
  const write = o.write ?? ((t: string) => void process.stderr.write(t));
  const clock = o.clock ?? (() => performance.now());
  const every = tty ? (o.ttyEveryMs ?? 100) : (o.plainEveryMs ?? 5000);
  let shown = '';
  let current = '';
  let last = Number.NEGATIVE_INFINITY;
  let onScreen = false;
  // A terminal line longer than the window would wrap, and `\r` would then redraw only its tail.
  const fit = (s: string) => {
    // A pseudo-terminal may report 0 columns: treat it as unknown.
    const cols = (o.columns ?? (() => process.stderr.columns))() || 80;
    return s.length < cols ? s : `${s.slice(0, Math.max(0, cols - 2))}…`;
  };
  const draw = () => {
    write(`${CLEAR}${fit(current)}`);
    onScreen = true;
    shown = current;
  };
  return {
    tty,
    update(status, force = false) {
      current = status;
      if (status === shown) return;
      const now = clock();
      if (!force && now - last < every) return;
      last = now;
      if (tty) draw();
      else {
        write(`${status}\n`);
        shown = status;
      }
    },
    line(text) {
      if (!tty) {
        write(`${text}\n`);
        return;
      }
      write(`${onScreen ? CLEAR : ''}${text}\n`);
      onScreen = false;
      if (current) draw();
    },
    done() {
      if (tty && onScreen) write(CLEAR);
      onScreen = false;
      // A later update redraws the status even if it has not changed (the line was cleared).
      shown = '';
    },
  };
}
