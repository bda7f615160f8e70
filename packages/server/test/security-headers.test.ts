import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, makeApp, sharedStore } from './app-harness.ts';

/**
 * Security headers on every kind of answer: the SPA's page (as a file and as the fallback for its
 * routes), an asset, the API (success and error), the API docs. A stand-in dist directory keeps
 * this fast; the browser suites load the real build under the same policy (web/test).
 */

let h: Harness;
const dist = mkdtempSync(join(tmpdir(), 'db8-dist-'));
beforeAll(async () => {
  mkdirSync(join(dist, 'assets'));
  writeFileSync(
    join(dist, 'index.html'),
    '<!doctype html><script type="module" src="/assets/a.js"></script>',
  );
  writeFileSync(join(dist, 'assets', 'a.js'), 'export {};');
  h = await makeApp({ store: await sharedStore(), config: { logLevel: 'silent', webDist: dist } });
});
afterAll(async () => {
  await h.close();
  await h.store.close();
  rmSync(dist, { recursive: true, force: true });
});

const html = { accept: 'text/html' };
const answers: [string, string, Record<string, string>, number][] = [
  ['the page', '/', html, 200],
  ['an SPA route', '/rooms/abc', html, 200],
  ['an asset', '/assets/a.js', {}, 200],
  ['the API', '/v1/rooms', {}, 200],
  ['an API error', '/v1/rooms/nope', {}, 404],
  ['a path-param error', '/v1/rooms/a%00b', {}, 400],
  ['the API docs', '/docs', html, 200],
];

describe('security headers', () => {
  it.each(answers)('%s (%s)', async (_what, url, headers, status) => {
    const r = await h.app.inject({ method: 'GET', url, headers });
    expect(r.statusCode).toBe(status);
    const csp = String(r.headers['content-security-policy']);
    const directives = new Map(
      csp.split(';').map((d) => {
        const [k, ...v] = d.trim().split(/\s+/);
        return [k!, v.join(' ')] as const;
      }),
    );
    expect(directives.get('default-src')).toBe("'self'");
    expect(directives.get('script-src')).toBe("'self'");
    expect(directives.get('script-src-attr')).toBe("'none'");
    // Swagger UI injects a <style> element: its pages alone allow inline styles (never scripts).
    expect(directives.get('style-src')).toBe(url === '/docs' ? "'self' 'unsafe-inline'" : "'self'");
    expect(directives.get('object-src')).toBe("'none'");
    expect(directives.get('frame-ancestors')).toBe("'none'");
    expect(directives.get('script-src')).not.toContain('unsafe-inline');
    if (url !== '/docs') expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).not.toContain('upgrade-insecure-requests');
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.headers['x-frame-options']).toBe('DENY');
    expect(r.headers['referrer-policy']).toBe('no-referrer');
  });

  it("the web app's page has no inline script or style for the policy to refuse", () => {
    const page = readFileSync(fileURLToPath(new URL('../../app/web/index.html', import.meta.url)), 'utf8');
    const scripts = [...page.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attrs, body] of scripts) {
      expect(attrs).toMatch(/\bsrc=/);
      expect(body!.trim()).toBe('');
    }
    expect(page).not.toMatch(/<style\b|\sstyle=|\son[a-z]+=/i);
  });
});
