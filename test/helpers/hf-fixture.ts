// Test helper: a copy of a committed Hugging Face fixture model in a temp directory, with a longer context (the
// fixtures keep 32 positions for the parity tests; the weights do not depend on it) or another chat template, so
// tests never change the committed files the parity tests read.
import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { repoPath } from '../../runtime/paths.js';
import { tempDir, type Teardown } from './nats.js';

export const hfFixture = (name: string): string => repoPath('test', 'fixtures', 'hf-models', name);

export interface HfCopyOptions {
  contextLength?: number;
  /** tokenizer_config.json's chat_template; null removes it. */
  chatTemplate?: string | null;
}

export async function hfFixtureCopy(t: Teardown, name: string, o: HfCopyOptions = {}): Promise<string> {
  const dir = join(tempDir(t, 'hf-model-'), name);
  await cp(hfFixture(name), dir, { recursive: true });
  const edit = async (file: string, f: (json: Record<string, unknown>) => void): Promise<void> => {
    const json = JSON.parse(await readFile(join(dir, file), 'utf8')) as Record<string, unknown>;
    f(json);
    await writeFile(join(dir, file), JSON.stringify(json, null, 1));
  };
  if (o.contextLength !== undefined) await edit('config.json', (c) => void (c.max_position_embeddings = o.contextLength));
  if (o.chatTemplate !== undefined) await edit('tokenizer_config.json', (c) => void (o.chatTemplate === null ? delete c.chat_template : (c.chat_template = o.chatTemplate)));
  return dir;
}
