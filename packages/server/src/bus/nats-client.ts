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
