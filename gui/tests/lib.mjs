// The browser tests' harness: the server, the page helpers every test file uses, the test list and its run.
// Test files register tests with test(); gui/tests/run.mjs imports them all and calls runTests().
import { chromium } from 'playwright-core';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SHOTS = path.join(ROOT, 'docs/gui');
export const TEST_TIMEOUT = 60000;

// --- the server

export function startServer(executable, args = []) {
  const server = spawn(path.resolve(executable), ['gui', '--port', '0', '--no-browser', ...args],
    { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  server.stderr.on('data', d => { log += d; });
  const ready = new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no ready line in 20 s:\n${out}${log}`)), 20000);
    server.stdout.on('data', d => {
      out += d;
      const m = /Sennight GUI: (http:\/\/\S+)/.exec(out);
      if (m) { clearTimeout(timer); resolve(m[1]); }
    });
    server.on('exit', code => { clearTimeout(timer); reject(new Error(`server exited (${code}):\n${out}${log}`)); });
  });
  return { process: server, ready, log: () => log };
}

/** The engine processes the server runs now (its children), by process id. */
export function serverChildren(pid) {
  const ids = [];
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    ids.push(...readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number));
  }
  return ids;
}

// --- helpers on a page

export const cellCount = page => page.locator('#board [data-cell]').count();
export const movesPlayed = page => page.locator('#movelist [data-move]').evaluateAll(els => els.map(e => e.dataset.move));
export const pieceAt = (page, cell) => page.locator(`#board [data-at="${cell}"]`).getAttribute('data-piece', { timeout: 2000 }).catch(() => null);

/** The session's STATE, asked of the server from inside the page. */
export function sessionState(page) {
  return page.evaluate(async () => {
    return (await fetch(`/api/session/${sessionStorage.getItem('sennight.session')}`)).json();
  });
}

export async function waitMoves(page, n) {
  await page.waitForFunction(k => document.querySelectorAll('#movelist [data-move]').length >= k, n, { timeout: 15000 });
}

/** Starts a game from the New game tab: `seats` like ['human', 'engine:0'], an engine limit, no clock, engines' Elo. */
export async function newGame(page, seats, limit = ['movetime_ms', '200'], clock = '', elo = '') {
  await page.click('[data-tab=game]');
  for (const [i, kind] of seats.entries()) {
    await page.selectOption(`select[name=seat-${i}]`, kind);
    await page.fill(`input[name=elo-${i}]`, kind === 'human' ? '' : elo);
  }
  await page.selectOption('select[name=clock]', clock);
  await page.selectOption('select[name=limit-kind]', limit[0]);
  await page.fill('input[name=limit-value]', limit[1]);
  // the page tries again while the server has too many sessions (503): wait for the one that is made
  const created = page.waitForResponse(r => r.url().endsWith('/api/session') && r.status() === 201, { timeout: 30000 });
  await page.click('#newgame button[type=submit]');
  const { id } = await (await created).json();
  await page.waitForSelector(`body[data-session="${id}"]`);
}

/** Loads a FEN from the FEN/PGN tab; a refusal throws with the error the tab shows. */
export async function loadFen(page, fen) {
  await page.click('[data-tab=io]');
  await page.fill('#fen-form input[name=fen]', fen);
  const answered = page.waitForResponse(r => r.url().endsWith('/fen') && r.request().method() === 'POST');
  await page.click('#fen-form button[type=submit]');
  const reply = await answered;
  if (!reply.ok()) {
    const shown = await page.waitForFunction(() => document.querySelector('.io-error').textContent, null, { timeout: 2000 })
      .then(() => page.textContent('.io-error'), () => 'no error shown in the FEN/PGN tab');
    throw new Error(`FEN refused: ${shown}`);
  }
  const state = await reply.json();
  await page.waitForFunction(f => document.querySelector('#fen-form input[name=fen]').value === f, state.fen);
  // The typed FEN may already read as the loaded one: the page draws a new state at its next frame.
  await page.evaluate(() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done))));
}

/** The pieces the page draws, as "cell:piece" sorted. */
export const shownPieces = page => page.locator('#board [data-at]').evaluateAll(els =>
  els.map(e => `${e.dataset.at}:${e.dataset.piece}`).sort().join(' '));

/** Polls the server until the game waits for a person (or is over, or has no person left): its STATE then. */
export async function settledState(page, after = -1) {
  for (;;) {
    const state = await sessionState(page);
    const people = state.seats.filter(s => s.kind === 'human' && !state.eliminated.includes(s.army));
    if (state.plies > after && (state.legal.length || state.result || !people.length)) return state;
    await page.waitForTimeout(30);
  }
}

/**
 * Plays `moves` random moves of the first army against engines, typed in the move box; after each,
 * once the server waits for the person again, the page must show the server's position within a second.
 */
export async function playAgainstEngines(page, armies, limit, elo, moves) {
  let seed = 7;
  const random = n => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
  const start = () => newGame(page, ['human', ...Array(armies - 1).fill('engine:0')], limit, '', elo);
  await start();
  for (let played = 0; played < moves;) {
    let state = await settledState(page);
    if (state.result || state.eliminated.includes(state.seats[0].army)) {
      if (state.result) { // the result dialog is modal
        await page.waitForSelector('#result-dialog[open]');
        await page.click('#result-dialog .close');
      }
      await start();
      continue;
    }
    const move = state.legal[random(state.legal.length)];
    await page.fill('#move-entry input', move);
    await page.press('#move-entry input', 'Enter');
    played++;
    state = await settledState(page, state.plies);
    const server = state.pieces.map(p => `${p.cell}:${p.piece}`).sort().join(' ');
    await page.waitForFunction(want => [...document.querySelectorAll('#board [data-at]')]
      .map(e => `${e.dataset.at}:${e.dataset.piece}`).sort().join(' ') === want, server, { timeout: 1000 })
      .catch(async () => {
        throw new Error(`move ${played} (${move}): after ply ${state.plies} the page shows another position` +
          ` (${(await shownPieces(page)).length} vs ${server.length} characters of pieces)`);
      });
  }
}

