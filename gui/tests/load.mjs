// The page on a loaded machine: Chromium's CPU throttling stands in for cores shared with other work.
// (A page that drew every STATE took 15 s to answer here; drawing once a frame, under a second.)
import { newGame, expect, test, notes } from './lib.mjs';

const SLOWDOWN = 4; // the page's CPU at a quarter of its speed: both cores busy with other work, and more

test('a fast engine-against-engine stream on a slow CPU: the page answers and keeps up', 'nd-mccooey', async page => {
  await newGame(page, ['engine:0', 'engine:0'], ['movetime_ms', '20']);
  const id = await page.getAttribute('body', 'data-session');
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: SLOWDOWN });
  let worst = 0;
  let behind = 0;
  try {
    for (let i = 0; i < 12; i++) {
      await new Promise(resolve => setTimeout(resolve, 400));
      const server = await (await fetch(new URL(`/api/session/${id}`, page.url()))).json();
      const asked = performance.now();
      // the page answers a question while the stream runs: its main thread is not starved
      await page.evaluate(() => document.querySelectorAll('#movelist [data-move]').length);
      worst = Math.max(worst, performance.now() - asked);
      // and shows, within two seconds, at least the position the server had when asked
      const shown = await page.waitForFunction(n => document.querySelectorAll('#movelist [data-move]').length >= n,
        server.plies, { timeout: 2000 }).then(() => true, () => false);
      if (!shown) behind++;
    }
  } finally {
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  }
  notes.push(`slow CPU (×${SLOWDOWN}): the page answered within ${worst.toFixed(0)} ms, ${behind} of 12 times behind`);
  expect(worst < 2000, `the page took ${worst.toFixed(0)} ms to answer during the stream`);
  expect(behind === 0, `${behind} of 12 times the page was more than two seconds behind the server`);
});
