import { rmSync } from 'node:fs';
import { join } from 'node:path';

/** Where a project's proposals of the last run live (cleared when a run starts). */
export const proposalsDir = (projectDir: string) => join(projectDir, '.nestwright', 'heal', 'proposals');

/** A run's start clears the last run's proposals (the global setup: without loading proposals.ts and its schema). */
export function clearProposals(projectDir: string): void {
  rmSync(proposalsDir(projectDir), { recursive: true, force: true });
}
