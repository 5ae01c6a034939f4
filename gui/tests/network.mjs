// Games served to the network (`sennight gui --host`): a server of their own, the creator in the test's
// browser, the invited players and spectators in a second browser, each in a tab of its own.
import { chromium } from 'playwright-core';
import path from 'node:path';
import { SHOTS, startServer, movesPlayed, pieceAt, newGame, expect, test } from './lib.mjs';

// A server and a second browser of their own: twice the usual time on a busy machine
export const NETWORK_TIMEOUT = 120000;

/** A server listening "on the network" (its loopback address, through --host) and a second browser. */
export async function network(fn) {
  const server = startServer(process.env.SENNIGHT, ['--host', '127.0.0.1', '--name', 'sennight.test']);
  const other = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  try {
    const url = await server.ready;
    await fn(url, await other.newContext({ viewport: { width: 1280, height: 800 } }));
  } finally {
    await other.close();
    server.process.kill('SIGTERM');
  }
}

/** The page opened on `url`, once its game is attached. */
export async function open(page, url) {
  await page.goto(url);
  await page.waitForSelector('body[data-session] #board [data-piece]');
  return page;
}

export const inviteLink = (page, seat) => page.inputValue(`#invite [data-invite="${seat}"] input`);
const gameId = page => page.getAttribute('body', 'data-session');

/** Clicks a move on the board. */
async function play(page, from, to) {
  await page.click(`[data-cell="${from}"]`);
  await page.click(`[data-cell="${to}"]`);
}

/** Waits until every page lists `moves`. */
async function allShow(pages, moves) {
  for (const page of pages) {
    await page.waitForFunction(n => document.querySelectorAll('#movelist [data-move]').length === n, moves.length);
    const shown = await movesPlayed(page);
    expect(shown.join(' ') === moves.join(' '), `a page lists ${shown.join(' ')}, not ${moves.join(' ')}`);
  }
}

/** A move posted from inside `page` with `token` (null: none), as a forged request would be: its status and error. */
function forged(page, token, move) {
  return page.evaluate(async ([token, move]) => {
    const headers = { 'Content-Type': 'application/json', ...(token ? { 'X-Sennight-Token': token } : {}) };
    const id = document.body.dataset.session;
    const reply = await fetch(`/api/session/${id}/move`, { method: 'POST', headers, body: JSON.stringify({ move }) });
    return { status: reply.status, error: (await reply.json()).error };
  }, [token, move]);
}

/** The token this tab keeps for its game. */
export const tokenOf = page => page.evaluate(() => JSON.parse(sessionStorage.getItem('sennight.seat')).token);

/** Types a move in the move box. */
async function typeMove(page, move) {
  await page.fill('#move-entry input', move);
  await page.press('#move-entry input', 'Enter');
}

/** The refusal the page shows: in the status line (a move from the board's list) or under the move box. */
async function refusal(page) {
  const shown = await page.waitForSelector('#status.error, #move-entry .error:not(:empty)');
  return shown.textContent();
}

