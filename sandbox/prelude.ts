// Source of the script evaluated first in every QuickJS context: it makes the context deterministic (seeded
// Math.random, fixed Date in UTC, no WeakRef/FinalizationRegistry) and returns the driver that calls the
// environment and checks every result with intrinsics captured before any environment code ran.
import { makeRandom } from './prng.js';

/** Date.now() and `new Date()` inside the sandbox: 2024-01-01T00:00:00.000Z. */
export const FIXED_EPOCH_MS = 1704067200000;

/**
 * The fixed, UTC-only Date. Compiled lazily, on the first read of the global `Date`, from intrinsics captured
 * before any environment code ran (it must not read globals: the module may have replaced them).
 */
const DATE_SOURCE = String.raw`(function (I) {
'use strict';
const { D, apply, construct, defineProperty, strSlice, StringC } = I;
const dProto = D.prototype, FIXED = ${FIXED_EPOCH_MS};
const hostOffset = dProto.getTimezoneOffset, dParse = D.parse, dUTC = D.UTC, dGetTime = dProto.getTime;
const toIso = dProto.toISOString, toUtc = dProto.toUTCString;
const dateOnly = /^\s*[+-]?\d{4,6}(-\d\d(-\d\d)?)?\s*$/, zoned = /(Z|[+-]\d\d:?\d\d|GMT|UTC)/i;
function parseUTC(s) {
  const t = dParse(s);
  if (t !== t || dateOnly.test(s) || zoned.test(s)) return t;
  return t - apply(hostOffset, construct(D, [t]), []) * 60000;
}
function FixedDate(...args) {
  if (new.target === undefined) return apply(toUtc, construct(D, [FIXED]), []);
  let t;
  if (args.length === 0) t = FIXED;
  else if (args.length === 1) t = typeof args[0] === 'string' ? parseUTC(args[0]) : args[0];
  else t = apply(dUTC, undefined, args);
  return construct(D, [t], new.target);
}
FixedDate.prototype = dProto;
defineProperty(dProto, 'constructor', { value: FixedDate, writable: true, configurable: true });
FixedDate.now = function now() { return FIXED; };
FixedDate.parse = function parse(s) { return parseUTC(StringC(s)); };
FixedDate.UTC = dUTC;
for (const n of ['FullYear', 'Month', 'Date', 'Day', 'Hours', 'Minutes', 'Seconds', 'Milliseconds']) {
  dProto['get' + n] = dProto['getUTC' + n];
  if (n !== 'Day') dProto['set' + n] = dProto['setUTC' + n];
}
dProto.getTimezoneOffset = function getTimezoneOffset() { const t = apply(dGetTime, this, []); return t === t ? 0 : NaN; };
const utcString = function toString() { return apply(toUtc, this, []); };
dProto.toString = utcString; dProto.toLocaleString = utcString;
dProto.toDateString = function toDateString() { const t = apply(dGetTime, this, []); return t === t ? apply(strSlice, apply(toIso, this, []), [0, 10]) : 'Invalid Date'; };
dProto.toLocaleDateString = dProto.toDateString;
dProto.toTimeString = function toTimeString() { const t = apply(dGetTime, this, []); return t === t ? apply(strSlice, apply(toIso, this, []), [11, 19]) + ' GMT+0000' : 'Invalid Date'; };
dProto.toLocaleTimeString = dProto.toTimeString;
return FixedDate;
})`;

