// Splits a page's text (headings marked by htmlToText or the markup strippers) into titled sections of useful
// size: small neighbours are merged, so every document carries enough text to ground an environment.
import { HEADING_MARK } from './html-text.js';

// Titles of note/tip boxes are headings in the HTML but not sections of the page.
const ADMONITION = /^(tip|note|warning|caution|important|notes?|example|see also)\.?$/i;

export interface Section {
  title: string;
  text: string;
}

/**
 * Cuts at headings of level <= maxLevel. Each section's text starts with its heading line. Consecutive sections
 * are merged while the current one is shorter than minChars; a short last section joins the one before.
 */
export function splitSections(marked: string, pageTitle: string, maxLevel = 3, minChars = 600): Section[] {
  const raw: Section[] = [];
  let title = pageTitle;
  let body: string[] = [];
  const flush = (): void => {
    const text = body.join('\n').trim();
    if (text.length > 0) raw.push({ title, text });
    body = [];
  };
  for (const line of marked.split('\n')) {
    if (line.startsWith(HEADING_MARK)) {
      const level = Number(line[1]);
      const heading = line.slice(3).replace(/\s+/g, ' ').replace(/[¶#]\s*$/, '').trim();
      if (level <= maxLevel && heading && !ADMONITION.test(heading)) {
        flush();
        title = heading;
      }
      if (heading) body.push(heading);
      continue;
    }
    body.push(line);
  }
  flush();
  const merged: Section[] = [];
  for (const s of raw) {
    const last = merged[merged.length - 1];
    if (last && last.text.length < minChars) last.text = `${last.text}\n\n${s.text}`;
    else merged.push({ ...s });
  }
  const tail = merged[merged.length - 1];
  if (merged.length > 1 && tail && tail.text.length < minChars) {
    merged.pop();
    merged[merged.length - 1]!.text += `\n\n${tail.text}`;
  }
  for (const s of merged) s.text = s.text.replace(/\n{3,}/g, '\n\n').trim();
  return merged;
}
