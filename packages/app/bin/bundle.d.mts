/** Content hash of the CLI's sources, manifests and lockfile: the bundle's cache key. */
export function sourceHash(): string;
/** The bundled CLI's entry for these sources if it is built, else null. */
export function cachedCli(hash?: string): string | null;
/** The bundled CLI's entry for these sources, built if absent. */
export function prebuiltCli(): Promise<string>;
/** A script bundled like the CLI, cached by the sources and the script. */
export function prebuiltScript(file: string): Promise<string>;
/** Keep marking a bundle used while a long-running command runs from it. */
export function keepInUse(entry: string): void;
/** Whether the process holding a bundle's build lock (a directory) still runs. */
export function builderAlive(lock: string): boolean;
