// Why a file could not be loaded, for the page (engine.js) and the engine's worker alike.

/** The HTTP status of `url` when it cannot be fetched (e.g. 404), 0 when no answer came, null when it can. */
export async function statusOf(url) {
  try {
    const res = await fetch(url, { cache: 'no-store' });
    if (res.body) res.body.cancel().catch(() => {});
    return res.ok ? null : res.status;
  } catch (_) {
    return 0;
  }
}
