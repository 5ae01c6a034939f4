// Browser tests of the move tree (docs/gui.md): analysis lines played by a click, variations made at an
// earlier move, shown indented in parentheses, walked with the keys, promoted, deleted, and kept in the PGN.
import { SHOTS, sessionState, newGame, expect, test } from './lib.mjs';
import path from 'node:path';

/** Types a move in the move box and waits until the list shows it as the current move. */
async function play(page, move) {
  await page.fill('#move-entry input', move);
  await page.press('#move-entry input', 'Enter');
  await page.waitForSelector(`#movelist .current[data-move="${move}"]`);
}

/** The main line's moves, as the list shows them. */
const mainLine = page => page.locator('#movelist > [data-move]').evaluateAll(els => els.map(e => e.dataset.move).join(' '));
/** Each variation block's moves, as the list shows them: "(d7d6 e4e5 (g4g5) c7c6)". */
const variations = page => page.locator('#movelist .variation').evaluateAll(els => els.map(function text(e) {
  return `(${[...e.childNodes].map(c => (c.dataset?.move ?? (c.classList?.contains('nested') ? text(c) : '')))
    .filter(Boolean).join(' ')})`;
}).join(' '));

async function editMove(page, move, action) {
  await page.click(`#movelist .var[data-move="${move}"], #movelist > [data-move="${move}"]`, { button: 'right' });
  await page.click(`.tree-menu [data-edit=${action}]`);
}

test('a click on an analysis line plays it as a variation', 'glinski', async page => {
  await newGame(page, ['human', 'human']);
  await play(page, 'k1k2');
  await play(page, 'k7k6');
  await page.click('#movelist [data-ply="1"]');
  await page.waitForSelector('#movelist .current[data-move="k1k2"]');
  await page.click('#status');
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction(() => !document.querySelector('#movelist .current'));
  await page.click('[data-tab=analysis]');
  await page.check('#analyse');
  // a line of at least three moves, whose first is not the game's
  await page.waitForFunction(() => {
    const moves = [...document.querySelectorAll('#pv-lines li[data-multipv="1"] .pv-move')].map(b => b.dataset.uci);
    return moves.length >= 3 && moves[0] !== 'k1k2';
  }, null, { timeout: 20000 });
  // read and clicked at once: the lines change as the search goes deeper
  const line = await page.evaluate(() => {
    const moves = [...document.querySelectorAll('#pv-lines li[data-multipv="1"] .pv-move')];
    moves[1].click();
    return moves.slice(0, 2).map(b => b.dataset.uci);
  });
  await page.waitForSelector(`#movelist .variation .current[data-move="${line[1]}"]`);
  expect(await variations(page) === `(${line[0]} ${line[1]})`, `the variation is ${await variations(page)}`);
  expect(await mainLine(page) === 'k1k2 k7k6', `the main line changed: ${await mainLine(page)}`);
  const state = await sessionState(page);
  expect(state.ply === 2 && state.plies === 2 && state.variations.length === 2, 'the server has no such variation');
  expect(/variation/.test(await page.textContent('#status')), 'the status does not say a variation is shown');
  await page.uncheck('#analyse');
});

