/** The operations behind the CLI's commands, as library calls: each loads the manifests once and returns typed results. */
export { libraryHost, type LibraryHost, type OperationHost } from './host.js';
export { plan, drift, openPlan, type PlanRequest, type PlanResult, type PlanSession } from './plan.js';
export { apply, type ApplyReport, type ApplyRequest } from './apply.js';
export { importObject, type ImportReport, type ImportRequest } from './import.js';
export { forgetObject, type ForgetReport, type ForgetRequest } from './state-rm.js';
export { exportObjects, type ExportRequest } from './export.js';
