import { createServer } from 'node:net';

/**
 * The peer a whole-server bench compares db8 with: the least a server on the same stack does —
 * import Fastify, open PGlite on disk (PEER_PGDATA), listen on PORT. Run as a child's `--eval`.
 */
export const FASTIFY_PGLITE_PEER = `
import Fastify from 'fastify';
import { PGlite } from '@electric-sql/pglite';
const db = await PGlite.create(process.env.PEER_PGDATA);
await db.query('select 1');
const app = Fastify();
app.get('/healthz', async () => ({ ok: true }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.once('SIGINT', async () => { await app.close(); await db.close(); });
`;

/** A free loopback port for a child server. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}
