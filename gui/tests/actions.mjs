// Browser tests of the game flow: resign, draw offers, abort, rematch and swap sides, captured pieces
// and material, move sounds, premoves against an engine (the toy engine, slowed, as the opponent).
import {
  startServer, movesPlayed, sessionState, waitMoves, newGame, loadFen, expect, test,
} from './lib.mjs';

const BARE_KINGS = '6/7/8/9/10/11/K8k/9/8/7/6 w - - 0 1';
const ROOK_DOWN = '6/7/8/9/10/11/K8k/9/8/7/5r w - - 0 1'; // Black (the engine) has a rook more
const ROOK_TAKES = '6/7/R3r3/9/10/11/K8k/9/8/7/6 w - - 0 1'; // c1c5 takes the rook
const ROOK_CHECKS = '6/7/R7/9/10/11/K8k/9/8/7/6 w - - 0 1'; // c1c7 gives check
const WELLISCH_ROOK_TAKES = 'wG5/7/8/9/9bG/11/rR3wR5/9/8/7/rG5 r - - 0 1'; // Red's g1g5 takes White's rook

const headline = page => page.textContent('#result-dialog .headline');
const lastSound = page => page.evaluate(() => document.body.dataset.lastSound ?? null);
const soundCount = page => page.evaluate(() => Number(document.body.dataset.sounds ?? 0));

/** Types a move in the move box and waits for `total` moves in the list. */
async function typeMove(page, move, total) {
  await page.fill('#move-entry input', move);
  await page.press('#move-entry input', 'Enter');
  await waitMoves(page, total);
}

async function resign(page) {
  await page.click('#resign');
  expect(await page.getAttribute('#resign', 'class') === 'confirm', 'the first click on Resign does not ask');
  await page.click('#resign');
  await page.waitForSelector('#result-dialog[open]');
}

/** Clicks a rematch button of the result dialog; resolves with the new game's STATE once it is shown. */
async function rematchBy(page, button) {
  const answered = page.waitForResponse(r => r.url().endsWith('/rematch'));
  await page.click(`#result-dialog .${button}`);
  const state = await (await answered).json();
  await page.waitForFunction(() => !document.querySelector('#result-dialog[open]') &&
    !document.querySelector('#status .result'));
  return state;
}

test('resign against the engine, then rematch and swap sides', 'glinski', async page => {
  await newGame(page, ['human', 'engine:0'], ['nodes', '200']);
  expect(await page.isVisible('#resign') && await page.isVisible('#draw'), 'no Resign or Offer draw button');
  await page.click('[data-cell="f5"]');
  await page.click('[data-cell="f6"]');
  await waitMoves(page, 2);
  await resign(page);
  const words = await headline(page);
  expect(words === 'Black wins by resignation', `the dialog says "${words}"`);
  expect(await lastSound(page) === 'end', `the game's end sounds "${await lastSound(page)}"`);
  expect(!await page.isVisible('#resign'), 'Resign is still offered after the end');
  let state = await rematchBy(page, 'rematch');
  expect(!state.result && state.seats[0].kind === 'human' && state.seats[1].kind === 'engine',
    `the rematch: ${JSON.stringify(state.result)}, seats ${state.seats.map(s => s.kind)}`);
  expect(await page.isVisible('#resign'), 'no Resign button in the rematch');
  await resign(page);
  state = await rematchBy(page, 'swap');
  expect(state.seats[0].kind === 'engine' && state.seats[1].kind === 'human',
    `swapped seats: ${state.seats.map(s => s.kind)}`);
  await waitMoves(page, 1); // the engine has White now and opens
  expect(await page.locator('#board .cell.movable').count() > 0, 'the person cannot move Black after the swap');
});

test('abort before the first moves, then a rematch', 'glinski', async page => {
  await newGame(page, ['human', 'engine:0'], ['nodes', '200']);
  await page.click('#abort');
  await page.waitForSelector('#result-dialog[open]');
  expect(await headline(page) === 'Game aborted', `the dialog says "${await headline(page)}"`);
  const state = await rematchBy(page, 'rematch');
  expect(!state.result && state.abortable, `after the rematch: ${JSON.stringify(state.result)}`);
});

test('a draw offer: the engine accepts with bare kings, declines a rook down', 'glinski', async page => {
  await newGame(page, ['human', 'engine:0'], ['nodes', '200']);
  await loadFen(page, BARE_KINGS);
  await typeMove(page, 'g1g2', 2);
  await page.click('#draw');
  await page.waitForSelector('#result-dialog[open]');
  expect(await headline(page) === 'Draw by agreement', `the dialog says "${await headline(page)}"`);
  await page.click('#result-dialog .close');
  await newGame(page, ['human', 'engine:0'], ['nodes', '200']);
  await loadFen(page, ROOK_DOWN);
  await typeMove(page, 'g1g2', 2);
  await page.click('#draw');
  await page.waitForSelector('#flow-message:not([hidden])');
  const message = await page.textContent('#flow-message');
  expect(/^Black declines the draw \(\+\d+\.\d\d\)$/.test(message), `the message: "${message}"`);
  expect(!(await sessionState(page)).result, 'the game ended');
});

test('a draw offer between people: declined, then accepted', 'glinski', async page => {
  await newGame(page, ['human', 'human']);
  await page.click('#draw');
  await page.waitForSelector('#draw-offer:not([hidden])');
  const text = await page.textContent('#draw-offer .text');
  expect(text === 'White offers a draw (to Black)', `the offer bar: "${text}"`);
  await page.click('#draw-offer .decline');
  await page.waitForSelector('#flow-message:not([hidden])');
  expect(await page.textContent('#flow-message') === 'Black declines the draw', 'no decline shown');
  await page.click('#draw');
  await page.click('#draw-offer .accept');
  await page.waitForSelector('#result-dialog[open]');
  expect(await headline(page) === 'Draw by agreement', `the dialog says "${await headline(page)}"`);
});

