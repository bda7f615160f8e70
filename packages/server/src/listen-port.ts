import { createServer } from 'node:net';

export interface PortReservation {
  port: number;
  /** Frees the port for the real listener (call right before it binds). */
  release(): Promise<void>;
}

/**
 * Binds `host` on a free port and holds it. Port 0 means "any free port", which is known only once
 * bound, yet the server's links (ws_url, skill_doc_url, invites, the checkpoint origin) are built
 * from its config before it listens: reserving first lets the config name the real port.
 */
export function reservePort(host: string): Promise<PortReservation> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.once('error', reject);
    probe.listen({ port: 0, host, exclusive: true }, () => {
      const addr = probe.address();
      if (!addr || typeof addr === 'string') {
        probe.close();
        reject(new Error(`cannot reserve a port on ${host}`));
        return;
      }
      let released: Promise<void> | null = null;
      resolve({
        port: addr.port,
        release: () => {
          released ??= new Promise<void>((r) => probe.close(() => r()));
          return released;
        },
      });
    });
  });
}
