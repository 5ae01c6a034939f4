// Browser tests of the GUI page: starts `$SENNIGHT gui`, drives the page in Chromium, one line per test.
// Usage: SENNIGHT=build/test/sennight node gui/tests/run.mjs   (GUI_SCREENSHOTS=1 also writes docs/gui/*.png,
// GUI_TESTS=text runs only the tests whose names contain it). Tests of one feature may live in a file of
// their own beside this one, imported below; the harness is lib.mjs.
import {
  SHOTS, startServer, serverChildren, cellCount, movesPlayed, pieceAt,
  sessionState, waitMoves, newGame, loadFen, settledState, playAgainstEngines,
  pickVariant, expect, test, notes, runTests,
} from './lib.mjs';
import './actions.mjs';
import './notation.mjs';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import './network.mjs';
import './tree.mjs';
import './review.mjs';
import './load.mjs';
import './network-flow.mjs';

test('the page lists every variant and draws the board', 'glinski', async (page, ctx) => {
  const options = await page.locator('select[name=variant] option').count();
  expect(options === ctx.variants.length, `${options} variants in the picker, the server has ${ctx.variants.length}`);
  expect(await cellCount(page) === 91, 'glinski has 91 cells');
  expect((await page.textContent('#description')).length > 10, 'no description');
  expect(await page.locator('#board [data-piece]').count() === 36, 'glinski starts with 36 pieces');
});

test('glinski: a move by clicking cells, the engine replies', 'glinski', async page => {
  await newGame(page, ['human', 'engine:0']);
  await page.click('[data-cell="f5"]');
  expect(await page.locator('#board .mark.move').count() === 1, 'f5 has one legal target, f6 (f7 is taken)');
  await page.click('[data-cell="f6"]');
  await waitMoves(page, 2);
  const [mine, reply] = await movesPlayed(page);
  expect(mine === 'f5f6', `first move ${mine}`);
  expect(await pieceAt(page, 'f6') === 'P', 'no white pawn on f6');
  const to = reply.match(/^[a-z]\d+([a-z]\d+)/)[1];
  const piece = await pieceAt(page, to);
  expect(piece && piece === piece.toLowerCase(), `the engine's reply ${reply} is not on the board`);
  expect(await page.locator('#board .cell.last').count() === 2, 'the last move is not marked');
});

test('takeback returns to the human\'s turn', 'glinski', async page => {
  await newGame(page, ['human', 'engine:0']);
  await page.click('[data-cell="e4"]');
  await page.click('[data-cell="e5"]');
  await waitMoves(page, 2);
  await page.click('#undo');
  await page.waitForFunction(() => document.querySelectorAll('#movelist [data-move]').length === 0);
  expect(await pieceAt(page, 'e4') === 'P', 'the pawn is not back on e4');
});

for (const [variant, armies] of [['glinski', 2], ['nd-mccooey-3p', 3]]) {
  test(`no stale page: 40 moves against nodes=200 (${variant})`, variant, page =>
    playAgainstEngines(page, armies, ['nodes', '200'], '', 40));
  // a short time per move keeps the run short: a weakened three-player search still uses all it gets
  test(`no stale page: 40 moves against Elo 800 (${variant})`, variant, page =>
    playAgainstEngines(page, armies, ['movetime_ms', '100'], '800', 40));
}

/** Types a move in the move box and waits for it in the move list. */
async function typeMove(page, move) {
  const n = (await movesPlayed(page)).length;
  await page.fill('#move-entry input', move);
  await page.press('#move-entry input', 'Enter');
  await waitMoves(page, n + 1);
}

