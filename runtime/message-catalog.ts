// The message catalog: every message type a receiver that handles any subject (`spade tail`, dead-letter
// inspection) can decode. The runtime's own types are always in it; an application adds its own through the
// composition root (`runCli(argv, { catalog })`, see actors/loop/catalog.ts), so runtime/ never imports actors/.
import { RUNTIME_MESSAGES } from './message-types.js';
import { messageTypes, registerMessages, type MessageType } from './messages.js';

registerMessages(RUNTIME_MESSAGES);

/** Adds an application's message types to the catalog; returns every type now known. */
export function useCatalog(catalog: readonly MessageType<unknown>[]): MessageType<unknown>[] {
  registerMessages(catalog);
  return messageTypes();
}
