/**
 * The one error type the APK readers throw. Every reader converts whatever went wrong (a short
 * read, a bad offset, a zip-library error, an oversized entry) into an ApkError with code
 * INVALID_APK, so callers — the simulator's installer and `nestwright inspect` — switch on one code
 * and never see a RangeError or a raw yauzl message.
 */
export class ApkError extends Error {
  readonly code = 'INVALID_APK' as const;
  /** Short machine-oriented reason, e.g. `manifest: string pool offset out of bounds`. */
  readonly reason: string;
  /** The file the error is about, when known. */
  readonly file: string | undefined;
  /** What to do about it (the end of the message). */
  readonly hint: string | undefined;
  /**
   * Machine-readable facts for the preflight check's `details`; a zip bomb sets `problem`
   * (`ZIP_ENTRIES_OVERLAP`, `INFLATE_LIMIT`) and the figures.
   */
  readonly details: Record<string, unknown> | undefined;

  constructor(
    reason: string,
    opts: { file?: string; hint?: string; cause?: unknown; details?: Record<string, unknown> } = {},
  ) {
    const where = opts.file ? ` (${opts.file})` : '';
    const hint =
      opts.hint ??
      'Check that the file is a complete, unmodified APK (or .apks/.xapk bundle) and rebuild or re-download it.';
    super(`inspectApk: ${reason}${where}. ${hint}`, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'ApkError';
    this.reason = reason;
    this.file = opts.file;
    this.hint = opts.hint;
    this.details = opts.details;
  }
}

/** Throws an ApkError unless `cond` holds. Used by the readers for every bounds check. */
export function check(cond: boolean, reason: string): asserts cond {
  if (!cond) throw new ApkError(reason);
}

/** Re-throws `err` as an ApkError tagged with `file` (keeps an existing ApkError's reason, hint and details). */
export function asApkError(err: unknown, file: string): ApkError {
  if (err instanceof ApkError)
    return err.file ? err : new ApkError(err.reason, { file, hint: err.hint, details: err.details, cause: err.cause });
  const msg = err instanceof Error ? err.message : String(err);
  return new ApkError(`unreadable zip: ${msg}`, { file, cause: err });
}