/** Failure helpers, compiled lazily on the first failure: they describe offending values without trusting them. */
const COLD_SOURCE = String.raw`(function (I) {
'use strict';
const { stringify, apply, strSlice, objToString, getProto, getOwnDesc, InternalErrorProto, StringC } = I;
function show(v) {
  try {
    if (typeof v === 'string') return apply(strSlice, v, [0, 200]);
    if (typeof v === 'symbol') return 'Symbol()';
    if (v === null || (typeof v !== 'object' && typeof v !== 'function')) return StringC(v);
    if (typeof v === 'function') return 'function';
    let s;
    try { s = stringify(v); } catch (e) { s = undefined; }
    if (typeof s !== 'string') s = apply(objToString, v, []);
    return apply(strSlice, s, [0, 200]);
  } catch (e) { return '<unprintable>'; }
}
function fail(kind, message, value) { return 'e[' + stringify(kind) + ',' + stringify(message) + ',' + stringify(value === undefined ? null : show(value)) + ']'; }
function ownString(o, key) {
  try { const d = getOwnDesc(o, key); return d && typeof d.value === 'string' ? d.value : undefined; } catch (e) { return undefined; }
}
function thrown(e, what) {
  if (e !== null && typeof e === 'object') {
    let proto = null;
    try { proto = getProto(e); } catch (x) { proto = null; }
    const msg = ownString(e, 'message');
    if (proto === InternalErrorProto && (msg === 'out of memory' || msg === 'string too long')) return fail('memory', msg);
    if (proto === InternalErrorProto && msg === 'stack overflow') return fail('stack', msg);
    if (msg !== undefined) return fail('threw', what + ' threw: ' + apply(strSlice, msg, [0, 200]), e);
  }
  return fail('threw', what + ' threw a non-Error value', e);
}
return { show, fail, thrown };
})`;
/**
 * Freezes every object reachable from the global object (built-ins, their prototypes, the kit) and the global
 * object itself, so environment code cannot leave state behind for the next episode of the realm. Data
 * properties that ordinary code assigns on its own objects (toString, constructor, name, message...) become
 * accessors whose setter defines an own property, so `obj.toString = f` keeps working ("override taming").
 * Runs before any environment code, so it may use the globals as they are.
 */
const LOCKDOWN_SOURCE = String.raw`(function () {
'use strict';
const ownKeys = Reflect.ownKeys, desc = Object.getOwnPropertyDescriptor, getProto = Object.getPrototypeOf;
const defineProperty = Object.defineProperty, freeze = Object.freeze;
const TAME = new Set(['constructor', 'toString', 'valueOf', 'toLocaleString', 'toJSON', 'name', 'message', 'then']);
const seen = new Set();
function tame(o) {
  for (const k of ownKeys(o)) {
    if (!TAME.has(k)) continue;
    const d = desc(o, k);
    if (!('value' in d) || !d.writable) continue;
    const value = d.value;
    defineProperty(o, k, {
      get() { return value; },
      set(v) {
        if (this === o) throw new TypeError('built-ins are frozen in the sandbox');
        defineProperty(this, k, { value: v, writable: true, enumerable: true, configurable: true });
      },
      enumerable: d.enumerable, configurable: false,
    });
  }
}
function walk(o) {
  if (o === null || (typeof o !== 'object' && typeof o !== 'function') || seen.has(o)) return;
  seen.add(o);
  if (typeof o === 'object') tame(o);
  for (const k of ownKeys(o)) {
    const d = desc(o, k);
    if ('value' in d) walk(d.value);
    else { walk(d.get); walk(d.set); }
  }
  walk(getProto(o));
  freeze(o);
}
walk(globalThis);
return seen.size;
})`;

/**
 * Driver protocol: every driver function returns a string; 'o' + JSON on success, 'e' + JSON [kind, message, value]
 * on a caught failure (built by hand: JSON.stringify of arrays consults prototypes the module may have replaced), kind one of 'threw' | 'contract' | 'range' | 'memory' | 'stack' | 'syntax'.
 * Only the hot path is compiled per context; the Date replacement and the failure helpers are compiled on first use.
 */
