// Games served to the network (`sennight gui --host ADDR`, docs/gui.md#playing-over-the-network): this
// page's part in a game (its creator, an invited player, or a spectator), the invite links, and whether
// the page may move now. Without --host every page is its game's creator, as at one screen.
import { element } from './dom.js';

const SEAT = 'sennight.seat'; // this tab's part in its session: {id, token, seat, creator, invites}

/** The game an address points to: `?game=ID`, with `#seat=K&token=T` for an invitation. */
export function linkOf(location) {
  const game = new URLSearchParams(location.search).get('game');
  if (!game) return null;
  const hash = new URLSearchParams(location.hash.slice(1));
  const seat = hash.get('seat');
  return { game, seat: seat === null ? null : Number(seat), token: hash.get('token') };
}

/** This tab's part: `creator` with every token, `seat` k with its own token, or a spectator (neither). */
export class Part {
  constructor() {
    this.network = null; // {hosts: ["name:port"...]} when served to the network
    this.clear();
  }

  clear(id = null) {
    Object.assign(this, { id, token: null, seat: null, creator: true, invites: null });
  }

  /** The creator of a new game: its tokens ({creator, seats}) make the invite links. */
  created(id, tokens) {
    Object.assign(this, { id, token: tokens.creator, seat: null, creator: true, invites: tokens.seats });
    this.save();
  }

  /** An invited player of `seat`, or a spectator (seat null, no token). */
  joined(id, seat, token) {
    Object.assign(this, { id, token, seat, creator: false, invites: null });
    this.save();
  }

  save() {
    const { id, token, seat, creator, invites } = this;
    sessionStorage.setItem(SEAT, JSON.stringify({ id, token, seat, creator, invites }));
  }

  /** This tab's saved part in session `id`, if it has one. */
  restore(id) {
    let saved = null;
    try {
      saved = JSON.parse(sessionStorage.getItem(SEAT));
    } catch { /* none */ }
    if (saved?.id !== id) return false;
    Object.assign(this, saved);
    return true;
  }

  /** Whether this page may move in `state`: a spectator never, a player on its seat's turn, the creator on
   * the turn of a seat that plays nowhere else. */
  mayMove(state) {
    return this.playsSeat(state, state.seats.findIndex(s => s.army === state.turn));
  }

  /** Whether this page acts for the army of seat `k` (resigns, offers draws): as mayMove, on any turn. */
  playsSeat(state, k) {
    if (!this.network) return true;
    return this.creator ? !state.seats[k]?.joined : this.seat === k;
  }

  /** "creator", "player" or "watcher", for the page's controls. */
  role() {
    return !this.network || this.creator ? 'creator' : this.seat === null ? 'watcher' : 'player';
  }

  /** The address others use: the one this page was opened by when it is a network name, else the first. */
  base() {
    const hosts = this.network?.hosts ?? [];
    return `http://${hosts.includes(location.host) && !isLoopback(location.hostname) ? location.host : hosts[0]}/`;
  }
}

const isLoopback = name => name === 'localhost' || name === '[::1]' || name.startsWith('127.');

/**
 * The invitation panel: on the creator's page one link per human seat (copy button; "joined" once taken
 * up) and the spectators' link; on another page which part it plays.
 */
export class InvitePanel {
  constructor(root) {
    this.root = root;
  }

  render(part, state, armies) {
    this.root.hidden = !part.network || !state;
    if (this.root.hidden) return;
    const name = k => armies[k]?.name ?? state.seats[k].army;
    if (!part.creator) {
      this.root.replaceChildren(element('p', { class: 'part' },
        part.seat === null ? 'You are watching this game.' : `You play ${name(part.seat)}.`));
      return;
    }
    const rows = [];
    state.seats.forEach((seat, k) => {
      const token = part.invites?.[k];
      if (seat.kind !== 'human' || !token) return;
      const url = `${part.base()}?game=${part.id}#seat=${k}&token=${token}`;
      rows.push(linkRow(`${name(k)}`, url, { seat: k, joined: seat.joined }));
    });
    rows.push(linkRow('Spectators', `${part.base()}?game=${part.id}`, { seat: 'watch' }));
    this.root.replaceChildren(element('h3', {}, 'Invite'),
      element('p', { class: 'muted' }, 'Send a seat’s link to the person who plays it; this page plays the others.'),
      ...rows);
  }
}

function linkRow(label, url, { seat, joined = false }) {
  const input = element('input', { type: 'text', readonly: true, value: url, 'aria-label': `${label} link` });
  const copy = element('button', { type: 'button' }, 'Copy');
  copy.addEventListener('click', () => {
    input.select();
    navigator.clipboard?.writeText(url).then(() => { copy.textContent = 'Copied'; }, () => {});
  });
  return element('div', { class: 'invite-link', 'data-invite': seat }, element('span', {}, label),
    input, joined ? element('span', { class: 'joined' }, 'joined') : copy);
}
