// Public entry of the model engine: tokenizer, optimizer and schedule, checkpoints, execution
// providers (this block), and the graph builder, decoder and sessions (the block below).

export * from './errors.js';
export {
  Tokenizer, byteTokenizer, loadTokenizer, validateTokenizerJson, DEFAULT_TOKENIZER, SPECIAL_TOKENS, FIRST_SPECIAL_ID,
  FIRST_MERGE_ID, type SpecialToken, type TurnRole, type TokenizerJson,
} from './tokenizer.js';
export { trainTokenizer, expandInputs, readDocuments, DEFAULT_TOKENIZER_INPUTS, type TrainTokenizerOptions } from './bpe-corpus.js';
export { PRETOKENIZER_NAME } from './bpe-pretokenize.js';
export {
  AdamW, DEFAULT_ADAMW_OPTIONS, validateAdamWOptions, decayAllButNormsAndBiases, type AdamWOptions, type AdamWState, type AdamWStepResult,
} from './optimizer.js';
export { adamwLoopUpdate, sumOfSquaresLoop, type AdamWLoopScalars } from './adamw-reference.js';
export { backwardFlops, forwardFlops, matmulParams, trainFlops } from './flops.js';
export { lrSchedule, DEFAULT_LR_SCHEDULE_OPTIONS, validateLrScheduleOptions, type LrScheduleOptions } from './lr-schedule.js';
export {
  saveCheckpoint, loadCheckpoint, loadCheckpointTokenizer, CHECKPOINT_FILES, type ShapeTable, type CheckpointConfig, type CheckpointContents,
  type LoadCheckpointOptions, type LoadedCheckpoint,
} from './checkpoint.js';
export { syncPath, writeDurably } from './durable-files.js';
export {
  encodeSafetensors, decodeSafetensors, toFloat32, toFloat64, assertFinite, FLOAT_DTYPES, MAX_SAFETENSORS_HEADER_BYTES, type FloatDtype, type StoredTensor, type TensorToWrite,
  type SafetensorsContents,
  numel,
} from './safetensors.js';
export {
  resolveExecutionProvider, listExecutionProviders, availableExecutionProviders, EXECUTION_PROVIDERS, CUDA_INSTALL_HINT,
  type ExecutionProviderName, type ProviderInfo, type ResolvedProvider,
} from './providers.js';

// ---- graph builder, autodiff, decoder, sessions, sampler (owned by the decoder work; extend here) ----
export * from './graph/index.js';
export * from './decoder-config.js';
export * from './decoder.js';
export * from './session.js';
export { type ForwardResult, type SavedTensors } from './two-phase.js';
export * from './sampler/index.js';
export * from './train-batch.js';
export { HF_MODEL_TYPES, decoderConfigFromHf, hfConfigFromDecoder, isHfConfig, type HfModelType } from './hf-config.js';
export { HF_WEIGHTS, hfTensorName, permuteHeads, readHfWeights, encodeHfWeights } from './hf-weights.js';
export { HfTokenizer, type ChatMessage } from './hf-tokenizer.js';
export { HF_TOKENIZER_FILES, loadHfModel, saveHfModel, isHfDirectory, readHfTokenizer, type HfModel } from './hf-checkpoint.js';
export { chatLayout, readChat, type ChatLayout, type ReadMessage } from './chat-reading.js';
export { loadModel, loadModelCodec, exportModel, type LoadedModel, type ModelTokenizer } from './load-model.js';
export { chatMessages, chatTurns, hfPromptFormat, promptFormat, spadePromptFormat, type PromptFormat, type PromptSource, type PromptTurn, type Speaker } from './prompt-format.js';
