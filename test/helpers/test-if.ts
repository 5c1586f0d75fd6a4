/**
 * `test` when `ready`; otherwise `test.skip`, after printing `reason`, so a skip always says why
 * (jest's summary shows only a count).
 */
export function testIf(ready: boolean, reason: string): jest.It {
  if (!ready) console.warn(`${expect.getState().testPath ?? "a test file"}: skipped: ${reason}`);
  return ready ? test : test.skip;
}
