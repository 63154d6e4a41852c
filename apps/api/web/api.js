// Reading the API: relative URLs only (the page works from the server that serves it).
export async function api(path, params = {}) {
  const q = new URLSearchParams(Object.entries(params).filter(([, v]) => v !== undefined && v !== ''));
  const url = `/api/${path}${q.toString() ? `?${q}` : ''}`;
  const r = await fetch(url);
  let body;
  try {
    body = await r.json();
  } catch {
    throw new Error(`${url} answered ${r.status} without JSON`);
  }
  if (!r.ok) throw new Error(body.message ?? `${url} answered ${r.status}`);
  return body;
}