test('network: two browsers play one game by invite links; spectators and forged moves are refused', 'glinski',
  async (creator, ctx) => network(async (url, other) => {
    await open(creator, `${url}?variant=glinski`);
    await newGame(creator, ['human', 'human'], ['movetime_ms', '200']);
    await creator.waitForSelector('#invite [data-invite="1"] input');
    const id = await gameId(creator);
    const blackLink = await inviteLink(creator, 1);
    const watchLink = await inviteLink(creator, 'watch');
    expect(blackLink.startsWith('http://sennight.test:') && blackLink.includes(`?game=${id}#seat=1&token=`),
      `Black's link ${blackLink}`);
    expect(!watchLink.includes('token'), `the spectators' link ${watchLink} has a token`);
    // the names are for other machines; this test reaches the server by its address
    const here = link => link.replace(/^http:\/\/[^/]+\//, url);
    const black = await open(await other.newPage(), here(blackLink));
    expect(await gameId(black) === id, 'Black\'s page opened another game');
    expect(await black.textContent('#invite') === 'You play Black.', await black.textContent('#invite'));
    expect(!(await black.url()).includes('token'), `the token stays in the address: ${black.url()}`);
    await creator.waitForSelector('#invite [data-invite="1"] .joined');
    if (ctx.shots) await creator.screenshot({ path: path.join(SHOTS, 'network.png') });

    await play(creator, 'f5', 'f6');
    await allShow([creator, black], ['f5f6']);
    // White's page does not move Black: no targets, and a typed move is refused with the reason
    await creator.click('[data-cell="e7"]');
    expect(await creator.locator('#board .mark.move').count() === 0, 'White\'s page offers Black\'s moves');
    await typeMove(creator, 'e7e6');
    const typed = await refusal(creator);
    expect(typed.includes('Black plays from another browser'), `White's page typing Black's move: "${typed}"`);
    const asCreator = await forged(creator, await tokenOf(creator), 'e7e6');
    expect(asCreator.status === 403, `White's page moved for Black: ${asCreator.status}`);
    await play(black, 'e7', 'e6');
    await allShow([creator, black], ['f5f6', 'e7e6']);
    expect(await pieceAt(creator, 'e6') === 'p' && await pieceAt(black, 'f6') === 'P', 'the pages show other boards');

    // a spectator watches the moves as they come, and moves nothing
    const watcher = await open(await other.newPage(), here(watchLink));
    expect(await watcher.getAttribute('body', 'data-role') === 'watcher', 'the spectator\'s page is not a watcher');
    await allShow([watcher], ['f5f6', 'e7e6']);
    await typeMove(watcher, 'e4e5');
    const refused = await refusal(watcher);
    expect(refused.includes('you are watching this game'), `the spectator's move: "${refused}"`);
    const noToken = await forged(watcher, null, 'e4e5');
    expect(noToken.status === 403, `a move without a token: ${noToken.status}`);
    // Black's token on White's turn
    const blackOnWhite = await forged(black, await tokenOf(black), 'e4e5');
    expect(blackOnWhite.status === 403 && blackOnWhite.error.includes('not your move'),
      `Black's token on White's turn: ${blackOnWhite.status} ${blackOnWhite.error}`);
    await play(creator, 'e4', 'e5');
    await allShow([creator, black, watcher], ['f5f6', 'e7e6', 'e4e5']);
    // the spectator steps back on its own page: the players' pages stay at the last move
    await watcher.click('[data-nav="first"]');
    await watcher.waitForFunction(() => document.querySelector('#status').textContent.includes('move 0 of 3'));
    expect(await pieceAt(watcher, 'e5') === null, 'the spectator\'s page does not show the start');
    expect(await pieceAt(black, 'e5') === 'P' && await pieceAt(creator, 'e5') === 'P', 'the players\' pages went back');
    expect(!(await black.textContent('#status')).includes(' of '), `Black's page: ${await black.textContent('#status')}`);
    // a reload keeps Black's seat (the spent invitation is not used again)
    await black.reload();
    await black.waitForSelector('body[data-session] #board [data-piece]');
    expect(await black.textContent('#invite') === 'You play Black.', 'Black lost the seat on reload');
    await play(black, 'd7', 'd6');
    await allShow([creator, black, watcher], ['f5f6', 'e7e6', 'e4e5', 'd7d6']);
  }), NETWORK_TIMEOUT);

test('network: four browsers play nd-wellisch-4p', 'nd-wellisch-4p',
  async (creator, ctx) => network(async (url, other) => {
    await open(creator, `${url}?variant=nd-wellisch-4p`);
    await newGame(creator, ['human', 'human', 'human', 'human'], ['movetime_ms', '200']);
    const players = [creator];
    for (const seat of [1, 2, 3]) {
      const link = (await inviteLink(creator, seat)).replace(/^http:\/\/[^/]+\//, url);
      players.push(await open(await other.newPage(), link));
    }
    const moves = [];
    for (let ply = 0; ply < 4; ply++) {
      const seat = ply % 4;
      const state = await players[seat].evaluate(async () =>
        (await fetch(`/api/session/${document.body.dataset.session}`)).json());
      // every page but the seat's own refuses this move
      for (const [k, page] of players.entries()) {
        if (k === seat) continue;
        const attempt = await forged(page, await tokenOf(page), state.legal[0]);
        expect(attempt.status === 403, `seat ${k} moved for seat ${seat}: ${attempt.status}`);
      }
      await typeMove(players[seat], state.legal[0]);
      moves.push(state.legal[0]);
      await allShow(players, moves);
    }
    if (ctx.shots) await players[2].screenshot({ path: path.join(SHOTS, 'network-4p.png') });
  }), NETWORK_TIMEOUT);