test('captured pieces and the material lead beside the cards', 'glinski', async page => {
  await newGame(page, ['human', 'human']);
  await loadFen(page, ROOK_TAKES);
  expect(await page.locator('#players .material .taken').count() === 0, 'captures shown before any');
  await page.click('[data-cell="c1"]');
  await page.click('[data-cell="c5"]');
  await page.waitForSelector('#players [data-army="w"] .material .taken[data-piece="r"] svg');
  const lead = await page.textContent('#players [data-army="w"] .material .lead');
  expect(lead === '+5', `White's lead: ${lead}`);
  expect(await page.locator('#players [data-army="b"] .material .taken, #players [data-army="b"] .lead').count() === 0,
    'Black shows captures or a lead');
  expect(await lastSound(page) === 'capture', `the capture sounds "${await lastSound(page)}"`);
});

test('three armies: captured pieces, the lead over the others\' mean, a resignation', 'wellisch', async page => {
  await newGame(page, ['human', 'human', 'human']);
  await loadFen(page, WELLISCH_ROOK_TAKES);
  await page.click('[data-cell="g1"]');
  await page.click('[data-cell="g5"]');
  await page.waitForSelector('#players [data-army="r"] .material .taken[data-piece="wR"]');
  // a Wellisch rook is worth 5.89 pawns: Red and Black are each 2.95 above the mean change of the others
  const leads = await page.locator('#players .lead').evaluateAll(els =>
    els.map(e => `${e.closest('[data-army]').dataset.army}${e.textContent}`).join(' '));
  expect(leads === 'r+3 b+3', `the leads: ${leads}`);
  await resign(page); // White is to move
  const words = await headline(page);
  expect(words === 'White resigns; Red and Black share the points', `the dialog says "${words}"`);
});

test('move sounds: a move, a check, the end; muting is remembered', 'glinski', async page => {
  await newGame(page, ['human', 'human']);
  if (await page.getAttribute('#mute', 'aria-pressed') === 'true') await page.click('#mute'); // as the harness starts
  expect(await page.evaluate(() => localStorage.getItem('sennight.muted')) === '0', 'unmuting is not kept');
  const before = await soundCount(page);
  await typeMove(page, 'f5f6', 1);
  await page.waitForFunction(n => Number(document.body.dataset.sounds) === n + 1, before);
  expect(await lastSound(page) === 'move', `a move sounds "${await lastSound(page)}"`);
  await loadFen(page, ROOK_CHECKS);
  await typeMove(page, 'c1c7', 1);
  expect(await lastSound(page) === 'check', `a check sounds "${await lastSound(page)}"`);
  await resign(page);
  expect(await lastSound(page) === 'end', `the end sounds "${await lastSound(page)}"`);
  await page.click('#result-dialog .close');
  await page.click('#mute');
  await page.reload();
  await page.waitForSelector('#board [data-piece]');
  expect(await page.getAttribute('#mute', 'aria-pressed') === 'true', 'the mute is forgotten after a reload');
});

/**
 * Runs `fn` on a page of a server whose engine 1 is the toy engine, slowed to think 3 s a move (time for
 * the clicks on a busy machine) within its 5 s, after the person's first move.
 */
async function againstSlowToy(page, ctx, fn) {
  const server = startServer(process.env.SENNIGHT, ['--engine', `${ctx.toy} slow=3000`]);
  try {
    await page.goto(`${await server.ready}?variant=glinski`);
    await page.waitForSelector('#board [data-piece]', { timeout: 30000 });
    await newGame(page, ['human', 'engine:1'], ['movetime_ms', '5000']);
    await page.click('[data-cell="f5"]');
    await page.click('[data-cell="f6"]');
    await page.waitForFunction(() => document.querySelector('#status').textContent.startsWith('Black to move'));
    await fn();
  } finally {
    server.process.kill('SIGTERM');
  }
}

test('a premove is played after the engine\'s reply', 'glinski', async (page, ctx) => {
  await againstSlowToy(page, ctx, async () => {
    await page.click('[data-cell="e4"]');
    await page.click('[data-cell="e5"]');
    expect(await page.locator('#board .cell.premove').count() === 2, 'the premove is not shown');
    await waitMoves(page, 3);
    const moves = await movesPlayed(page);
    expect(moves[2] === 'e4e5', `the moves: ${moves}`);
    expect(await page.locator('#board .cell.premove').count() === 0, 'the premove stays shown after it was played');
  });
});

test('an illegal premove is dropped; a click elsewhere or a right-click cancels one', 'glinski', async (page, ctx) => {
  await againstSlowToy(page, ctx, async () => {
    await page.click('[data-cell="e4"]');
    await page.click('[data-cell="e5"]');
    await page.click('[data-cell="a3"]'); // an empty cell
    expect(await page.locator('#board .cell.premove').count() === 0, 'a click on an empty cell keeps the premove');
    await page.click('[data-cell="e4"]');
    await page.click('[data-cell="e5"]');
    await page.click('[data-cell="b4"]', { button: 'right' });
    expect(await page.locator('#board .cell.premove').count() === 0, 'a right-click keeps the premove');
    await page.click('[data-cell="g1"]');
    await page.click('[data-cell="g3"]'); // the king cannot step two cells
    await page.waitForFunction(() => /Premove g1-g3 dropped/.test(document.querySelector('#status').textContent));
    expect(await page.locator('#board .cell.premove').count() === 0, 'the dropped premove stays shown');
    await page.waitForTimeout(300);
    expect((await movesPlayed(page)).length === 2, 'a move was played for the person');
  });
});
