// Browser tests of the game review (docs/gui.md#game-review): a two-player game with a blunder, a three-player
// game, the stop button, and the review's marks in the PGN export. Small budgets keep them quick.
import { SHOTS, newGame, loadFen, sessionState, waitMoves, movesPlayed, expect, test } from './lib.mjs';
import path from 'node:path';

/** Types each move in the move box and waits for it in the move list. */
async function playMoves(page, moves) {
  for (const move of moves) {
    const n = (await movesPlayed(page)).length;
    await page.fill('#move-entry input', move);
    await page.press('#move-entry input', 'Enter');
    await waitMoves(page, n + 1);
  }
}

/** Plays the first legal move `n` times (every seat human). */
async function playFirstMoves(page, n) {
  for (let i = 0; i < n; i++) await playMoves(page, [(await sessionState(page)).legal[0]]);
}

/** Starts a review at `budget` ("nodes:2000") with the Review button beside the board. */
async function review(page, budget) {
  await page.click('[data-tab=review]');
  await page.selectOption('#review-budget', budget);
  await page.click('#review');
}

/** Waits for the review's end; on a timeout says how far it got. */
const reviewDone = (page, timeout = 30000) => page.waitForSelector('#review-panel[data-review=done]', { timeout })
  .catch(async err => {
    throw new Error(`${err.message.split('\n')[0]} (review: ${await page.textContent('#review-progress-text')})`);
  });

// Glinski: 1. Qb4?? gives the queen away (Black's queen takes it).
const BLUNDER = ['e1b4', 'e10b4', 'i2i3', 'i7i6'];

test('review: a two-player blunder gets ?? and a better move; accuracy per player; PGN marks', 'glinski', async page => {
  await newGame(page, ['human', 'human']);
  await playMoves(page, BLUNDER);
  await review(page, 'nodes:2000');
  await reviewDone(page);
  expect(await page.getAttribute('#review-progress', 'data-percent') === '100', 'the progress is not at 100 %');
  expect(await page.isHidden('#review-stop'), 'the stop button is shown after the review');
  const first = page.locator('#review-moves li[data-ply="1"]');
  expect(await first.getAttribute('class') === 'judged blunder', `move 1 is ${await first.getAttribute('class')}`);
  const move = await first.locator('.move').textContent();
  expect(move === 'Qb4??', `move 1 reads ${move}`);
  const best = await first.locator('.best').textContent();
  expect(best && best !== 'Qb4', `better move '${best}'`);
  expect(await page.getAttribute('#movelist [data-ply="1"]', 'data-nag') === '??', 'the move list has no ?? on Qb4');
  const accuracy = await page.locator('#review-accuracy [data-army]').evaluateAll(els =>
    Object.fromEntries(els.map(e => [e.dataset.army, Number(e.dataset.accuracy)])));
  expect(Object.keys(accuracy).join() === 'w,b', `accuracy for ${Object.keys(accuracy)}`);
  expect(accuracy.w < accuracy.b, `White blundered but has ${accuracy.w} against Black's ${accuracy.b}`);
  // the marked move's better move is drawn from the position before it
  await first.click();
  await page.waitForSelector('#movelist [data-ply="1"]:not(.current)');
  await page.waitForFunction(() => document.querySelector('#review-note').textContent.includes('was a blunder'));
  expect(await page.locator('#board .arrow.best').count() === 1, 'no arrow for the better move');
  await page.click('[data-tab=io]');
  await page.click('#pgn-show');
  await page.waitForFunction(() => document.querySelector('#pgn-form textarea').value.includes('Qb4??'));
  const pgn = await page.inputValue('#pgn-form textarea');
  expect(/1\. Qb4\?\? \{\[%eval -\d+\.\d\d\]\}/.test(pgn), `no NAG and eval in the PGN:\n${pgn}`);
  expect((pgn.match(/\[%eval /g) || []).length === BLUNDER.length, 'not every move has an [%eval]');
  // the annotated record loads back
  await page.click('#pgn-form button[type=submit]');
  await page.waitForFunction(() => document.querySelectorAll('#movelist [data-move]').length === 4);
  expect(await page.textContent('.io-error') === '', `the PGN was refused: ${await page.textContent('.io-error')}`);
});

test('review: a three-player game, each army by its expected share (nd-mccooey-3p)', 'nd-mccooey-3p', async page => {
  await newGame(page, ['human', 'human', 'human']);
  await playFirstMoves(page, 6);
  await review(page, 'nodes:2000');
  await reviewDone(page);
  expect(await page.getAttribute('#review-progress', 'data-percent') === '100', 'the progress is not at 100 %');
  const armies = await page.locator('#review-accuracy [data-army]').count();
  expect(armies === 3, `accuracy for ${armies} armies`);
  expect(await page.locator('#review-graph .share-line').count() === 3, 'the graph has not one line per army');
});

test('review: one click in the result dialog reviews the finished game', 'wellisch', async page => {
  await page.click('[data-tab=review]');
  await page.selectOption('#review-budget', 'nodes:2000');
  await loadFen(page, '6/7/8/9/10/rG1wV8/10/2rE6/8/3bG3/wG5 b - - 0 1');
  await playMoves(page, ['k4k3']); // Black's move leaves White the last army on the board
  await page.waitForSelector('#result-dialog[open]');
  expect(await page.evaluate(() => document.activeElement.matches('#result-dialog .close')),
    'Enter in the result dialog would not just close it');
  await page.click('#result-dialog .review');
  await reviewDone(page);
  expect(await page.isVisible('#review-panel'), 'the Review tab is not shown');
  expect(await page.locator('#review-accuracy [data-army="b"]').count() === 1, 'no accuracy for Black');
});

test('review: the stop button ends a review and keeps what was reviewed', 'glinski', async page => {
  await newGame(page, ['human', 'human']);
  await playMoves(page, BLUNDER);
  await review(page, 'nodes:500000');
  await page.waitForSelector('#review-panel[data-review=running] #review-stop:not([hidden])');
  await playMoves(page, ['f5f6']); // the page stays usable while the engine reviews
  await page.click('#review-stop');
  await page.waitForSelector('#review-panel[data-review=stopped]');
  expect(await page.isHidden('#review-stop'), 'the stop button stays');
  expect(Number(await page.getAttribute('#review-progress', 'data-percent')) < 100, 'the review was not stopped');
  expect((await page.textContent('#review-progress-text')).includes('stopped'), 'the progress does not say stopped');
});

test('review: a finished engine game (GUI_SCREENSHOTS=1: docs/gui/review.png)', 'glinski', async (page, ctx) => {
  if (!ctx.shots) return;
  await page.setViewportSize({ width: 1280, height: 1000 }); // the board and the whole review panel
  // weakened engines make mistakes to mark, and end their game within a minute
  await newGame(page, ['engine:0', 'engine:0'], ['movetime_ms', '40'], '', '800');
  await page.waitForSelector('#result-dialog[open]', { timeout: 50000 });
  await page.click('#result-dialog .close');
  await review(page, 'nodes:2000');
  await reviewDone(page);
  const marked = page.locator('#review-moves li.blunder, #review-moves li.mistake').first();
  if (await marked.count()) await marked.click();
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(SHOTS, 'review.png') });
});
