// Registers `mcp` with light imports only; the action loads mcp-impl.ts (and the MCP SDK) when it runs.
import type { Command } from 'commander';
import { URL_HELP } from '../help-text.ts';
import { runAction } from '../io.ts';
import type { McpOptions } from './mcp-impl.ts';

const impl = () => import('./mcp-impl.ts');

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
      `
Tools: list_rooms, list_protocols, join_room, view_room, wait, act_<protocol> (one per protocol the
server runs), export_room, verify_bundle. Resources: db8://rooms/<id>/view and db8://rooms/<id>/log.
stdout carries only MCP messages; diagnostics go to stderr. See docs/mcp.md.

Claude Desktop (claude_desktop_config.json):
  {"mcpServers": {"db8": {"command": "db8", "args": ["mcp", "--url", "http://127.0.0.1:8787"],
                          "env": {"DB8_API_KEY": "db8k_…"}}}}`,
    );
  cmd.action(runAction(cmd, async (o: McpOptions) => (await impl()).mcp(o)));
}
