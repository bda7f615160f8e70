import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import type { AgentRunResult } from './client.ts';

/** Path of the agent process entry. */
export const POKER_AGENT_BIN = new URL('./bin.ts', import.meta.url).pathname;

/**
 * The command line that runs one reference agent as its own process: node with the tsx loader
 * (resolved to an absolute URL, so any working directory works) and bin.ts with `args`.
 */
export function agentCommand(args: readonly string[]): { command: string; args: string[] } {
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return { command: process.execPath, args: ['--import', tsx, POKER_AGENT_BIN, ...args] };
}

/** Runs bin.ts as a child process; resolves with the result line it prints when its table ends. */
export function runAgentProcess(args: string[]): Promise<AgentRunResult> {
  return new Promise((resolve, reject) => {
    const cmd = agentCommand(args);
    const child = spawn(cmd.command, cmd.args, {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += String(d);
    });
    child.stderr.on('data', (d) => {
      err += String(d);
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const last = out.trim().split('\n').at(-1);
      if (code !== 0 || !last)
        return reject(new Error(`agent ${args.join(' ')} exited ${code}: ${err.trim()}`));
      resolve(JSON.parse(last) as AgentRunResult);
    });
  });
}
