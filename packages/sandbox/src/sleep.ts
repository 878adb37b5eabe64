/** Resolves after `ms`; the timer does not keep a closed sandbox's process alive. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
