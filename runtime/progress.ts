// Progress text for long commands (the run's live view, `spade eval`, `spade experiment`): a bar, a percentage and
// the time left at the pace so far.

/** Seconds left when `fraction` of the work took `elapsedSec`; null before any progress, 0 when done. */
export function etaSeconds(fraction: number, elapsedSec: number): number | null {
  if (fraction >= 1) return 0;
  return fraction > 0 ? (elapsedSec * (1 - fraction)) / fraction : null;
}

/** `about 42 s left`, `about 3.2 min left`, `about 1.5 h left`; '' when unknown. */
export function formatEta(sec: number | null): string {
  if (sec === null) return '';
  if (sec < 90) return `about ${Math.ceil(sec)} s left`;
  if (sec < 90 * 60) return `about ${(sec / 60).toFixed(1)} min left`;
  return `about ${(sec / 3600).toFixed(1)} h left`;
}

/** `[#########.........]  45% of <of>, about 3.2 min left` */
export function progressBar(fraction: number, of: string, etaSec: number | null, width = 30): string {
  const f = Math.min(1, Math.max(0, fraction));
  const full = Math.round(f * width);
  const eta = formatEta(etaSec);
  return `[${'#'.repeat(full)}${'.'.repeat(width - full)}] ${(f * 100).toFixed(0).padStart(3)}% of ${of}${eta ? `, ${eta}` : ''}`;
}
