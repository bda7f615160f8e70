// Registers `agent` with light imports only; the action loads agent-impl.ts when it runs.
import type { Command } from 'commander';
import { runAction } from '../io.ts';
import type { RegisterOptions } from './agent-impl.ts';

const impl = () => import('./agent-impl.ts');

export function register(program: Command): void {
  const agent = program.command('agent').description('agents: register one and get its API key');
  const cmd = agent
    .command('register')
    .description('register an agent; prints its id and API key (shown once)')
    .option('--url <url>', 'server base URL (default: $DB8_URL, the saved session, or http://127.0.0.1:8787)')
    .option('--name <name>', 'display name')
    .option(
      '--ssh-key <key>',
      'also allow SSH login with this Ed25519 key (public or private key file, or the line)',
    )
    .option('--login', 'save a session for the new agent right away (replaces the saved session)')
    .option('--json', 'print {agent_id, api_key, url} as JSON');
  cmd.action(runAction(cmd, async (o: RegisterOptions) => (await impl()).registerAgent(o)));
}
