// The move list: the main line in rows of one round, one column per army; the variations (the server's
// move tree) indented in parentheses beneath the move each replaces. A click or the keys show a move;
// on an analysis board a right-click offers to promote a variation or delete from a move on.
import { resultWords } from './result.js';

export class MoveList {
  /** `onNode(id)` asks to show the position after the tree's node; `onEdit(action, id)` promotes or deletes. */
  constructor(list, nav, { onNode, onEdit }) {
    this.list = list;
    this.onNode = onNode;
    this.onEdit = onEdit;
    this.nodes = new Map([[0, { id: 0, parent: -1, children: [] }]]);
    this.node = 0;
    this.line = [0]; // the line the arrow keys walk: the shown node's path, and on as far as it was shown
    this.buttons = Object.fromEntries([...nav.querySelectorAll('[data-nav]')].map(b => [b.dataset.nav, b]));
    nav.addEventListener('click', e => {
      const which = e.target.closest('[data-nav]')?.dataset.nav;
      if (which) this.go(which);
    });
    list.addEventListener('click', e => {
      const node = e.target.closest('[data-node]')?.dataset.node;
      if (node !== undefined) this.onNode(Number(node));
    });
    this.menu = makeMenu(action => this.onEdit(action, this.menuNode));
    list.addEventListener('contextmenu', e => {
      const move = e.target.closest('[data-node]');
      if (!move || !this.editable) return;
      e.preventDefault();
      this.menuNode = Number(move.dataset.node);
      this.menu.querySelector('[data-edit=promote]').hidden = this.nodes.get(this.menuNode).main;
      this.menu.hidden = false;
      const box = this.menu.getBoundingClientRect();
      this.menu.style.left = `${Math.min(e.clientX, innerWidth - box.width - 4)}px`;
      this.menu.style.top = `${Math.min(e.clientY, innerHeight - box.height - 4)}px`;
    });
    document.addEventListener('click', e => { if (!this.menu.contains(e.target)) this.menu.hidden = true; });
  }

  /** Whether the shown position is off the main line. */
  get inVariation() {
    return !this.nodes.get(this.node)?.main && this.node !== 0;
  }

  /** The ply of the main line where the shown position's line leaves it (the shown ply on the main line). */
  get mainPly() {
    let id = this.node;
    while (!this.nodes.get(id).main) id = this.nodes.get(id).parent;
    return this.nodes.get(id).depth;
  }

  /**
   * Steps along the current line: first, back, forward, last; up and down switch to the previous or
   * next alternative of the shown move (where it has none: the line's first and last position).
   */
  go(which) {
    const at = this.line.indexOf(this.node);
    const siblings = this.node ? this.nodes.get(this.nodes.get(this.node).parent).children : [0];
    let target;
    if ((which === 'up' || which === 'down') && siblings.length > 1) {
      const i = siblings.indexOf(this.node) + (which === 'up' ? -1 : 1);
      target = siblings[(i + siblings.length) % siblings.length];
    } else {
      const step = { first: 0, up: 0, back: at - 1, forward: at + 1, last: this.line.length - 1, down: this.line.length - 1 };
      target = this.line[step[which]];
    }
    if (target !== undefined && target !== this.node) this.onNode(target);
  }

  render(state, armies) {
    this.readTree(state);
    this.editable = state.analysis_board;
    this.menu.hidden ||= !this.editable;
    const column = new Map(armies.map((a, i) => [a.letter, i]));
    const names = new Map(armies.map(a => [a.letter, a.name]));
    const n = armies.length;
    this.list.style.setProperty('--armies', n);
    numberMoves(this.nodes, column, Number(state.start.trim().split(/\s+/).at(-1)) || 1);
    const label = node => {
      const left = (node.eliminated || []).map(a =>
        `<span class="out swatch army-${a}" title="${names.get(a)} leaves the board"></span>`).join('');
      return `${node.san ?? node.uci}${left}`;
    };
    const current = id => (id === this.node ? ' current' : '');
    const cells = [];
    let col = n; // the next free column of the current row (n: a new row is due)
    for (const node of this.mainLine()) {
      const c = node.column;
      if (col === n || c < col) { // this army already moved in the row: a new round
        if (col < n) cells.push('<span></span>'.repeat(n - col));
        cells.push(`<span class="num">${node.round}</span>`);
        col = 0;
      }
      cells.push('<span></span>'.repeat(c - col));
      cells.push(`<button type="button" class="move${current(node.id)}" data-move="${node.uci}" data-ply="${node.depth}"
        data-node="${node.id}" title="${node.uci}">${label(node)}</button>`);
      col = c + 1;
      // the alternatives to this move, beneath it; the main line goes on in a new row
      const alternatives = this.nodes.get(node.parent).children.slice(1);
      if (alternatives.length) {
        if (col < n) cells.push('<span></span>'.repeat(n - col));
        cells.push(`<div class="variations">${alternatives.map(a =>
          `<div class="variation">${this.variationHtml(a, label, current)}</div>`).join('')}</div>`);
        col = n;
      }
    }
    if (state.result) cells.push(`<div class="result-line">${resultWords(state, armies).headline}</div>`);
    this.list.innerHTML = cells.join('');
    this.list.querySelector('.current')?.scrollIntoView({ block: 'nearest' });
    const at = this.line.indexOf(this.node);
    this.buttons.first.disabled = this.buttons.back.disabled = this.node === 0;
    this.buttons.forward.disabled = this.buttons.last.disabled = at === this.line.length - 1;
  }

