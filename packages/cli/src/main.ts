import { Command } from 'commander';
import { register as registerAct } from './commands/act.ts';
import { register as registerAgent } from './commands/agent.ts';
import { register as registerCanon } from './commands/canon.ts';
import { register as registerExport } from './commands/export.ts';
import { register as registerHash } from './commands/hash.ts';
import { register as registerLogin } from './commands/login.ts';
import { register as registerReplay } from './commands/replay.ts';
import { register as registerRoom } from './commands/room.ts';
import { register as registerSshsig } from './commands/sshsig.ts';
import { register as registerStart } from './commands/start.ts';
import { register as registerVerify } from './commands/verify.ts';
import { register as registerWatch } from './commands/watch.ts';
import { register as registerCouncil } from './protocols/council/index.ts';
import { register as registerDebate } from './protocols/debate/index.ts';
import { register as registerPoker } from './protocols/poker/index.ts';

export async function main(argv: string[]): Promise<number> {
  const program = new Command('db8').description('db8 command line').version('0.1.0');
  registerCanon(program);
  registerHash(program);
  registerCouncil(program);
  registerReplay(program);
  registerSshsig(program);
  registerStart(program);
  // room client: login, agents, rooms, actions, watch
  registerLogin(program);
  registerAgent(program);
  registerRoom(program);
  registerAct(program);
  registerWatch(program);
  registerExport(program);
  registerVerify(program);
  registerPoker(program);
  registerDebate(program); // debate, demo, draft, submit, resubmit, vote, auth
  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (err) {
    process.stderr.write(`db8: ${(err as Error).message}\n`);
    return 1;
  }
}
