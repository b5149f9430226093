import { z } from 'zod';
import { defineTool } from '../tool.js';
import { SpaceIdSchema } from '../common.js';

const space_id = SpaceIdSchema;
const instance = z
  .string()
  .optional()
  .describe("The instance whose data the function acts on (the `instance` extension; default '0')");

/**
 * One function an app declares (Android's AppFunctions: an `@AppFunction` method of the app,
 * found through AppFunctionManager): what it does, the JSON Schema of its parameters and of its
 * result, and whether calling it needs a human approval first.
 */
export const AppFunctionSchema = z.object({
  id: z.string(),
  package: z.string(),
  description: z.string(),
  parameters: z.record(z.string(), z.unknown()).describe('JSON Schema of the parameters'),
  result: z.record(z.string(), z.unknown()).optional().describe('JSON Schema of the result'),
  dangerous: z
    .boolean()
    .default(false)
    .describe('Calling it needs an approval (approval_request for appfn_execute with this function_id)'),
});
export type AppFunction = z.infer<typeof AppFunctionSchema>;

export const appfn_status = defineTool({
  name: 'appfn_status',
  title: 'AppFunctions status',
  description: 'Report availability of Android 16+ AppFunctionManager / EXECUTE_APP_FUNCTIONS.',
  input: z.object({ space_id }),
  result: z.object({
    available: z.boolean(),
    api_level: z.number().int(),
    reason: z.string().nullable(),
  }),
});

export const appfn_list = defineTool({
  name: 'appfn_list',
  title: 'List AppFunctions of {package}',
  description: 'List AppFunctions exposed by the target package.',
  input: z.object({ space_id, package: z.string(), instance }),
  result: z.object({ functions: z.array(AppFunctionSchema) }),
});

export const appfn_execute = defineTool({
  name: 'appfn_execute',
  title: 'Run AppFunction {function_id}',
  description:
    'Execute an AppFunction; callers fall back to UI automation on failure. A function marked dangerous needs an approval for appfn_execute naming its function_id.',
  mutating: true,
  input: z.object({
    space_id,
    package: z.string(),
    function_id: z.string(),
    params: z.record(z.string(), z.unknown()).default({}),
    instance,
  }),
  result: z.object({ result: z.unknown() }),
});

export const appfnTools = [appfn_status, appfn_list, appfn_execute] as const;
