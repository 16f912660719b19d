// Grounding, measured: the document words a designed module brings in that its parent lacks, beside the same count
// against another document (the control). A designer that reads its document scores above the control; one that
// ignores it scores the same on both. Pure; the designer attaches both counts to each accepted environment.

// Words too common or too code-like to name an environment or fill a list with.
const STOP = new Set(('the and for are but not you all any can had her was one our out has his how its may new now old see two who boy did '
  + 'get let put say she too use that with have this will your from they been were said each which their there what when make like '
  + 'into than then them these some would other about more also only over such after most very just where most those while being '
  + 'could should because through under between before again against during without within upon shall must here were does done '
  + 'class const export default return function true false null undefined await async yield import delete typeof instanceof void '
  + 'new this super static extends switch case break continue throw catch finally while spec kit hint reset step oracle').split(' '));

/** Distinct lower-case words of the document, 3 to 9 letters, common words left out, in order of first use. */
export function documentWords(doc: string): string[] {
  const seen = new Set<string>();
  for (const w of doc.toLowerCase().match(/[a-z]+/g) ?? []) if (w.length >= 3 && w.length <= 9 && !STOP.has(w)) seen.add(w);
  return [...seen];
}

/** Document words the child's code holds and its parent's code does not (all of the child's without a parent). */
export function broughtWords(code: string, parentCode: string, doc: string): number {
  const mine = new Set(code.toLowerCase().match(/[a-z]+/g) ?? []), theirs = new Set(parentCode.toLowerCase().match(/[a-z]+/g) ?? []);
  return documentWords(doc).filter((w) => mine.has(w) && !theirs.has(w)).length;
}
