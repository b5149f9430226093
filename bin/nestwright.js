#!/usr/bin/env node
// nestwright's command line. The sources are TypeScript; tsx loads them without a build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../cli/index.ts');
process.exitCode = await main(process.argv.slice(2));
