import { z } from 'zod';

/**
 * What a visual comparison step records in the trajectory (`steps[].visual`): the baseline, how
 * it ended, how many pixels differed against which tolerance, what was masked and left out, and
 * the names of the test attachments holding the pictures (Allure and the trace view show them).
 */
export const VisualRecordSchema = z.object({
  name: z.string().describe('The snapshot name, e.g. settings.png'),
  baseline: z.string().describe('Path of the baseline file'),
  outcome: z
    .enum(['matched', 'different', 'unstable', 'unsettled', 'missing', 'written'])
    .describe(
      'matched; different (a diff); unstable (two pictures in a row never matched); unsettled (the device never reported idle); missing (no baseline, none written); written (baseline written or rewritten)',
    ),
  diffPixels: z
    .number()
    .int()
    .optional()
    .describe('Pixels that differed from the baseline (or between the last two pictures, when unstable)'),
  ratio: z.number().optional().describe('diffPixels over all pixels, rounded up to hundredths'),
  threshold: z.number(),
  maxDiffPixels: z.number().optional(),
  maxDiffPixelRatio: z.number().optional(),
  masks: z.array(z.string()).describe('The mask locators'),
  excluded: z
    .array(z.string())
    .describe('System UI left out of the comparison: status_bar, navigation_bar, caret, scrollbar'),
  size: z.object({ width: z.number().int(), height: z.number().int() }).optional().describe('Of the picture compared'),
  attachments: z
    .object({
      expected: z.string().optional(),
      actual: z.string().optional(),
      diff: z.string().optional(),
      previous: z.string().optional(),
    })
    .describe('Names of the test attachments with the pictures'),
});
/** What a visual comparison step records in the trajectory. */
export type VisualRecord = z.infer<typeof VisualRecordSchema>;
