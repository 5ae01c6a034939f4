// The SVG board: cells from the server's geometry, pieces, move marks and arrows; click and drag input.
import { pieceMarkup, pieceInfo, pieceType, pieceArmy } from './pieces.js';
import { targetsFrom, canMoveFrom, movableCells } from './moves.js';
import { coordinateLabels } from './coords.js';

const SVGNS = 'http://www.w3.org/2000/svg';
const SLIDE_MS = 160;

export class Board {
  /**
   * `element` receives the SVG; `onMove(from, to, ucis)` is called when the player drops or clicks a
   * piece onto a legal target (`ucis` holds every legal move between those cells: promotions, fission).
   * `onCell(name)` is called for a click on a cell when no move is being made (the piece guide).
   * `onPremove(from, to)` sets a premove while an engine is to move; `onPremove()` cancels it.
   * `cellAttribute` names the cells' data attribute: `data-cell` on the game's board only, so that
   * `[data-cell]` finds exactly the game's cells.
   */
  constructor(element, {
    onMove = () => {}, onCell = () => {}, onPremove = () => {}, cellAttribute = 'data-cell',
  } = {}) {
    this.element = element;
    this.cellAttribute = cellAttribute;
    this.cellKey = cellAttribute.slice(5).replace(/-(\w)/g, (_, c) => c.toUpperCase()); // its dataset name
    this.onMove = onMove;
    this.onCell = onCell;
    this.onPremove = onPremove;
    this.premove = { army: null, move: [] };
    this.variant = null;
    this.rotation = 0;
    this.showNames = false;
    this.showCoords = false;
    this.coords = new Map(); // the coordinates' labels by rotation, for the variant, computed when first shown
    this.clear();
    this.svg = document.createElementNS(SVGNS, 'svg');
    this.svg.classList.add('board-svg');
    element.append(this.svg);
    this.arrowLayer = null;
    this.svg.addEventListener('pointerdown', e => this.pointerDown(e));
    this.svg.addEventListener('contextmenu', e => this.cancelPremove(e));
  }

  /** A new variant: its cells are drawn anew (with no pieces until setPosition). */
  setVariant(variant) {
    this.variant = variant;
    this.element.dataset.variant = variant.name;
    this.cells = new Map(variant.board.cells.map(c => [c.name, c]));
    const c = variant.board.cells[0];
    this.radius = Math.hypot(c.points[0][0] - c.x, c.points[0][1] - c.y);
    this.coords = new Map();
    // every army's view at once, so that no render waits for them
    if (this.showCoords) variant.armies.forEach(army => this.coordLabels(army.rotation));
    this.clear();
    this.render();
  }

  /** No pieces, marks, arrows or selection. */
  clear() {
    this.pieces = [];
    this.legal = [];
    this.last = [];
    this.check = [];
    this.marks = { moves: [], captures: [] };
    this.arrows = [];
    this.selected = null;
  }

  /** Turns the board `degrees` clockwise (an army's `rotation` puts that army at the bottom). */
  setRotation(degrees) {
    this.rotation = degrees;
    this.render();
  }

  /**
   * The position: pieces [{cell, piece}], last move [from, to], cells in check, legal moves.
   * With `slide`, the piece of the last move glides from its old cell (unless it was dropped there).
   */
  setPosition({ pieces = [], last = [], check = [], legal = [], premove = { army: null, move: [] } }, slide = false) {
    this.pieces = pieces;
    this.last = last;
    this.check = check;
    this.legal = legal;
    this.premove = premove;
    if (this.selected && !canMoveFrom(legal, this.selected) && !this.premovable(this.selected)) this.selected = null;
    this.render();
    if (slide && last.length === 2 && last[1] !== this.dropped) this.slide(last[0], last[1]);
    this.dropped = null;
  }