test('clocks start with each side\'s first move; abort before it', 'glinski', async page => {
  await newGame(page, ['human', 'human'], undefined, '60000+0');
  await page.waitForTimeout(1200);
  let { clocks } = await sessionState(page);
  expect(clocks.w === 60000 && clocks.running === null, `before any move: ${JSON.stringify(clocks)}`);
  expect(await page.isVisible('#abort'), 'no Abort button before the first moves');
  await typeMove(page, 'f5f6');
  await page.waitForTimeout(600);
  ({ clocks } = await sessionState(page));
  expect(clocks.w === 60000 && clocks.b === 60000 && clocks.running === null, `after White's first move: ${JSON.stringify(clocks)}`);
  await typeMove(page, 'e7e6');
  await page.waitForTimeout(600);
  ({ clocks } = await sessionState(page));
  expect(clocks.b === 60000 && clocks.running === 'w' && clocks.w < 59700, `after Black's first move: ${JSON.stringify(clocks)}`);
  expect(!await page.isVisible('#abort'), 'Abort is offered after every army has moved');
  await newGame(page, ['human', 'engine:0'], ['movetime_ms', '100'], '60000+0');
  await page.click('#abort');
  await page.waitForFunction(() => /aborted/i.test(document.querySelector('#status').textContent));
  await page.waitForTimeout(400);
  const state = await sessionState(page);
  expect(state.plies === 0 && state.result && state.clocks.running === null, `after the abort: ${JSON.stringify(state.result)}, ${state.plies} plies`);
});

/**
 * The engine's replies in the game the page starts by itself (the New game form's defaults): the
 * human plays `moves` random moves; resolves with the median time from a move to the person's turn
 * again, per engine reply.
 */
