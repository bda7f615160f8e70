import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync } from 'node:zlib';
import { Db8Client } from '@db8/sdk';
import { EMBEDDED_DURABILITY, type RunningServer, startServer } from 'db8/server';
import { afterAll, describe, expect, it } from 'vitest';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('startServer (embedded mode)', () => {
  it('starts on PGlite with a key file, prints a one-time admin link, serves the SPA, and closes', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'db8-main-'));
    const web = mkdtempSync(join(tmpdir(), 'db8-web-'));
    dirs.push(dataDir, web);
    writeFileSync(join(web, 'index.html'), '<!doctype html><title>db8 test spa</title>');
    // A build's shape: a hashed asset, its precompressed twin and its source map.
    const js = `console.log(${JSON.stringify('db8 '.repeat(500))});`;
    mkdirSync(join(web, 'assets'));
    writeFileSync(join(web, 'assets', 'index-abc123.js'), js);
    writeFileSync(join(web, 'assets', 'index-abc123.js.br'), brotliCompressSync(js));
    writeFileSync(join(web, 'assets', 'index-abc123.js.map'), '{"version":3,"sources":["secret.ts"]}');
    const lines: string[] = [];
    let s: RunningServer | undefined;
    try {
      s = await startServer({
        port: 0,
        dataDir,
        webDist: web,
        logLevel: 'silent',
        env: false,
        print: (l) => lines.push(l),
      });
      expect(lines[0]).toMatch(/^db8 listening on http:\/\/127\.0\.0\.1:\d+ \(embedded store in /);
      expect(lines[1]).toBe(`admin login (one use): ${s.adminLink}`);
      expect(s.adminLink).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/login#token=[A-Za-z0-9_-]{43}$/);
      // the key file is private
      expect(statSync(join(dataDir, 'server_ed25519')).mode & 0o077).toBe(0);
      // the local admin credential: private, printed, reusable, revoked by deleting it
      expect(s.localAdminFile).toBe(join(dataDir, 'local-admin.json'));
      expect(statSync(s.localAdminFile!).mode & 0o777).toBe(0o600);
      expect(lines[2]).toBe(`CLI admin on this machine: db8 login --local ${s.localAdminFile}`);
      // What the embedded store survives, said plainly at start (issue 13: PGlite never fsyncs).
      expect(lines.at(-1)).toBe(EMBEDDED_DURABILITY);
      expect(lines.at(-1)).toMatch(/survive a crash of this process, not a power cut .* use Postgres/);
      const local = JSON.parse(readFileSync(s.localAdminFile!, 'utf8')) as { url: string; token: string };
      expect(local.url).toBe(s.url);
      const lc = new Db8Client({ baseUrl: s.url });
      expect((await lc.adminLogin(local.token)).role).toBe('admin');
      expect((await lc.adminLogin(local.token)).role).toBe('admin');
      await expect(lc.adminLogin(`${local.token}x`)).rejects.toMatchObject({ status: 401 });
      rmSync(s.localAdminFile!);
      await expect(lc.adminLogin(local.token)).rejects.toMatchObject({ status: 401 });

      const c = new Db8Client({ baseUrl: s.url });
      const token = s.adminLink!.split('#token=')[1]!;
      const admin = await c.adminLogin(token);
      expect(admin.role).toBe('admin');
      await expect(c.adminLogin(token)).rejects.toMatchObject({ status: 401 });
      expect(await c.ready()).toMatchObject({ ok: true, store: true });
      // poker tables are served by the same process
      expect((await fetch(`${s.url}/v1/tables`)).status).toBe(200);

      const page = await fetch(`${s.url}/rooms/room_x`, { headers: { accept: 'text/html' } });
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('db8 test spa');
      expect(page.headers.get('cache-control')).toBe('no-cache');
      // Hashed assets: brotli when asked for, cached for good; no source map is served.
      const asset = await rawGet(`${s.url}/assets/index-abc123.js`, { 'accept-encoding': 'br, gzip' });
      expect(asset.status).toBe(200);
      expect(asset.headers['content-encoding']).toBe('br');
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(brotliDecompressSync(asset.body).toString()).toBe(js);
      const plain = await rawGet(`${s.url}/assets/index-abc123.js`, {});
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body.toString()).toBe(js);
      expect((await fetch(`${s.url}/assets/index-abc123.js.map`)).status).toBe(404);
      const api404 = await fetch(`${s.url}/v1/nope`, { headers: { accept: 'text/html' } });
      expect(api404.status).toBe(404);
      expect((await api404.json()).error.code).toBe('NOT_FOUND');
    } finally {
      await s?.close();
    }
    // closed: the port no longer answers
    await expect(fetch(`${s!.url}/healthz`)).rejects.toThrow();
  });
});

/** A GET that leaves the body as sent (fetch would decode a brotli body). */
function rawGet(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    })
      .on('error', reject)
      .end();
  });
}
