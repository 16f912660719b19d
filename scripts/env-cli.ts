// Manual entry for `spade env ...` before the CLI wires it: node dist/scripts/env-cli.js check FILE...
import { envCommand } from '../sandbox/cli-env.js';

process.exitCode = await envCommand(process.argv.slice(2));
