// A bench's load in a child process (its clients or agents): the parent sends one spec over IPC,
// the child answers with one result and exits, so the load's own work is not charged to the event
// loop of the server under test.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const TSX = import.meta.resolve('tsx');

/** Runs `file` (a URL next to the caller) with `spec`; killed after `killAfterMs`. */
export function runChild<Spec, Result>(file: URL, spec: Spec, killAfterMs: number): Promise<Result> {
  const path = fileURLToPath(file);
  const child = fork(path, [], {
    execArgv: ['--import', TSX],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    let result: Result | null = null;
    const kill = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    child.once('message', (m) => {
      result = m as Result;
    });
    child.once('exit', (code) => {
      clearTimeout(kill);
      if (result) resolve(result);
      else reject(new Error(`${path} exited with ${code}`));
    });
    child.send(spec as object);
  });
}
