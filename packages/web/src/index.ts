import { fileURLToPath } from 'node:url';

/** Where `npm run build -w @db8/web` writes the SPA; the server serves it with an index.html fallback. */
export const webDistDir: string = fileURLToPath(new URL('../dist', import.meta.url));