  /** Moves the piece on `to` from the centre of `from` to its own over a short ease-out. */
  slide(from, to) {
    const piece = this.svg.querySelector(`.piece[data-at="${to}"]`);
    const [a, b] = [this.cells.get(from), this.cells.get(to)];
    if (!piece || !a || !b) return;
    const base = piece.getAttribute('transform');
    const start = performance.now();
    const step = now => {
      if (!piece.isConnected) return; // redrawn meanwhile
      const t = Math.min(1, (now - start) / SLIDE_MS);
      const e = 1 - (1 - t) ** 3;
      const [x, y] = [a.x + (b.x - a.x) * e, a.y + (b.y - a.y) * e];
      piece.setAttribute('transform', base.replace(/translate\([^)]*\)/, `translate(${x} ${y})`));
      if (t < 1) requestAnimationFrame(step);
    };
    step(start);
  }

  /** Cells to mark as reachable ({moves, captures}), for the piece guide. */
  setMarks(marks) {
    this.marks = marks;
    this.render();
  }

  setShowNames(on) {
    this.showNames = on;
    this.render();
  }

  /** Files and ranks along the board's edges (coords.js). */
  setShowCoords(on) {
    this.showCoords = on;
    this.render();
  }

  /** Arrows [{from, to, kind, weight}] drawn over the pieces; redraws only the arrow layer. */
  setArrows(arrows) {
    this.arrows = arrows;
    if (this.arrowLayer) this.arrowLayer.innerHTML = this.arrowsMarkup();
  }

  /** The screen rectangle of a cell (to place the promotion picker next to it). */
  cellRect(name) {
    return this.svg.querySelector(`[${this.cellAttribute}="${name}"]`)?.getBoundingClientRect();
  }

  /** Redraws everything from the current fields and records how long it took in data-render-ms. */
  render() {
    if (!this.variant) return;
    const start = performance.now();
    const { viewBox, cells } = this.variant.board;
    const [cx, cy] = [viewBox[0] + viewBox[2] / 2, viewBox[1] + viewBox[3] / 2];
    const box = this.rotatedViewBox(cx, cy);
    this.svg.setAttribute('viewBox', box.join(' '));
    this.element.style.setProperty('--ratio', (box[2] / box[3]).toFixed(4));
    const targets = this.selected ? targetsFrom(this.legal, this.selected) : new Map();
    const occupied = new Map(this.pieces.map(p => [p.cell, p.piece]));
    const parts = [`<g class="rot" transform="rotate(${this.rotation} ${cx} ${cy})">`, '<g class="cells">'];
    const lastSet = new Set(this.last);
    const checkSet = new Set(this.check);
    const movable = movableCells(this.legal);
    for (const c of cells) {
      let cls = `cell c${c.colour}`;
      if (lastSet.has(c.name)) cls += ' last';
      if (this.premove.move.includes(c.name)) cls += ' premove';
      if (checkSet.has(c.name)) cls += ' check';
      if (c.name === this.selected) cls += ' sel';
      if (c.name === this.marks.cell) cls += ' sel';
      if (movable.has(c.name)) cls += ' movable';
      parts.push(`<polygon class="${cls}" ${this.cellAttribute}="${c.name}" points="${c.points.join(' ')}"><title>${c.name}</title></polygon>`);
    }
    parts.push('</g>');
    if (this.showNames) parts.push(this.namesMarkup());
    if (this.showCoords) parts.push(this.coordsMarkup());
    parts.push('<g class="marks">', this.marksMarkup(targets, occupied), '</g>');
    parts.push('<g class="pieces">', this.piecesMarkup(), '</g>');
    parts.push('<g class="arrows">', this.arrowsMarkup(), '</g></g>');
    this.svg.innerHTML = parts.join('');
    this.rot = this.svg.firstChild;
    this.arrowLayer = this.svg.querySelector('.arrows');
    this.svg.getBoundingClientRect(); // style and layout now, so that the time counts them too
    this.element.dataset.renderMs = (performance.now() - start).toFixed(2);
  }

  /** The viewBox that holds the board once turned: the bounding box of every turned cell corner. */
  rotatedViewBox(cx, cy) {
    const a = this.rotation * Math.PI / 180;
    const [cos, sin] = [Math.cos(a), Math.sin(a)];
    let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
    // the coordinates' labels too, with room for their text
    const ends = this.showCoords ? this.coordLabels().flatMap(({ x, y }) =>
      [-1, 1].flatMap(dx => [-1, 1].map(dy => [x + dx * this.radius * 0.5, y + dy * this.radius * 0.4]))) : [];
    for (const [px, py] of [...this.variant.board.cells.flatMap(c => c.points), ...ends]) {
      const x = cx + (px - cx) * cos - (py - cy) * sin;
      const y = cy + (px - cx) * sin + (py - cy) * cos;
      x0 = Math.min(x0, x); x1 = Math.max(x1, x);
      y0 = Math.min(y0, y); y1 = Math.max(y1, y);
    }
    const pad = this.radius * 0.15;
    return [x0 - pad, y0 - pad, x1 - x0 + 2 * pad, y1 - y0 + 2 * pad].map(v => +v.toFixed(2));
  }

  /** Transform that puts an upright item of 100 units on a cell, whatever the board's rotation. */
  placeOn(cell, scale) {
    return `translate(${cell.x} ${cell.y}) rotate(${-this.rotation}) scale(${scale})`;
  }

  piecesMarkup() {
    const scale = this.radius * 1.45 / 100;
    const players = this.variant.players;
    return this.pieces.map(({ cell, piece }) => {
      const c = this.cells.get(cell);
      if (!c) return '';
      const type = pieceType(piece, players), army = pieceArmy(piece, players);
      const info = pieceInfo(this.variant, type, army);
      return `<g class="piece army-${army}" data-piece="${piece}" data-at="${cell}" ` +
        `transform="${this.placeOn(c, scale)}">${pieceMarkup(type, info)}</g>`;
    }).join('');
  }

  marksMarkup(targets, occupied) {
    const out = [];
    const r = this.radius;
    for (const [to] of targets) {
      const c = this.cells.get(to);
      out.push(occupied.has(to)
        ? `<circle class="mark capture" cx="${c.x}" cy="${c.y}" r="${r * 0.78}" stroke-width="${r * 0.14}"/>`
        : `<circle class="mark move" cx="${c.x}" cy="${c.y}" r="${r * 0.26}"/>`);
    }
    for (const name of this.marks.moves || []) {
      const c = this.cells.get(name);
      if (c) out.push(`<circle class="mark move guide" cx="${c.x}" cy="${c.y}" r="${r * 0.26}"/>`);
    }
    for (const name of this.marks.captures || []) {
      const c = this.cells.get(name);
      if (c) out.push(`<circle class="mark capture guide" cx="${c.x}" cy="${c.y}" r="${r * 0.62}" stroke-width="${r * 0.12}"/>`);
    }
    return out.join('');
  }

  namesMarkup() {
    const size = this.radius * 0.42;
    return '<g class="names">' + this.variant.board.cells.map(c =>
      `<text transform="${this.placeOn(c, 1)}" y="${this.radius * 0.72}" font-size="${size}">${c.name}</text>`
    ).join('') + '</g>';
  }

  /** The labels of files and ranks for the variant turned `rotation` degrees, computed once for each. */
  coordLabels(rotation = this.rotation) {
    if (!this.coords.has(rotation)) {
      const spacing = this.radius * Math.sqrt(3); // between neighbouring cells' centres
      this.coords.set(rotation, coordinateLabels(this.variant.board.cells, spacing, rotation));
    }
    return this.coords.get(rotation);
  }

  coordsMarkup() {
    const size = this.radius * 0.62;
    const labels = this.coordLabels().map(({ kind, text, x, y }) => `<text class="${kind}" data-coord="${kind}" ` +
      `transform="${this.placeOn({ x, y }, 1)}" font-size="${size}">${text}</text>`);
    return `<g class="coords">${labels.join('')}</g>`;
  }

  /** Each arrow is one polygon (shaft and head), so no SVG marker is needed. */
  arrowsMarkup() {
    return (this.arrows || []).map(({ from, to, kind = 'best', weight = 1 }) => {
      const a = this.cells.get(from), b = this.cells.get(to);
      if (!a || !b) return '';
      const w = this.radius * 0.28 * weight;
      const head = w * 2.6;
      const len = Math.hypot(b.x - a.x, b.y - a.y);
      const [ux, uy] = [(b.x - a.x) / len, (b.y - a.y) / len];
      const [nx, ny] = [-uy, ux];
      const start = this.radius * 0.35;
      const end = len - this.radius * 0.25;
      const pt = (along, side) => `${(a.x + ux * along + nx * side).toFixed(2)},${(a.y + uy * along + ny * side).toFixed(2)}`;
      const neck = end - head;
      const points = [pt(start, w / 2), pt(neck, w / 2), pt(neck, head / 2), pt(end, 0),
        pt(neck, -head / 2), pt(neck, -w / 2), pt(start, -w / 2)];
      return `<polygon class="arrow ${kind}" data-arrow="${from}${to}" points="${points.join(' ')}"/>`;
    }).join('');
  }

  // --- input: click-click and drag, both through pointer events on the cells

  cellAt(clientX, clientY) {
    return this.cellOf(document.elementFromPoint(clientX, clientY));
  }

  /** The name of the cell an element belongs to, or null. */
  cellOf(element) {
    return element?.closest?.(`[${this.cellAttribute}]`)?.dataset[this.cellKey] ?? null;
  }

  pointerDown(e) {
    if (e.button !== 0) return;
    const cell = this.cellOf(e.target);
    if (!cell) return;
    if (this.premove.army && !this.legal.length) return this.premoveDown(e, cell);
    if (this.selected && this.tryMove(this.selected, cell)) return;
    if (canMoveFrom(this.legal, cell)) {
      this.selected = cell === this.selected ? null : cell;
      this.render();
      if (this.selected) this.startDrag(e, cell);
      return;
    }
    if (this.selected) {
      this.selected = null;
      this.render();
    }
    this.onCell(cell);
  }

  /** Whether a premove may start on `cell`: a piece of the army that premoves. */
  premovable(cell) {
    const piece = this.premove.army && this.pieces.find(p => p.cell === cell)?.piece;
    return Boolean(piece) && pieceArmy(piece, this.variant.players) === this.premove.army;
  }

  /** While an engine is to move: pick a piece of the person's army, then its target; elsewhere cancels. */
  premoveDown(e, cell) {
    if (this.selected && cell !== this.selected) {
      this.tryMove(this.selected, cell);
    } else if (this.premovable(cell)) {
      this.selected = cell === this.selected ? null : cell;
      this.render();
      if (this.selected) this.startDrag(e, cell);
    } else {
      this.cancelPremove();
    }
  }

  /** A right-click, or a click off the person's pieces, drops the premove and the selection. */
  cancelPremove(e) {
    if (!this.premove.move.length && !(this.selected && this.premove.army)) return;
    e?.preventDefault();
    this.selected = null;
    this.render();
    this.onPremove();
  }

  /** Makes the move from -> to if it is legal (or sets it as the premove); true when it was. */
  tryMove(from, to) {
    if (this.premove.army && !this.legal.length) {
      this.selected = null;
      this.onPremove(from, to);
      return true;
    }
    const ucis = targetsFrom(this.legal, from).get(to);
    if (!ucis) return false;
    this.selected = null;
    this.render();
    this.onMove(from, to, ucis);
    return true;
  }

  startDrag(e, from) {
    const piece = this.svg.querySelector(`.piece[data-at="${from}"]`);
    if (!piece) return;
    const base = piece.getAttribute('transform');
    const [x0, y0] = [e.clientX, e.clientY];
    let dragging = false;
    const toBoard = (x, y) => {
      const p = new DOMPoint(x, y).matrixTransform(this.rot.getScreenCTM().inverse());
      return [p.x, p.y];
    };
    const move = ev => {
      if (!dragging && Math.hypot(ev.clientX - x0, ev.clientY - y0) < 4) return;
      if (!dragging) {
        dragging = true;
        piece.classList.add('dragging');
        piece.parentNode.append(piece); // on top of the other pieces
      }
      const [x, y] = toBoard(ev.clientX, ev.clientY);
      piece.setAttribute('transform', base.replace(/translate\([^)]*\)/, `translate(${x} ${y})`));
    };
    const up = ev => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
      if (!dragging) return; // a click: the piece stays selected for click-click
      const to = this.cellAt(ev.clientX, ev.clientY);
      this.dropped = to;
      if (!(to && to !== from && this.tryMove(from, to))) {
        piece.classList.remove('dragging');
        piece.setAttribute('transform', base);
      }
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
  }
}
