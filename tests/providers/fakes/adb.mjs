#!/usr/bin/env node
// A fake `adb` for nestwright's tests: the client half. Like the real one it talks to a server
// (tests/providers/fakes/adb-server.ts) that keeps devices, forwards and runtimes; it starts that
// server when none answers, as `adb` does, and prints what the server sends. Its state lives in
// $NESTWRIGHT_FAKE_ANDROID (a temp dir made by the tests).
import { connectOrStart } from './client-lib.mjs';

const sock = await connectOrStart('adb', true);
sock.write(
  JSON.stringify({
    tool: 'adb',
    argv: process.argv.slice(2),
    cwd: process.cwd(),
    serialEnv: process.env.ANDROID_SERIAL ?? null,
  }) + '\n',
);
