// Resigning and draw offers in a game served to the network: each seated person acts for their own
// army with their seat's token, people offer and answer draws between them, spectators do neither.
import { newGame, expect, test } from './lib.mjs';
import { network, open, inviteLink, tokenOf, NETWORK_TIMEOUT } from './network.mjs';

/** A resign or draw request posted from inside `page` with `token` (null: none): its status and error. */
function post(page, token, action, body) {
  return page.evaluate(async ([token, action, body]) => {
    const headers = { 'Content-Type': 'application/json', ...(token ? { 'X-Sennight-Token': token } : {}) };
    const reply = await fetch(`/api/session/${document.body.dataset.session}/${action}`,
      { method: 'POST', headers, body: JSON.stringify(body) });
    return { status: reply.status, error: (await reply.json()).error };
  }, [token, action, body]);
}

const offerShown = page => page.isVisible('#draw-offer');

test('network: a joined player resigns and offers draws for their army; spectators cannot', 'glinski',
  async creator => network(async (url, other) => {
    await open(creator, `${url}?variant=glinski`);
    await newGame(creator, ['human', 'human'], ['movetime_ms', '200']);
    await creator.waitForSelector('#invite [data-invite="1"] input');
    const here = link => link.replace(/^http:\/\/[^/]+\//, url);
    const black = await open(await other.newPage(), here(await inviteLink(creator, 1)));
    const watcher = await open(await other.newPage(), here(await inviteLink(creator, 'watch')));
    await creator.waitForSelector('#invite [data-invite="1"] .joined');

    const shows = page => Promise.all(['#resign', '#draw'].map(button => page.isVisible(button)));
    expect((await shows(black)).every(Boolean), 'Black\'s page has no Resign or Draw button');
    expect(!(await shows(watcher)).some(Boolean), 'the spectator may resign or offer');
    // each token acts for its own army only; none for a spectator
    const refusals = [
      ['a spectator resigning Black', await post(watcher, null, 'resign', { army: 'b' })],
      ['Black resigning White', await post(black, await tokenOf(black), 'resign', { army: 'w' })],
      ['White resigning Black, who joined', await post(creator, await tokenOf(creator), 'resign', { army: 'b' })],
      ['a spectator offering a draw', await post(watcher, null, 'draw', { army: 'w' })],
    ];
    for (const [what, { status, error }] of refusals) expect(status === 403, `${what}: ${status} ${error}`);

    // Black offers, White declines; White offers, Black accepts
    await black.click('#draw');
    await creator.waitForSelector('#draw-offer:not([hidden])');
    const offer = await creator.textContent('#draw-offer .text');
    expect(/Black offers a draw/.test(offer), `White's page: "${offer}"`);
    expect(!await offerShown(black) && !await offerShown(watcher), 'the offer bar shows to its maker or a spectator');
    await creator.click('#draw-offer .decline');
    await black.waitForFunction(() => /White declines/.test(document.querySelector('#flow-message').textContent));
    await creator.click('#draw');
    await black.waitForSelector('#draw-offer:not([hidden])');
    await black.click('#draw-offer .accept');
    for (const page of [creator, black, watcher]) {
      await page.waitForSelector('#result-dialog[open]');
      const headline = await page.textContent('#result-dialog .headline');
      expect(/draw/i.test(headline), `after the agreed draw a page says "${headline}"`);
    }

    // a rematch: Black resigns from their own page with two clicks
    await black.click('#result-dialog .close');
    await creator.click('#result-dialog .rematch');
    await black.waitForSelector('#resign:not([hidden])');
    await black.click('#resign');
    await black.click('#resign');
    await creator.waitForSelector('#result-dialog[open]');
    const headline = await creator.textContent('#result-dialog .headline');
    expect(headline === 'White wins by resignation', `after Black resigned White's page says "${headline}"`);
  }), NETWORK_TIMEOUT);
