// The piece guide: each piece type of the variant, where it moves and captures on an empty board, and
// how it moves in words (the variant definition's `piece-description`).
import { Board } from './board.js';
import { getGuide } from './api.js';
import { pieceIcon, armyPiece } from './pieces.js';

// The guide's board is kept this many pixels above the window's bottom, and never smaller than MIN_BOARD,
// which still shows its dots and rings (four armies' share bars leave it about 130 px at 900 px high).
const BOTTOM_MARGIN = 12, MIN_BOARD = 130;

export class Guide {
  constructor(piecesElement, boardElement) {
    this.piecesElement = piecesElement;
    this.boardElement = boardElement;
    addEventListener('resize', () => this.fit());
    this.textElement = document.createElement('p');
    this.textElement.className = 'guide-text';
    piecesElement.after(this.textElement);
    this.board = new Board(boardElement, {
      onCell: cell => this.show(this.letter, cell, this.army), cellAttribute: 'data-guide-cell',
    });
    this.letter = null;
    this.army = 0;
    piecesElement.addEventListener('click', e => {
      const button = e.target.closest('[data-guide]');
      if (button) this.show(button.dataset.guide, undefined, Number(button.dataset.army ?? 0));
    });
  }

  setVariant(variant) {
    this.variant = variant;
    this.letter = null;
    this.textElement.textContent = '';
    this.board.setVariant(variant);
    this.piecesElement.innerHTML = variant.pieces.map(p =>
      `<button type="button" data-guide="${p.letter}" data-army="${p.army ?? 0}" title="${p.name}">` +
      `${pieceIcon(armyPiece(p.letter, armyLetter(variant, p.army), variant.players), variant)}${p.name}</button>`)
      .join('');
  }

  /** Shows a piece type of an army at a cell (the server's default, the centre, when none is given). */
  async show(letter, cell, army = 0) {
    if (!letter) return;
    const variant = this.variant;
    const guide = await getGuide(variant.name, letter, cell, army);
    if (variant !== this.variant) return; // the variant changed while the guide was asked
    this.letter = letter;
    this.army = army;
    for (const b of this.piecesElement.children) {
      b.classList.toggle('active', b.dataset.guide === letter && Number(b.dataset.army ?? 0) === army);
    }
    const info = variant.pieces.find(p => p.letter === letter && (p.army ?? 0) === army);
    const name = Object.assign(document.createElement('b'), { textContent: capitalised(info.name) });
    this.textElement.replaceChildren(name, ` ${info.description ?? ''}`);
    const piece = armyPiece(letter, armyLetter(variant, army), variant.players);
    this.board.setPosition({ pieces: [{ cell: guide.cell, piece }] });
    this.board.setMarks({ cell: guide.cell, moves: guide.moves, captures: guide.captures });
    this.fit();
  }

  /** Sizes the board to the window's height left below the sentence: the whole guide shows without scrolling. */
  fit() {
    const svg = this.boardElement.querySelector('svg');
    if (!svg || !this.boardElement.offsetParent) return; // the tab is hidden
    const top = this.boardElement.getBoundingClientRect().top + scrollY;
    const start = this.piecesElement.getBoundingClientRect().top + scrollY;
    // A guide that starts below the first screen (a phone's column) is scrolled to: it fits one screen from there.
    const from = start < innerHeight ? 0 : start;
    svg.style.maxHeight = `${Math.max(MIN_BOARD, innerHeight - (top - from) - BOTTOM_MARGIN)}px`;
  }
}

/** The colour letter of the first player of an army (different armies: nd-wellisch-4p). */
function armyLetter(variant, army = 0) {
  return (variant.armies.find(a => (a.army ?? 0) === army) ?? variant.armies[0]).letter;
}

/** "pacey-unicorn" -> "Pacey-unicorn", as a sentence starts. */
function capitalised(name) {
  return name[0].toUpperCase() + name.slice(1);
}
