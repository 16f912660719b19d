// The cluster's one typed config (filled in by the runtime issue).
export default {};
