/**
 * Whether `promise` settles within `boundMs` of real time (read from `process.hrtime`, which the
 * tests' fake clocks leave alone), turning the event loop meanwhile: for an answer a fake clock
 * has just let go, which still travels real loopback sockets. Awaited unbounded, an answer that
 * never comes would hang the test (and leave its fake clock installed) instead of failing it.
 */
export async function settlesWithin(promise: Promise<unknown>, boundMs = 2_000): Promise<boolean> {
  let settled = false;
  const done = () => {
    settled = true;
  };
  promise.then(done, done);
  const deadline = process.hrtime.bigint() + BigInt(boundMs) * 1_000_000n;
  while (!settled && process.hrtime.bigint() < deadline) {
    await new Promise((resolve) => setImmediate(resolve));
  }
  return settled;
}
