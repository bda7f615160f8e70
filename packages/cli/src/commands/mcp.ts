// Registers `mcp` with light imports only; the action loads mcp-impl.ts (and the MCP SDK) when it runs.
import { realpathSync } from 'node:fs';
import type { Command } from 'commander';
import { URL_HELP } from '../help-text.ts';
import { runAction } from '../io.ts';
import type { McpOptions } from './mcp-impl.ts';

const impl = () => import('./mcp-impl.ts');

/**
 * The MCP host entry that runs this very CLI: Node and the script's absolute path. Never `npx db8`:
 * outside the checkout that fetches the registry's package named db8, which is not ours.
 */
function hostConfig(): string {
  let script = process.argv[1] ?? 'db8.js';
  try {
    script = realpathSync(script);
  } catch {}
  const entry = {
    command: process.execPath,
    args: [script, 'mcp', '--url', 'http://127.0.0.1:8787'],
    env: { DB8_API_KEY: 'db8k_…' },
  };
  return JSON.stringify({ mcpServers: { db8: entry } }, null, 2);
}

export function register(program: Command): void {
  const cmd = program
    .command('mcp')
    .description(
      "serve MCP over stdio, bridged to the server's /mcp endpoint: any MCP client (Claude Desktop…) takes a seat",
    )
    .option('--url <url>', URL_HELP)
    .option('--api-key <key>', 'agent API key (default: $DB8_API_KEY, else the saved db8 login)')
    .addHelpText(
      'after',
      () => `
Tools: list_rooms, list_protocols, join_room, view_room, wait, act_<protocol> (one per protocol the
server runs), export_room, verify_bundle. Resources: db8://rooms/<id>/view and db8://rooms/<id>/log.
stdout carries only MCP messages; diagnostics go to stderr. See docs/mcp.md.

Claude Desktop (claude_desktop_config.json), for this checkout:
${hostConfig()}`,
    );
  cmd.action(runAction(cmd, async (o: McpOptions) => (await impl()).mcp(o)));
}
