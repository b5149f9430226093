import { z } from 'zod';

/**
 * A tool of the device protocol: its name, a title template for reports and `test.step`
 * (`'Tap {target}'`; placeholders are input fields), whether it mutates the space (and so needs an
 * EXCLUSIVE lease, docs/protocol.md#leases), whether it is dangerous (and so needs approval, docs/protocol.md#approvals), and the zod
 * schemas of its input and result. Everything else — JSON Schema for MCP, TypeScript types, LLM
 * tool descriptions — is derived from these.
 */
export interface ToolDef<
  N extends string = string,
  I extends z.ZodObject = z.ZodObject,
  R extends z.ZodObject = z.ZodObject,
> {
  readonly name: N;
  readonly title: string;
  readonly description: string;
  /** Needs an EXCLUSIVE lease on `space_id`. */
  readonly mutating: boolean;
  /** Needs human approval unless a policy pre-approves it. */
  readonly dangerous: boolean;
  /** Not in the NestSpace design; a runtime lists the extensions it offers in runtime_info. */
  readonly extension: boolean;
  /**
   * The extension an extension tool belongs to when it is one of a family (`world`): a runtime
   * lists the family's name in runtime_info, not each tool's. Absent: the tool's own name.
   */
  readonly group?: string;
  readonly input: I;
  readonly result: R;
  /**
   * A base64 field of the result that travels over MCP as an `image` content block rather than
   * inside structuredContent (see wire.ts): MCP clients show images and hand them to models as
   * pictures, while the same bytes as JSON text are megabytes of noise.
   */
  readonly imageField?: string;
}

/** A tool of the protocol: its name, title template, description, flags and zod schemas of arguments and result. */
export function defineTool<N extends string, I extends z.ZodObject, R extends z.ZodObject>(def: {
  name: N;
  title: string;
  description: string;
  mutating?: boolean;
  dangerous?: boolean;
  extension?: boolean;
  group?: string;
  input: I;
  result: R;
  imageField?: keyof z.output<R> & string;
}): ToolDef<N, I, R> {
  return {
    mutating: false,
    dangerous: false,
    extension: false,
    ...def,
  };
}
