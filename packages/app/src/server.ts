import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type RunningServer, type StartOptions, startServer as startPlatform } from '@db8/server';
import { builtinModules } from './server-modules.ts';

/** The web app built from packages/app/web (`npm run build:web`; `npm start` builds it when stale). */
export const WEB_DIST = fileURLToPath(new URL('../web/dist', import.meta.url));

/**
 * db8's server: the platform composed with the built-in protocol modules (or the `modules` given,
 * e.g. `[...builtinModules, yours]`) and the built web app.
 */
export function startServer(
  opts: Omit<StartOptions, 'modules'> & { modules?: StartOptions['modules'] } = {},
): Promise<RunningServer> {
  return startPlatform({
    modules: builtinModules,
    ...(existsSync(WEB_DIST) ? { webDist: WEB_DIST } : {}),
    ...opts,
  });
}

export { EMBEDDED_DURABILITY, type RunningServer } from '@db8/server';
export { builtinModules } from './server-modules.ts';