export const PRELUDE_SOURCE = String.raw`(function () {
'use strict';
const G = globalThis, evalC = eval;
const stringify = JSON.stringify, isFiniteNum = Number.isFinite, isArray = Array.isArray;
const getProto = Object.getPrototypeOf, getOwnDesc = Object.getOwnPropertyDescriptor, defineProperty = Object.defineProperty;
const apply = Reflect.apply, construct = Reflect.construct, StringC = String, imul = Math.imul;
const strSlice = String.prototype.slice, objToString = Object.prototype.toString;
const strTrim = String.prototype.trim;
const InternalErrorProto = InternalError.prototype, PromiseProto = Promise.prototype;
const I = { D: Date, stringify, apply, construct, defineProperty, strSlice, objToString, getProto, getOwnDesc, InternalErrorProto, StringC };
const makeRandom = (${makeRandom.toString()});

let nextRandom = makeRandom(0, imul);
defineProperty(Math, 'random', { value: function random() { return nextRandom(); }, writable: true, configurable: true });

let fixedDate = null;
const setDate = (v) => { defineProperty(G, 'Date', { value: v, writable: true, configurable: true }); };
defineProperty(G, 'Date', {
  get() { if (fixedDate === null) fixedDate = evalC(${JSON.stringify(DATE_SOURCE)})(I); setDate(fixedDate); return fixedDate; },
  set: setDate,
  configurable: true,
});
delete G.WeakRef;
delete G.FinalizationRegistry;

let cold = null;
const C = () => cold === null ? (cold = evalC(${JSON.stringify(COLD_SOURCE)})(I)) : cold;
const fail = (kind, message, value) => C().fail(kind, message, value);
const thrown = (e, what) => C().thrown(e, what);

let maxObs = 4096, maxInfo = 4096, maxAction = 4096;
let Env = null, inst = null, oracleFn, history = [], lastObs = '';

function pushOwn(arr, v) { defineProperty(arr, arr.length, { value: v, writable: true, enumerable: true, configurable: true }); }
function isConstructor(f) {
  try { construct(String, [], f); return true; } catch (e) { return false; }
}

return {
  lockdown() {
    void G.Date; // replace the lazy accessor by the fixed Date before freezing
    evalC(${JSON.stringify(LOCKDOWN_SOURCE)})();
    return 'o0';
  },
  prepare() {
    // Every module evaluation starts from the same state, whatever the realm hosted before.
    nextRandom = makeRandom(0, imul);
    Env = null; inst = null; oracleFn = undefined; history = []; lastObs = '';
    return 'o0';
  },
  install(ns, mo, mi, ma) {
    maxObs = mo; maxInfo = mi; maxAction = ma;
    if (ns === null || typeof ns !== 'object') return fail('contract', 'the module has no exports', ns);
    if (getProto(ns) === PromiseProto) return fail('syntax', 'top-level await is not allowed');
    let spec, D2;
    try { spec = ns.spec; D2 = ns.default; oracleFn = ns.oracle; } catch (e) { return thrown(e, 'reading exports'); }
    if (typeof D2 !== 'function' || !isConstructor(D2)) return fail('contract', 'the default export must be a class', D2);
    if (oracleFn !== undefined && typeof oracleFn !== 'function') return fail('contract', 'oracle must be a function', oracleFn);
    if (spec === null || typeof spec !== 'object') return fail('contract', 'spec must be an object', spec);
    Env = D2;
    // Built by hand: JSON.stringify of objects consults toJSON and array prototypes the module may have replaced.
    let out = 'o[';
    for (const k of ['name', 'description', 'hint', 'maxTurns']) {
      let v;
      try { v = spec[k]; } catch (e) { return thrown(e, 'reading spec.' + k); }
      out += '[' + stringify(typeof v) + ',' + stringify(typeof v === 'string' ? apply(strSlice, v, [0, 8193]) : C().show(v)) + '],';
    }
    return out + (oracleFn !== undefined ? 'true]' : 'false]');
  },
  reset(seed) {
    nextRandom = makeRandom(seed, imul);
    history = []; lastObs = '';
    let r;
    try { inst = construct(Env, []); r = inst.reset(seed); } catch (e) { return thrown(e, 'reset'); }
    if (r === null || typeof r !== 'object') return fail('contract', 'reset must return an object { observation }', r);
    if (getProto(r) === PromiseProto) return fail('contract', 'reset must return synchronously, not a Promise');
    let obs, hint;
    try { obs = r.observation; hint = r.hint; } catch (e) { return thrown(e, 'reading observation'); }
    if (typeof obs !== 'string') return fail('contract', 'observation must be a string', obs);
    if (obs.length > maxObs) return fail('contract', 'observation longer than ' + maxObs + ' characters', obs);
    // Contract v2: reset may return this instance's privileged hint; absent, the episode uses spec.hint.
    if (hint !== undefined) {
      if (typeof hint !== 'string') return fail('contract', 'reset().hint must be a string when present', hint);
      if (apply(strTrim, hint, []).length === 0) return fail('contract', 'reset().hint must be a non-empty string when present', hint);
      if (hint.length > 8192) return fail('contract', 'reset().hint longer than 8192 characters', hint);
    }
    lastObs = obs;
    return 'o[' + stringify(obs) + ',' + (hint === undefined ? 'null' : stringify(hint)) + ']';
  },
  step(action) {
    let r, obs, reward, term, trunc, info;
    try { r = inst.step(action); } catch (e) { return thrown(e, 'step'); }
    if (r === null || typeof r !== 'object') return fail('contract', 'step must return an object', r);
    if (getProto(r) === PromiseProto) return fail('contract', 'step must return synchronously, not a Promise');
    try { obs = r.observation; reward = r.reward; term = r.terminated; trunc = r.truncated; info = r.info; } catch (e) { return thrown(e, 'reading the step result'); }
    if (typeof obs !== 'string') return fail('contract', 'observation must be a string', obs);
    if (obs.length > maxObs) return fail('contract', 'observation longer than ' + maxObs + ' characters', obs);
    if (typeof reward !== 'number') return fail('contract', 'reward must be a number', reward);
    if (!isFiniteNum(reward)) return fail('range', 'reward must be finite', reward);
    if (typeof term !== 'boolean') return fail('contract', 'terminated must be a boolean', term);
    if (trunc !== undefined && typeof trunc !== 'boolean') return fail('contract', 'truncated must be a boolean when present', trunc);
    let infoJson = 'null';
    if (info !== undefined && info !== null) {
      if (typeof info !== 'object' || isArray(info)) return fail('contract', 'info must be a plain object', info);
      let s;
      try { s = stringify(info); } catch (e) {
        const t = thrown(e, 'serialising info');
        const k = apply(strSlice, t, [3, 4]);
        return k === 'm' || k === 's' ? t : fail('contract', 'info must be JSON-serialisable', info);
      }
      if (typeof s !== 'string' || s[0] !== '{') return fail('contract', 'info must serialise to a JSON object', info);
      if (s.length > maxInfo) return fail('contract', 'info longer than ' + maxInfo + ' characters as JSON', s);
      infoJson = s;
    }
    pushOwn(history, { observation: lastObs, action: action });
    lastObs = obs;
    return 'o[' + stringify(obs) + ',' + reward + ',' + (term ? 'true' : 'false') + ',' + (trunc === true ? 'true' : 'false') + ',' + infoJson + ']';
  },
  oracle() {
    if (typeof oracleFn !== 'function') return fail('contract', 'the module exports no oracle');
    const h = [];
    for (let i = 0; i < history.length; i++) pushOwn(h, { observation: history[i].observation, action: history[i].action });
    let a;
    try { a = oracleFn(lastObs, h); } catch (e) { return thrown(e, 'oracle'); }
    if (typeof a !== 'string') return fail('contract', 'oracle must return a string', a);
    if (a.length > maxAction) return fail('contract', 'oracle action longer than ' + maxAction + ' characters', a);
    return 'o' + stringify(a);
  },
};
})()`;
