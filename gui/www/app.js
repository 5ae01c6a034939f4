// The page's controller: picks the variant, starts and resumes sessions, and hands each STATE to the panels.
import * as api from './api.js';
import { Board } from './board.js';
import { Players, TROUBLE } from './players.js';
import { MoveList } from './movelist.js';
import { Analysis } from './analysis.js';
import { ScoreGraph } from './graph.js';
import { Guide } from './guide.js';
import { NewGameForm } from './newgame.js';
import { Shares } from './shares.js';
import { ResultDialog, resultWords } from './result.js';
import { GameIO } from './io.js';
import { OptionsForm } from './options.js';
import { Review } from './review.js';
import { pick } from './picker.js';
import { setupTabs } from './tabs.js';
import { parseMove } from './moves.js';
import { scoreText, forFirstArmy } from './score.js';
import { pieceIcon, pieceInfo, pieceType, pieceArmy, armyPiece } from './pieces.js';
import { Part, InvitePanel, linkOf } from './network.js';
import { GameFlow } from './flow.js';
import { Sounds, soundFor } from './sounds.js';
import { renderMaterial } from './material.js';
import { Premove } from './premove.js';
import { readAddress, namesGame, continuesGame, writeAddress } from './address.js';

const $ = selector => document.querySelector(selector);
const SAVED = 'sennight.session'; // this tab's session, so that a reload resumes the game
const COORDS = 'sennight.coords'; // "off" when the Coordinates checkbox was cleared

const page = {
  engines: [],
  variant: null,
  session: null, // the session's calls (api.sessionApi)
  id: null,
  state: null, // the STATE shown
  pending: null, // a newer STATE, drawn at the next frame
  events: null,
  view: 0, // the army whose side of the board is at the bottom
  alertSeat: undefined, // the seat of the engine in trouble (null: the analysis engine), if any
  arrows: { analysis: [], hint: [], review: [] },
};

const board = new Board($('#board'), {
  onMove: (from, to, ucis) => chooseAndPlay(to, ucis), onPremove: (from, to) => premove.set(from, to),
});
const players = new Players($('#players'));
const moveList = new MoveList($('#movelist'), $('.nav'), {
  onNode: id => act(() => page.session.viewNode(id)),
  onEdit: (action, id) => act(() => (action === 'promote' ? page.session.promote(id) : page.session.remove(id))),
});
const graph = new ScoreGraph($('#graph'), { onPly: showPly });
const analysis = new Analysis({
  toggle: $('#analyse'), multipv: $('#multipv'), info: $('#analysis-info'), lines: $('#pv-lines'), bar: $('#evalbar'),
}, { graph, onArrows: list => setArrows('analysis', list), onLine: moves => act(() => page.session.line(moves)) });
const shares = new Shares($('#shares'));
const part = new Part(); // this page's part in a game served to the network
const invitePanel = new InvitePanel($('#invite'));
const resultDialog = new ResultDialog($('#result-dialog'), { onRematch: swap => rematch(swap) });
const flow = new GameFlow(
  { resign: $('#resign'), draw: $('#draw'), offer: $('#draw-offer'), message: $('#flow-message') },
  { session: () => page.session, act: call => act(call), armyName: letter => armyName(letter),
    plays: (state, seat) => part.playsSeat(state, seat) });
const sounds = new Sounds($('#mute'));
const premove = new Premove({
  play: uci => act(() => page.session.move(uci)),
  changed: () => page.state && board.setPosition({ ...page.state, premove: premove.view(page.state) }),
});
const guide = new Guide($('#guide-pieces'), $('#guide-board'));
const newGame = new NewGameForm($('#newgame'), { onStart: () => start() });
// the FEN/PGN tab shows its own errors: these calls let them through
const io = new GameIO({ fenForm: $('#fen-form'), pgnForm: $('#pgn-form'), error: $('.io-error') }, {
  loadFen: fen => show(page.session.fen(fen)),
  loadPgn: text => show(page.session.loadPgn(text)),
  getPgn: () => page.session.pgn(),
});
const review = new Review({
  panel: $('#review-panel'), start: $('#review-start'), stop: $('#review-stop'), budget: $('#review-budget'),
  progress: $('#review-progress'), progressText: $('#review-progress-text'), accuracy: $('#review-accuracy'),
  graph: $('#review-graph'), note: $('#review-note'), list: $('#review-moves'),
}, {
  onPly: showPly, onArrows: list => setArrows('review', list), onMarks: () => review.markMoves($('#movelist')),
  notify: message => notify(message),
});
const options = new OptionsForm($('#options'), (engine, name, value) => page.session.option(engine, name, value));
setupTabs($('.tabs'), $('.panel'));

