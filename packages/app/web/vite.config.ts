import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/** Writes `.br` and `.gz` beside every text asset of the build; the server sends them as is. */
function precompress(): Plugin {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
      d.isDirectory() ? walk(join(dir, d.name)) : [join(dir, d.name)],
    );
  let outDir = '';
  return {
    name: 'db8-precompress',
    apply: 'build',
    // The build's own output folder: `--outDir` (the browser tests build elsewhere) included.
    configResolved(c) {
      outDir = resolve(c.root, c.build.outDir);
    },
    closeBundle() {
      for (const file of walk(outDir)) {
        if (!/\.(js|css|html|svg|json|txt|md)$/.test(file) || statSync(file).size < 1024) continue;
        const body = readFileSync(file);
        writeFileSync(
          `${file}.br`,
          brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
        );
        writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
      }
    },
  };
}

// The SPA is served by the db8 server from packages/app/web/dist (one process, one port). In dev,
// `vite` proxies the API and the WebSocket to a server on 127.0.0.1:8787.
const target = process.env.DB8_DEV_API ?? 'http://127.0.0.1:8787';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react(), precompress()],
  // @db8/core picks its hash/signature backends through package.json "imports" conditions; Vite's
  // default client conditions include `browser`, which selects @noble instead of node:crypto (the
  // build test checks the bundle never mentions node:crypto).
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Maps are written for debugging and the bundle tests, not linked from the code nor served.
    sourcemap: 'hidden',
    target: 'es2022',
  },
  server: {
    port: 5173,
    proxy: {
      '/v1/ws': { target: target.replace(/^http/, 'ws'), ws: true },
      '/v1': target,
      '/skill.md': target,
      '/protocol.json': target,
    },
  },
});
