import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Db8Client } from '@db8/sdk';
import { type RunningServer, startServer } from 'db8/server';
import { type Browser, chromium, type Page } from 'playwright-core';
import { inject } from 'vitest';

// Shared set-up for the browser suites: build the SPA, start a real server on it, drive Chromium.

/** The web app's composition root: index.html, main.tsx and the Vite config. */
export const WEB_DIR = fileURLToPath(new URL('../../web', import.meta.url));
const REPO = join(WEB_DIR, '..', '..', '..');
/** Screenshots land here (gitignored); look at them after a run. */
export const SCREENS = process.env.DB8_SCREENS ?? join(REPO, '.tmp', 'screens');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The SPA this process serves: the run's shared build, or its own temp dir (see buildWeb). */
let built: string | null = null;
/** Whether `built` is this process's own (removed on close) rather than the run's shared build. */
let own = false;

/** `vite build` into `out` in a child process (vitest runs its own Vite; keep the two apart). */
function viteBuild(out: string): void {
  const vite = join(REPO, 'node_modules', 'vite', 'bin', 'vite.js');
  try {
    execFileSync(process.execPath, [vite, 'build', '--logLevel', 'warn', '--outDir', out, '--emptyOutDir'], {
      cwd: WEB_DIR,
      stdio: 'pipe',
    });
  } catch (e) {
    // Vite's own message is on the child's stderr: say it, not only "Command failed".
    throw new Error(`vite build failed:\n${String((e as { stderr?: unknown }).stderr ?? e)}`);
  }
}

/**
 * The built SPA's directory. Under the integration config the run names one shared directory
 * (test/web-dist-setup.ts): the first suite builds it, the rest serve the same bundle, read-only.
 * The build goes to a temp dir renamed into place, so a suite beside it sees no bundle or a whole
 * one. Elsewhere each process builds its own temp dir, so concurrent suites never empty each other's.
 */
export function buildWeb(): string {
  const shared = inject('db8WebDist');
  if (shared) {
    if (!existsSync(join(shared, 'index.html'))) {
      const tmp = mkdtempSync(`${shared}-`);
      viteBuild(tmp);
      try {
        renameSync(tmp, shared);
      } catch (e) {
        // Another suite finished first: serve its bundle (the same sources), drop this one.
        rmSync(tmp, { recursive: true, force: true });
        if (!existsSync(join(shared, 'index.html'))) throw e;
      }
    }
    built = shared;
    own = false;
    return shared;
  }
  const out = mkdtempSync(join(tmpdir(), 'db8-web-dist-'));
  viteBuild(out);
  built = out;
  own = true;
  return out;
}

function dist(): string {
  if (!built) throw new Error('call buildWeb() first');
  return built;
}

/** Every JavaScript file of the built bundle, with its source map's list of sources. */
export function bundle(): { js: string; sources: string[] } {
  const dir = join(dist(), 'assets');
  let js = '';
  const sources: string[] = [];
  for (const f of readdirSync(dir)) {
    if (f.endsWith('.js')) js += readFileSync(join(dir, f), 'utf8');
    if (f.endsWith('.js.map'))
      sources.push(...(JSON.parse(readFileSync(join(dir, f), 'utf8')).sources as string[]));
  }
  return { js, sources };
}

export interface Env {
  server: RunningServer;
  browser: Browser;
  url: string;
  dataDir: string;
  close(): Promise<void>;
}

