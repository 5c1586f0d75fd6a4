/**
 * Tests that are steps of one story (a stack taken through preview, up, refresh, destroy). Each
 * step's test first runs the steps before it, once each and in order, so every step passes alone
 * (`-t`) and in whatever order jest picks (`--randomize`); a step after a failed one fails
 * naming it. `stepMs` bounds one step: a test that runs earlier steps gets their time too.
 */
export function stepwise(stepMs: number) {
  const steps: Array<{ title: string; fn: () => unknown; done?: Promise<void> }> = [];
  const run = (i: number): Promise<void> => {
    const step = steps[i];
    step.done ??= (async () => {
      if (i > 0) {
        await run(i - 1).catch((err: unknown) => {
          throw new Error(`not run: an earlier step failed ("${steps[i - 1].title}")`, {
            cause: err,
          });
        });
      }
      await step.fn();
    })();
    return step.done;
  };
  return (title: string, fn: () => unknown): void => {
    const i = steps.length;
    steps.push({ title, fn });
    test(title, () => run(i), stepMs * (i + 1));
  };
}
