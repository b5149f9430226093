/** Where a command writes: the process's stdout/stderr, or a test's buffers. */
export type Io = { out: (text: string) => void; err: (text: string) => void };

export const stdio: Io = { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) };