// --- variants and sessions

async function loadVariant(name) {
  page.variant = await api.getVariant(name);
  $('select[name=variant]').value = name;
  writeAddress(page.variant); // a reload keeps the variant
  $('#description').textContent = page.variant.description;
  board.setVariant(page.variant);
  guide.setVariant(page.variant);
  newGame.setVariant(page.variant, page.engines);
}

/**
 * A new game of the shown variant with the form's seats. The server holds a few sessions only and
 * frees those of closed tabs within seconds, so "too many sessions" (503) is tried again for a while.
 */
async function start() {
  const spec = { variant: page.variant.name, ...newGame.spec() };
  for (let tries = 1; ; tries++) {
    try {
      const reply = await api.createSession(spec);
      part.created(reply.id, reply.tokens);
      attach(reply.id, reply.state);
      return;
    } catch (err) {
      notify(err.status === 503 && tries < 15 ? `${err.message}: trying again…` : err.message);
      if (err.status !== 503 || tries >= 15) return;
      await new Promise(resolve => setTimeout(resolve, 2000));
    }
  }
}

/**
 * A game restored from the address (`link`, of the shown variant), every army played at this screen, so
 * that it shows as it was; a link whose game cannot be played gives a new game and says why.
 */
async function restore(link) {
  const seats = page.variant.armies.map(() => ({ kind: 'human' }));
  try {
    const reply = await api.createSession({ variant: page.variant.name, fen: link.fen, moves: link.moves, seats });
    attach(reply.id, reply.state);
  } catch (err) {
    await start();
    showNotice(`The game in the address was not loaded (${err.message}): a new game from the start.`);
  }
}

/** Follows session `id`: its event stream feeds the panels from now on. */
function attach(id, state) {
  showNotice('');
  page.events?.close();
  page.id = id;
  page.session = api.sessionApi(id, part.token);
  sessionStorage.setItem(SAVED, id);
  document.body.dataset.session = id;
  document.body.dataset.role = part.role();
  const human = part.seat ?? state.seats.findIndex(s => s.kind === 'human');
  setView(Math.max(0, human));
  analysis.setSession(page.session, state);
  review.setSession(page.session, page.variant);
  graph.reset();
  shares.reset(page.variant);
  resultDialog.close();
  page.state = null;
  page.pending = null;
  drawState(state);
  page.events = page.session.events({
    state: applyState,
    analysis: analysisEvent,
    engine: engineEvent,
    review: event => review.update(event),
    // after a dropped connection the stream resumes with no replay: ask for the state once
    open: () => page.session.state().then(applyState, () => {}),
  });
}

/**
 * Resumes this tab's session after a reload, if the server still has it and it plays the address's
 * variant (if named) and its game or one going on from it (if named).
 */
async function resume(link) {
  const saved = sessionStorage.getItem(SAVED);
  if (!saved) return false;
  try {
    const state = await api.sessionApi(saved).state();
    if (link.variant && state.variant !== link.variant) return false;
    if (!part.restore(saved)) part.clear(saved);
    await loadVariant(state.variant);
    if (namesGame(link) && !continuesGame(link, state, page.variant)) return false;
    attach(saved, state);
    return true;
  } catch {
    return false;
  }
}

/**
 * Opens the game of a link (docs/gui.md#playing-over-the-network): takes up its invitation once (a
 * reload keeps the seat), or watches; resolves with the reason when it cannot.
 */
