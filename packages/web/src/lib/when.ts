// Times as people read them. Protocol states and wire records carry unix milliseconds; the pages
// show a date and time in the browser's locale, and how long ago.

/** 2001-09-09 … 2100-01-01 in ms: a count, amount or duration never reaches this range by accident. */
const MIN_MS = 1_000_000_000_000;
const MAX_MS = 4_102_444_800_000;

/** A field holding an instant by its name: `closesAt`, `created_at`, `deadline`, `ts`, `deadline_ms`… */
const TIME_KEY = /(?:At|_at|^at|deadline|Deadline|^ts|Ts|_ms|Unix|_unix|[Tt]ime|[Ss]ince|[Uu]ntil)$/;

/** True for a unix-ms instant under a name that says it is one (durations like `windowMs` are not). */
export function isInstant(key: string, value: unknown): value is number {
  return (
    typeof value === 'number' &&
    Number.isInteger(value) &&
    value >= MIN_MS &&
    value < MAX_MS &&
    TIME_KEY.test(key) &&
    !/(?:Ms|Window|window|Duration|duration)$/.test(key)
  );
}

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/** "28 Nov 2026, 09:14:03" in the browser's locale and zone. */
export function formatWhen(ms: number): string {
  return dateTime.format(new Date(ms));
}

/** "just now", "42 s ago", "3 min ago", "2 h ago", "5 d ago" (or "in …" for a future instant). */
export function ago(ms: number, now: number): string {
  const d = Math.round((now - ms) / 1000);
  const a = Math.abs(d);
  const n =
    a < 5
      ? null
      : a < 60
        ? `${a} s`
        : a < 3600
          ? `${Math.floor(a / 60)} min`
          : a < 86_400
            ? `${Math.floor(a / 3600)} h`
            : `${Math.floor(a / 86_400)} d`;
  if (n === null) return 'just now';
  return d >= 0 ? `${n} ago` : `in ${n}`;
}
