/**
 * Long computations in the API's process (clustering, indexing a site's pages) run in slices, so that the requests
 * arriving meanwhile are answered: the event loop's longest hold by one of their steps, about (a step that a
 * library runs in one piece holds it as long as it takes).
 */
export const SLICE_MS = 15;

/** A turn of the event loop for the process's other work (requests), between steps of a computation. */
export function turn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * A computation's turns, one a slice: the function answers a turn of the event loop once `ms` have passed since
 * the last, else nothing to wait for. Called between steps (`await slice()`), it gives requests a turn without a
 * turn a step, which under load would make a computation of many small steps wait for every request in between.
 */
export function timeSlices(ms = SLICE_MS): () => Promise<void> | undefined {
  let since = performance.now();
  return () => {
    if (performance.now() - since < ms) return undefined;
    return turn().then(() => {
      since = performance.now();
    });
  };
}

/** Runs a computation written as steps (a generator), giving the event loop a turn every `SLICE_MS`. */
export async function stepwise<T>(steps: Generator<void, T>): Promise<T> {
  const slice = timeSlices();
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await slice();
  }
}
