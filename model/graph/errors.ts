// Typed errors of the graph builder: shape checks at build time, autodiff gaps, emission and execution.
import { ModelError } from '../errors.js';

/** Root of every error the graph builder, the autodiff walker and the graph runner throw. */
export class GraphError extends ModelError {}

export function isGraphError(err: unknown): err is GraphError {
  return err instanceof GraphError;
}

const fmt = (s: readonly (number | string)[]): string => `[${s.join(',')}]`;

/** Shapes (or dtypes) an op cannot accept; names the op and every input shape. */
export class ShapeError extends GraphError {
  readonly op: string;
  readonly shapes: (number | string)[][];
  constructor(op: string, shapes: readonly (readonly (number | string)[])[], reason: string) {
    super(`${op}: ${reason} (input shapes ${shapes.map(fmt).join(', ')})`, {
      code: 'GRAPH_SHAPE',
      data: { op, shapes: shapes.map((s) => [...s]) },
    });
    this.op = op;
    this.shapes = shapes.map((s) => [...s]);
  }
}

export function isShapeError(err: unknown): err is ShapeError {
  return err instanceof ShapeError;
}

/** The walker reached an op with no vector-Jacobian rule on a path that needs a gradient. */
export class MissingVjpRuleError extends GraphError {
  readonly op: string;
  constructor(op: string) {
    super(`no gradient rule for op ${op}; add one to model/graph/rules.ts or keep it off the differentiated path`, {
      code: 'GRAPH_NO_VJP',
      data: { op },
    });
    this.op = op;
  }
}

export function isMissingVjpRuleError(err: unknown): err is MissingVjpRuleError {
  return err instanceof MissingVjpRuleError;
}

/** A rule broke its contract (wrong number of entries, a gradient that cannot be reduced to its input's shape). */
export class VjpContractError extends GraphError {
  constructor(op: string, reason: string) {
    super(`gradient rule for ${op}: ${reason}`, { code: 'GRAPH_VJP_CONTRACT', data: { op } });
  }
}

/** Feeds that do not match the compiled graph, or onnxruntime refusing or failing a graph. */
export class GraphRunError extends GraphError {
  constructor(message: string, data: Record<string, unknown> = {}, cause?: unknown) {
    super(message, { code: 'GRAPH_RUN', data, cause });
  }
}

export function isGraphRunError(err: unknown): err is GraphRunError {
  return err instanceof GraphRunError;
}

/** A graph that cannot be split into forward and backward halves at its seeds (split.ts). */
export class GraphSplitError extends GraphError {
  constructor(message: string, data: Record<string, unknown> = {}) {
    super(message, { code: 'GRAPH_SPLIT', data });
  }
}

export function isGraphSplitError(err: unknown): err is GraphSplitError {
  return err instanceof GraphSplitError;
}
