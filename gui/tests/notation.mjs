// Browser tests of the page's notation: SAN in the move list, PGN round trips.
import { movesPlayed, sessionState, waitMoves, newGame, loadFen, expect, test } from './lib.mjs';

/** The move list as the page shows it: each move's text, without the marks of armies that left. */
const shownMoves = page => page.locator('#movelist [data-move]').evaluateAll(els =>
  els.map(e => e.firstChild.textContent));

async function typeMoves(page, moves) {
  for (const move of moves) {
    const n = (await movesPlayed(page)).length;
    await page.fill('#move-entry input', move);
    await page.press('#move-entry input', 'Enter');
    await waitMoves(page, n + 1);
  }
}

test('notation: the move list shows SAN for a capture, a check and a promotion', 'glinski', async page => {
  await newGame(page, ['human', 'human']);
  await loadFen(page, '6/7/8/9/3P5r/4n4P1/K2P6/9/8/7/5k w - - 0 1');
  await typeMoves(page, ['e4f5', 'l6k7', 'f10f11q']);
  const shown = (await shownMoves(page)).join(' ');
  expect(shown === 'exf5 Kk7 f11=Q+', `the move list shows "${shown}"`);
  const ucis = (await movesPlayed(page)).join(' ');
  expect(ucis === 'e4f5 l6k7 f10f11q', `data-move holds "${ucis}"`);
  // a click on a move in SAN still steps to it
  await page.click('#movelist [data-move="e4f5"]');
  await page.waitForFunction(() => document.querySelector('#movelist .current')?.dataset.move === 'e4f5');
});

test('notation: a PGN round trip keeps the game, and a record in SAN or UCI loads', 'glinski', async page => {
  await newGame(page, ['human', 'human']);
  await typeMoves(page, ['f5f6', 'e7e6', 'f6e6', 'f7e6', 'c1f4', 'c8f8']);
  const before = await sessionState(page);
  const shown = (await shownMoves(page)).join(' ');
  expect(shown === 'f6 e6 fxe6 fxe6 Rcf4 Rcf8', `the move list shows "${shown}"`);
  await page.click('[data-tab=io]');
  await page.click('#pgn-show');
  await page.waitForFunction(() => /1\. f6 e6\s+2\. fxe6 fxe6\s+3\. Rcf4 Rcf8/.test(document.querySelector('#pgn-form textarea').value));
  const pgn = await page.inputValue('#pgn-form textarea');
  for (const record of [pgn, '[Variant "glinski"]\n\nf5f6 e7e6 f6e6 f7e6 c1f4 c8f8 *\n']) {
    await newGame(page, ['human', 'human']);
    await page.click('[data-tab=io]');
    await page.fill('#pgn-form textarea', record);
    await page.click('#pgn-form button[type=submit]');
    await waitMoves(page, 6);
    const after = await sessionState(page);
    expect(after.fen === before.fen && after.turn === before.turn, `loaded: ${after.fen}, played: ${before.fen}`);
    expect((await shownMoves(page)).join(' ') === shown, `after loading the move list shows "${(await shownMoves(page)).join(' ')}"`);
    expect(await page.textContent('.io-error') === '', `the tab shows "${await page.textContent('.io-error')}"`);
  }
});

test('notation: a three-player game\'s move list, with a check and an elimination', 'wellisch', async page => {
  await newGame(page, ['human', 'human', 'human']);
  await loadFen(page, '1bRbGbV1bE/bPbPbPbEbP1bP/1bE1bPbPbP2/9/rP7bRwP/rErPrE6wPwE/rRrPrP2wP1wPwPwR/rV1rP5wG/' +
    'rG1rP2wEwPwV/rRrPrP2wPwR/rE3wPwE r - - 1 4');
  await typeMoves(page, ['h3g4', 'i6h8', 'e9e10', 'h1h8', 'h9h8', 'b4a5']);
  const shown = (await shownMoves(page)).join(' ');
  expect(shown === 'hg4+ Eh8 Rxe10 Vxh8+ Gxh8 Ea5', `the move list shows "${shown}"`);
  const rows = await page.locator('#movelist .num').count();
  expect(rows === 2, `${rows} rounds numbered, not 2 (three armies a round)`);
  // Black's move mates Red, which leaves; Black's General is then taken off under White's threat
  await loadFen(page, '6/7/8/9/10/rG1wV8/10/2rE6/8/3bG3/wG5 b - - 0 1');
  await typeMoves(page, ['k4k3']);
  expect((await shownMoves(page)).join(' ') === 'Gk3#', `the move list shows "${(await shownMoves(page)).join(' ')}"`);
  const out = await page.locator('#movelist [data-move="k4k3"] .out').evaluateAll(els => els.map(e => e.className).join(' '));
  expect(/army-r/.test(out) && /army-b/.test(out), `the move does not show Red and Black leaving (${out})`);
});