/** Picks a variant in the header, which starts a game of it; resolves when its pieces are drawn. */
export async function pickVariant(page, name, cells) {
  if (await page.inputValue('select[name=variant]') !== name) {
    const created = page.waitForResponse(r => r.url().endsWith('/api/session') && r.status() === 201, { timeout: 30000 });
    await page.selectOption('select[name=variant]', name);
    const { id } = await (await created).json();
    await page.waitForSelector(`body[data-session="${id}"]`);
  }
  await page.waitForFunction(([v, n]) => document.querySelector(`#board[data-variant="${v}"]`) &&
    document.querySelectorAll('#board [data-cell]').length === n && document.querySelector('#board [data-piece]'), [name, cells]);
}

/** What the page showed when a test failed: its status, the engine alert and the analysis panel. */
export function pageSummary(page) {
  return page.evaluate(() => {
    const text = sel => document.querySelector(sel)?.textContent.replace(/\s+/g, ' ').trim();
    const alert = document.querySelector('#engine-alert');
    return JSON.stringify({ status: text('#status'), alert: alert && !alert.hidden ? text('#engine-alert') : null,
      analysis: text('#analysis-info'), lines: document.querySelectorAll('#pv-lines li').length,
      arrows: document.querySelectorAll('#board .arrow').length });
  }).catch(err => `unreadable (${err.message.split('\n')[0]})`);
}

/** Runs one test in a fresh tab (so a fresh session); resolves with its error, or null. */
export async function runTest(browser, url, t, ctx) {
  const page = await browser.newPage();
  page.setDefaultTimeout(10000);
  const errors = [];
  page.on('pageerror', e => errors.push(e.message));
  // headless Chromium takes seconds to open an audio device: pages start muted (the sound test unmutes)
  await page.addInitScript(() => {
    if (localStorage.getItem('sennight.muted') === null) localStorage.setItem('sennight.muted', '1');
  });
  let error = null;
  try {
    await page.goto(`${url}?variant=${t.variant}`);
    await page.waitForSelector('#board [data-piece]', { timeout: 30000 });
    let timer;
    await Promise.race([t.fn(page, ctx),
      new Promise((_, reject) => { timer = setTimeout(() => reject(new Error('timed out')), t.timeout); })])
      .finally(() => clearTimeout(timer));
    if (errors.length) throw new Error(`page error: ${errors[0]}`);
  } catch (err) {
    error = err;
    error.seen = await pageSummary(page);
  }
  await page.close();
  return error;
}

export function expect(condition, message) {
  if (!condition) throw new Error(message);
}

// --- the test list: each test gets a fresh tab (so a fresh session) opened on `variant`

export const tests = [];
/** A test; `timeout` in ms for one that starts servers or browsers of its own. */
export const test = (name, variant, fn, timeout = TEST_TIMEOUT) => tests.push({ name, variant, fn, timeout });
export const notes = [];

// --- the run

export async function runTests() {
  const executable = process.env.SENNIGHT;
  if (!executable) throw new Error('set SENNIGHT to the sennight executable');
  const shots = process.env.GUI_SCREENSHOTS === '1';
  if (shots) mkdirSync(SHOTS, { recursive: true });
  const server = startServer(executable);
  const profile = mkdtempSync(path.join(tmpdir(), 'sennight-chromium-'));
  let browser;
  let failed = 0;
  let flaky = 0;
  let ran = 0;
  try {
    const url = await server.ready;
    browser = await chromium.launchPersistentContext(profile, {
      executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
        '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      viewport: { width: 1280, height: 800 },
    });
    const { variants } = await (await fetch(`${url}api/variants`)).json();
    const toy = process.env.TOY_ENGINE || path.join(path.dirname(executable), 'toy_engine');
    const ctx = { variants, shots, server: server.process, toy };
    const only = process.env.GUI_TESTS; // a part of the names of the tests to run, to run fewer
    for (const t of tests.filter(t => !only || t.name.includes(only))) {
      const started = performance.now();
      // A test that fails is run once more: passing then, it counts as flaky and its first failure is shown.
      const first = await runTest(browser, url, t, ctx);
      const error = first && await runTest(browser, url, t, ctx);
      const secs = ((performance.now() - started) / 1000).toFixed(2).padStart(6);
      const label = error ? 'FAIL' : first ? 'FLAKY' : 'ok  ';
      const shown = error || first;
      console.log(`${label.padEnd(5)} ${secs} s  ${t.name}` +
        (shown ? `\n       ${shown.message.split('\n')[0]}\n       page: ${shown.seen}` : ''));
      ran++;
      if (error) failed++;
      if (first && !error) flaky++;
    }
  } finally {
    await browser?.close();
    server.process.kill('SIGTERM');
    rmSync(profile, { recursive: true, force: true });
  }
  for (const note of notes) console.log(note);
  if (failed || flaky) console.log(`server log:\n${server.log().slice(-2000)}`);
  console.log(`${ran - failed} passed (${flaky} flaky), ${failed} failed`);
  process.exitCode = failed ? 1 : 0;
}
