// Beside each player's card: the pieces its army has captured (small glyphs) and its material lead.
import { pieceIcon } from './pieces.js';
import { element } from './dom.js';

/**
 * Each army's lead in pawns over the other armies on the board: the change of its material since the
 * start (the engine's piece values, in the STATE) minus the mean change of theirs; with two armies
 * and equal armies at the start, simply the difference. Armies that start unequal (nd-wellisch-4p's)
 * start level.
 */
export function materialLeads(material, onBoard) {
  const change = a => material[a].value - material[a].start;
  const leads = new Map();
  for (const army of onBoard) {
    const others = onBoard.filter(a => a !== army);
    const mean = others.reduce((sum, a) => sum + change(a), 0) / (others.length || 1);
    leads.set(army, change(army) - mean);
  }
  return leads;
}

/** Fills each card of `cards` (the players' element) with its army's captures and lead. */
export function renderMaterial(cards, state, variant) {
  if (!state.material) return;
  const onBoard = variant.armies.map(a => a.letter).filter(a => !state.eliminated.includes(a));
  const leads = materialLeads(state.material, onBoard);
  for (const card of cards.children) {
    const army = card.dataset.army;
    const captured = [...state.material[army].captured].sort();
    const lead = Math.round(leads.get(army) ?? 0);
    const icons = captured.map(piece => {
      const icon = element('span', { class: 'taken', 'data-piece': piece });
      icon.innerHTML = pieceIcon(piece, variant); // markup of our own glyphs
      return icon;
    });
    const line = element('small', { class: 'material' }, ...icons);
    if (lead > 0) line.append(element('b', { class: 'lead' }, `+${lead}`));
    card.querySelector('.who')?.append(line);
  }
}
