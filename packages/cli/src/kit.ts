// The CLI kit: what a protocol's CLI module imports from the command line to register its commands
// (light: commander and @db8/core only, so `db8 --help` stays fast). What its actions need once they
// run is in kit-run.ts. test/boundaries.test.ts keeps modules to these two files.

export { demoGroup } from './commands/demo.ts';
export {
  EXIT_AUTH,
  EXIT_INVALID_INPUT,
  EXIT_IO_ERROR,
  EXIT_REJECTED,
  EXIT_USAGE,
  EXIT_VERIFICATION_FAILED,
} from './exit-codes.ts';
export { ROOM_HELP, URL_HELP } from './help-text.ts';
export { CliError, inputName, readTextInput, runAction, writeStdout } from './io.ts';
export { type Progress, type ProgressOptions, progress } from './progress.ts';
export type { CliModule } from './protocols/module.ts';
export { clock, deadlineText } from './watch-format.ts';