/** Headless Chromium as the suites run it (a suite without a server uses it alone). */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(`Chromium not found at ${CHROMIUM}: install it (CI does) to run this suite`);
  mkdirSync(SCREENS, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** `env` reaches the server as its environment (e.g. DB8_SCRIPTED_DELAY_MS); none by default. */
export async function startEnv(opts: { env?: Record<string, string> } = {}): Promise<Env> {
  if (!existsSync(CHROMIUM))
    throw new Error(`Chromium not found at ${CHROMIUM}: install it (CI does) to run this suite`);
  const webDist = dist();
  const dataDir = mkdtempSync(join(tmpdir(), 'db8-web-'));
  const server = await startServer({
    port: 0,
    host: '127.0.0.1',
    dataDir,
    webDist,
    logLevel: 'warn',
    env: opts.env ?? false,
    print: () => {},
  });
  const browser = await launchChromium();
  return {
    server,
    browser,
    url: server.url,
    dataDir,
    async close() {
      await browser.close().catch(() => {});
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
      if (own && built === webDist) {
        rmSync(webDist, { recursive: true, force: true });
        built = null;
      }
    },
  };
}

/** Pages still open, so a failing test can photograph them (see shootOpenPages). */
const open = new Set<Page>();

/**
 * Every Content-Security-Policy violation a page of this process reported: the page's own
 * `securitypolicyviolation` events and Chromium's console errors that name the policy. A suite
 * asserts it stays empty (web.int.test.ts), so the server's policy and the app cannot drift apart.
 */
export const cspViolations: string[] = [];
const CSP_MARK = '[csp violation]';

/** A fresh browser profile (its own localStorage, so its own credentials). */
export async function newPage(env: Pick<Env, 'browser'>, scheme: 'light' | 'dark' = 'light'): Promise<Page> {
  const ctx = await env.browser.newContext({ viewport: { width: 1280, height: 860 }, colorScheme: scheme });
  await ctx.addInitScript((mark: string) => {
    document.addEventListener('securitypolicyviolation', (e) =>
      console.error(
        `${mark} ${e.violatedDirective} ${e.blockedURI || 'inline'} at ${e.documentURI} (${e.sourceFile}:${e.lineNumber}:${e.columnNumber})`,
      ),
    );
  }, CSP_MARK);
  const page = await ctx.newPage();
  open.add(page);
  page.on('close', () => open.delete(page));
  page.on('pageerror', (e) => console.error('[page error]', e.message));
  page.on('console', (m) => {
    const text = m.text();
    if (text.startsWith(CSP_MARK) || /Content Security Policy/i.test(text)) cspViolations.push(text);
    if (m.type() === 'error' || m.type() === 'warning') console.error(`[page ${m.type()}]`, text);
  });
  return page;
}

/** Screenshots of every open page as `fail-<test>-<n>.png`, for a failed test. */
export async function shootOpenPages(test: string): Promise<void> {
  const slug = test.replace(/[^a-z0-9]+/gi, '-').slice(0, 40);
  let n = 0;
  for (const page of open) await shot(page, `fail-${slug}-${n++}`).catch(() => {});
}

export async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SCREENS, `${name}.png`), fullPage: true });
}

/** Sign in through the printed one-time link, as a person would; returns the admin session token. */
export async function adminLogin(env: Env, page: Page): Promise<string> {
  if (!env.server.adminLink) throw new Error('the server printed no admin link');
  await page.goto(env.server.adminLink);
  await page.waitForURL(`${env.url}/`);
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
  const raw = await page.evaluate(() => localStorage.getItem('db8.session'));
  const token = (JSON.parse(raw ?? 'null') as { token?: string } | null)?.token;
  if (!token) throw new Error('no admin session stored after login');
  return token;
}

export const client = (env: Env, token: string | null = null) => new Db8Client({ baseUrl: env.url, token });

/**
 * What runs off the side of a phone's screen: the page's own sideways scroll, and every visible
 * element reaching past the viewport's right edge that no sideways-scrolling box holds (content
 * clipped by `overflow: hidden` counts: it is cut off), and every box (but code) whose content scrolls
 * sideways out of sight. Empty when the page fits.
 */
export async function offTheSide(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const out: string[] = [];
    if (document.documentElement.scrollWidth > width)
      out.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} px > ${width} px`);
    const scrolls = (el: Element) => /auto|scroll/.test(getComputedStyle(el).overflowX);
    // A table (or anything) hidden behind a sideways scroll is cut off too: on a phone it reflows.
    // Code and JSON blocks may scroll.
    for (const el of document.body.querySelectorAll('*'))
      if (scrolls(el) && el.scrollWidth > el.clientWidth + 1 && !el.closest('pre, code, .json'))
        out.push(
          `${el.tagName.toLowerCase()}.${String(el.className).split(' ').join('.')} scrolls sideways: ${el.scrollWidth} px in ${el.clientWidth} px "${(el.textContent ?? '').trim().slice(0, 30)}"`,
        );
    for (const el of document.body.querySelectorAll('*')) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || r.right <= width + 1) continue;
      let held = false;
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement)
        if (scrolls(a)) held = true;
      if (held) continue;
      const cls =
        typeof el.className === 'string' && el.className ? `.${el.className.split(' ').join('.')}` : '';
      const text = (el.textContent ?? '').trim().slice(0, 30);
      out.push(`${el.tagName.toLowerCase()}${cls} right=${Math.round(r.right)} "${text}"`);
    }
    return out;
  });
}
