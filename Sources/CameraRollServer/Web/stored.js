// One IndexedDB object store of this origin, for what a page keeps until the server has it
// (captures waiting in the outbox, files on their way up).
export function objectStore(databaseName, storeName, keyPath) {
  function open() {
    return new Promise((resolve, reject) => {
      const request = indexedDB.open(databaseName, 1);
      request.addEventListener("upgradeneeded", () => request.result.createObjectStore(storeName, { keyPath }));
      request.addEventListener("success", () => resolve(request.result));
      request.addEventListener("error", () => reject(request.error));
    });
  }

  // Runs `work` on the store in one transaction; the result of the request it returns, once
  // the transaction has committed.
  return async function transaction(mode, work) {
    const database = await open();
    try {
      return await new Promise((resolve, reject) => {
        const step = database.transaction(storeName, mode);
        const result = work(step.objectStore(storeName));
        step.addEventListener("complete", () => resolve(result.result));
        step.addEventListener("error", () => reject(step.error));
        step.addEventListener("abort", () => reject(step.error));
      });
    } finally {
      database.close();
    }
  };
}
