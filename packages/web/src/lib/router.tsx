import { useSearch } from '@tanstack/react-router';

// The app's router is TanStack Router (routes built in code at start-up, router.tsx); pages and
// protocol modules take its Link and useNavigate from the kit. The server answers every non-API path
// with index.html, so deep links and reloads work.

export { Link, useNavigate, useParams } from '@tanstack/react-router';

/** The query string as plain strings (`?from=25` is `{ from: '25' }`): the router parses it so. */
export function useSearchParams(): Record<string, string> {
  return useSearch({ strict: false }) as Record<string, string>;
}

/**
 * Plain `URLSearchParams` in both directions: no JSON in the address, every value a string. A flag
 * (an empty value) is written bare — `?inspect`, the address the journal's inspector has always had,
 * not `?inspect=`.
 */
export const searchCodec = {
  parseSearch: (s: string): Record<string, string> => Object.fromEntries(new URLSearchParams(s)),
  stringifySearch: (o: Record<string, unknown>): string => {
    const parts: string[] = [];
    for (const [k, v] of Object.entries(o)) {
      if (v === undefined || v === null) continue;
      const value = String(v);
      const p = new URLSearchParams({ [k]: value }).toString();
      parts.push(value === '' ? p.slice(0, -1) : p);
    }
    return parts.length ? `?${parts.join('&')}` : '';
  },
};
