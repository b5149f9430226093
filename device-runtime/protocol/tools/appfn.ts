import { z } from 'zod';
import { defineTool } from '../tool.js';
import { SpaceIdSchema } from '../common.js';

const space_id = SpaceIdSchema;

export const AppFunctionSchema = z.object({
  id: z.string(),
  package: z.string(),
  description: z.string(),
  parameters: z.record(z.string(), z.unknown()).describe('JSON Schema of the parameters'),
});

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
  input: z.object({ space_id, package: z.string() }),
  result: z.object({ functions: z.array(AppFunctionSchema) }),
});

export const appfn_execute = defineTool({
  name: 'appfn_execute',
  title: 'Run AppFunction {function_id}',
  description: 'Execute an AppFunction; callers fall back to UI automation on failure.',
  mutating: true,
  input: z.object({
    space_id,
    package: z.string(),
    function_id: z.string(),
    params: z.record(z.string(), z.unknown()).default({}),
  }),
  result: z.object({ result: z.unknown() }),
});

export const appfnTools = [appfn_status, appfn_list, appfn_execute] as const;
