/**
 * The V8 flags the API process runs with: `npm start`, the container image's CMD, the bench scripts and the process
 * tests all pass these (runtime-flags.spec.ts checks package.json and docker/Dockerfile).
 *
 * `--max-semi-space-size=8`: V8's young generation grows to two 16 MB semi-spaces under a server's allocation rate
 * and stays there; at 8 MB the idle process holds ~15 MB less (resident 156–160 → 142–148 MB, issue #10's target
 * is 150). That costs CPU where requests allocate much: a page of 100 spaces takes 2.98–3.24 ms at 8 MB and
 * 2.19–2.61 ms at 24 MB (single reads: within noise), but the idle process then holds ~190 MB. docs/deployment.md
 * has the measurements and says how to run with the larger young generation.
 */
export const NODE_FLAGS: readonly string[] = ['--max-semi-space-size=8'];