async function openLink({ game, seat, token }) {
  try {
    if (!part.restore(game)) {
      const joined = token && seat !== null ? await api.sessionApi(game, token).join(seat) : null;
      part.joined(game, joined?.seat ?? null, joined?.token ?? null);
    }
    const state = await api.sessionApi(game, part.token).state();
    await loadVariant(state.variant); // the address loses the invitation's token
    attach(game, state);
    return null;
  } catch (err) {
    part.clear();
    return err.message;
  }
}

// --- the state from the server, to every panel

/**
 * Keeps a STATE newer than any seen and draws it at the next frame: a fast engine-against-engine stream
 * costs one drawing (and layout) per frame, not one per state, which starved the page on a busy machine.
 * A hidden tab gets no frames: a timer draws its states, so that its sounds still play.
 */
function applyState(state) {
  if (state.id && state.id !== page.id) return; // a late reply from an older session
  if (state.version < (page.pending ?? page.state)?.version) return; // older than one seen: a late reply
  if (!page.pending) (document.hidden ? setTimeout : requestAnimationFrame)(drawPending);
  page.pending = state;
}

function drawPending() {
  const state = page.pending;
  page.pending = null;
  if (state) drawState(state);
}

function drawState(state) {
  if (state.variant !== page.variant.name) { // a FEN or record of another variant was loaded
    loadVariant(state.variant).then(() => applyState(state), err => notify(err.message));
    return;
  }
  const moved = page.state?.fen !== state.fen;
  const stepped = page.state && state.ply === page.state.ply + 1; // one move on: it slides
  const ended = page.state && !page.state.result && state.result; // while this page watched
  const sound = soundFor(page.state, state);
  page.state = state;
  const dropped = premove.onState(state);
  writeAddress(page.variant, state);
  if (moved) setArrows('hint', []);
  const seen = { ...state, premove: premove.view(state) };
  board.setPosition(part.mayMove(state) ? seen : { ...seen, legal: [] }, stepped);
  invitePanel.render(part, state, page.variant.armies);
  moveList.render(state, page.variant.armies);
  review.markMoves($('#movelist'));
  review.setState(state);
  players.render(state, page.variant, page.engines);
  renderMaterial($('#players'), state, page.variant);
  flow.render(state);
  io.setState(state);
  analysis.setState(state, page.variant);
  graph.setGame(state.plies, moveList.mainPly);
  $('#abort').hidden = !state.abortable;
  shares.render(state.shares);
  showStatus();
  if (ended) resultDialog.show(state, page.variant.armies);
  if (sound) sounds.play(sound);
  if (dropped) notify(dropped);
  const down = state.seats.findIndex(s => TROUBLE.has(s.status));
  if (down >= 0) showEngineAlert(down, `${armyName(state.seats[down].army)}'s engine ${state.seats[down].status}.`);
  else if (page.alertSeat !== null) hideEngineAlert(); // the analysis engine's trouble stays until restarted
}

function showStatus(message = '') {
  const { state } = page;
  const el = $('#status');
  el.classList.toggle('error', Boolean(message));
  if (message) {
    el.textContent = message;
  } else if (state.result && state.ply === state.plies && !moveList.inVariation) {
    const { headline, detail } = resultWords(state, page.variant.armies);
    const result = document.createElement('span');
    result.className = 'result';
    result.textContent = `${headline}${detail ? `. ${detail}` : ''}`;
    el.replaceChildren(result);
  } else {
    el.textContent = `${armyName(state.turn)} to move` + (state.check.length ? ' · check' : '') +
      (moveList.inVariation ? ` · a variation, move ${state.ply}`
        : state.ply < state.plies ? ` · move ${state.ply} of ${state.plies}` : '');
  }
}

/** A message that stays until closed or another game is shown (an address whose game was refused). */
function showNotice(text) {
  $('#notice .text').textContent = text;
  $('#notice').hidden = !text;
}

function notify(message) {
  if (page.state) showStatus(message);
  else $('#status').textContent = message;
}

