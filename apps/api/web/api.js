// Reading the API: relative URLs only, so the page works from whichever server serves it.

/** An API answer that was not a success: `message` is the API's own, `status` its HTTP status. */
export class ApiError extends Error {
  constructor(message, { status = 0, code = '', requestId = '' } = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.requestId = requestId;
  }
}

/** GET /api/<path>?<params> as JSON; empty and undefined params are left out. */
export async function api(path, params = {}) {
  const query = new URLSearchParams(Object.entries(params).filter(([, v]) => v !== undefined && v !== null && v !== ''));
  const url = `/api/${path}${query.size ? `?${query}` : ''}`;
  let response;
  try {
    response = await fetch(url, { headers: { accept: 'application/json' } });
  } catch (e) {
    throw new ApiError(`The API did not answer ${url} (${e instanceof Error ? e.message : e}). Is the server still running?`);
  }
  let body;
  try {
    body = await response.json();
  } catch {
    throw new ApiError(`${url} answered ${response.status} ${response.statusText} without JSON.`, { status: response.status });
  }
  if (!response.ok) {
    throw new ApiError(body?.message ?? `${url} answered ${response.status} ${response.statusText}.`, {
      status: response.status,
      code: body?.error ?? '',
      requestId: body?.requestId ?? response.headers.get('x-request-id') ?? '',
    });
  }
  return body;
}
