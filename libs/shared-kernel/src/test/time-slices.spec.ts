import { stepwise, timeSlices } from '../time-slices';

describe('time slices: long computations give requests a turn', () => {
  it('answers a turn only once its slice has passed, then counts a new slice from that turn', async () => {
    const slice = timeSlices(20);
    expect(slice()).toBeUndefined();
    const start = performance.now();
    while (performance.now() - start < 25) {
      // a step that takes the slice
    }
    const turn = slice();
    expect(turn).toBeInstanceOf(Promise);
    await turn;
    expect(slice()).toBeUndefined();
  });

  it('lets a timer due meanwhile run during a computation in steps, and answers its result', async () => {
    let ticked = false;
    setTimeout(() => (ticked = true), 0);
    // The bound is far above a slice (15 ms) so that a loaded machine pausing the process between two turns does
    // not end the computation before its second turn (the first may come before the timers' phase).
    function* steps(): Generator<void, string> {
      const start = performance.now();
      while (performance.now() - start < 3000) {
        if (ticked) return 'a request was answered meanwhile';
        yield;
      }
      return 'held the event loop';
    }
    await expect(stepwise(steps())).resolves.toBe('a request was answered meanwhile');
  });
});