/** Lines of the analysis, or (with a seat) of an engine thinking over its move, shown on its card. */
function analysisEvent(event) {
  const seat = event.seat ?? null;
  const top = event.lines.find(l => l.multipv === 1);
  const now = shares.render(event.shares);
  if (seat === null) return analysis.update(event);
  const army = page.variant.armies[seat].letter;
  // three or four armies: the seat's expected share of the points, which reads the same in every game
  const score = now ? `${Math.round(now[army] * 100)}% of the points`
    : top && scoreText(forFirstArmy(top.score, page.state.turn, page.variant.armies));
  players.setThinking(seat, top ? `depth ${event.depth} · ${score}` : '');
}

/** An engine's status; `seat` is null for the analysis and hint engine. */
function engineEvent({ seat, status, message }) {
  if (seat !== null) players.setEngineStatus(seat, status);
  if (TROUBLE.has(status)) {
    const whose = seat === null ? 'The analysis engine' : `${armyName(page.variant.armies[seat].letter)}'s engine`;
    showEngineAlert(seat, `${whose} ${status}${message ? `: ${message}` : ''}.`);
  }
}

function showEngineAlert(seat, text) {
  page.alertSeat = seat;
  $('#engine-alert').hidden = false;
  $('#engine-alert .text').textContent = text;
}

function hideEngineAlert() {
  page.alertSeat = undefined;
  $('#engine-alert').hidden = true;
}

const armyName = letter => page.variant.armies.find(a => a.letter === letter)?.name ?? letter;

// --- moves

/** Plays one of `ucis` (all between the same cells): directly when alone, else through the picker. */
async function chooseAndPlay(to, ucis) {
  const uci = ucis.length === 1 ? ucis[0] : await pick($('#picker'), board.cellRect(to), ucis.map(choice));
  if (uci) act(() => page.session.move(uci));
}

/** The picker's button for a move: the piece it promotes to, the component that leaves, or the whole piece. */
function choice(uci) {
  const { variant, state } = page;
  const { from, suffix } = parseMove(uci);
  const moving = state.pieces.find(p => p.cell === from)?.piece ?? '';
  const movingInfo = pieceInfo(variant, pieceType(moving, variant.players), pieceArmy(moving, variant.players));
  const piece = suffix ? armyPiece(suffix, state.turn, variant.players) : moving;
  const name = pieceInfo(variant, pieceType(piece, variant.players), pieceArmy(piece, variant.players))?.name ?? suffix;
  const label = !suffix ? `${name} (whole)` : movingInfo?.pawn ? name : `${name} alone`;
  return { uci, icon: pieceIcon(piece, variant), label };
}

/** Shows the STATE a request answers with, unless the stream has sent a newer one; resolves with it. */
async function show(request) {
  const state = await request;
  applyState(state);
  return state;
}

/** Runs a call that answers with a STATE and shows it; an error goes to the status line. */
async function act(call) {
  try {
    await show(call());
  } catch (err) {
    notify(err.message);
  }
}

/** The same game again (with `swap`, each player on the next army's seat) in this tab's session. */
async function rematch(swap) {
  try {
    attach(page.id, await page.session.rematch(swap));
  } catch (err) {
    notify(err.message);
  }
}

function showPly(ply) {
  act(() => page.session.view(ply));
}

function setView(index) {
  page.view = index;
  board.setRotation(page.variant.armies[index].rotation);
}

function setArrows(kind, list) {
  page.arrows[kind] = list;
  board.setArrows([...page.arrows.analysis, ...page.arrows.hint, ...page.arrows.review]);
}

// --- controls

/** Whether the game on the board has moves and no result: leaving it asks first. */
const inProgress = () => page.state && page.state.plies > 0 && !page.state.result;

