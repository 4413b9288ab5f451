#!/usr/bin/env node
// Browser tests of the GPT-2 download (web/attnlab.js "GPT-2 download", src/ui/gpt2_download.*), on one page and
// one reload, against a stand-in for Hugging Face on the test server (tests/browser/gpt2_download.mjs says what
// is checked). No request leaves the test server.
//
//   node tests/browser/gpt2dl.test.mjs [--web DIR]
import { check, suite, webDir } from './harness.mjs';
import { cspChecks, downloadChecks, mockHuggingFace } from './gpt2_download.mjs';

const { test, run, ctx } = suite('GPT-2 download');
// What Chromium logs for the failures the checks cause on purpose (a 404, a dropped or blocked request).
const expected = (p) => /Failed to load resource.*(404|ERR_BLOCKED_BY_CLIENT|ERR_)/.test(p);

test('Content-Security-Policy: connect-src allows exactly huggingface.co and *.hf.co', async () => {
  return cspChecks(ctx.server, webDir);
});

test('download GPT-2 through a mock: progress, Cache Storage, reload, Remove, Cancel, failures in words', async () => {
  const mock = mockHuggingFace(ctx.server);
  const { page, problems, close } = await ctx.openPage();
  try {
    const note = await downloadChecks(ctx, page, mock);
    const real = problems.filter((p) => !expected(p));
    check(real.length === 0, real.join('\n'));
    return note;
  } finally {
    await close();
  }
});

run();
