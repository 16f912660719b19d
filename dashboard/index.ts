// Public entry of the dashboard and the report: `spade dashboard` (a live page of a run, read from the bus) and
// `spade report` (one self-contained HTML file of a run or an experiment), the run model they share, and their errors.
export * from './errors.js';
export { dashboardCommand, reportCommand, openDashboardData, DASHBOARD_USAGE, REPORT_USAGE } from './cli.js';
export { RunModel, ITERATION_CURVES, UPDATE_CURVES, type EnvRow, type EnvText, type Overview, type Series } from './run-model.js';
export { BusSource, type EpisodeView, type TurnView } from './bus-source.js';
export { serveDashboard, type DashboardServer, type DashboardData } from './server.js';
export { writeReport, REPORT_LIMITS } from './report.js';
export { readRunDir } from './run-dir.js';
