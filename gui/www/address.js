// The address holds the game: `?variant=NAME&moves=f5f6,e7e6` (and `&fen=FEN` when the game did not
// start from the variant's starting position), kept up to date as the game goes on, so that a reload
// or a link opened elsewhere brings the same game back.

const MIN_GAP_MS = 200; // browsers refuse many history changes a second (engines may play faster)

/** The game the address names: {variant, fen (null: the variant's start), moves (texts, maybe SAN)}. */
export function readAddress() {
  const q = new URLSearchParams(location.search);
  return { variant: q.get('variant'), fen: q.get('fen'), moves: (q.get('moves') || '').split(',').filter(Boolean) };
}

/** Whether the address names a game rather than a variant only. */
export const namesGame = link => link.moves.length > 0 || link.fen !== null;

/**
 * Whether STATE is the game of `link` or goes on from it (the address trails the game by a moment);
 * the variant JSON gives the starting position.
 */
export function continuesGame(link, state, variant) {
  return state.variant === link.variant && state.start === (link.fen ?? variant.start) &&
    link.moves.every((move, i) => state.moves[i]?.uci === move);
}

let latest = null; // the game to write next
let timer = null;
let last = 0;

/**
 * Writes the variant and, with a STATE, its game into the address (replacing this page's history
 * entry); the address's other parameters stay. The write waits for the next free moment, and the
 * latest game asked for by then is the one written: engines may play faster than that.
 */
export function writeAddress(variant, state = null) {
  latest = { variant, state };
  timer ??= setTimeout(flush, Math.max(0, last + MIN_GAP_MS - performance.now()));
}

function flush() {
  const { variant, state } = latest;
  timer = null;
  last = performance.now();
  const q = new URLSearchParams(location.search);
  const put = (name, value) => value ? q.set(name, value) : q.delete(name);
  put('variant', variant.name);
  put('fen', state && state.start !== variant.start ? state.start : '');
  put('moves', state ? state.moves.map(m => m.uci).join(',') : '');
  const search = `?${q}`.replaceAll('%2C', ','); // the moves' commas as they are typed
  if (search !== location.search) history.replaceState(null, '', search);
}
