/** What a shell command on the simulated device answers: its stdout, stderr and exit status. */
export interface Reply {
  out?: string;
  err?: string;
  code: number;
}
