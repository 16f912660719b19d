// The `spade` command line: start, tail, status, env; typed errors become one clear line and an exit code.
import { isSpadeError } from './spade-error.js';
import { isUsageError } from './errors.js';
import { runStartCommand, START_HELP } from './start-host.js';
import { runStatusCommand } from './status.js';
import { runTailCommand } from './tail.js';

export const HELP = `spade — self-play RL runtime over NATS JetStream

Usage: spade <command> [options]

Commands:
  start     run actors on this host (same as: node runtime/start.js)
  tail      print decoded messages on a subject pattern as they arrive
  status    members, consumer lag, redeliveries, dead letters, policy version
  env       check or play environment modules (spade env --help)
  eval      play checkpoints on a suite of environments, with confidence intervals (spade eval --help)

Run 'spade <command> --help' for a command's options.
`;

type Command = (argv: string[]) => Promise<number>;

async function envCommand(argv: string[]): Promise<number> {
  let mod: { envCommand?: Command };
  const specifier = '../sandbox/cli-env.js'; // resolved at run time: the sandbox is an optional part of a build
  try {
    mod = (await import(specifier)) as { envCommand?: Command };
  } catch {
    process.stderr.write('spade env: the sandbox is not built in this checkout\n');
    return 2;
  }
  return mod.envCommand!(argv);
}

async function evalCommand(argv: string[]): Promise<number> {
  return ((await import('../eval/cli-eval.js')) as { evalCommand: Command }).evalCommand(argv);
}

const COMMANDS: Record<string, Command> = {
  start: runStartCommand,
  tail: (a) => runTailCommand(a),
  status: (a) => runStatusCommand(a),
  env: envCommand,
  eval: evalCommand,
};

export async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  if (cmd === undefined || cmd === '--help' || cmd === '-h' || cmd === 'help') {
    process.stdout.write(HELP);
    return cmd === undefined ? 2 : 0;
  }
  const run = COMMANDS[cmd];
  if (!run) {
    process.stderr.write(`spade: unknown command ${JSON.stringify(cmd)}\n\n${HELP}`);
    return 2;
  }
  return run(rest);
}

/** Runs `main` and maps errors to exit codes: usage 2, other typed errors 1 (one line, no stack). */
export async function runCli(argv: string[], entry: (argv: string[]) => Promise<number> = main): Promise<void> {
  try {
    process.exitCode = await entry(argv);
  } catch (err) {
    if (isUsageError(err)) {
      process.stderr.write(`spade: ${err.message}\n`);
      process.exitCode = 2;
    } else if (isSpadeError(err)) {
      process.stderr.write(`spade: ${err.name}: ${err.message}\n`);
      process.exitCode = 1;
    } else {
      process.stderr.write(`spade: unexpected error: ${(err as Error)?.stack ?? String(err)}\n`);
      process.exitCode = 1;
    }
  }
  if (process.exitCode !== 0 || argv[0] !== 'start') setImmediate(() => process.exit(process.exitCode));
}

export { START_HELP };
