// Log helpers shared across the runtime's layers. A leaf: it imports nothing from runtime/, so the lowest layers
// (JetStream retries, publishing) and the host can all use it.

/** A log that says a repeated line once a minute at most; said() tells whether anything was said yet. */
export function sayOnce(log: (line: string) => void): ((line: string) => void) & { said(): boolean } {
  let last = '';
  let lastAt = 0;
  const say = (line: string): void => {
    if (line === last && Date.now() - lastAt < 60_000) return;
    last = line;
    lastAt = Date.now();
    log(line);
  };
  return Object.assign(say, { said: () => last !== '' });
}
