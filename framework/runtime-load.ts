type Runtime = typeof import('./runtime.js');

let loading: Promise<Runtime> | undefined;

/**
 * What runs the tests (runtime.ts), imported once: by the first fixture or assertion that runs, or
 * by the package's entry in a worker; later calls return the same module.
 */
export function loadRuntime(): Promise<Runtime> {
  return (loading ??= import('./runtime.js'));
}
