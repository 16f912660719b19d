// Typed errors of the dashboard and the report: a bad argument, an unreadable run or experiment directory, a port in use.
import { SpadeError } from '../runtime/spade-error.js';

export class DashboardError extends SpadeError {}

/** A `spade dashboard` or `spade report` argument is invalid; `field` names it (e.g. `--port`). */
export class DashboardArgsError extends DashboardError {
  constructor(readonly field: string, expected: string, value: unknown) {
    super(`${field} must be ${expected} (got ${JSON.stringify(value) ?? String(value)})`, { code: 'DASHBOARD_ARGS', data: { field } });
  }
}

/** A run or experiment directory is missing what a report reads, or holds a line that does not parse; `path` names it. */
export class ReportInputError extends DashboardError {
  constructor(message: string, readonly path: string, cause?: unknown) {
    super(message, { code: 'REPORT_INPUT', data: { path }, cause });
  }
}

/** The dashboard's server could not listen (port in use, host not local). */
export class DashboardServeError extends DashboardError {
  constructor(message: string, readonly address: string, cause?: unknown) {
    super(message, { code: 'DASHBOARD_SERVE', data: { address }, cause });
  }
}

export const isDashboardError = (e: unknown): e is DashboardError => e instanceof DashboardError;
export const isDashboardArgsError = (e: unknown): e is DashboardArgsError => e instanceof DashboardArgsError;
export const isReportInputError = (e: unknown): e is ReportInputError => e instanceof ReportInputError;
