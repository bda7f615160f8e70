import { runtimeError } from '../runtime/errors.ts';

/** One NATS server: a `nats://`, `tls://`, `ws://` or `wss://` URL, or a bare `host:port`. */
const SERVER =
  /^(?:(?:nats|tls|wss?):\/\/)?(?:[^\s@/,]+@)?(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(?::\d{1,5})?\/?$/;

/**
 * The servers of a NATS cluster from a `NATS_URL`-style setting: one URL or several, comma-separated
 * (`nats://a:4222,nats://b:4222`, spaces allowed). The client tries them in turn and reconnects to
 * any of them, so one dead server in the list does not stop a connection. An empty list or a
 * malformed entry is `BAD_CONFIG` (a typo must not pass as a server the client never reaches).
 */
export function natsServers(setting: string | readonly string[]): string[] {
  const list = (typeof setting === 'string' ? setting.split(',') : setting)
    .map((s) => s.trim())
    .filter(Boolean);
  if (list.length === 0) throw runtimeError('BAD_CONFIG', 'NATS: no server URL');
  const bad = list.filter((s) => !SERVER.test(s));
  if (bad.length > 0) throw runtimeError('BAD_CONFIG', `NATS: not a server URL: ${bad.join(', ')}`);
  return list;
}

/** The `nats` client module, loaded on first use (~0.5 MB): most servers run the in-process bus. */
export type NatsModule = typeof import('nats');

/**
 * `nats` is CommonJS: imported dynamically from a bundle (the CLI's esbuild bundle) or by Node
 * itself, its named exports may only be found on `default`, so take whichever holds them.
 */
export async function loadNats(): Promise<NatsModule> {
  const m = (await import('nats')) as NatsModule & { default?: NatsModule };
  return typeof m.connect === 'function' ? m : (m.default as NatsModule);
}
