/** A failed expectation inside a check: becomes its `fail` outcome with what came back. */
export class CheckFailed extends Error {
  constructor(readonly received: string) {
    super(received);
  }
}

/** Throw {@link CheckFailed} with `received` unless `cond`. */
export function expectThat(cond: unknown, received: string): asserts cond {
  if (!cond) throw new CheckFailed(received);
}
