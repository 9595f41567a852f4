/**
 * The V8 flags the API process runs with: `npm start`, the container image's CMD, the bench scripts and the process
 * tests all pass these (runtime-flags.spec.ts checks package.json and docker/Dockerfile).
 *
 * `--max-semi-space-size=8`: V8's young generation grows to two 16 MB semi-spaces under a server's allocation rate
 * and stays there; at 8 MB the idle process holds ~15 MB less (resident 156–160 → 142–148 MB, issue #10's target
 * is 150), and an A/B of `GET /v1/spaces/{id}` and the organization space list showed no lower throughput
 * (docs/benchmarks.md).
 */
export const NODE_FLAGS: readonly string[] = ['--max-semi-space-size=8'];