  /** The line that starts with the alternative `first`, in parentheses, its own alternatives nested. */
  variationHtml(first, label, current) {
    const parts = [];
    let numbered = true; // a line's first move, and the first after a nested line, carry their number
    for (let id = first; id !== undefined; id = this.nodes.get(id).children[0]) {
      const node = this.nodes.get(id);
      const number = numbered || node.column === 0 ? `${node.round}${node.column === 0 ? '.' : '…'}` : '';
      parts.push(`<button type="button" class="move var${current(id)}" data-move="${node.uci}" data-node="${id}">` +
        `${number ? `<span class="vnum">${number}</span>` : ''}${label(node)}</button>`);
      numbered = false;
      const alternatives = id === first ? [] : this.nodes.get(node.parent).children.slice(1);
      for (const a of alternatives) {
        parts.push(`<span class="nested">${this.variationHtml(a, label, current)}</span>`);
        numbered = true;
      }
    }
    return `(${parts.join(' ')})`;
  }

  /** The tree from the STATE: main moves and variations by id, each with its children in order. */
  readTree(state) {
    const nodes = new Map([[0, { id: 0, parent: -1, children: [], depth: 0, main: true }]]);
    let parent = 0;
    state.moves.forEach((m, i) => {
      const id = m.node;
      nodes.set(id, { ...m, id, parent, children: [], depth: i + 1, main: true });
      nodes.get(parent).children.push(id);
      parent = id;
    });
    for (const v of state.variations ?? []) {
      const up = nodes.get(v.parent);
      nodes.set(v.id, { ...v, children: [], depth: up.depth + 1 });
      up.children.push(v.id);
    }
    this.nodes = nodes;
    this.node = state.node;
    // the walked line is kept while the shown node is on it, else it is the shown node's path and first children
    if (!this.line.includes(this.node) || this.line.some(id => !nodes.has(id))) {
      const path = [];
      for (let id = this.node; id >= 0; id = nodes.get(id).parent) path.unshift(id);
      this.line = path;
    }
    for (let id = this.line.at(-1); nodes.get(id).children.length; id = nodes.get(id).children[0]) {
      this.line.push(nodes.get(id).children[0]);
    }
  }

  *mainLine() {
    for (let id = this.nodes.get(0).children[0]; id !== undefined; id = this.nodes.get(id).children[0]) {
      const node = this.nodes.get(id);
      if (!node.main) return;
      yield node;
    }
  }
}

/**
 * Each move's column (its army's) and round, numbered on from the starting FEN's move number: a move
 * starts a new round when its army's column is not after its parent move's (armies that left are skipped).
 */
function numberMoves(nodes, column, first) {
  const root = nodes.get(0);
  root.round = first - 1;
  root.column = Infinity;
  for (const node of nodes.values()) {
    if (node.id === 0) continue;
    const up = nodes.get(node.parent);
    node.column = column.get(node.army) ?? 0;
    node.round = up.round + (node.column <= up.column ? 1 : 0);
  }
}

/** The right-click menu of a move: promote the variation, delete from the move on. */
function makeMenu(onAction) {
  const menu = document.createElement('div');
  menu.className = 'tree-menu';
  menu.hidden = true;
  menu.innerHTML = '<button type="button" data-edit="promote">Promote to main line</button>' +
    '<button type="button" data-edit="delete">Delete from here</button>';
  menu.addEventListener('click', e => {
    const action = e.target.closest('[data-edit]')?.dataset.edit;
    menu.hidden = true;
    if (action) onAction(action);
  });
  document.body.append(menu);
  return menu;
}
