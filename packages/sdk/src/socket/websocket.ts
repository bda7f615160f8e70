/** The part of the WHATWG WebSocket API we use; browsers' WebSocket and the `ws` package both fit. */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: string, fn: (ev: { data?: unknown; code?: number; reason?: string }) => void): void;
}
export type WebSocketCtor = new (url: string) => WebSocketLike;

export const OPEN = 1;

/** globalThis.WebSocket (browsers, Node 22+), else the `ws` package (Node 20). */
export async function defaultWebSocket(): Promise<WebSocketCtor> {
  const g = (globalThis as { WebSocket?: WebSocketCtor }).WebSocket;
  if (g) return g;
  // A variable specifier keeps bundlers from pulling `ws` into browser builds.
  const name = 'ws';
  const mod = (await import(/* @vite-ignore */ name)) as {
    default: WebSocketCtor;
    WebSocket?: WebSocketCtor;
  };
  return mod.WebSocket ?? mod.default;
}

/** `http(s)://host` → `ws(s)://host`; a ws(s) URL is returned as is. */
export function toWsUrl(base: string): string {
  return base.replace(/^http/, 'ws');
}
