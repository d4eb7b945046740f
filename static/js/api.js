// REST calls and the signed-in session (kept in localStorage).
export class ApiError extends Error {
  constructor(code, message, status = 0) { super(message); this.code = code; this.status = status; }
}

const KEY = "session";
const listeners = new Set();

export function session() {
  try { return JSON.parse(localStorage.getItem(KEY) || "null"); } catch { return null; }
}

export function setSession(value) {
  if (value) localStorage.setItem(KEY, JSON.stringify(value)); else localStorage.removeItem(KEY);
  for (const fn of listeners) fn(value);
}

export function onSession(fn) { listeners.add(fn); }

export function token() { return session()?.token ?? null; }

export async function api(method, path, body) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const tok = token();
  if (tok) headers.Authorization = `Bearer ${tok}`;
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError("network", "network error");
  }
  if (response.status === 204) return null;
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    if (data?.error) {
      if (data.error.code === "bad_token") setSession(null);
      throw new ApiError(data.error.code, data.error.message, response.status);
    }
    if (Array.isArray(data?.detail)) {
      const message = data.detail.map((d) => `${(d.loc || []).slice(1).join(".")}: ${d.msg}`).join("; ");
      throw new ApiError("validation", message, response.status);
    }
    throw new ApiError("http", `HTTP ${response.status}`, response.status);
  }
  return data;
}

export const get = (path) => api("GET", path);
export const post = (path, body = {}) => api("POST", path, body);
export const del = (path) => api("DELETE", path);
