/**
 * `nestwright record --app path.apk -o skills/<name>.yaml [--name n] [--device URL] [--port N] [--no-open]`
 *
 * Record a skill from what a person does: the inspector of `nestwright codegen` (the live screen,
 * its node tree, the locators), opened on a fresh instance of the app, recording every tap,
 * fill, key and assertion as a skill step. The page's Save writes the file at any time; stopping
 * the command (Ctrl-C) writes it too. Nothing here records on its own: the inspector's recorder
 * (cli/inspector/recorder.ts) does, as it does for codegen. Exit 0 written, 1 nothing recorded or
 * the device could not be reached, 2 usage.
 */
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parseSkill } from '../../device-runtime/protocol/skill/index.js';
import { LiveInspector } from '../inspector/live.js';
import { startInspectorServer } from '../inspector/server.js';
import { allowedPath } from '../mcp/tools/files.js';
import { openBrowser } from './codegen.js';

const USAGE = `usage: nestwright record (--app path.apk | --package P) -o skills/<name>.yaml [options]

Record a skill by doing the task yourself: the inspector opens on a fresh instance of the app;
every tap, fill, key and assertion you make there is a step of the skill. Save in the page, or
stop the command (Ctrl-C), to write the skill.

  -o, --output F  the skill file to write, under skills/ (e.g. skills/add-note.yaml)
  --name N        the skill's name (default: from the file name)
  --app F         an APK to install and launch (relative to the project)
  --package P     an app already installed in the space
  --device URL    a NestSpace runtime's MCP address (token from NESTSPACE_TOKEN);
                  default: a simulated device started for the session
  --port N        the page's port on 127.0.0.1 (default: a free one)
  --no-open       print the address, do not open a browser
`;

export async function recordCommand(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      options: {
        app: { type: 'string' },
        package: { type: 'string' },
        output: { type: 'string', short: 'o' },
        name: { type: 'string' },
        device: { type: 'string' },
        port: { type: 'string' },
        'no-open': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (e) {
    process.stderr.write(`nestwright record: ${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) return (process.stdout.write(USAGE), 0);
  const fail = (m: string, code = 2) => (process.stderr.write(`nestwright record: ${m}\n`), code);
  if (!values.app === !values.package) return fail('give one of --app path.apk or --package P');
  if (values.app && !existsSync(values.app)) return fail(`--app ${values.app}: no such file`);
  if (!values.output) return fail('give the skill file to write: -o skills/<name>.yaml');
  if (!/\.ya?ml$/.test(values.output) || path.normalize(values.output).split(path.sep)[0] !== 'skills')
    return fail(`-o ${values.output}: a skill is written under skills/ as .yaml (e.g. skills/add-note.yaml)`);
  let out: string;
  try {
    out = await allowedPath(process.cwd(), values.output);
  } catch (e) {
    return fail((e as Error).message);
  }
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    return fail(`--port ${values.port}: expected a port number 0-65535`);
  const name =
    values.name ??
    path
      .basename(out)
      .replace(/\.ya?ml$/i, '')
      .toLowerCase()
      .replace(/[^a-z0-9._-]+/g, '-');
  const device = values.device
    ? { provider: 'nestspace', url: values.device, token: process.env.NESTSPACE_TOKEN ?? '' }
    : undefined;
  const live = new LiveInspector(process.cwd(), values.app ?? values.package!, device);
  try {
    await live.connect();
  } catch (e) {
    await live.close();
    return fail((e as Error).message, 1);
  }
  const server = await startInspectorServer({ port, live });
  const rel = path.relative(process.cwd(), out);
  process.stdout.write(
    `nestwright record at ${server.url}\nRecording a skill of ${live.app}: do the task in the page. Save there, or press Ctrl-C here, to write ${rel}.\n`,
  );
  if (!values['no-open']) openBrowser(server.url);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  const steps = live.recording.steps.length;
  // The recorder's text, checked with the skill parser before it is written.
  const text = live.recording.toSkill(name);
  await server.close();
  if (steps === 0) return fail(`nothing was recorded; ${rel} was not written`, 1);
  try {
    parseSkill(text, rel);
  } catch (e) {
    return fail(`the recording does not parse as a skill: ${(e as Error).message}`, 1);
  }
  await mkdir(path.dirname(out), { recursive: true });
  await writeFile(out, text);
  process.stdout.write(`wrote ${rel}: ${steps} step${steps === 1 ? '' : 's'}\n`);
  return 0;
}
