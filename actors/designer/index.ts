// Public entry of the designer role.
export { createDesignerActor, groundingDoc, type DesignerActor, type DesignerActorOptions, type DesignerStats } from './designer-actor.js';
export { design, envIdOf, extractModule, guessFamily, outcomeOutputs, type DesignerDeps, type DesignResult, type GroundingDoc } from './design.js';
export { OutcomeStore, checkOutcome, type Claimed, type DesignOutcomes } from './outcome-store.js';
export { buildDesignerPrompt, memoryLine, type FittedPrompt } from './designer-prompt.js';
export { loadLibraryEnvs, type LibraryEnv } from './library-envs.js';
export { knobsOf, specNameOf, isEditable, replaceSpans, intKnobsOf, withKnobs, type Knob, type IntKnob, type WordsKnob } from './knobs.js';
export { applyKnobEdit, knobEditText, knobSheet, NAME_KNOB, type KnobEdit } from './knob-edit.js';
export { documentWords, broughtWords } from './grounding.js';
export { pickFamily, pickParent, editableLibrary, parentFits, MAX_PARENT_TOKENS, type Parent } from './parent.js';
