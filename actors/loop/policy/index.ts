// Public entry of the policy service: the per-process sampler shared by the designer and agent actors.
export { PolicyService, type Policy, type PolicySampleOptions, type PolicyServiceOptions, type PolicyStats } from './policy-service.js';
export { leasePolicy, type PolicyLease } from './shared.js';
export { resolvePolicyModel, policyCheckpointDir, type PolicyModel } from './policy-model.js';
