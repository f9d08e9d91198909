// Reading again what an event says has changed, without piling up requests when events come in a burst.

/** A request that is answered, and when a newer one was asked meanwhile, asked once more. */
export function coalesced(run: () => Promise<void>): () => void {
  let running = false;
  let again = false;
  const go = (): void => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    run()
      .catch(() => undefined)
      .finally(() => {
        running = false;
        if (again) {
          again = false;
          go();
        }
      });
  };
  return go;
}
