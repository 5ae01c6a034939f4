// Browser tests of the page's notation: SAN in the move list, PGN round trips, coordinates.
import path from 'node:path';
import {
  SHOTS, movesPlayed, sessionState, waitMoves, newGame, loadFen, pickVariant, expect, test,
} from './lib.mjs';

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
  await page.waitForFunction(() =>
    /1\. f6 e6\s+2\. fxe6 fxe6\s+3\. Rcf4 Rcf8/.test(document.querySelector('#pgn-form textarea').value));
  const pgn = await page.inputValue('#pgn-form textarea');
  for (const record of [pgn, '[Variant "glinski"]\n\nf5f6 e7e6 f6e6 f7e6 c1f4 c8f8 *\n']) {
    await newGame(page, ['human', 'human']);
    await page.click('[data-tab=io]');
    await page.fill('#pgn-form textarea', record);
    await page.click('#pgn-form button[type=submit]');
    await waitMoves(page, 6);
    const after = await sessionState(page);
    expect(after.fen === before.fen && after.turn === before.turn, `loaded: ${after.fen}, played: ${before.fen}`);
    const loaded = (await shownMoves(page)).join(' ');
    expect(loaded === shown, `after loading the move list shows "${loaded}"`);
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
  const out = await page.locator('#movelist [data-move="k4k3"] .out')
    .evaluateAll(els => els.map(e => e.className).join(' '));
  expect(/army-r/.test(out) && /army-b/.test(out), `the move does not show Red and Black leaving (${out})`);
});

/** The coordinates' labels the board shows, and whether any of them covers a cell or another label. */
function coordinates(page) {
  return page.evaluate(() => {
    const labels = [...document.querySelectorAll('#board [data-coord]')];
    const boxes = labels.map(e => e.getBoundingClientRect());
    const onCell = boxes.filter(b => [[0.2, 0.2], [0.8, 0.2], [0.2, 0.8], [0.8, 0.8], [0.5, 0.5]].some(([fx, fy]) =>
      document.elementsFromPoint(b.left + fx * b.width, b.top + fy * b.height).some(e => e.matches('[data-cell]'))));
    const crossing = boxes.filter((b, i) => boxes.some((c, j) => j !== i &&
      b.left < c.right && c.left < b.right && b.top < c.bottom && c.top < b.bottom));
    const names = [...document.querySelectorAll('#board [data-cell]')].map(e => /^([a-z]+)(\d+)$/.exec(e.dataset.cell));
    const of = kind => labels.filter(e => e.dataset.coord === kind).map(e => e.textContent);
    return { files: of('file'), ranks: of('rank'), onCell: onCell.length, crossing: crossing.length,
      allFiles: [...new Set(names.map(m => m[1]))], allRanks: [...new Set(names.map(m => m[2]))],
      height: Math.min(...boxes.map(b => b.height)) };
  });
}

test('coordinates: files and ranks along the edges of every board shape, off the cells; switched off and on', 'glinski',
  async (page, ctx) => {
  // Flatstar's star: its ranks 5 and 6 touch the edge nowhere, and its notches hold few free spots
  const shapes = { glinski: 0, flatstar: 3, wellisch: 0, 'nd-mccooey': 0, 'nd-mccooey-3p': 0, 'nd-wellisch-4p': 0,
    devasa: 0, shafran: 0, brusky: 0 };
  for (const [name, unlabelled] of Object.entries(shapes)) {
    await pickVariant(page, name, ctx.variants.find(v => v.name === name).cells);
    for (let turn = 0; turn < 2; turn++) { // the first army's view and the next one's
      const c = await coordinates(page);
      const where = `${name}${turn ? ' turned' : ''}`;
      const missing = [...c.allFiles.filter(f => !c.files.includes(f)),
        ...c.allRanks.filter(r => !c.ranks.includes(r))];
      expect(missing.length <= unlabelled, `${where}: no label for ${missing}`);
      expect(c.files.every(f => c.allFiles.includes(f)) && c.ranks.every(r => c.allRanks.includes(r)) &&
        new Set(c.files).size === c.files.length && new Set(c.ranks).size === c.ranks.length,
        `${where}: labels ${c.files} ${c.ranks} for files ${c.allFiles} and ranks ${c.allRanks}`);
      expect(!c.onCell && !c.crossing, `${where}: ${c.onCell} labels over a cell, ${c.crossing} over another label`);
      expect(c.height >= 10, `${where}: labels ${c.height} px high`);
      if (ctx.shots && name === 'nd-mccooey-3p' && !turn) {
        await page.locator('#board').screenshot({ path: path.join(SHOTS, 'coordinates.png') });
      }
      await page.click('#flip');
    }
  }
  // off, remembered by the browser, and on again
  await page.click('#coords');
  expect(await page.locator('#board [data-coord]').count() === 0, 'labels shown with Coordinates off');
  await page.reload();
  await page.waitForSelector('#board [data-piece]');
  expect(!await page.isChecked('#coords') && await page.locator('#board [data-coord]').count() === 0,
    'Coordinates on again after a reload');
  await page.click('#coords');
  await page.waitForSelector('#board [data-coord]');
});