test('variations: branch at an earlier move, walk, promote, delete, PGN round trip', 'glinski', async (page, ctx) => {
  await newGame(page, ['human', 'human']);
  for (const move of ['f5f6', 'e7e6', 'e4e5', 'd7d6']) await play(page, move);
  // back to White's first move: Black's other reply makes a variation beneath the move it replaces
  await page.click('#movelist [data-ply="1"]');
  await page.waitForSelector('#movelist .current[data-ply="1"]');
  await play(page, 'd7d6');
  await play(page, 'e4e5');
  await play(page, 'c7c6');
  expect(await mainLine(page) === 'f5f6 e7e6 e4e5 d7d6', `the main line changed: ${await mainLine(page)}`);
  expect(await variations(page) === '(d7d6 e4e5 c7c6)', `the variation is ${await variations(page)}`);
  const block = await page.locator('#movelist .variations').boundingBox();
  const replaced = await page.locator('#movelist > [data-move="e7e6"]').boundingBox();
  const next = await page.locator('#movelist > [data-move="e4e5"]').boundingBox();
  expect(block.y >= replaced.y + replaced.height - 1 && block.y + block.height <= next.y + 1,
    'the variation is not between the move it replaces and the next one');
  const indent = await page.locator('#movelist .variation .var >> nth=0').boundingBox();
  expect(indent.x > block.x + 10, 'the variation is not indented');
  // the keys walk the variation, not the main line; up and down switch between the alternatives
  await page.click('#status');
  const inVariation = move => `#movelist .variation .current[data-move="${move}"]`;
  for (const [key, shown] of [['ArrowLeft', inVariation('e4e5')], ['ArrowLeft', inVariation('d7d6')],
    ['ArrowRight', inVariation('e4e5')], ['ArrowLeft', inVariation('d7d6')],
    ['ArrowUp', '#movelist > .current[data-move="e7e6"]'], ['ArrowDown', inVariation('d7d6')]]) {
    await page.keyboard.press(key);
    await page.waitForSelector(shown);
  }
  // a nested variation: another White move inside the variation
  await play(page, 'g4g5');
  await page.click('#status');
  expect(await variations(page) === '(d7d6 e4e5 (g4g5) c7c6)', `the nested variation is ${await variations(page)}`);
  if (ctx.shots) await page.screenshot({ path: path.join(SHOTS, 'variations.png') });
  // the record: each variation in parentheses after the move it replaces; loaded back, the same tree
  await page.click('[data-tab=io]');
  await page.click('#pgn-show');
  await page.waitForFunction(() => /\(/.test(document.querySelector('#pgn-form textarea').value));
  const pgn = await page.inputValue('#pgn-form textarea');
  expect(pgn.includes('1. f6 e6 (1... d6 2. e5 (2. g5) 2... c6) 2. e5 d6'), `the PGN has no variations: ${pgn}`);
  const before = await page.textContent('#movelist');
  await page.click('#pgn-form button[type=submit]');
  await page.waitForSelector('#movelist > .current[data-move="d7d6"]');
  expect(await page.textContent('#movelist') === before, 'the PGN loaded back is not the same tree');
  expect(await variations(page) === '(d7d6 e4e5 (g4g5) c7c6)', `loaded back: ${await variations(page)}`);
  // promoted: the variation is the main line, and the old moves a variation of it
  await editMove(page, 'c7c6', 'promote');
  await page.waitForFunction(() => document.querySelector('#movelist > [data-move="c7c6"]'));
  expect(await mainLine(page) === 'f5f6 d7d6 e4e5 c7c6', `promoted: the main line is ${await mainLine(page)}`);
  expect(await variations(page) === '(e7e6 e4e5 d7d6) (g4g5)', `promoted: the variations are ${await variations(page)}`);
  expect((await sessionState(page)).moves.map(m => m.uci).join(' ') === 'f5f6 d7d6 e4e5 c7c6',
    'the server\'s game is not the promoted line');
  // deleted: the variation from the move on, and nothing else
  await editMove(page, 'e7e6', 'delete');
  await page.waitForFunction(() => !document.querySelector('#movelist .var[data-move="e7e6"]'));
  expect(await variations(page) === '(g4g5)', `deleted: the variations are ${await variations(page)}`);
  await editMove(page, 'g4g5', 'delete');
  await page.waitForFunction(() => !document.querySelector('#movelist .variation'));
  const state = await sessionState(page);
  expect(state.variations.length === 0 && state.plies === 4, 'the server kept a deleted variation');
});

test('against the engine the main line stays the game: no variation at an earlier move', 'glinski', async page => {
  await newGame(page, ['human', 'engine:0'], ['depth', '1']);
  await play(page, 'f5f6');
  await page.waitForFunction(() => document.querySelectorAll('#movelist [data-move]').length === 2, null, { timeout: 15000 });
  await page.click('#movelist [data-ply="1"]');
  await page.waitForSelector('#movelist .current[data-ply="1"]');
  await page.fill('#move-entry input', 'd7d6');
  await page.press('#move-entry input', 'Enter');
  await page.waitForFunction(() => /earlier position/.test(document.querySelector('#move-entry .error').textContent));
  await page.click('#movelist [data-ply="1"]', { button: 'right' });
  expect(await page.locator('.tree-menu').isHidden(), 'a game against the engine offers to edit its moves');
  expect((await sessionState(page)).variations.length === 0, 'a variation was made');
});
