// The research tool's fetch, against a local HTTP server: without an explicit unsafe setting every
// private, loopback, link-local, metadata and IPv4-mapped address is refused with a code before a
// byte is sent — also when a hostname resolves to one, or a redirect points at one; the size, time
// and content-type limits hold; HTML becomes text.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AddressPolicy,
  DEFAULT_LIMITS,
  ResearchError,
  STRICT_POLICY,
  safeFetch,
} from '../../server/index.ts';
import { htmlText } from '../../server/research/text.ts';
import { html, type PageServer, pageServer, redirect } from './research-server.ts';

let srv: PageServer;
const big = 'x'.repeat(4096);
beforeAll(async () => {
  srv = await pageServer({
    '/page': html(
      '<html><head><title>A &amp; B</title><script>var s="secret"</script></head><body><p>Hello&nbsp;<b>world</b></p></body></html>',
    ),
    '/to-loopback': (_q, r) => redirect(srv.url('/page', '127.0.0.1'))(_q, r),
    '/to-metadata': redirect('http://169.254.169.254/latest/meta-data/'),
    '/loop': redirect('/loop'),
    '/hop1': redirect('/page'),
    '/big': (_q, r) => {
      r.writeHead(200, { 'content-type': 'text/plain' }); // chunked: no content-length to go by
      for (let i = 0; i < 8; i++) r.write(big);
      r.end();
    },
    '/big-declared': (_q, r) =>
      r.writeHead(200, { 'content-type': 'text/plain', 'content-length': 8 * 4096 }).end(big.repeat(8)),
    '/image': (_q, r) => r.writeHead(200, { 'content-type': 'image/png' }).end('PNG'),
    '/json': (_q, r) => r.writeHead(200, { 'content-type': 'application/json' }).end('{"a":1}'),
    '/hang': () => {}, // never answers
  });
});
afterAll(() => srv.close());

/** The localhost test server is reachable only through this explicit (unsafe) allowlist. */
const LOCAL: AddressPolicy = { allowPrivate: false, allowHosts: new Set(['localhost']) };

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(ResearchError);
    return (err as ResearchError).code;
  }
  return 'fetched';
}

describe('research fetch: SSRF', () => {
  it('refuses private, loopback, link-local, metadata and IPv4-mapped addresses without the unsafe setting', async () => {
    const port = srv.port;
    const refused = [
      `http://127.0.0.1:${port}/page`,
      `http://10.0.0.1:${port}/page`,
      'http://169.254.169.254/latest/meta-data/',
      `http://[::1]:${port}/page`,
      `http://[::ffff:127.0.0.1]:${port}/page`,
      `http://[fd00:ec2::254]/latest/meta-data/`,
      'http://100.100.100.200/latest/meta-data/',
      `http://localhost:${port}/page`, // a hostname resolving to loopback
      `http://0x7f.1:${port}/page`, // 127.0.0.1 spelled otherwise
    ];
    for (const url of refused)
      expect(await codeOf(safeFetch(url, STRICT_POLICY)), url).toBe('PRIVATE_ADDRESS');
    expect(srv.hits.get('/page') ?? 0).toBe(0);
  });

  it('refuses schemes other than http and https, and URLs with credentials', async () => {
    expect(await codeOf(safeFetch('file:///etc/passwd', STRICT_POLICY))).toBe('URL_SCHEME');
    expect(await codeOf(safeFetch('ftp://example.com/x', STRICT_POLICY))).toBe('URL_SCHEME');
    expect(await codeOf(safeFetch('http://u:p@example.com/', STRICT_POLICY))).toBe('URL_CREDENTIALS');
  });

  it('checks every redirect hop: a redirect to a private address is refused', async () => {
    const before = srv.hits.get('/page') ?? 0;
    expect(await codeOf(safeFetch(srv.url('/to-loopback'), LOCAL))).toBe('PRIVATE_ADDRESS');
    expect(await codeOf(safeFetch(srv.url('/to-metadata'), LOCAL))).toBe('PRIVATE_ADDRESS');
    expect(srv.hits.get('/page') ?? 0).toBe(before);
    expect(await codeOf(safeFetch(srv.url('/loop'), LOCAL))).toBe('TOO_MANY_REDIRECTS');
    expect(srv.hits.get('/loop')).toBe(DEFAULT_LIMITS.maxRedirects + 1);
    const ok = await safeFetch(srv.url('/hop1'), LOCAL);
    expect(ok.finalUrl).toBe(srv.url('/page'));
  });

  it('allows loopback only through DB8_RESEARCH_ALLOW_PRIVATE (unsafe)', async () => {
    const open: AddressPolicy = { allowPrivate: true, allowHosts: new Set() };
    const got = await safeFetch(srv.url('/page', '127.0.0.1'), open);
    expect(got.status).toBe(200);
    expect(got.mediaType).toBe('text/html');
  });
});

describe('research fetch: limits', () => {
  it('cuts a body over the size limit, declared or not', async () => {
    const limits = { ...DEFAULT_LIMITS, maxBytes: 10_000 };
    expect(await codeOf(safeFetch(srv.url('/big'), LOCAL, limits))).toBe('TOO_LARGE');
    expect(await codeOf(safeFetch(srv.url('/big-declared'), LOCAL, limits))).toBe('TOO_LARGE');
    const roomy = await safeFetch(srv.url('/big'), LOCAL, { ...limits, maxBytes: 8 * 4096 });
    expect(roomy.body.length).toBe(8 * 4096);
  });

  it('reads only allowed content types', async () => {
    expect(await codeOf(safeFetch(srv.url('/image'), LOCAL))).toBe('CONTENT_TYPE');
    expect((await safeFetch(srv.url('/json'), LOCAL)).body.toString()).toBe('{"a":1}');
  });

  it('gives up on a server that does not answer', async () => {
    expect(await codeOf(safeFetch(srv.url('/hang'), LOCAL, { ...DEFAULT_LIMITS, timeoutMs: 300 }))).toBe(
      'TIMEOUT',
    );
  });
});

describe('research snapshot text', () => {
  it('keeps the readable text and title of HTML, without scripts', () => {
    const out = htmlText(
      '<title>A &amp; B</title><script>var s="secret"</script><p>Hello&nbsp;<b>world</b></p><div>next &#x2014; line</div>',
    );
    expect(out.title).toBe('A & B');
    expect(out.text).toBe('Hello world\nnext — line');
  });
});
