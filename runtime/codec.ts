// The wire encoding: msgpack (msgpackr) of a small envelope { t: type, v: schema version, b: body }.
import { Packr } from 'msgpackr';

const packr = new Packr({ useRecords: false, mapsAsObjects: true, int64AsType: 'number' });

export interface Envelope {
  t: string;
  v: number;
  b: unknown;
}

export function pack(value: unknown): Uint8Array {
  return packr.pack(value);
}

export function unpack(bytes: Uint8Array): unknown {
  return packr.unpack(bytes);
}
