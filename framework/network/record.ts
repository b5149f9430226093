import { z } from 'zod';

/**
 * One request of the test as the trajectory records it (`network[]`): what the app asked, what
 * it got, how long it took, and which route answered it. Allure shows them as a table on the
 * test; the HAR of the same requests is attached when the test fails.
 */
export const NetworkRecordSchema = z.object({
  instance: z.string().nullable().describe('The instance that made it'),
  method: z.string(),
  url: z.string(),
  status: z.number().int().nullable().describe('The status the app got; null when the request failed'),
  startedAt: z.number().describe('Epoch ms'),
  durationMs: z.number(),
  answeredBy: z
    .string()
    .describe(
      "Who answered: 'network' (no route), 'route <url> (fulfill|continue|fetch)', 'har <file>', or 'abort' with the route",
    ),
  error: z.string().optional().describe('Why it failed: the abort code, the handler error, the network error'),
});
/** One request of the test as the trajectory records it. */
export type NetworkRecord = z.infer<typeof NetworkRecordSchema>;
