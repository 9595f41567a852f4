// The framework-free kernel every context shares: ids, time, errors, roles, pages and cursors, units of work.
export * from './clock';
export * from './id-generator';
export * from './domain-error';
export * from './role';
export * from './page';
export * from './actor';
export * from './ttl-cache';
export * from './bounded-map';
export * from './semaphore';
export * from './unit-of-work';
export * from './byte-cache';
export * from './events';
export * from './safe-get';
export * from './job-queue';
export * from './secret-box';
export * from './official-values';
export * from './chat-completions';
