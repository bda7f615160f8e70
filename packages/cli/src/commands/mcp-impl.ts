// `db8 mcp`: an MCP server on stdio that forwards every message to the db8 server's Streamable HTTP
// endpoint (/mcp) and every answer and notification back. The server defines the tools, so the
// bridge never goes stale when protocols are added; it only adds credentials and the db8 version.

import { PROTOCOL_VERSION } from '@db8/sdk';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  ErrorCode,
  type InitializeResult,
  isJSONRPCRequest,
  type JSONRPCMessage,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { Remote } from '../remote.ts';

export interface McpOptions {
  url?: string;
  apiKey?: string;
}

/** Where the token comes from: an API key never expires here; a saved login is renewed per request. */
function credentials(remote: Remote, o: McpOptions): () => Promise<string> {
  const key = o.apiKey ?? (process.env.DB8_API_KEY || undefined);
  if (key) return async () => key;
  const saved = remote.session?.credential;
  if (saved?.kind === 'api_key') return async () => saved.apiKey;
  return () => remote.token();
}

export async function mcp(o: McpOptions): Promise<void> {
  const remote = new Remote(o.url);
  const token = credentials(remote, o);
  await token(); // fail now, on the terminal, when there is no credential at all
  const http = new StreamableHTTPClientTransport(new URL(`${remote.url}/mcp`), {
    fetch: async (input, init) => {
      const headers = new Headers(init?.headers);
      headers.set('authorization', `Bearer ${await token()}`);
      headers.set('db8-protocol-version', PROTOCOL_VERSION);
      return fetch(input, { ...init, headers });
    },
  });
  const stdio = new StdioServerTransport();
  const initializing = new Set<RequestId>();
  // Messages that arrive while an initialize is on its way up wait for its answer: until then there
  // is no MCP session (nor negotiated version) to send them with.
  let held: JSONRPCMessage[] | null = null;
  const release = () => {
    const waiting = held ?? [];
    held = null;
    for (const m of waiting) forward(m);
  };

  const fail = (id: RequestId, err: unknown) =>
    stdio
      .send({ jsonrpc: '2.0', id, error: { code: -32000, message: (err as Error).message ?? String(err) } })
      .catch(() => {});

  const forward = (m: JSONRPCMessage) => {
    if (held) {
      held.push(m);
      return;
    }
    const init = isJSONRPCRequest(m) && m.method === 'initialize';
    if (init) {
      initializing.add(m.id);
      held = [];
    }
    http.send(m).catch((err) => {
      if (isJSONRPCRequest(m)) void fail(m.id, err);
      else process.stderr.write(`db8 mcp: ${(err as Error).message}\n`);
      if (init && initializing.delete(m.id)) release();
    });
  };
  stdio.onmessage = forward;
  // A line that is not JSON-RPC gets JSON-RPC's own answer (the transport drops it otherwise).
  stdio.onerror = (err) => {
    const parse = err instanceof SyntaxError;
    if (!parse && (err as Error).name !== 'ZodError') {
      process.stderr.write(`db8 mcp: ${err.message}\n`);
      return;
    }
    void stdio
      .send({
        jsonrpc: '2.0',
        id: null,
        error: parse
          ? { code: ErrorCode.ParseError, message: `Parse error: ${err.message}` }
          : { code: ErrorCode.InvalidRequest, message: 'Invalid Request: not a JSON-RPC 2.0 message' },
      } as unknown as JSONRPCMessage)
      .catch(() => {});
  };
  http.onmessage = (m: JSONRPCMessage) => {
    const answered =
      'id' in m && m.id !== undefined && ('result' in m || 'error' in m) && initializing.delete(m.id);
    // Later requests must carry the negotiated MCP version, as the SDK's own Client would send it.
    if (answered && 'result' in m) http.setProtocolVersion((m.result as InitializeResult).protocolVersion);
    void stdio.send(m).catch(() => {});
    if (answered) release();
  };
  http.onerror = (err) => process.stderr.write(`db8 mcp: ${err.message}\n`);

  const closed = new Promise<void>((resolve) => {
    stdio.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await http.start();
  await stdio.start();
  await closed;
  await http.terminateSession().catch(() => {});
  await http.close();
}
