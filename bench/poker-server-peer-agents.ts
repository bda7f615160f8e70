// Child process of bench/poker-server-peer.ts: a WebSocket client per seat of every table, each
// answering its turn at once and timing action → ack. Stops on the server's `stop` frame.
// Protocol (IPC): the parent sends one PeerAgentsSpec, the child answers with one PeerAgentsResult.
import { WebSocket } from './ws.ts';

export interface PeerAgentsSpec {
  wsUrl: string;
  tables: number;
  seats: number;
}

export interface PeerAgentsResult {
  latencies: number[];
}

process.once('message', async (m) => {
  const spec = m as PeerAgentsSpec;
  const latencies: number[] = [];
  const runs: Promise<void>[] = [];
  for (let t = 0; t < spec.tables; t++)
    for (let seat = 0; seat < spec.seats; seat++)
      runs.push(
        new Promise<void>((resolve) => {
          const ws = new WebSocket(`${spec.wsUrl}?table=${t}&seat=${seat}`, { perMessageDeflate: false });
          let sentAt = 0;
          ws.on('message', (d) => {
            const msg = JSON.parse(String(d)) as { type: string; seat?: number; token?: string };
            if (msg.type === 'turn' && msg.seat === seat) {
              sentAt = performance.now();
              ws.send(JSON.stringify({ type: 'action', seat, token: msg.token, kind: 'call' }));
            } else if (msg.type === 'ack') {
              latencies.push(performance.now() - sentAt);
            } else if (msg.type === 'stop') ws.close();
          });
          ws.on('close', () => resolve());
          ws.on('error', () => resolve());
        }),
      );
  await Promise.all(runs);
  const result: PeerAgentsResult = { latencies };
  process.send?.(result, () => process.exit(0));
});
