import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { type AddressPolicy, bareHost, hostExempt, refusedRange } from './address.ts';

/**
 * The research tool's server-side fetch (docs/debate.md, "Research"), safe against SSRF: http and
 * https only; every address a hostname resolves to is checked (address.ts) inside the socket's own
 * DNS lookup, so the connection goes to an address that was checked — no window for DNS rebinding
 * between check and connect; IP literals are checked before any request, and the connected peer
 * is checked again; each redirect hop is checked the same way, up to `maxRedirects`; the body is
 * cut off past `maxBytes`, the whole fetch past `timeoutMs`; only allowed content types are read.
 */

export interface FetchLimits {
  maxBytes: number;
  timeoutMs: number;
  maxRedirects: number;
}

export const DEFAULT_LIMITS: FetchLimits = { maxBytes: 2 * 1024 * 1024, timeoutMs: 10_000, maxRedirects: 5 };

/** Media types whose text the tool keeps; anything else is refused with CONTENT_TYPE. */
export const ALLOWED_TYPES: ReadonlySet<string> = new Set([
  'text/html',
  'application/xhtml+xml',
  'text/plain',
  'text/markdown',
  'application/json',
]);

/** A refused or failed fetch: `code` is the API error code, `status` its HTTP status. */
export class ResearchError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export interface Fetched {
  url: string;
  /** The URL the body came from, after redirects. */
  finalUrl: string;
  status: number;
  /** The media type, lowercased, without parameters. */
  mediaType: string;
  /** The Content-Type header as sent (its charset is used to decode). */
  contentType: string;
  body: Buffer;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

function refuse(range: string, host: string, address: string): ResearchError {
  const what =
    host === address
      ? `${host} is a ${range} address`
      : `${host} resolves to a ${range} address (${address})`;
  return new ResearchError('PRIVATE_ADDRESS', 422, `${what}: only public addresses are fetched`, {
    host,
    address,
    range,
  });
}

/** net's lookup hook: resolve, refuse if any address is not public, hand the checked ones to connect. */
function checkedLookup(policy: AddressPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { all: true, family: options.family ?? 0 }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      if (!hostExempt(policy, hostname))
        for (const a of addresses) {
          const range = refusedRange(a.address);
          if (range) return callback(refuse(range, hostname, a.address), '', 0);
        }
      if (addresses.length === 0) return callback(new Error(`no address for ${hostname}`), '', 0);
      // With `all` (Node's happy-eyeballs connect) the callback takes the list.
      if (options.all)
        return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

function checkUrl(raw: string, policy: AddressPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ResearchError('BAD_URL', 422, `not a URL: ${raw.slice(0, 200)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ResearchError('URL_SCHEME', 422, `only http and https URLs are fetched, not ${url.protocol}`);
  if (url.username || url.password)
    throw new ResearchError('URL_CREDENTIALS', 422, 'URLs with credentials are not fetched');
  const host = bareHost(url.hostname);
  // An IP literal is never looked up, so it is checked here.
  const range = hostExempt(policy, host) ? null : refusedRange(host);
  if (range && range !== 'invalid') throw refuse(range, host, host);
  return url;
}

interface Hop {
  status: number;
  location: string | null;
  contentType: string;
  body: Buffer;
}

function requestOnce(
  url: URL,
  policy: AddressPolicy,
  limits: FetchLimits,
  signal: AbortSignal,
): Promise<Hop> {
  return new Promise<Hop>((resolve, reject) => {
    const mod = url.protocol === 'https:' ? https : http;
    const req = mod.request(url, {
      method: 'GET',
      lookup: checkedLookup(policy),
      signal,
      agent: false,
      headers: {
        'user-agent': 'db8-research/1 (debate research tool)',
        accept: 'text/html,application/xhtml+xml,text/plain,text/markdown,application/json;q=0.9',
        'accept-encoding': 'identity',
      },
    });
    req.on('error', (err) => {
      if (err instanceof ResearchError) return reject(err);
      if (signal.aborted)
        return reject(new ResearchError('TIMEOUT', 504, `no answer within ${limits.timeoutMs} ms`));
      reject(new ResearchError('FETCH_FAILED', 502, `fetching ${url.host} failed: ${err.message}`));
    });
    req.on('response', (res) => {
      const fail = (e: ResearchError) => {
        req.destroy(e);
        reject(e);
      };
      // The peer actually connected to, checked once more (covers every path to the socket).
      const peer = res.socket.remoteAddress ?? '';
      const range = hostExempt(policy, url.hostname) ? null : refusedRange(peer);
      if (range) return fail(refuse(range, bareHost(url.hostname), peer));
      const status = res.statusCode ?? 0;
      const location = typeof res.headers.location === 'string' ? res.headers.location : null;
      const contentType = String(res.headers['content-type'] ?? '');
      if (REDIRECTS.has(status) && location) {
        res.resume();
        return resolve({ status, location, contentType, body: Buffer.alloc(0) });
      }
      if (status < 200 || status > 299)
        return fail(new ResearchError('UPSTREAM_STATUS', 502, `${url.host} answered ${status}`, { status }));
      const mediaType = contentType.split(';')[0]!.trim().toLowerCase();
      if (!ALLOWED_TYPES.has(mediaType))
        return fail(
          new ResearchError('CONTENT_TYPE', 422, `content type ${mediaType || '(none)'} is not fetched`, {
            content_type: mediaType,
            allowed: [...ALLOWED_TYPES],
          }),
        );
      const declared = Number(res.headers['content-length'] ?? Number.NaN);
      const tooLarge = () =>
        new ResearchError('TOO_LARGE', 422, `the body is larger than ${limits.maxBytes} bytes`, {
          max_bytes: limits.maxBytes,
        });
      if (declared > limits.maxBytes) return fail(tooLarge());
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > limits.maxBytes) return fail(tooLarge()); // cut the stream: read no further
        chunks.push(chunk);
      });
      res.on('end', () => resolve({ status, location: null, contentType, body: Buffer.concat(chunks) }));
      res.on('error', (err) =>
        reject(err instanceof ResearchError ? err : new ResearchError('FETCH_FAILED', 502, err.message)),
      );
    });
    req.end();
  });
}

/** Fetches `raw` under `policy` and `limits`, following redirects (each one checked). */
export async function safeFetch(
  raw: string,
  policy: AddressPolicy,
  limits: FetchLimits = DEFAULT_LIMITS,
): Promise<Fetched> {
  const signal = AbortSignal.timeout(limits.timeoutMs);
  let url = checkUrl(raw, policy);
  for (let hop = 0; ; hop++) {
    const r = await requestOnce(url, policy, limits, signal);
    if (r.location === null)
      return {
        url: raw,
        finalUrl: url.toString(),
        status: r.status,
        mediaType: r.contentType.split(';')[0]!.trim().toLowerCase(),
        contentType: r.contentType,
        body: r.body,
      };
    if (hop + 1 > limits.maxRedirects)
      throw new ResearchError('TOO_MANY_REDIRECTS', 422, `more than ${limits.maxRedirects} redirects`);
    url = checkUrl(new URL(r.location, url).toString(), policy);
  }
}