/** Opens `url` in a new tab of the same browser; resolves with the tab once its board has pieces. */
async function openTab(page, url) {
  const tab = await page.context().newPage();
  const errors = [];
  tab.on('pageerror', e => errors.push(e.message));
  await tab.goto(url);
  await tab.waitForSelector('#board [data-piece]', { timeout: 30000 });
  return { tab, errors };
}

/** Waits until the page's address names the game of its session; resolves with the address. */
async function addressOfGame(page) {
  const state = await sessionState(page);
  const moves = state.moves.map(m => m.uci).join(',');
  await page.waitForFunction(want => new URLSearchParams(location.search).get('moves') === want, moves);
  return page.url();
}

test('address: the game is in the address, and a new tab opened on it shows the same game', 'glinski', async page => {
  await newGame(page, ['human', 'human']);
  await typeMoves(page, ['f5f6', 'e6', 'f6e6', 'f7e6', 'Rcf4']); // SAN typed too
  const url = await addressOfGame(page);
  expect(/[?&]variant=glinski(&|$)/.test(url) && !/[?&]fen=/.test(url), `address ${url}`);
  const { tab, errors } = await openTab(page, `${url}&keep=1`); // a parameter of another feature's
  const [mine, theirs] = [await sessionState(page), await sessionState(tab)];
  expect(theirs.id !== mine.id, 'the new tab shows the same session, not a game of its own');
  expect(theirs.fen === mine.fen && theirs.turn === mine.turn && theirs.plies === 5,
    `the new tab shows ${theirs.fen} (${theirs.turn}, ${theirs.plies} plies), not ${mine.fen}`);
  const list = (await shownMoves(tab)).join(' ');
  expect(list === 'f6 e6 fxe6 fxe6 Rcf4', `its list: ${list}`);
  // the restored game goes on
  await typeMoves(tab, ['c8f8']);
  const after = await addressOfGame(tab);
  expect(/moves=[^&]*c8f8/.test(after) && /[?&]keep=1(&|$)/.test(after), `the address after a move: ${after}`);
  expect(!errors.length, `page error: ${errors[0]}`);
  await tab.close();
});

test('address: a three-player game from a FEN comes back; a bad move list gives a message and the start', 'wellisch',
  async page => {
  await newGame(page, ['human', 'human', 'human']);
  const fen = '1bRbGbV1bE/bPbPbPbEbP1bP/1bE1bPbPbP2/9/rP7bRwP/rErPrE6wPwE/rRrPrP2wP1wPwPwR/rV1rP5wG/' +
    'rG1rP2wEwPwV/rRrPrP2wPwR/rE3wPwE r - - 1 4';
  await loadFen(page, fen);
  await typeMoves(page, ['h3g4', 'i6h8', 'e9e10']);
  const url = await addressOfGame(page);
  const { tab, errors } = await openTab(page, url);
  const state = await sessionState(tab);
  expect(state.start === fen && state.fen === (await sessionState(page)).fen && state.turn === 'r',
    `the new tab shows ${state.fen} from ${state.start}`);
  expect((await shownMoves(tab)).join(' ') === 'hg4+ Eh8 Rxe10', `its list: ${(await shownMoves(tab)).join(' ')}`);
  // a move list that does not play: the start position, and the reason
  await tab.goto(url.replace(/moves=[^&]*/, 'moves=h3g4,zz9'));
  await tab.waitForSelector('#notice:not([hidden])');
  const notice = await tab.textContent('#notice .text');
  expect(/move 2 'zz9'/.test(notice), `the notice says "${notice}"`);
  const fresh = await sessionState(tab);
  expect(fresh.plies === 0 && fresh.fen === fresh.start, `after a bad link: ${fresh.plies} plies, ${fresh.fen}`);
  expect(await tab.locator('#board [data-piece]').count() > 0, 'no board after a bad link');
  await tab.waitForFunction(() => !new URLSearchParams(location.search).has('moves'));
  expect(!errors.length, `page error: ${errors[0]}`);
  await tab.close();
});
