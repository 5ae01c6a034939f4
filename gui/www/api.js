// The server's HTTP API (docs/gui.md): JSON requests and the session's event stream.

/**
 * Sends a request (with this page's token for a game served to the network, if it has one); resolves
 * with the JSON (or text) reply, rejects with the server's error line.
 */
async function request(method, url, body, type = 'application/json', token = null) {
  const init = { method, headers: token ? { 'X-Sennight-Token': token } : {} };
  if (body !== undefined) {
    init.headers['Content-Type'] = type;
    init.body = type === 'application/json' ? JSON.stringify(body) : body;
  }
  const reply = await fetch(url, init);
  const isJson = (reply.headers.get('Content-Type') || '').includes('json');
  const data = isJson ? await reply.json() : await reply.text();
  if (!reply.ok) {
    const error = new Error(isJson && data.error ? data.error : `${reply.status} ${reply.statusText}`);
    error.status = reply.status;
    throw error;
  }
  return data;
}

const get = url => request('GET', url);
const post = (url, body = {}) => request('POST', url, body);

export const listVariants = () => get('/api/variants');
export const getVariant = name => get(`/api/variant/${encodeURIComponent(name)}`);
export function getGuide(variant, piece, cell, army = 0) {
  const q = new URLSearchParams({ variant, piece });
  if (cell) q.set('cell', cell);
  if (army) q.set('army', army);
  return get(`/api/guide?${q}`);
}

export const createSession = spec => post('/api/session', spec);

/**
 * The calls on one session, with `token` (the creator's or a seat's; null: a spectator's page); every one
 * that changes the game resolves with the new STATE.
 */
export function sessionApi(id, token = null) {
  const base = `/api/session/${id}`;
  const get = url => request('GET', url, undefined, undefined, token);
  const post = (url, body = {}) => request('POST', url, body, undefined, token);
  return {
    state: () => get(base),
    move: move => post(`${base}/move`, { move }),
    undo: () => post(`${base}/undo`),
    abort: () => post(`${base}/abort`),
    view: ply => post(`${base}/view`, { ply }),
    viewNode: node => post(`${base}/view`, { node }),
    line: moves => post(`${base}/line`, { moves }),
    promote: node => post(`${base}/promote`, { node }),
    remove: node => post(`${base}/delete`, { node }),
    fen: fen => post(`${base}/fen`, { fen }),
    pgn: () => get(`${base}/pgn`),
    loadPgn: text => request('POST', `${base}/pgn`, text, 'text/plain', token),
    /** Takes up the invitation to `seat` (this API's token is the invitation): {seat, token, state}. */
    join: seat => post(`${base}/join`, { seat }),
    analyse: (on, multipv) => post(`${base}/analyse`, { on, multipv }),
    hint: () => post(`${base}/hint`),
    option: (engine, name, value) => post(`${base}/options`, { engine, name, value }),
    restart: seat => post(`${base}/restart`, { seat }),
    resign: army => post(`${base}/resign`, { army }),
    draw: (army, accept) => post(`${base}/draw`, { army, accept }),
    rematch: swap => post(`${base}/rematch`, { swap }),
    review: body => post(`${base}/review`, body),
    /** Opens the event stream; `handlers` has one function per event name (state, analysis, engine, review). */
    events(handlers) {
      const source = new EventSource(`${base}/events`);
      for (const [name, handler] of Object.entries(handlers)) {
        if (name === 'open' || name === 'error') source.addEventListener(name, handler);
        else source.addEventListener(name, e => handler(JSON.parse(e.data)));
      }
      return source;
    },
  };
}
