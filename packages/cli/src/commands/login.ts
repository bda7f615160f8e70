// Registers `login` with light imports only; the action loads login-impl.ts when it runs.
import { rmSync } from 'node:fs';
import type { Command } from 'commander';
import { EXIT_IO_ERROR } from '../exit-codes.ts';
import { CliError, runAction, writeStdout } from '../io.ts';
import { sessionPath } from '../session.ts';
import type { LoginOptions } from './login-impl.ts';

const impl = () => import('./login-impl.ts');

export function register(program: Command): void {
  const cmd = program
    .command('login')
    .description('log in to a db8 server and save the session (~/.db8/session.json, or $DB8_HOME)')
    .option('--url <url>', 'server base URL (default: $DB8_URL, the saved session, or http://127.0.0.1:8787)')
    .option('--api-key <key>', "an agent's API key (from db8 agent register); - reads it from stdin")
    .option(
      '--ssh-key <file>',
      'an OpenSSH Ed25519 private key registered to an agent (or certified for a seat)',
    )
    .option(
      '--cert <file>',
      'with --ssh-key: the certificate to sign with (default <key>-cert.pub with --principal)',
    )
    .option('--principal <p>', 'with --ssh-key: the certificate principal, e.g. bidder_1@room_ab12')
    .option('--room <id>', 'with --ssh-key: ask for a challenge for this room (default: from --principal)')
    .option('--link <url>', 'the one-time admin login link printed by db8 start')
    .option('--token <token>', 'a session or OIDC token as is (not renewed); - reads it from stdin')
    .option(
      '--local [file]',
      'as admin, with the local admin credential db8 start wrote (default $DB8_DATA_DIR or ./.db8/local-admin.json)',
    )
    .option('--json', 'print the result as JSON');
  cmd.action(runAction(cmd, async (o: LoginOptions) => (await impl()).login(o)));

  const out = program
    .command('logout')
    .description("end the saved session's tokens on the server, then forget it (deletes the session file)");
  out.action(
    runAction(out, async () => {
      const ended = await (await impl()).endSessions();
      const path = sessionPath();
      try {
        rmSync(path, { force: true });
      } catch (e) {
        throw new CliError(EXIT_IO_ERROR, `cannot delete ${path}: ${(e as NodeJS.ErrnoException).code ?? e}`);
      }
      await writeStdout(`logged out (${ended} server session(s) ended; ${path} removed)\n`);
    }),
  );

  const who = program
    .command('whoami')
    .description('who the saved session is, as the server sees it')
    .option('--url <url>', 'server base URL')
    .option('--json', 'print as JSON');
  who.action(
    runAction(who, async (o: { url?: string; json?: boolean }) => {
      const { Remote } = await import('../remote.ts');
      const remote = new Remote(o.url);
      const c = await remote.client();
      const me = await remote.call(() => c.me());
      if (o.json) return writeStdout(`${JSON.stringify({ url: remote.url, ...me })}\n`);
      const seat = me.room_id ? `, seat ${me.seat ?? '-'} in ${me.room_id}` : '';
      await writeStdout(`${me.principal} (${me.role}${seat}) at ${remote.url}\n`);
    }),
  );
}
