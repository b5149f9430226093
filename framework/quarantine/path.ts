import path from 'node:path';

/** The file's name beside the config. */
export const QUARANTINE_FILE = 'nestwright.quarantine.json';

/**
 * The quarantine file of a run: `NESTWRIGHT_QUARANTINE`, else `nestwright.quarantine.json` in
 * `configDir`. Apart from quarantine.ts (and its schema) so the global setup can see there is none
 * without loading it.
 */
export function quarantinePath(configDir: string): string {
  const env = process.env.NESTWRIGHT_QUARANTINE;
  return env ? path.resolve(configDir, env) : path.join(configDir, QUARANTINE_FILE);
}
