/**
 * Gathers the calls made together (in one tick, however many `await`s deep) and runs them as one
 * batch once the tick's promise jobs are done, as DataLoader schedules its batches. `run` gets the
 * calls' arguments in order and resolves to one result each; when it fails, every call of the
 * batch rejects with its error.
 */
export function tickBatcher<A, R>(run: (calls: A[]) => Promise<R[]>): (args: A) => Promise<R> {
  type Pending = { args: A; resolve: (result: R) => void; reject: (error: unknown) => void };
  let batch: Pending[] | undefined;
  const flush = async (calls: Pending[]) => {
    try {
      const results = await run(calls.map((call) => call.args));
      for (const [i, call] of calls.entries()) call.resolve(results[i]!);
    } catch (error) {
      for (const call of calls) call.reject(error);
    }
  };
  return (args) =>
    new Promise<R>((resolve, reject) => {
      if (!batch) {
        const calls: Pending[] = [];
        batch = calls;
        void Promise.resolve().then(() =>
          process.nextTick(() => {
            batch = undefined;
            void flush(calls);
          }),
        );
      }
      batch.push({ args, resolve, reject });
    });
}