$('select[name=variant]').addEventListener('change', async e => {
  if (inProgress() && !confirm(`Leave this game of ${page.variant.name} and start ${e.target.value}?`)) {
    e.target.value = page.variant.name;
    return;
  }
  await loadVariant(e.target.value);
  await start();
});
$('#notice .close').addEventListener('click', () => showNotice(''));
$('#undo').addEventListener('click', () => act(() => page.session.undo()));
$('#abort').addEventListener('click', () => act(() => page.session.abort()));
$('#flip').addEventListener('click', () => setView((page.view + 1) % page.variant.armies.length));
$('#names').addEventListener('change', e => board.setShowNames(e.target.checked));
// the coordinates are shown unless turned off, which this browser remembers
$('#coords').checked = localStorage.getItem(COORDS) !== 'off';
board.setShowCoords($('#coords').checked);
$('#coords').addEventListener('change', e => {
  localStorage.setItem(COORDS, e.target.checked ? 'on' : 'off');
  board.setShowCoords(e.target.checked);
});
$('#hint').addEventListener('click', async () => {
  try {
    const { move } = await page.session.hint();
    const m = parseMove(move);
    if (m) setArrows('hint', [{ from: m.from, to: m.to, kind: 'hint' }]);
    showStatus(`Hint: ${move}`);
  } catch (err) {
    notify(err.message);
  }
});
/** One click after a game (beside the board, or in the result dialog): the review in its tab. */
function reviewGame() {
  $('[data-tab=review]').click();
  review.start();
}
$('#review').addEventListener('click', reviewGame);
$('#result-dialog').addEventListener('close', e => {
  if (e.target.returnValue === 'review') reviewGame();
  e.target.returnValue = ''; // Escape closes the next dialog without touching it
});
$('#engine-alert .restart').addEventListener('click', async () => {
  const seat = page.alertSeat;
  hideEngineAlert();
  await act(() => page.session.restart(seat));
});
$('#move-entry').addEventListener('submit', async e => {
  e.preventDefault();
  const input = e.target.elements.move;
  const error = e.target.querySelector('.error');
  const text = input.value.trim();
  const uci = text.toLowerCase();
  const legal = page.state.legal;
  // "f10f11" stands for every move between those cells (the picker then asks which)
  const ucis = legal.includes(uci) ? [uci] : legal.filter(m => parseMove(m)?.from + parseMove(m)?.to === uci);
  error.textContent = '';
  if (ucis.length) {
    input.value = '';
    chooseAndPlay(parseMove(ucis[0]).to, ucis);
    return;
  }
  // other writings (SAN, "f5-f6", "Pf5f6") are read by the server as terminal play reads them, case kept
  try {
    await show(page.session.move(text));
    input.value = '';
  } catch (err) {
    error.textContent = err.message;
  }
});
// Keys that text fields and lists use themselves; a checkbox or button leaves them to the board.
const KEEPS_KEYS = 'textarea, select, ' +
  'input:not([type=checkbox]):not([type=radio]):not([type=button]):not([type=submit])';
document.addEventListener('keydown', e => {
  if (e.target.closest(KEEPS_KEYS) || e.ctrlKey || e.metaKey || e.altKey) return;
  const nav = { ArrowLeft: 'back', ArrowRight: 'forward', ArrowUp: 'up', Home: 'first', ArrowDown: 'down', End: 'last' }[e.key];
  if (nav && page.session) {
    e.preventDefault();
    moveList.go(nav);
  } else if (e.key === 'f') {
    $('#flip').click();
  }
});

// --- start: the variants, then this tab's game or a new one

async function init() {
  const { variants, engines, network } = await api.listVariants();
  page.engines = engines;
  part.network = network;
  options.setEngines(engines);
  $('select[name=variant]').innerHTML = variants.map(v =>
    `<option value="${v.name}">${v.name} · ${v.cells} cells${v.players > 2 ? ` · ${v.players} players` : ''}</option>`).join('');
  const invite = linkOf(location);
  const refused = invite && await openLink(invite);
  if (invite && !refused) return;
  const link = readAddress();
  if (!invite && await resume(link)) return;
  const known = variants.some(v => v.name === link.variant);
  await loadVariant(known ? link.variant : variants[0].name);
  if (known && namesGame(link)) await restore(link);
  else await start();
  if (link.variant && !known) showNotice(`Unknown variant '${link.variant}' in the address: a game of ${page.variant.name}.`);
  if (refused) notify(`The link's game: ${refused}`);
}

init().catch(err => notify(`Cannot reach the server: ${err.message}`));
