// Typed errors of the dashboard and the report: a bad argument, an unreadable run or experiment directory, a port in use.
import { SpadeError, fieldError, guard, located } from '../runtime/spade-error.js';

export class DashboardError extends SpadeError {}

/** A `spade dashboard` or `spade report` argument is invalid; `field` names it (e.g. `--port`). */
export class DashboardArgsError extends fieldError(DashboardError, 'DASHBOARD_ARGS') {}

/** A run or experiment directory is missing what a report reads, or holds a line that does not parse; `path` names it. */
export class ReportInputError extends located(DashboardError, 'REPORT_INPUT', 'path') {}

/** The dashboard's server could not listen (port in use, host not local). */
export class DashboardServeError extends located(DashboardError, 'DASHBOARD_SERVE', 'address') {}

/** The area's `isX(err)` helpers. */
export const isDashboardError = guard(DashboardError), isDashboardArgsError = guard(DashboardArgsError), isReportInputError = guard(ReportInputError);
