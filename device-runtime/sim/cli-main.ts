/** `npx tsx device-runtime/sim/cli-main.ts [flags]`: `nestwright sim` without the CLI dispatcher (tests spawn this). */
import { simCommand } from './cli.js';

process.exitCode = await simCommand(process.argv.slice(2));