async function defaultReplyTime(page, moves) {
  const times = [];
  let seed = 11;
  for (let i = 0; i < moves; i++) {
    let state = await settledState(page);
    if (state.result || !state.legal.length) break; // over, or the person's army left the board
    seed = (seed * 1103515245 + 12345) % 2147483648;
    const started = performance.now();
    await page.fill('#move-entry input', state.legal[seed % state.legal.length]);
    await page.press('#move-entry input', 'Enter');
    const engines = state.seats.filter(s => s.kind === 'engine' && !state.eliminated.includes(s.army)).length;
    state = await settledState(page, state.plies);
    times.push((performance.now() - started) / 1000 / engines);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

for (const variant of ['glinski', 'nd-mccooey-3p', 'nd-wellisch-4p']) {
  test(`the default game's engine replies briskly (${variant})`, variant, async page => {
    const median = await defaultReplyTime(page, 6);
    notes.push(`${variant}: the default game's median engine reply ${median.toFixed(2)} s`);
    expect(median <= 2, `median engine reply ${median.toFixed(2)} s`);
  });
}

test('a move by dragging a piece', 'glinski', async page => {
  await newGame(page, ['human', 'human']);
  // The board may be redrawn after the new game starts: wait for the cell before measuring it.
  const box = async cell => {
    const cellLocator = page.locator(`[data-cell="${cell}"]`);
    await cellLocator.waitFor({ state: 'visible' });
    const b = await cellLocator.boundingBox();
    return [b.x + b.width / 2, b.y + b.height / 2];
  };
  const [fx, fy] = await box('d3');
  const [tx, ty] = await box('d5');
  await page.mouse.move(fx, fy);
  await page.mouse.down();
  await page.mouse.move(tx, ty, { steps: 8 });
  await page.mouse.up();
  await waitMoves(page, 1);
  expect((await movesPlayed(page))[0] === 'd3d5', 'the dragged double step was not played');
});

test('keyboard: move entry and arrow keys step through the game', 'glinski', async page => {
  await newGame(page, ['human', 'human']);
  for (const move of ['f5f6', 'e7e6']) {
    const n = (await movesPlayed(page)).length;
    await page.fill('#move-entry input', move);
    await page.press('#move-entry input', 'Enter');
    await waitMoves(page, n + 1);
  }
  expect((await movesPlayed(page)).join(' ') === 'f5f6 e7e6', 'typed moves not played');
  await page.fill('#move-entry input', 'a1a6');
  await page.press('#move-entry input', 'Enter');
  await page.waitForFunction(() => document.querySelector('#move-entry .error').textContent);
  expect(/legal/.test(await page.textContent('#move-entry .error')), 'an illegal move is not refused');
  await page.click('#status');
  await page.keyboard.press('ArrowLeft');
  await page.waitForSelector('#movelist [data-ply="1"].current');
  expect(await pieceAt(page, 'e7') === 'p', 'back one move: the black pawn is not on e7');
  await page.keyboard.press('ArrowUp');
  await page.waitForFunction(() => !document.querySelector('#movelist .current'));
  expect(await pieceAt(page, 'f5') === 'P', 'at the start the pawn is not on f5');
  await page.click('#movelist [data-move="e7e6"]');
  await page.waitForSelector('#movelist [data-ply="2"].current');
});

test('arrow keys still step after a click on the Names or Analyse checkbox', 'glinski', async page => {
  await newGame(page, ['human', 'human']);
  await typeMove(page, 'f5f6');
  await typeMove(page, 'e7e6');
  await page.click('#names');
  await page.keyboard.press('ArrowLeft');
  await page.waitForSelector('#movelist [data-ply="1"].current', { timeout: 3000 });
  await page.click('[data-tab=analysis]');
  await page.click('#analyse');
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction(() => !document.querySelector('#movelist .current'), null, { timeout: 3000 });
  await page.click('#analyse');
});

test('the move box takes moves as terminal play does: f5-f6, Pe7e6', 'glinski', async page => {
  await newGame(page, ['human', 'human']);
  await typeMove(page, 'f5-f6');
  await typeMove(page, 'Pe7e6');
  expect((await movesPlayed(page)).join(' ') === 'f5f6 e7e6', `played ${await movesPlayed(page)}`);
  await page.fill('#move-entry input', 'Ne4e5');
  await page.press('#move-entry input', 'Enter');
  await page.waitForFunction(() => document.querySelector('#move-entry .error').textContent);
  const error = await page.textContent('#move-entry .error');
  expect(/pawn/.test(error), `a knight's move from a pawn's cell: ${error}`);
});

test('a page opened with ?variant= keeps its game on reload, and asks before leaving it', 'shafran', async page => {
  await newGame(page, ['human', 'human']);
  const { legal } = await sessionState(page);
  await typeMove(page, legal[0]);
  const id = await page.getAttribute('body', 'data-session');
  await page.reload();
  await page.waitForSelector('#board [data-piece]');
  expect(await page.getAttribute('body', 'data-session') === id, 'the reload started another game');
  expect((await movesPlayed(page)).join(' ') === legal[0], 'the move was lost');
  let asked = '';
  page.once('dialog', d => { asked = d.message(); d.dismiss(); });
  await page.selectOption('select[name=variant]', 'glinski');
  await page.waitForTimeout(300);
  expect(asked, 'no question before leaving a game in progress');
  expect(await page.inputValue('select[name=variant]') === 'shafran', 'the variant list does not show the game\'s variant');
  expect(await page.getAttribute('body', 'data-session') === id, 'the game was left though the player said no');
  page.once('dialog', d => d.accept());
  await pickVariant(page, 'glinski', 91);
  expect(await page.getAttribute('body', 'data-session') !== id, 'no new game after the player said yes');
});

test('FEN errors in the FEN/PGN tab: the board named, another variant\'s start, move numbers', 'glinski', async page => {
  await newGame(page, ['human', 'human']);
  const glinski = await page.evaluate(async () => (await fetch('/api/variant/glinski')).json());
  await loadFen(page, glinski.start.replace(/ 1$/, ' 5'));
  await typeMove(page, 'f5f6');
  expect(await page.textContent('#movelist .num') === '5', `the first move is numbered ${await page.textContent('#movelist .num')}`);
  const big = await page.evaluate(async () => { // an nd-mccooey position after one move (not its start)
    const post = (url, body) => fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    const { id, state } = await (await post('/api/session', { variant: 'nd-mccooey' })).json();
    return (await post(`/api/session/${id}/move`, { move: state.legal[0] })).json();
  });
  const refused = await loadFen(page, big.fen).then(() => null, err => err.message);
  expect(refused && /169/.test(refused) && /nd-mccooey/.test(refused), `a 169-cell FEN: ${refused}`);
  expect(!/169/.test(await page.textContent('#status')), 'the FEN error is in the status line');
  await page.fill('#pgn-form textarea', '[Variant "glinski"]\n\n1. z9z10 *');
  await page.click('#pgn-form button[type=submit]');
  await page.waitForFunction(() => document.querySelector('.io-error').textContent, null, { timeout: 3000 });
  const mccooey = await page.evaluate(async () => (await fetch('/api/variant/mccooey')).json());
  await page.fill('#fen-form input[name=fen]', mccooey.start);
  await page.click('#fen-form button[type=submit]');
  await page.waitForFunction(() => /mccooey/.test(document.querySelector('.io-error').textContent), null, { timeout: 3000 });
  await page.waitForSelector('#board[data-variant="mccooey"]');
  expect(await page.inputValue('select[name=variant]') === 'mccooey', 'the variant list does not say mccooey');
  expect((await sessionState(page)).variant === 'mccooey', 'the server\'s game is not mccooey');
});

test('a reload resumes the tab\'s game', 'mccooey', async page => {
  await newGame(page, ['human', 'human']);
  await page.click('[data-cell="e3"]');
  await page.click('[data-cell="e4"]');
  await waitMoves(page, 1);
  const id = await page.getAttribute('body', 'data-session');
  await page.goto(page.url().replace(/\?.*/, ''));
  await page.waitForSelector(`body[data-session="${id}"]`);
  expect((await movesPlayed(page)).join(' ') === 'e3e4', 'the move was lost');
  expect(await page.inputValue('select[name=variant]') === 'mccooey', 'the variant was lost');
});

test('load a FEN', 'glinski', async page => {
  await newGame(page, ['human', 'human']);
  await loadFen(page, '5k/7/8/9/10/9P1/K9/9/8/7/6 w - - 0 1');
  expect(await page.locator('#board [data-piece]').count() === 3, 'the FEN has three pieces');
  expect(await pieceAt(page, 'f10') === 'P', 'no pawn on f10');
});

test('promotion through the picker', 'glinski', async page => {
  await newGame(page, ['human', 'human']);
  await loadFen(page, '5k/7/8/9/10/9P1/K9/9/8/7/6 w - - 0 1');
  await page.click('[data-cell="f10"]');
  await page.click('[data-cell="f11"]');
  await page.waitForSelector('#picker:not([hidden]) button');
  const choices = await page.locator('#picker button').evaluateAll(els => els.map(e => e.dataset.uci));
  expect(choices.sort().join(' ') === 'f10f11b f10f11n f10f11q f10f11r', `picker offers ${choices}`);
  await page.click('#picker [data-uci="f10f11n"]');
  await waitMoves(page, 1);
  expect(await pieceAt(page, 'f11') === 'N', 'no knight on f11');
});

test('analysis: lines, evaluation bar, PV arrows and the score graph', 'glinski', async (page, ctx) => {
  await newGame(page, ['human', 'human']);
  const moves = ['e4e5', 'e7e6', 'c1f4', 'g7g6', 'f3e4', 'c7c6'];
  for (const [i, move] of moves.entries()) {
    await page.fill('#move-entry input', move);
    await page.press('#move-entry input', 'Enter');
    await waitMoves(page, i + 1);
  }
  await page.click('[data-tab=analysis]');
  await page.selectOption('#multipv', '3');
  await page.check('#analyse');
  const deepEnough = () => page.waitForFunction(() => /depth ([5-9]|\d\d)/.test(document.querySelector('#analysis-info').textContent), null, { timeout: 15000 });
  await page.waitForFunction(() => document.querySelectorAll('#pv-lines li').length === 3, null, { timeout: 15000 });
  await page.waitForSelector('#board .arrow.best');
  expect(await page.locator('#board .arrow').count() >= 2, 'fewer than two arrows for three lines');
  expect(await page.isVisible('#evalbar'), 'no evaluation bar');
  await deepEnough();
  for (let ply = moves.length - 1; ply >= moves.length - 4; ply--) { // each shown position is analysed in turn
    await page.click('#status');
    await page.keyboard.press('ArrowLeft');
    await page.waitForSelector(`#movelist [data-ply="${ply}"].current`);
    await deepEnough();
  }
  await page.keyboard.press('End');
  await page.waitForSelector(`#movelist [data-ply="${moves.length}"].current`);
  await deepEnough();
  expect(await page.locator('#graph .dot').count() >= 5, 'the score graph has fewer than five points');
  // the bar is filled to White's expected share of the points: lichess's curve of White's score
  const bar = await page.evaluate(() => ({ label: document.querySelector('#evalbar .label').textContent,
    height: parseFloat(document.querySelector('#evalbar .fill').style.height) }));
  const cp = parseFloat(bar.label) * 100;
  expect(bar.label.includes('#') || Math.abs(bar.height - 100 / (1 + Math.exp(-0.00368208 * cp))) < 0.5,
    `the bar is filled to ${bar.height}% for ${bar.label}`);
  if (ctx.shots) await page.screenshot({ path: path.join(SHOTS, 'analysis.png') });
  await page.uncheck('#analyse');
  await page.waitForFunction(() => !document.querySelector('#board .arrow'));
});

test('checkmate: the check is marked and the result announced', 'glinski', async page => {
  await newGame(page, ['human', 'human']);
  await loadFen(page, '6/7/R7/9/7Q2/11/K8k/9/R7/7/6 w - - 2 2');
  await page.fill('#move-entry input', 'i1i8');
  await page.press('#move-entry input', 'Enter');
  await page.waitForSelector('#movelist .result-line');
  expect(/checkmate/.test(await page.textContent('#status')), `status: ${await page.textContent('#status')}`);
  await page.waitForSelector('#result-dialog[open]');
  const headline = await page.textContent('#result-dialog .headline');
  expect(headline === 'White wins by checkmate', `the result dialog says "${headline}"`);
  await page.click('#result-dialog .close');
  expect(await page.locator('#board .cell.check').count() === 1, 'the mated king is not marked');
  expect(await page.locator('#board .cell.movable').count() === 0, 'pieces can still be moved');
});

test('PGN out and in, engine options', 'glinski', async page => {
  await newGame(page, ['human', 'human']);
  for (const [i, move] of ['f5f6', 'e7e6'].entries()) {
    await page.fill('#move-entry input', move);
    await page.press('#move-entry input', 'Enter');
    await waitMoves(page, i + 1);
  }
  await page.click('[data-tab=io]');
  await page.click('#pgn-show');
  await page.waitForFunction(() => /\b1\. f6 e6\b/.test(document.querySelector('#pgn-form textarea').value)); // SAN
  const pgn = await page.inputValue('#pgn-form textarea');
  await newGame(page, ['human', 'human']);
  await page.click('[data-tab=io]');
  await page.fill('#pgn-form textarea', pgn);
  await page.click('#pgn-form button[type=submit]');
  await waitMoves(page, 2);
  expect((await movesPlayed(page)).join(' ') === 'f5f6 e7e6', 'the loaded PGN has other moves');
  await page.click('[data-tab=engine]');
  await page.fill('#options input[name=Hash]', '32');
  await page.press('#options input[name=Hash]', 'Enter'); // commits the number: a change event
  await page.waitForFunction(() => document.querySelector('.options-msg').textContent === 'Hash = 32');
});

test('hint draws an arrow', 'glinski', async page => {
  await newGame(page, ['human', 'engine:0']);
  await page.click('#hint');
  await page.waitForSelector('#board .arrow.hint', { timeout: 15000 });
});

test('every cell is drawn: flatstar, nd-mccooey, nd-mccooey-3p', 'glinski', async (page, ctx) => {
  for (const name of ['flatstar', 'nd-mccooey', 'nd-mccooey-3p']) {
    const cells = ctx.variants.find(v => v.name === name).cells;
    await pickVariant(page, name, cells);
    expect(await cellCount(page) === cells, `${name}: ${await cellCount(page)} cells drawn of ${cells}`);
  }
});

test('a 169-cell board renders in under 100 ms', 'nd-anglojewish', async page => {
  const times = [Number(await page.getAttribute('#board', 'data-render-ms'))];
  for (let i = 0; i < 3; i++) { // each rotation redraws the whole board
    await page.click('#flip');
    times.push(Number(await page.getAttribute('#board', 'data-render-ms')));
  }
  const worst = Math.max(...times);
  notes.push(`169-cell render: ${times.map(t => t.toFixed(1)).join(', ')} ms`);
  expect(worst < 100, `a render took ${worst} ms`);
});

test('three players: a move eliminates an army', 'wellisch', async page => {
  await newGame(page, ['human', 'human', 'human']);
  await loadFen(page, 'wG5/7/8/9/9bG/11/rR9/9/7rR/4rR2/rG5 r - - 0 1');
  await page.click('[data-cell="i8"]');
  await page.click('[data-cell="i6"]');
  await page.waitForSelector('.player.eliminated[data-army="w"]');
  expect(await page.locator('#board [data-piece="wG"]').count() === 0, 'the eliminated general is still drawn');
  expect(await page.locator('#movelist [data-move="i8i6"] .out.army-w').count() === 1, 'the move list does not say who left');
  const state = await sessionState(page);
  expect(state.eliminated.includes('w') && state.turn === 'b', `eliminated ${state.eliminated}, turn ${state.turn}`);
});

test('three players: each army\'s expected share of the points, a bar per army', 'nd-mccooey-3p', async page => {
  await newGame(page, ['engine:0', 'engine:0', 'engine:0'], ['movetime_ms', '300']);
  await waitMoves(page, 3);
  const shares = await page.locator('#shares .share').evaluateAll(els =>
    els.filter(e => e.offsetParent).map(e => Number(e.dataset.share)));
  const sum = shares.reduce((a, b) => a + b, 0);
  expect(shares.length === 3 && Math.abs(sum - 1) < 0.01, `shares ${shares} (sum ${sum})`);
  expect(shares.every(x => x > 0.1 && x < 0.7), `shares near the start ${shares.map(x => x.toFixed(2))}: not about even`);
  expect(!await page.isVisible('#evalbar'), 'the two-army evaluation bar is shown for three armies');
  await page.waitForFunction(() => [...document.querySelectorAll('.player .engine-line')].some(e => /% of the points/.test(e.textContent)));
});

test('a three-player result in words, with each army\'s points', 'wellisch', async (page, ctx) => {
  await newGame(page, ['human', 'human', 'human']);
  await loadFen(page, '6/7/8/9/10/rG1wV8/10/2rE6/8/3bG3/wG5 b - - 0 1');
  await typeMove(page, 'k4k3');
  await page.waitForSelector('#result-dialog[open]');
  const headline = await page.textContent('#result-dialog .headline');
  const detail = await page.textContent('#result-dialog .detail');
  const points = await page.locator('#result-dialog .points li').evaluateAll(els => els.map(e => e.textContent).join(' '));
  expect(headline === 'White wins as the last army on the board', `headline "${headline}"`);
  expect(detail === 'Red and Black are eliminated.', `detail "${detail}"`);
  expect(points === 'Red0 White1 Black0', `points "${points}"`);
  if (ctx.shots) await page.screenshot({ path: path.join(SHOTS, 'result-3p.png') });
});

test('the piece guide marks moves and captures', 'glinski', async page => {
  await page.click('[data-tab=guide]');
  await page.click('[data-guide="N"]');
  const guide = await page.evaluate(async () => (await fetch('/api/guide?variant=glinski&piece=N')).json());
  await page.waitForFunction(n => document.querySelectorAll('#guide-board .mark').length === n, guide.moves.length + guide.captures.length);
  expect(guide.moves.length === 12, `a knight in the centre has ${guide.moves.length} moves`);
  await page.click('#guide-board [data-guide-cell="a1"]');
  await page.waitForSelector('#guide-board [data-at="a1"]');
});

test('engine against engine', 'mccooey', async page => {
  await newGame(page, ['engine:0', 'engine:0'], ['movetime_ms', '50']);
  await waitMoves(page, 4);
});

test('an engine crash is shown with a restart button; the game stays', 'glinski', async (page, ctx) => {
  const before = new Set(serverChildren(ctx.server.pid));
  await newGame(page, ['human', 'engine:0'], ['movetime_ms', '3000']);
  await page.click('[data-cell="f5"]');
  await page.click('[data-cell="f6"]');
  await page.waitForTimeout(300); // the engine is thinking
  const engines = serverChildren(ctx.server.pid).filter(pid => !before.has(pid));
  expect(engines.length > 0, 'no engine process for the session');
  for (const pid of engines) process.kill(pid, 'SIGKILL');
  await page.waitForSelector('#engine-alert:not([hidden])', { timeout: 15000 });
  expect(await pieceAt(page, 'f6') === 'P', 'the game was lost with the engine');
  await page.click('#engine-alert .restart');
  await page.waitForSelector('#engine-alert', { state: 'hidden', timeout: 15000 });
  await waitMoves(page, 2);
});

// The markup that the hostile toy engine prints; it sets window.__pwned if the page ever runs it.
const MARKUP = '<img src=x onerror=window.__pwned=1>';

test('what an engine prints is shown as text and never runs', 'glinski', async (page, ctx) => {
  // a server whose second engine is the toy in its hostile mode, under a file name that is markup too
  // (tabs: a command is split at spaces, and HTML takes tabs between attributes)
  const dir = mkdtempSync(path.join(tmpdir(), 'sennight-hostile-'));
  const name = 'toy<img\tsrc=x\tonerror=window.__pwned=1>';
  symlinkSync(path.resolve(ctx.toy), path.join(dir, name));
  const server = startServer(process.env.SENNIGHT, ['--engine', `${path.join(dir, name)} hostile`]);
  try {
    const url = await server.ready;
    let hostileStream = false;
    // the analysis panel shows engine 0's lines: its stream is replaced by one with the toy's line
    await page.route('**/events', route => {
      if (!hostileStream) return route.continue();
      const analysis = { seat: null, depth: 1,
        lines: [{ multipv: 1, depth: 1, score: { cp: 0 }, pv: [MARKUP, 'f5f6'], nodes: 1, nps: 1 }] };
      return route.fulfill({ status: 200, contentType: 'text/event-stream',
        body: `retry: 200\nevent: analysis\ndata: ${JSON.stringify(analysis)}\n\n` });
    });
    await page.goto(`${url}?variant=glinski`);
    await page.waitForSelector('#board [data-piece]', { timeout: 30000 });
    await newGame(page, ['human', 'engine:1'], ['movetime_ms', '200']);
    await page.click('[data-cell="f5"]');
    await page.click('[data-cell="f6"]');
    await waitMoves(page, 2); // the toy has sent its line with the markup in its pv, and moved
    const label = await page.textContent('#players [data-army="b"] .label');
    expect(label === name, `the engine's name on its card: ${JSON.stringify(label)}`);
    const option = await page.textContent('#options select[name=engine] option[value="1"]');
    expect(option === name, `the engine's name in the options: ${JSON.stringify(option)}`);
    const seat = await page.textContent('select[name=seat-1] option[value="engine:1"]');
    expect(seat === name, `the engine's name in the new game form: ${JSON.stringify(seat)}`);
    hostileStream = true;
    await newGame(page, ['human', 'engine:1'], ['movetime_ms', '200']);
    await page.evaluate(() => { document.querySelector('#analyse').checked = true; });
    await page.waitForFunction(
      m => [...document.querySelectorAll('#pv-lines .pv')].some(e => e.textContent.startsWith(m)), MARKUP);
    await page.waitForTimeout(500); // an image's error event comes after its load fails
    expect(await page.evaluate(() => window.__pwned) === undefined, 'the engine\'s markup ran');
    expect(await page.locator('img').count() === 0, 'the engine\'s markup became an element');
  } finally {
    server.process.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a phone: from 360 px wide nothing scrolls sideways and the board fills the width', 'nd-mccooey-3p', async (page, ctx) => {
  for (const [width, height] of [[390, 844], [360, 740]]) {
    await page.setViewportSize({ width, height });
    await page.waitForTimeout(200);
    for (const tab of ['game', 'analysis', 'guide', 'io', 'engine']) {
      await page.click(`[data-tab=${tab}]`);
      const wide = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(wide <= width, `${width} px: the page is ${wide} px wide with the ${tab} tab`);
    }
    await page.click('[data-tab=game]');
    const board = await page.locator('#board').boundingBox();
    expect(board.width >= width - 24, `${width} px: the board is ${board.width.toFixed(0)} px wide`);
    if (ctx.shots) await page.screenshot({ path: path.join(SHOTS, `phone-${width}.png`), fullPage: true });
  }
});

test('screenshots of every variant (GUI_SCREENSHOTS=1)', 'glinski', async (page, ctx) => {
  if (!ctx.shots) return;
  for (const v of ctx.variants) {
    await pickVariant(page, v.name, v.cells);
    await page.screenshot({ path: path.join(SHOTS, `${v.name}.png`) });
  }
});

// --- the pieces' glyphs and the piece guide

/** For every built-in variant: each piece type's name, letter, description and markup (pieces.js, as the board draws it). */
function variantGlyphs(page, names) {
  return page.evaluate(async list => {
    const { pieceMarkup } = await import('/pieces.js');
    return Promise.all(list.map(async name => {
      const variant = await (await fetch(`/api/variant/${name}`)).json();
      return { name, pieces: variant.pieces.map(p => ({ ...p, markup: pieceMarkup(p.letter, p) })) };
    }));
  }, names);
}

test('glyphs: every piece of every built-in variant is a glyph, no two alike in a variant', 'glinski', async (page, ctx) => {
  for (const { name, pieces } of await variantGlyphs(page, ctx.variants.map(v => v.name))) {
    const seen = new Map();
    for (const p of pieces) {
      expect(p.markup.includes('<path') && !p.markup.includes('<text'), `${name}: ${p.name} is drawn as a letter`);
      const other = seen.get(p.markup);
      // one name is one glyph: a rook in two armies (nd-wellisch-4p) is the same piece
      expect(!other || other === p.name, `${name}: ${p.name} and ${other} have the same glyph`);
      seen.set(p.markup, p.name);
    }
  }
  for (const name of ['mishling-4c-fusion', 'full-house', 'nd-wellisch-trios-4p']) {
    await pickVariant(page, name, ctx.variants.find(v => v.name === name).cells);
    expect(await page.locator('#board [data-piece] path.body').count() > 0, `${name}: no glyph on the board`);
    expect(await page.locator('#board [data-piece] text').count() === 0, `${name}: a piece on the board is a letter`);
  }
});

test('glyphs: a user variant\'s unknown piece is a lettered disc', 'glinski', async page => {
  const [disc, icon] = await page.evaluate(async () => {
    const { pieceMarkup, pieceIcon } = await import('/pieces.js');
    const variant = await (await fetch('/api/variant/glinski')).json();
    variant.pieces.push({ letter: 'M', name: 'marshal', royal: false, pawn: false, army: 0 });
    return [pieceMarkup('M', variant.pieces.at(-1)), pieceIcon('m', variant)];
  });
  expect(/<text[^>]*>M<\/text>/.test(disc) && !disc.includes('<path'), `the marshal is drawn as ${disc}`);
  expect(icon.includes('army-b') && icon.includes('>M</text>'), `a black marshal's icon is ${icon}`);
});

test('piece guide: a sentence for every built-in piece; it fits 1400×900 (16 piece types too)', 'mishling', async (page, ctx) => {
  for (const { name, pieces } of await variantGlyphs(page, ctx.variants.map(v => v.name))) {
    for (const p of pieces) expect(p.description.length > 20, `${name}: ${p.name} has no description`);
  }
  await page.setViewportSize({ width: 1400, height: 900 });
  for (const name of ['mishling', 'full-house', 'nd-wellisch-4p', 'waitress-fusion']) {
    await pickVariant(page, name, ctx.variants.find(v => v.name === name).cells);
    await page.click('[data-tab=guide]');
    const { pieces } = (await variantGlyphs(page, [name]))[0];
    for (const p of pieces) {
      await page.click(`[data-guide="${p.letter}"][data-army="${p.army}"]`);
      await page.waitForFunction(text => document.querySelector('.guide-text').textContent.endsWith(text), p.description);
      await page.waitForSelector('#guide-board [data-piece]');
      const text = await page.textContent('.guide-text');
      expect(text.toLowerCase().startsWith(p.name), `${name}: the guide's sentence for ${p.name} is "${text}"`);
    }
    const outside = await page.evaluate(() => ['#guide-pieces', '.guide-text', '#guide-board svg'].filter(sel => {
      const box = document.querySelector(sel).getBoundingClientRect();
      return box.top < 0 || box.bottom > innerHeight || box.height === 0;
    }));
    expect(outside.length === 0 && await page.evaluate(() => scrollY === 0), `${name}: ${outside} not in view at 1400×900`);
    if (ctx.shots && name === 'mishling') {
      await page.click('[data-guide="F"]');
      await page.waitForFunction(() => document.querySelector('.guide-text').textContent.startsWith('Finch'));
      await page.screenshot({ path: path.join(SHOTS, 'piece-guide.png') });
    }
  }
  if (ctx.shots) {
    await page.setViewportSize({ width: 1280, height: 800 });
    await pickVariant(page, 'mishling-4c-fusion', ctx.variants.find(v => v.name === 'mishling-4c-fusion').cells);
    await page.click('[data-tab=guide]');
    await page.click('[data-guide="(FI)"]');
    await page.screenshot({ path: path.join(SHOTS, 'fairy-pieces.png') });
  }
});

runTests().catch(err => {
  console.error(err.message);
  process.exitCode = 1;
});
