// The `spade` command line: start, tail, status, plus the commands an application adds; typed errors become one
// clear line and an exit code. The runtime knows no roles or message types of its own beyond its runtime ones:
// the application's composition root (app/main.ts) hands them in as a CliApp.
import { runAuthCommand } from './auth-command.js';
import { notifyOutputClosed, watchClosedOutput } from './closed-output.js';
import { useCatalog } from './message-catalog.js';
import type { MessageType } from './messages.js';
import type { RoleRegistry } from './roles.js';
import { isSpadeError } from './spade-error.js';
import { isUsageError } from './errors.js';
import { runStartCommand, START_HELP } from './start-host.js';
import { runStatusCommand } from './status.js';
import { runTailCommand } from './tail.js';

export interface CliCommand {
  /** One line for the command list of `spade --help`. */
  summary: string;
  run(argv: string[]): Promise<number>;
}

/** What an application hands the runtime's command line. */
export interface CliApp {
  /** Role name → actor factory (`spade start --role …`). */
  roles: RoleRegistry;
  /** The application's message types, so `spade tail` decodes every one. */
  catalog: readonly MessageType<unknown>[];
  /** Further commands, e.g. `env`. */
  commands?: Readonly<Record<string, CliCommand>>;
}

function runtimeCommands(app: CliApp): Record<string, CliCommand> {
  return {
    start: { summary: 'run actors on this host (same as: node runtime/start.js)', run: (a) => runStartCommand(a, app.roles) },
    tail: { summary: 'print decoded messages on a subject pattern as they arrive', run: (a) => runTailCommand(a) },
    status: { summary: 'members, consumer lag, redeliveries, dead letters, policy version', run: (a) => runStatusCommand(a) },
    auth: { summary: 'write per-role NATS credentials and the server config fragment (spade auth init DIR)', run: (a) => runAuthCommand(a, app.roles) },
  };
}

function commandsOf(app: CliApp): Record<string, CliCommand> {
  return { ...runtimeCommands(app), ...app.commands };
}

export function helpText(app: CliApp): string {
  const lines = Object.entries(commandsOf(app)).map(([name, c]) => `  ${name.padEnd(9)} ${c.summary}`);
  return `spade — self-play RL runtime over NATS JetStream

Usage: spade <command> [options]

Commands:
${lines.join('\n')}

Run 'spade <command> --help' for a command's options.
`;
}

export async function main(argv: string[], app: CliApp): Promise<number> {
  useCatalog(app.catalog);
  const [cmd, ...rest] = argv;
  if (cmd === undefined || cmd === '--help' || cmd === '-h' || cmd === 'help') {
    process.stdout.write(helpText(app));
    return cmd === undefined ? 2 : 0;
  }
  const commands = commandsOf(app);
  const command = Object.hasOwn(commands, cmd) ? commands[cmd] : undefined;
  if (!command) {
    process.stderr.write(`spade: unknown command ${JSON.stringify(cmd)}\n\n${helpText(app)}`);
    return 2;
  }
  return command.run(rest);
}

/**
 * A closed output ends the command quietly with exit code 0 (the reader took what it wanted), or with the command's
 * own code once it had finished. A host (`spade start`) registers with onOutputClosed and drains first, as on SIGTERM.
 */
function endOnClosedOutput(argv: string[], finished: () => boolean): void {
  watchClosedOutput(() => {
    if (finished()) return void process.exit(process.exitCode ?? 0);
    // A host still starting has not registered yet: it hears of it on registration.
    if (!notifyOutputClosed() && argv[0] !== 'start') process.exit(0);
  });
}

/** Runs `main` and maps errors to exit codes: usage 2, other typed errors 1 (one line, no stack); a closed output: 0. */
export async function runCli(argv: string[], app: CliApp): Promise<void> {
  let finished = false;
  endOnClosedOutput(argv, () => finished);
  try {
    process.exitCode = await main(argv, app);
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
  finished = true;
  if (process.exitCode !== 0 || argv[0] !== 'start') setImmediate(() => process.exit(process.exitCode));
}

export { START_HELP };
