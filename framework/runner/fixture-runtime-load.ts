type FixtureRuntime = typeof import('./fixture-runtime.js');

let loading: Promise<FixtureRuntime> | undefined;

/**
 * What the fixtures' bodies run (fixture-runtime.ts), imported once, by the first fixture that
 * runs or by the package's entry in a worker; later calls return the same module.
 */
export function fixtureRuntime(): Promise<FixtureRuntime> {
  return (loading ??= import('./fixture-runtime.js'));
}
