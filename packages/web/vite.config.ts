import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The SPA is served by the db8 server from packages/web/dist (one process, one port). In dev,
// `vite` proxies the API and the WebSocket to a server on 127.0.0.1:8787.
const target = process.env.DB8_DEV_API ?? 'http://127.0.0.1:8787';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react()],
  // @db8/core picks its hash/signature backends through package.json "imports" conditions; Vite's
  // default client conditions include `browser`, which selects @noble instead of node:crypto (the
  // build test checks the bundle never mentions node:crypto).
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
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
