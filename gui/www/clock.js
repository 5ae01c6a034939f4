// Clocks: the times the server last sent, counted down locally for the running one.

/** "4:59", "1:02:03", or tenths under ten seconds: "9.4". */
export function formatClock(ms) {
  const t = Math.max(0, ms);
  if (t < 10000) return (Math.floor(t / 100) / 10).toFixed(1);
  const s = Math.floor(t / 1000);
  const [h, m, sec] = [Math.floor(s / 3600), Math.floor(s / 60) % 60, s % 60];
  const mm = h ? String(m).padStart(2, '0') : String(m);
  return `${h ? h + ':' : ''}${mm}:${String(sec).padStart(2, '0')}`;
}

export class Clock {
  /** The STATE's clocks ({w: ms, b: ms, running}) or null; the running one counts from now. */
  set(clocks) {
    this.clocks = clocks;
    this.at = performance.now();
  }

  /** Milliseconds left for an army, or null without a clock. */
  remaining(army) {
    if (!this.clocks || this.clocks[army] === undefined) return null;
    const elapsed = this.clocks.running === army ? performance.now() - this.at : 0;
    return Math.max(0, this.clocks[army] - elapsed);
  }

  running() {
    return this.clocks?.running ?? null;
  }
}
