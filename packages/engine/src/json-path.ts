/** JSON paths as every message writes them: `$.log[3].choice`, `$.seats["odd key"]`. */
export function jsonPath(path: readonly PropertyKey[], root = '$'): string {
  let s = root;
  for (const p of path) s += typeof p === 'number' ? `[${p}]` : /^[A-Za-z_$][\w$]*$/.test(String(p)) ? `.${String(p)}` : `[${JSON.stringify(String(p))}]`;
  return s;
}
