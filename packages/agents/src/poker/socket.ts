/** The few WebSocket calls the agent runner makes, over the `ws` package (Node 20 has no global WebSocket). */
export interface AgentSocket {
  send(text: string): void;
  close(): void;
  onMessage(fn: (text: string) => void): void;
  onClose(fn: (code: number, reason: string) => void): void;
}

interface WsLike {
  send(data: string): void;
  close(): void;
  on(ev: 'message', fn: (data: unknown) => void): void;
  on(ev: 'close', fn: (code: number, reason: unknown) => void): void;
  once(ev: 'open', fn: () => void): void;
  once(ev: 'error', fn: (err: Error) => void): void;
}

export async function openSocket(url: string): Promise<AgentSocket> {
  // A variable specifier: `ws` has no bundled types, and bundlers should not pull it into browsers.
  const name = 'ws';
  const mod = (await import(/* @vite-ignore */ name)) as { WebSocket: new (url: string) => WsLike };
  const ws = new mod.WebSocket(url);
  // Listen from the start: frames that arrive with the upgrade response are emitted right after
  // 'open', before the caller could attach a handler; keep them until it does.
  const early: string[] = [];
  let handler: ((text: string) => void) | null = null;
  ws.on('message', (d) => {
    const text = String(d);
    if (handler) handler(text);
    else early.push(text);
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  return {
    send: (text) => ws.send(text),
    close: () => ws.close(),
    onMessage: (fn) => {
      handler = fn;
      for (const text of early.splice(0)) fn(text);
    },
    onClose: (fn) => ws.on('close', (code, reason) => fn(code, String(reason))),
  };
}
