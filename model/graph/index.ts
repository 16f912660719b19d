// Public entry of the graph builder: IR, op builders, autodiff, emission and execution.
export { Graph, Tensor, concat, where, isFloat, type DType, type Dim, type Shape, type TypedArray, type Node } from './graph.js';
export { gradients, topoOrder } from './autodiff.js';
export { RULES, type VjpRule } from './rules.js';
export { emit, OPSET, type CompiledGraph, type TensorInfo } from './emit.js';
export { splitGraph, type SplitGraphs, type SplitSpec } from './split.js';
export { GraphRunner, DEFAULT_RUNNER_OPTIONS, validateRunnerOptions, type RunnerOptions, type Feed } from './runner.js';
export * from './errors.js';
export { slice } from './ops.js';
