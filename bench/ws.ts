// The `ws` client for the benches' child processes (Node 20 has no global WebSocket), typed by the
// little they use: there is no @types/ws in the tree.
export interface WsLike {
  on(ev: 'open', fn: () => void): void;
  on(ev: 'message', fn: (data: Buffer) => void): void;
  on(ev: 'error', fn: (err: Error) => void): void;
  on(ev: 'close', fn: () => void): void;
  send(data: string): void;
  close(): void;
  terminate(): void;
}
export type WsCtor = new (url: string, opts?: { perMessageDeflate?: boolean }) => WsLike;

const wsName = 'ws';
export const { WebSocket } = (await import(wsName)) as { WebSocket: WsCtor };
