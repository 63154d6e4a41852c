/**
 * infra/ and the Dockerfile checked against each other and against the code.
 *
 * Docker is not available on the machines these tests run on (at most a docker CLI without a daemon
 * and without the compose plugin), so nothing here can run `docker compose config` or `docker build`,
 * let alone start the stack; and there is no Kubernetes API server for `kubectl apply --dry-run`, and
 * kubectl is not something the test setup installs (render by hand: `kubectl kustomize infra/k8s`).
 * So every file is parsed strictly (YAML errors and warnings both fail, duplicate keys too)
 * and the cross-references a real deployment depends on are followed by hand: environment variables
 * the code actually reads, CLI commands and flags the CLI actually registers, the BullMQ queue names of
 * packages/scheduler, ports (env, published, exposed, probed, scraped), image tags, mounted files,
 * ConfigMap copies of the infra/ files, Kubernetes selectors and references.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, posix, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments, parseDocument } from 'yaml';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const infra = join(root, 'infra');
const rel = (p: string): string => relative(root, p).split('\\').join('/');
const read = (p: string): string => readFileSync(join(root, p), 'utf8');

// ---------------------------------------------------------------------------------------------- files

function walk(dir: string, skip: (name: string) => boolean = () => false): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    if (skip(name)) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...walk(p, skip));
    else out.push(p);
  }
  return out;
}

const infraFiles = walk(infra).map(rel);
const yamlFiles = infraFiles.filter((f) => /\.ya?ml$/.test(f));
const jsonFiles = infraFiles.filter((f) => f.endsWith('.json'));
const xmlFiles = infraFiles.filter((f) => f.endsWith('.xml'));

/** The code that runs: TypeScript under apps/ and packages/, without tests, fixtures or node_modules. */
const sources: { path: string; text: string }[] = ['apps', 'packages']
  .flatMap((d) => walk(join(root, d), (n) => n === 'node_modules' || n === 'test' || n === 'dist'))
  .filter((p) => p.endsWith('.ts') && !p.endsWith('.test.ts') && !p.endsWith('.d.ts'))
  .map((p) => ({ path: rel(p), text: readFileSync(p, 'utf8') }));
const sourcesUnder = (prefix: string) => sources.filter((s) => s.path.startsWith(prefix));
const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// --------------------------------------------------------------------------------------------- parsing

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const obj = (v: unknown, what: string): Obj => {
  if (!isObj(v)) throw new Error(`${what}: expected a mapping, got ${JSON.stringify(v)}`);
  return v;
};
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined);

/** Every document of a YAML file as plain data; any error or warning (duplicate keys included) throws. */
function parseYaml(path: string, text: string = read(path)): unknown[] {
  // merge: compose files use `<<: *anchor` (YAML 1.1 merge keys), which docker compose honours.
  const docs = parseAllDocuments(text, { merge: true, uniqueKeys: true, prettyErrors: true });
  if (!Array.isArray(docs)) return [];
  const problems = docs.flatMap((d) => [...d.errors, ...d.warnings].map((e) => `${path}: ${e.message}`));
  if (problems.length > 0) throw new Error(problems.join('\n'));
  return docs.map((d) => d.toJS({ maxAliasCount: 100 }) as unknown).filter((d) => d !== null && d !== undefined);
}

const parsed = new Map<string, unknown[]>();
for (const f of yamlFiles) {
  try {
    parsed.set(f, parseYaml(f));
  } catch {
    // reported by the parse test below; the other tests then fail on the missing file
  }
}
const docsOf = (f: string): unknown[] => {
  const d = parsed.get(f);
  if (!d) throw new Error(`${f} did not parse (see the parse test)`);
  return d;
};

/** Minimal well-formedness check for the ClickHouse XML overrides (no XML parser in the dependencies). */
function xmlProblems(text: string): string[] {
  const body = text.replace(/<!--[\s\S]*?-->/g, '').replace(/<\?[\s\S]*?\?>/g, '');
  const stack: string[] = [];
  const problems: string[] = [];
  for (const m of body.matchAll(/<(\/?)([A-Za-z_][\w.-]*)[^>]*?(\/?)>/g)) {
    const [, close, name = '', selfClose] = m;
    if (selfClose) continue;
    if (!close) stack.push(name);
    else if (stack.pop() !== name) problems.push(`unexpected </${name}>`);
  }
  if (stack.length > 0) problems.push(`unclosed <${stack.join('>, <')}>`);
  if (/<(?![!?/A-Za-z])/.test(body)) problems.push('stray "<"');
  if (stack.length === 0 && !/^\s*<clickhouse>[\s\S]*<\/clickhouse>\s*$/.test(body)) problems.push('root element must be <clickhouse>');
  return problems;
}

// ------------------------------------------------------------------------------------------- the code

const CODE_DEFAULT_METRICS_PORT = 9466;
const ROOT_PACKAGE = JSON.parse(read('package.json')) as { version: string; engines?: { node?: string }; devDependencies?: Record<string, string> };

/** `.command('name'` (optionally with arguments, `.command('submit <spec>')`) somewhere under apps/cli/src. */
function cliRegisters(command: string): boolean {
  const re = new RegExp(`\\.command\\(\\s*['"\`]${escapeRe(command)}(?:\\s[^'"\`]*)?['"\`]`);
  return sourcesUnder('apps/cli/src/').some((s) => re.test(s.text));
}

/** A long option `--name` declared in the CLI (or the worker it starts): `'--name <x>'`, `'-n, --name'`. */
function cliDeclaresFlag(flag: string): boolean {
  const re = new RegExp(`['"\`](?:-[A-Za-z],\\s*)?${escapeRe(flag)}(?![\\w-])`);
  return [...sourcesUnder('apps/cli/src/'), ...sourcesUnder('apps/worker/src/')].some((s) => re.test(s.text));
}

/** Commands and flags in an argv (`['tournament', 'submit', '/spec.yaml', '--redis', 'URL']`). */
function commandOf(argv: string[]): { path: string[]; flags: string[] } {
  const path: string[] = [];
  for (const a of argv) {
    if (a.startsWith('-')) break;
    if (path.length === 0 || (path[0] === 'tournament' && path.length === 1)) path.push(a);
    else break;
  }
  const flags = argv.filter((a) => a.startsWith('--')).map((a) => a.split('=')[0] ?? a);
  return { path, flags };
}

// ----------------------------------------------------------------------------------------- the images

/** Why an image reference is not pinned, or undefined when it is (a digest, or a tag other than latest with a version number in it). */
function unpinned(image: string): string | undefined {
  if (/@sha256:[0-9a-f]{64}$/.test(image)) return undefined;
  const lastSlash = image.lastIndexOf('/');
  const colon = image.indexOf(':', lastSlash + 1);
  if (colon < 0) return 'no tag (means latest)';
  const tag = image.slice(colon + 1);
  if (tag === '' || tag === 'latest') return 'tag latest';
  if (/\$\{?[A-Za-z_]/.test(tag)) return 'tag from a variable';
  if (!/\d/.test(tag)) return `tag "${tag}" names no version`;
  return undefined;
}

// ------------------------------------------------------------------------------------------ compose

const composePath = 'infra/compose.yaml';
const compose = (): Obj => obj(docsOf(composePath)[0], composePath);
const services = (): Record<string, Obj> => {
  const s = obj(compose().services, `${composePath} services`);
  return Object.fromEntries(Object.entries(s).map(([k, v]) => [k, obj(v, `service ${k}`)]));
};

/** `${VAR:-default}` / `${VAR-default}` -> default; plain text unchanged; `${VAR}` without default -> undefined. */
function interpolate(value: string): string | undefined {
  let missing = false;
  const out = value.replace(/\$\{([A-Za-z_]\w*)(?::?-([^}]*))?\}/g, (_m, _name: string, def: string | undefined) => {
    if (def === undefined) missing = true;
    return def ?? '';
  });
  return missing ? undefined : out;
}

function composeEnv(svc: Obj): Record<string, string> {
  const env = svc.environment;
  const out: Record<string, string> = {};
  if (Array.isArray(env)) {
    for (const e of env) {
      const [k = '', ...v] = String(e).split('=');
      out[k] = v.join('=');
    }
  } else if (isObj(env)) {
    for (const [k, v] of Object.entries(env)) out[k] = v === null ? '' : String(v);
  }
  return out;
}

interface PortMapping {
  host?: number;
  container: number;
}

/** Parses a compose `ports` entry (short or long syntax); throws on anything not numeric. */
function composePort(entry: unknown, where: string): PortMapping {
  if (isObj(entry)) {
    const target = Number(entry.target);
    const published = entry.published === undefined ? undefined : Number(interpolate(String(entry.published)));
    if (!Number.isInteger(target) || (published !== undefined && !Number.isInteger(published))) throw new Error(`${where}: non-numeric port ${JSON.stringify(entry)}`);
    return published === undefined ? { container: target } : { host: published, container: target };
  }
  const text = interpolate(String(entry));
  if (text === undefined) throw new Error(`${where}: port ${String(entry)} depends on a variable without default`);
  const noProto = text.replace(/\/(tcp|udp)$/, '');
  // [ip:]host:container or container; ip may be 127.0.0.1 or [::1]
  const m = /^(?:(?:\[[^\]]+\]|[\d.]+):)?(?:(\d+):)?(\d+)$/.exec(noProto);
  if (!m) throw new Error(`${where}: port "${text}" is not [ip:]host:container with numbers (ranges are not used here)`);
  const container = Number(m[2]);
  const host = m[1] === undefined ? undefined : Number(m[1]);
  for (const p of [container, host]) if (p !== undefined && (p < 1 || p > 65535)) throw new Error(`${where}: port ${p} out of range`);
  return host === undefined ? { container } : { host, container };
}

/** Ports a compose service listens on inside the network: `ports` targets and `expose`. */
function composeContainerPorts(name: string, svc: Obj): Set<number> {
  const out = new Set<number>();
  for (const p of arr(svc.ports)) out.add(composePort(p, `${name}.ports`).container);
  for (const e of arr(svc.expose)) {
    const n = Number(String(e).replace(/\/(tcp|udp)$/, ''));
    if (!Number.isInteger(n)) throw new Error(`${name}.expose: "${String(e)}" is not a port number`);
    out.add(n);
  }
  return out;
}

/** Services built from this repository (the salient image). */
const salientServices = (): [string, Obj][] => Object.entries(services()).filter(([, s]) => s.build !== undefined || /(^|\/)salient:/.test(String(s.image ?? '')));

function argvOf(v: unknown): string[] {
  if (Array.isArray(v)) return v.map(String);
  if (typeof v === 'string') return v.split(/\s+/).filter(Boolean);
  return [];
}

// --------------------------------------------------------------------------------------------- k8s

interface K8sObject {
  file: string;
  apiVersion: string;
  kind: string;
  name: string;
  namespace?: string;
  raw: Obj;
}

const k8sFiles = yamlFiles.filter((f) => f.startsWith('infra/k8s/') && !f.endsWith('kustomization.yaml'));
// Files that failed to parse are left out here (the parse test names them) so that the tests below
// report what is wrong with the rest instead of all failing on one YAML error.
const k8sObjects = (): K8sObject[] =>
  k8sFiles.flatMap((file) =>
    (parsed.get(file) ?? []).map((d) => {
      const raw = obj(d, file);
      const meta = isObj(raw.metadata) ? raw.metadata : {};
      const ns = str(meta.namespace);
      return { file, apiVersion: String(raw.apiVersion ?? ''), kind: String(raw.kind ?? ''), name: String(meta.name ?? ''), ...(ns === undefined ? {} : { namespace: ns }), raw };
    }),
  );
const k8sFind = (kind: string, name: string): K8sObject | undefined => k8sObjects().find((o) => o.kind === kind && o.name === name);
const k8sGet = (kind: string, name: string): K8sObject => {
  const o = k8sFind(kind, name);
  if (!o) throw new Error(`no ${kind} ${name} in infra/k8s`);
  return o;
};
const WORKLOADS = new Set(['Deployment', 'StatefulSet', 'DaemonSet']);
const podSpec = (o: K8sObject): Obj => obj(obj(obj(o.raw.spec, `${o.kind} ${o.name} spec`).template, `${o.name} template`).spec, `${o.name} pod spec`);
const podLabels = (o: K8sObject): Obj => obj(obj(obj(obj(o.raw.spec, 'spec').template, 'template').metadata, 'template metadata').labels ?? {}, 'labels');
const containersOf = (o: K8sObject): Obj[] => [...arr(podSpec(o).initContainers), ...arr(podSpec(o).containers)].map((c) => obj(c, `${o.name} container`));
const configMapData = (name: string): Obj => obj(k8sGet('ConfigMap', name).raw.data, `ConfigMap ${name} data`);

// ---------------------------------------------------------------------------------------------- tests

describe('infra files parse', () => {
  it('has the files the operations guide promises', () => {
    for (const f of ['Dockerfile', '.dockerignore', 'infra/compose.yaml', 'infra/redis/redis.conf', 'infra/prometheus/prometheus.yml', 'infra/README.md']) {
      expect(existsSync(join(root, f)), f).toBe(true);
    }
    expect(yamlFiles.filter((f) => f.startsWith('infra/grafana/provisioning/datasources/')).length).toBeGreaterThan(0);
    expect(yamlFiles.filter((f) => f.startsWith('infra/grafana/provisioning/dashboards/')).length).toBeGreaterThan(0);
    expect(k8sFiles.length).toBeGreaterThan(0);
  });

  it.each(yamlFiles)('%s parses without errors or warnings', (f) => {
    expect(() => parseYaml(f)).not.toThrow();
    expect(parseYaml(f).length, `${f} has no documents`).toBeGreaterThan(0);
  });

  it.each(jsonFiles.length > 0 ? jsonFiles : ['(none)'])('%s is JSON', (f) => {
    if (f === '(none)') return;
    expect(() => JSON.parse(read(f))).not.toThrow();
  });

  it.each(xmlFiles)('%s is well-formed', (f) => {
    expect(xmlProblems(read(f))).toEqual([]);
  });

  it('the parser is strict: duplicate keys and bad indentation are caught', () => {
    expect(() => parseYaml('(inline)', 'a: 1\na: 2\n')).toThrow();
    expect(() => parseYaml('(inline)', 'a:\n  b: 1\n c: 2\n')).toThrow();
    expect(xmlProblems('<clickhouse><a></b></clickhouse>')).not.toEqual([]);
  });
});

describe('environment variables', () => {
  const referenced = (): Map<string, string[]> => {
    const where = new Map<string, string[]>();
    for (const f of [...infraFiles, 'Dockerfile']) {
      for (const m of read(f).matchAll(/\bSALIENT_[A-Z0-9_]*[A-Z0-9]\b/g)) {
        const list = where.get(m[0]) ?? [];
        if (!list.includes(f)) list.push(f);
        where.set(m[0], list);
      }
    }
    return where;
  };

  it('every SALIENT_* variable named in infra/ or the Dockerfile is read by the code', () => {
    const missing: string[] = [];
    for (const [name, files] of referenced()) {
      const re = new RegExp(`\\b${name}\\b`);
      if (!sources.some((s) => re.test(s.text))) missing.push(`${name} (used in ${files.join(', ')})`);
    }
    expect(missing, 'variables the deployment sets but no code under apps/ or packages/ reads').toEqual([]);
  });

  it('the variables the workers need are all set, in compose and in Kubernetes', () => {
    const needed = ['SALIENT_REDIS_URL', 'SALIENT_CLICKHOUSE_URL', 'SALIENT_CLICKHOUSE_USER', 'SALIENT_CLICKHOUSE_PASSWORD', 'SALIENT_CLICKHOUSE_DATABASE'];
    const worker = services().worker;
    expect(worker, 'compose service worker').toBeDefined();
    const env = composeEnv(worker ?? {});
    for (const n of needed) expect(env[n], `compose worker ${n}`).toBeTruthy();
    const cm = configMapData('salient-config');
    const secret = obj(k8sGet('Secret', 'salient-secrets').raw.stringData ?? k8sGet('Secret', 'salient-secrets').raw.data, 'salient-secrets');
    for (const n of needed) expect(cm[n] ?? secret[n], `k8s ${n}`).toBeTruthy();
    expect(cm.SALIENT_CLICKHOUSE_PASSWORD, 'the password belongs in the Secret, not the ConfigMap').toBeUndefined();
    // Workers must never fall back to embedded chdb: it is one process per data directory.
    expect(env.SALIENT_CLICKHOUSE_URL).toMatch(/^https?:\/\//);
    expect(String(cm.SALIENT_CLICKHOUSE_URL)).toMatch(/^https?:\/\//);
  });
});

describe('images', () => {
  const dockerfile = read('Dockerfile');
  const args = Object.fromEntries([...dockerfile.matchAll(/^ARG\s+(\w+)=(\S+)/gm)].map((m) => [m[1] ?? '', m[2] ?? '']));
  const fromImages = [...dockerfile.matchAll(/^FROM\s+(?:--platform=\S+\s+)?(\S+)/gm)]
    .map((m) => (m[1] ?? '').replace(/\$\{(\w+)\}|\$(\w+)/g, (_x, a: string | undefined, b: string | undefined) => args[a ?? b ?? ''] ?? `\${${a ?? b}}`));
  const stages = new Set([...dockerfile.matchAll(/^FROM\s+\S+\s+AS\s+(\S+)/gim)].map((m) => m[1] ?? ''));

  it('every image reference has a pinned tag (compose, Kubernetes, Dockerfile)', () => {
    const images: [string, string][] = [];
    for (const [name, s] of Object.entries(services())) if (s.image !== undefined) images.push([`compose ${name}`, String(s.image)]);
    for (const o of k8sObjects().filter((x) => WORKLOADS.has(x.kind))) for (const c of containersOf(o)) images.push([`${o.file} ${o.name}/${String(c.name)}`, String(c.image)]);
    for (const f of fromImages.filter((i) => !stages.has(i))) images.push(['Dockerfile FROM', f]);
    expect(images.length).toBeGreaterThan(5);
    const bad = images.flatMap(([where, image]) => {
      const why = unpinned(image);
      return why === undefined ? [] : [`${where}: ${image} (${why})`];
    });
    expect(bad).toEqual([]);
    expect(unpinned('redis'), 'self-check').toBeDefined();
    expect(unpinned('redis:latest'), 'self-check').toBeDefined();
    expect(unpinned('registry:5000/redis'), 'self-check').toBeDefined();
  });

  it('the Grafana ClickHouse plugin is pinned to a version too', () => {
    const grafanaEnv = composeEnv(services().grafana ?? {});
    expect(grafanaEnv.GF_PLUGINS_PREINSTALL_SYNC).toMatch(/(^|,)grafana-clickhouse-datasource@\d+\.\d+\.\d+(,|$)/);
    const k8sEnv = arr(containersOf(k8sGet('Deployment', 'grafana'))[0]?.env).map((e) => obj(e, 'env'));
    expect(k8sEnv.find((e) => e.name === 'GF_PLUGINS_PREINSTALL_SYNC')?.value).toBe(grafanaEnv.GF_PLUGINS_PREINSTALL_SYNC);
  });

  it('the Salient image tag is the repository version, in compose and in the kustomization', () => {
    for (const [name, s] of salientServices()) expect(String(s.image), `compose ${name}`).toBe(`salient:${ROOT_PACKAGE.version}`);
    const kust = obj(docsOf('infra/k8s/kustomization.yaml')[0], 'kustomization');
    const entry = arr(kust.images).map((i) => obj(i, 'image')).find((i) => String(i.name).endsWith('/salient'));
    expect(entry?.newTag).toBe(ROOT_PACKAGE.version);
    const worker = containersOf(k8sGet('Deployment', 'worker'))[0];
    expect(String(worker?.image)).toBe(`${String(entry?.name)}:${ROOT_PACKAGE.version}`);
  });

  it('the Dockerfile builds the CLI image the way the repository runs (node 20 slim, npm ci, tsx entrypoint)', () => {
    const base = fromImages[0] ?? '';
    expect(base).toMatch(/^node:20(\.\d+){0,2}-bookworm-slim$/);
    const [major = 0, minor = 0] = (/^node:(\d+)\.?(\d+)?/.exec(base) ?? []).slice(1).map(Number);
    const wanted = /^>=(\d+)\.(\d+)/.exec(ROOT_PACKAGE.engines?.node ?? '>=0.0');
    expect(major * 1000 + minor, `base image Node must satisfy engines ${ROOT_PACKAGE.engines?.node}`).toBeGreaterThanOrEqual(Number(wanted?.[1]) * 1000 + Number(wanted?.[2]));
    expect(dockerfile).toMatch(/^RUN\s+npm ci\b/m);
    // tsx runs the sources and is a devDependency: dev dependencies must be installed.
    expect(ROOT_PACKAGE.devDependencies?.tsx).toBeDefined();
    expect(dockerfile).not.toMatch(/--omit[= ]dev|--production|NODE_ENV=production/);
    const entry = /^ENTRYPOINT\s+(\[.*\])\s*$/m.exec(dockerfile);
    expect(JSON.parse(entry?.[1] ?? '[]')).toEqual(['node', '--import', 'tsx', 'apps/cli/src/main.ts']);
    expect(existsSync(join(root, 'apps/cli/src/main.ts'))).toBe(true);
    expect(dockerfile).toMatch(new RegExp(`^EXPOSE\\s+${CODE_DEFAULT_METRICS_PORT}\\b`, 'm'));
    expect(dockerfile).toMatch(/^USER\s+node\b/m);
  });

  it('.dockerignore keeps host node_modules and .git out but the sources and the lock file in', () => {
    const lines = read('.dockerignore').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
    expect(lines).toContain('**/node_modules');
    expect(lines).toContain('.git');
    for (const needed of ['apps', 'packages', 'package.json', 'package-lock.json', 'tsconfig.base.json']) {
      expect(lines.some((l) => l === needed || l === `${needed}/` || l === `/${needed}` || l === '*'), `${needed} must be in the build context`).toBe(false);
    }
  });
});

describe('compose', () => {
  it('every service has an image or a build, and builds point at the Dockerfile', () => {
    for (const [name, s] of Object.entries(services())) {
      expect(s.image !== undefined || s.build !== undefined, `${name} has neither image nor build`).toBe(true);
      if (s.build !== undefined) {
        const b = isObj(s.build) ? s.build : { context: s.build };
        const ctx = resolve(infra, String(b.context ?? '.'));
        expect(existsSync(join(ctx, String(b.dockerfile ?? 'Dockerfile'))), `${name} build`).toBe(true);
        expect(ctx).toBe(root);
      }
    }
  });

  it('every port mapping is numeric, no host port is published twice, and scaled services publish none', () => {
    const published = new Map<string, string>();
    for (const [name, s] of Object.entries(services())) {
      for (const p of arr(s.ports)) {
        const m = composePort(p, `${name}.ports`);
        if (m.host === undefined) continue;
        const key = String(m.host);
        expect(published.get(key), `host port ${key} published by ${published.get(key)} and ${name}`).toBeUndefined();
        published.set(key, name);
      }
      composeContainerPorts(name, s);
    }
    // `--scale worker=N` fails if a replica binds a fixed host port.
    expect(arr(services().worker?.ports)).toEqual([]);
    expect(() => composePort('127.0.0.1:abc:80', 'self-check')).toThrow();
  });

  it('ports in the environment are ports the service listens on (and what its health check probes)', () => {
    for (const [name, s] of Object.entries(services())) {
      const env = composeEnv(s);
      const ports = composeContainerPorts(name, s);
      for (const [k, v] of Object.entries(env)) {
        if (!/_PORT$/.test(k)) continue;
        const n = Number(interpolate(v));
        expect(Number.isInteger(n), `${name} ${k}=${v}`).toBe(true);
        expect(ports.has(n), `${name}: ${k}=${n} but it exposes ${[...ports].join(', ')}`).toBe(true);
      }
      const health = argvOf(isObj(s.healthcheck) ? s.healthcheck.test : undefined).join(' ');
      for (const m of health.matchAll(/(?:127\.0\.0\.1|localhost):(\d+)/g)) expect(ports.has(Number(m[1])), `${name} healthcheck port ${m[1]}`).toBe(true);
    }
    for (const [name, s] of salientServices().filter(([, x]) => argvOf(x.command)[0] === 'worker')) {
      const env = composeEnv(s);
      const port = Number(interpolate(env.SALIENT_METRICS_PORT ?? String(CODE_DEFAULT_METRICS_PORT)));
      expect(composeContainerPorts(name, s).has(port), `${name} must expose its metrics port ${port}`).toBe(true);
      expect(argvOf(obj(s.healthcheck, `${name} healthcheck`).test).join(' ')).toContain(`:${port}/health`);
    }
  });

  it('addresses in the environment name services that listen on that port', () => {
    const all = services();
    for (const [name, s] of Object.entries(all)) {
      for (const [k, v] of Object.entries(composeEnv(s))) {
        const m = /^(?:[a-z]+:\/\/)?([a-z][a-z0-9-]*):(\d+)/.exec(interpolate(v) ?? '');
        if (!m) continue;
        const target = all[m[1] ?? ''];
        if (!target) continue;
        expect(composeContainerPorts(m[1] ?? '', target).has(Number(m[2])), `${name} ${k}=${v}: ${m[1]} does not listen on ${m[2]}`).toBe(true);
      }
    }
  });

  it('depends_on, named volumes and bind mounts resolve', () => {
    const all = services();
    const volumes = new Set(Object.keys(isObj(compose().volumes) ? (compose().volumes as Obj) : {}));
    for (const [name, s] of Object.entries(all)) {
      const deps = Array.isArray(s.depends_on) ? s.depends_on.map(String) : Object.keys(isObj(s.depends_on) ? s.depends_on : {});
      for (const d of deps) expect(all[d], `${name} depends on unknown ${d}`).toBeDefined();
      for (const v of arr(s.volumes)) {
        const source = isObj(v) ? String(v.source) : String(v).split(':')[0] ?? '';
        if (source.startsWith('.') || source.startsWith('/')) {
          expect(existsSync(resolve(infra, source)), `${name} mounts ${source}, which does not exist`).toBe(true);
        } else {
          expect(volumes.has(source), `${name} uses undeclared volume ${source}`).toBe(true);
        }
      }
    }
  });

  it('Redis runs with infra/redis/redis.conf mounted where its command reads it', () => {
    const redis = services().redis ?? {};
    const cmd = argvOf(redis.command);
    const conf = cmd.find((a) => a.endsWith('.conf'));
    expect(conf).toBeDefined();
    expect(arr(redis.volumes).map(String)).toContain(`./redis/redis.conf:${conf}:ro`);
  });

  it('the dashboard API is deployed: listening on every interface at 8080, probed on /health, scraped by Prometheus', () => {
    const api = services().api;
    expect(api, 'compose service api').toBeDefined();
    const argv = argvOf(api?.command);
    expect(argv.slice(0, 1)).toEqual(['serve']);
    expect(argv.join(' ')).toContain('--host 0.0.0.0');
    expect(argv.join(' ')).toContain('--port 8080');
    expect(composeContainerPorts('api', api ?? {}).has(8080)).toBe(true);
    expect(argvOf(obj(api?.healthcheck, 'api healthcheck').test).join(' ')).toContain(':8080/health');
    const k8sApi = k8sGet('Deployment', 'api');
    const [container] = containersOf(k8sApi);
    expect(argvOf(container?.args).join(' ')).toContain('serve --host 0.0.0.0 --port 8080');
    for (const text of [read('infra/prometheus/prometheus.yml'), read('infra/k8s/prometheus.yaml')]) expect(text).toContain("targets: ['api:8080']");
  });
});

describe('CLI commands used by the deployment exist in the code', () => {
  const used = (): [string, string[]][] => {
    const out: [string, string[]][] = [];
    for (const [name, s] of salientServices()) if (s.command !== undefined) out.push([`compose ${name}`, argvOf(s.command)]);
    for (const o of k8sObjects().filter((x) => WORKLOADS.has(x.kind))) {
      for (const c of containersOf(o).filter((x) => /\/salient:/.test(String(x.image)))) out.push([`${o.file} ${o.name}`, [...argvOf(c.command), ...argvOf(c.args)]]);
    }
    // Commands the guide and the file comments tell operators to type (`salient tournament submit ...`,
    // `... run --rm cli tournament status ID`, `kubectl run ... -- tournament status ID`). `serve` is
    // mentioned as coming later and is not checked until it exists.
    const prose = [...infraFiles.filter((f) => /\.(ya?ml|md)$/.test(f)), 'Dockerfile'];
    for (const f of prose) {
      for (const m of read(f).matchAll(/(?:\bsalient|\bcli|\s--)[ \t]+(?:\\\n\s*)?((?:worker|tournament|serve|play|games|replay|pack|report|demo)\b[^\n`|]*)/g)) {
        const argv = (m[1] ?? '').trim().split(/\s+/);
        if (argv[0] === 'serve') continue;
        out.push([`${f}: ${(m[0] ?? '').trim()}`, argv]);
      }
    }
    return out;
  };

  it('finds the commands to check', () => {
    const paths = used().map(([, argv]) => commandOf(argv).path.join(' '));
    expect(paths).toContain('worker');
    expect(paths).toContain('tournament submit');
    expect(paths).toContain('tournament status');
    expect(paths).toContain('tournament cancel');
  });

  it('every command is registered with commander under apps/cli/src', () => {
    const missing = new Set<string>();
    for (const [where, argv] of used()) {
      for (const part of commandOf(argv).path) if (!cliRegisters(part)) missing.add(`.command('${part}') (used by ${where})`);
    }
    expect([...missing]).toEqual([]);
  });

  it('every command used is registered in the program (apps/cli/src/program.ts calls its register function)', () => {
    const main = read('apps/cli/src/program.ts');
    const firsts = new Set(used().map(([, argv]) => commandOf(argv).path[0]).filter((x): x is string => x !== undefined));
    const missing: string[] = [];
    for (const first of firsts) {
      const re = new RegExp(`\\.command\\(\\s*['"\`]${escapeRe(first)}(?:\\s[^'"\`]*)?['"\`]`);
      const file = sourcesUnder('apps/cli/src/commands/').find((s) => re.test(s.text));
      if (!file) continue; // reported by the test above
      const registers = [...file.text.matchAll(/export function (register\w+)/g)].map((m) => m[1] ?? '');
      if (!registers.some((r) => new RegExp(`\\b${r}\\(program\\)`).test(main))) missing.push(`${first}: ${file.path} (${registers.join(', ')}) is not called in program.ts`);
    }
    expect(missing).toEqual([]);
  });

  it('a stopping worker’s --grace-ms fits inside the time compose / Kubernetes give it before SIGKILL', () => {
    const graceOf = (argv: string[]): number => {
      const i = argv.indexOf('--grace-ms');
      return i < 0 ? 30 : Number(argv[i + 1]) / 1000;
    };
    const seconds = (d: string): number =>
      [...d.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)].reduce((t, m) => t + Number(m[1]) * ({ ms: 0.001, s: 1, m: 60, h: 3600 } as Record<string, number>)[m[2] ?? 's']!, 0);
    for (const [name, s] of salientServices().filter(([, x]) => argvOf(x.command)[0] === 'worker')) {
      const stop = s.stop_grace_period === undefined ? 10 : seconds(String(s.stop_grace_period));
      expect(graceOf(argvOf(s.command)), `compose ${name}`).toBeLessThan(stop);
    }
    const dep = k8sGet('Deployment', 'worker');
    const term = Number(podSpec(dep).terminationGracePeriodSeconds ?? 30);
    expect(graceOf(argvOf(containersOf(dep)[0]?.args))).toBeLessThan(term);
  });

  it('every --flag they pass is declared', () => {
    const missing = new Set<string>();
    for (const [where, argv] of used()) for (const flag of commandOf(argv).flags) if (!cliDeclaresFlag(flag)) missing.add(`${flag} (used by ${where})`);
    expect([...missing]).toEqual([]);
  });
});

describe('queues', () => {
  const queueLiterals = (name: string): boolean => sourcesUnder('packages/scheduler/src/').some((s) => s.text.includes(`'${name}'`) || s.text.includes(`"${name}"`));

  it('every BullMQ key named in infra/ uses a queue name the scheduler defines', () => {
    const keys = infraFiles.flatMap((f) => [...read(f).matchAll(/\bbull:([\w-]+):(\w+)/g)].map((m) => ({ f, queue: m[1] ?? '', list: m[2] ?? '' })));
    expect(keys.length).toBeGreaterThan(0);
    for (const k of keys) {
      expect(queueLiterals(k.queue), `${k.f}: queue ${k.queue} is not a string constant in packages/scheduler/src`).toBe(true);
      // Lists KEDA can LLEN; the rest of a BullMQ queue lives in sorted sets and hashes.
      expect(['wait', 'active', 'paused'], `${k.f}: bull:${k.queue}:${k.list}`).toContain(k.list);
    }
    expect(queueLiterals('salient-matches'), 'the match queue constant').toBe(true);
  });

  it('the scheduler keeps BullMQ’s default key prefix `bull`, which the KEDA list names assume', () => {
    for (const s of [...sourcesUnder('packages/scheduler/src/'), ...sourcesUnder('apps/worker/src/')]) {
      for (const m of s.text.matchAll(/\bprefix\s*:\s*['"`]([^'"`]+)['"`]/g)) expect(m[1], `${s.path} sets a BullMQ prefix`).toBe('bull');
    }
  });

  it('KEDA scales the worker Deployment on the salient-matches queue through the redis Service', () => {
    const so = k8sGet('ScaledObject', 'worker');
    expect(so.apiVersion).toBe('keda.sh/v1alpha1');
    const spec = obj(so.raw.spec, 'ScaledObject spec');
    const target = obj(spec.scaleTargetRef, 'scaleTargetRef');
    expect(k8sFind(String(target.kind ?? 'Deployment'), String(target.name)), 'scaleTargetRef').toBeDefined();
    const triggers = arr(spec.triggers).map((t) => obj(t, 'trigger'));
    const lists = triggers.map((t) => String(obj(t.metadata, 'trigger metadata').listName));
    expect(lists).toContain('bull:salient-matches:wait');
    const redis = k8sGet('Service', 'redis');
    const redisPorts = arr(obj(redis.raw.spec, 'spec').ports).map((p) => Number(obj(p, 'port').port));
    for (const t of triggers) {
      expect(t.type).toBe('redis');
      const meta = obj(t.metadata, 'trigger metadata');
      const [host = '', port = ''] = String(meta.address).split(':');
      expect([redis.name, `${redis.name}.${redis.namespace}`, `${redis.name}.${redis.namespace}.svc`, `${redis.name}.${redis.namespace}.svc.cluster.local`]).toContain(host);
      expect(redisPorts).toContain(Number(port));
      expect(Number(meta.listLength)).toBeGreaterThan(0);
    }
    // The `active` trigger's target is the per-pod concurrency, so busy pods are not scaled away.
    const active = triggers.find((t) => String(obj(t.metadata, 'm').listName).endsWith(':active'));
    if (active) expect(Number(obj(active.metadata, 'm').listLength)).toBe(Number(configMapData('salient-config').SALIENT_WORKER_CONCURRENCY));
  });
});

describe('metrics ports and Prometheus', () => {
  const prom = (): Obj => obj(docsOf('infra/prometheus/prometheus.yml')[0], 'prometheus.yml');
  const jobs = (): Obj[] => arr(prom().scrape_configs).map((j) => obj(j, 'scrape config'));

  it('the code defaults SALIENT_METRICS_PORT to the port the deployment uses', () => {
    const reads = sources.filter((s) => s.text.includes('SALIENT_METRICS_PORT'));
    expect(reads.length, 'no code reads SALIENT_METRICS_PORT').toBeGreaterThan(0);
    expect(sourcesUnder('apps/').some((s) => new RegExp(`\\b${CODE_DEFAULT_METRICS_PORT}\\b`).test(s.text)), `no ${CODE_DEFAULT_METRICS_PORT} default under apps/`).toBe(true);
  });

  it('Prometheus scrapes every worker on the metrics port', () => {
    const job = jobs().find((j) => j.job_name === 'salient-worker');
    expect(job).toBeDefined();
    const dns = arr(job?.dns_sd_configs).map((d) => obj(d, 'dns_sd_config'));
    const statics = arr(job?.static_configs).flatMap((s) => arr(obj(s, 'static_config').targets).map(String));
    const ports = [...dns.map((d) => Number(d.port)), ...statics.map((t) => Number(t.split(':')[1]))];
    expect(ports.length).toBeGreaterThan(0);
    for (const p of ports) expect(p).toBe(CODE_DEFAULT_METRICS_PORT);
    const names = [...dns.flatMap((d) => arr(d.names).map(String)), ...statics.map((t) => t.split(':')[0] ?? '')];
    for (const n of names) {
      expect(services()[n], `compose service ${n}`).toBeDefined();
      const svc = k8sGet('Service', n);
      expect(obj(svc.raw.spec, 'spec').clusterIP, `Service ${n} must be headless so DNS returns every pod`).toBe('None');
    }
    // and the workers listen there, in both setups
    expect(composeEnv(services().worker ?? {}).SALIENT_METRICS_PORT ?? String(CODE_DEFAULT_METRICS_PORT)).toBe(String(CODE_DEFAULT_METRICS_PORT));
    expect(String(configMapData('salient-config').SALIENT_METRICS_PORT ?? CODE_DEFAULT_METRICS_PORT)).toBe(String(CODE_DEFAULT_METRICS_PORT));
  });

  it('every static target is a service listening on that port, in compose and in Kubernetes', () => {
    for (const j of jobs()) {
      for (const t of arr(j.static_configs).flatMap((s) => arr(obj(s, 'static_config').targets).map(String))) {
        const [host = '', port = ''] = t.split(':');
        expect(Number.isInteger(Number(port)), `${String(j.job_name)} target ${t}`).toBe(true);
        if (host === 'localhost') continue;
        const c = services()[host];
        expect(c, `compose service ${host}`).toBeDefined();
        expect(composeContainerPorts(host, c ?? {}).has(Number(port)), `compose ${host} does not listen on ${port}`).toBe(true);
        const svc = k8sGet('Service', host);
        expect(arr(obj(svc.raw.spec, 'spec').ports).map((p) => Number(obj(p, 'port').port)), `k8s Service ${host}`).toContain(Number(port));
      }
    }
  });

  it('the dashboard API has its scrape job, on the port it serves /metrics', () => {
    const job = jobs().find((j) => String(j.job_name) === 'salient-api');
    expect(job, 'job salient-api').toBeDefined();
    expect(arr(obj(arr(job?.static_configs)[0], 'static_config').targets).map(String)).toEqual(['api:8080']);
    expect(job?.metrics_path ?? '/metrics').toBe('/metrics');
  });
});

describe('Kubernetes manifests', () => {
  const NAMESPACED_EXEMPT = new Set(['Namespace']);

  it('every object has apiVersion, kind, metadata.name and the salient namespace; no duplicates', () => {
    const seen = new Set<string>();
    const objs = k8sObjects();
    expect(objs.length).toBeGreaterThan(10);
    for (const o of objs) {
      const id = `${o.file}: ${o.kind || '(no kind)'} ${o.name || '(no name)'}`;
      expect(o.apiVersion, id).toMatch(/^([a-z0-9.-]+\/)?v\d+(alpha\d+|beta\d+)?$/);
      expect(o.kind, id).toMatch(/^[A-Z]\w+$/);
      expect(o.name, id).toMatch(/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/);
      if (!NAMESPACED_EXEMPT.has(o.kind)) expect(o.namespace, id).toBe('salient');
      const key = `${o.kind}/${o.namespace ?? ''}/${o.name}`;
      expect(seen.has(key), `duplicate ${key}`).toBe(false);
      seen.add(key);
    }
    expect(k8sFind('Namespace', 'salient')).toBeDefined();
  });

  it('workload selectors match their template labels, and Services select a workload', () => {
    const workloads = k8sObjects().filter((o) => WORKLOADS.has(o.kind));
    for (const o of workloads) {
      const selector = obj(obj(obj(o.raw.spec, 'spec').selector, `${o.name} selector`).matchLabels, `${o.name} matchLabels`);
      expect(Object.keys(selector).length, `${o.name} selector`).toBeGreaterThan(0);
      const labels = podLabels(o);
      for (const [k, v] of Object.entries(selector)) expect(labels[k], `${o.kind} ${o.name}: selector ${k}=${String(v)}`).toBe(v);
      expect(containersOf(o).length).toBeGreaterThan(0);
    }
    for (const svc of k8sObjects().filter((o) => o.kind === 'Service')) {
      const spec = obj(svc.raw.spec, 'spec');
      const sel = obj(spec.selector, `Service ${svc.name} selector`);
      const matched = workloads.filter((w) => Object.entries(sel).every(([k, v]) => podLabels(w)[k] === v));
      expect(matched.length, `Service ${svc.name} selects no workload`).toBeGreaterThan(0);
      const portNames = new Set(matched.flatMap((w) => containersOf(w).flatMap((c) => arr(c.ports).map((p) => String(obj(p, 'port').name)))));
      const portNumbers = new Set(matched.flatMap((w) => containersOf(w).flatMap((c) => arr(c.ports).map((p) => Number(obj(p, 'port').containerPort)))));
      for (const p of arr(spec.ports).map((x) => obj(x, 'port'))) {
        const target = p.targetPort ?? p.port;
        if (typeof target === 'string') expect(portNames.has(target), `Service ${svc.name} targetPort ${target}`).toBe(true);
        else expect(portNumbers.has(Number(target)), `Service ${svc.name} targetPort ${String(target)}`).toBe(true);
      }
    }
  });

  it('probes, ConfigMaps, Secrets, PVCs and Services referenced by workloads exist', () => {
    for (const o of k8sObjects().filter((x) => WORKLOADS.has(x.kind))) {
      const spec = podSpec(o);
      if (o.kind === 'StatefulSet') expect(k8sFind('Service', String(obj(o.raw.spec, 'spec').serviceName)), `${o.name} serviceName`).toBeDefined();
      const claimTemplates = new Set(arr(obj(o.raw.spec, 'spec').volumeClaimTemplates).map((t) => String(obj(obj(t, 'vct').metadata, 'vct metadata').name)));
      const volumes = new Set<string>(claimTemplates);
      for (const v of arr(spec.volumes).map((x) => obj(x, 'volume'))) {
        volumes.add(String(v.name));
        if (isObj(v.configMap) && v.configMap.optional !== true) expect(k8sFind('ConfigMap', String(v.configMap.name)), `${o.name} volume ${String(v.name)}`).toBeDefined();
        if (isObj(v.secret) && v.secret.optional !== true) expect(k8sFind('Secret', String(v.secret.secretName)), `${o.name} volume ${String(v.name)}`).toBeDefined();
        if (isObj(v.persistentVolumeClaim)) expect(k8sFind('PersistentVolumeClaim', String(v.persistentVolumeClaim.claimName)), `${o.name} claim`).toBeDefined();
      }
      for (const c of containersOf(o)) {
        const id = `${o.name}/${String(c.name)}`;
        const ports = arr(c.ports).map((p) => obj(p, 'port'));
        const names = new Set(ports.map((p) => String(p.name)));
        const numbers = new Set(ports.map((p) => Number(p.containerPort)));
        for (const p of ports) expect(Number.isInteger(p.containerPort), `${id} containerPort`).toBe(true);
        for (const probe of [c.readinessProbe, c.livenessProbe, c.startupProbe].filter(isObj)) {
          const action = (probe.httpGet ?? probe.tcpSocket) as unknown;
          if (!isObj(action)) continue;
          if (typeof action.port === 'string') expect(names.has(action.port), `${id} probe port ${action.port}`).toBe(true);
          else expect(numbers.has(Number(action.port)), `${id} probe port ${String(action.port)}`).toBe(true);
        }
        for (const m of arr(c.volumeMounts).map((x) => obj(x, 'mount'))) expect(volumes.has(String(m.name)), `${id} mounts unknown volume ${String(m.name)}`).toBe(true);
        for (const e of arr(c.envFrom).map((x) => obj(x, 'envFrom'))) {
          if (isObj(e.configMapRef)) expect(k8sFind('ConfigMap', String(e.configMapRef.name)), `${id} envFrom`).toBeDefined();
          if (isObj(e.secretRef)) expect(k8sFind('Secret', String(e.secretRef.name)), `${id} envFrom`).toBeDefined();
        }
        for (const e of arr(c.env).map((x) => obj(x, 'env'))) {
          const from = isObj(e.valueFrom) ? e.valueFrom : {};
          for (const [kind, ref] of [['ConfigMap', from.configMapKeyRef], ['Secret', from.secretKeyRef]] as const) {
            if (!isObj(ref) || ref.optional === true) continue;
            const target = k8sFind(kind, String(ref.name));
            expect(target, `${id} env ${String(e.name)}`).toBeDefined();
            const data = { ...(isObj(target?.raw.data) ? target.raw.data : {}), ...(isObj(target?.raw.stringData) ? target.raw.stringData : {}) };
            expect(String(ref.key) in data, `${id} env ${String(e.name)}: ${kind} ${String(ref.name)} has no key ${String(ref.key)}`).toBe(true);
          }
        }
      }
    }
  });

  it('the worker Deployment: the worker command, resources, /health probes and the metrics port from its config', () => {
    const dep = k8sGet('Deployment', 'worker');
    const [c, ...rest] = containersOf(dep);
    expect(rest).toEqual([]);
    expect(argvOf(c?.args)[0]).toBe('worker');
    const res = obj(c?.resources, 'worker resources');
    expect(obj(res.requests, 'requests').cpu).toBeDefined();
    expect(obj(res.requests, 'requests').memory).toBeDefined();
    expect(obj(res.limits, 'limits').memory).toBeDefined();
    const refs = arr(c?.envFrom).map((e) => obj(e, 'envFrom'));
    expect(refs.some((e) => isObj(e.configMapRef))).toBe(true);
    expect(refs.some((e) => isObj(e.secretRef))).toBe(true);
    const port = Number(configMapData('salient-config').SALIENT_METRICS_PORT ?? CODE_DEFAULT_METRICS_PORT);
    const metrics = arr(c?.ports).map((p) => obj(p, 'port')).find((p) => p.name === 'metrics');
    expect(metrics?.containerPort).toBe(port);
    for (const probe of [c?.readinessProbe, c?.livenessProbe]) {
      const get = obj(obj(probe, 'probe').httpGet, 'httpGet');
      expect(get.path).toBe('/health');
      expect(get.port === 'metrics' || get.port === port).toBe(true);
    }
    // One core requested per concurrent match.
    const cpu = String(obj(res.requests, 'requests').cpu);
    const cores = cpu.endsWith('m') ? Number(cpu.slice(0, -1)) / 1000 : Number(cpu);
    expect(cores).toBeGreaterThanOrEqual(Number(configMapData('salient-config').SALIENT_WORKER_CONCURRENCY ?? 1));
  });

  it('Redis and ClickHouse are StatefulSets with persistent volumes', () => {
    for (const name of ['redis', 'clickhouse']) {
      const s = k8sGet('StatefulSet', name);
      expect(arr(obj(s.raw.spec, 'spec').volumeClaimTemplates).length, name).toBeGreaterThan(0);
      expect(obj(s.raw.spec, 'spec').replicas).toBe(1);
    }
  });

  it('the ConfigMaps carry exactly the infra/ files compose mounts', () => {
    const copies: [string, string, string][] = [
      ['redis-config', 'redis.conf', 'infra/redis/redis.conf'],
      ['clickhouse-config', 'config.d-salient.xml', 'infra/clickhouse/config.d/salient.xml'],
      ['clickhouse-config', 'users.d-salient.xml', 'infra/clickhouse/users.d/salient.xml'],
      ['prometheus-config', 'prometheus.yml', 'infra/prometheus/prometheus.yml'],
      ['grafana-provisioning', 'datasources.yaml', 'infra/grafana/provisioning/datasources/salient.yaml'],
      ['grafana-provisioning', 'dashboards.yaml', 'infra/grafana/provisioning/dashboards/salient.yaml'],
    ];
    for (const [cm, key, file] of copies) expect(configMapData(cm)[key], `ConfigMap ${cm} key ${key} differs from ${file}`).toBe(read(file));
  });

  it('kustomization.yaml lists every manifest but the KEDA one, which needs KEDA’s CRDs', () => {
    const kust = obj(docsOf('infra/k8s/kustomization.yaml')[0], 'kustomization');
    expect(kust.kind).toBe('Kustomization');
    const listed = arr(kust.resources).map(String);
    for (const r of listed) expect(existsSync(join(infra, 'k8s', r)), r).toBe(true);
    const expected = k8sFiles.map((f) => posix.basename(f)).filter((f) => !docsOf(`infra/k8s/${f}`).some((d) => isObj(d) && String(d.apiVersion).startsWith('keda.sh/')));
    expect([...listed].sort()).toEqual([...expected].sort());
    expect(listed[0], 'the Namespace first').toBe('namespace.yaml');
  });

  it('the dashboard API runs as one Deployment behind a Service on its port, probed on /health', () => {
    const api = k8sGet('Deployment', 'api');
    const [c] = containersOf(api);
    const port = arr(c?.ports).map((p) => obj(p, 'port')).find((p) => p.name === 'http');
    expect(port?.containerPort).toBe(8080);
    expect(obj(obj(c?.readinessProbe, 'readinessProbe').httpGet, 'httpGet').path).toBe('/health');
    const svc = k8sGet('Service', 'api');
    expect(arr(obj(svc.raw.spec, 'spec').ports).map((p) => Number(obj(p, 'port').port))).toContain(8080);
  });
});

describe('Redis configuration', () => {
  const directives = (): [string, string][] =>
    read('infra/redis/redis.conf')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'))
      .map((l) => {
        const [k = '', ...v] = l.split(/\s+/);
        return [k.toLowerCase(), v.join(' ')];
      });

  it('noeviction, AOF with fsync every second, and a maxmemory note', () => {
    const d = new Map(directives());
    expect(d.get('maxmemory-policy')).toBe('noeviction');
    expect(d.get('appendonly')).toBe('yes');
    expect(d.get('appendfsync')).toBe('everysec');
    expect(d.get('dir')).toBe('/data');
    expect(read('infra/redis/redis.conf')).toMatch(/^#\s*maxmemory\s+\d+[kmg]b?/im);
  });

  it('no directive is set twice (the last one would silently win)', () => {
    const keys = directives().map(([k]) => k).filter((k) => k !== 'save' && k !== 'bind');
    expect(keys.filter((k, i) => keys.indexOf(k) !== i)).toEqual([]);
  });
});

describe('Grafana provisioning', () => {
  const provider = (): Obj => {
    const f = yamlFiles.find((x) => x.startsWith('infra/grafana/provisioning/dashboards/')) ?? '';
    const providers = arr(obj(docsOf(f)[0], f).providers).map((p) => obj(p, 'provider'));
    expect(providers.length).toBe(1);
    return providers[0] ?? {};
  };

  it('the dashboards provider reads a folder that compose mounts from the repository’s dashboards/', () => {
    const path = String(obj(provider().options, 'options').path);
    const grafana = services().grafana ?? {};
    const mount = arr(grafana.volumes)
      .map((v) => String(v).split(':'))
      .find(([, target]) => target !== undefined && (path === target || path.startsWith(`${target}/`)));
    expect(mount, `no compose volume mounts ${path}`).toBeDefined();
    const [source = '', target = ''] = mount ?? [];
    const host = resolve(infra, source, path.slice(target.length).replace(/^\//, ''));
    expect(existsSync(host) && statSync(host).isDirectory(), `${rel(host)} must be a folder in the repository`).toBe(true);
    expect(rel(host)).toBe('dashboards');
    for (const f of readdirSync(host).filter((n) => n.endsWith('.json'))) expect(() => JSON.parse(readFileSync(join(host, f), 'utf8')), f).not.toThrow();
    // and Kubernetes mounts the dashboards ConfigMap at the same path
    const k8sMounts = containersOf(k8sGet('Deployment', 'grafana')).flatMap((c) => arr(c.volumeMounts).map((m) => String(obj(m, 'mount').mountPath)));
    expect(k8sMounts).toContain(path);
  });

  it('data sources: ClickHouse through the plugin and Prometheus, at addresses that exist in both setups', () => {
    const f = yamlFiles.find((x) => x.startsWith('infra/grafana/provisioning/datasources/')) ?? '';
    const sources = arr(obj(docsOf(f)[0], f).datasources).map((d) => obj(d, 'datasource'));
    const ch = sources.find((d) => d.type === 'grafana-clickhouse-datasource');
    const pr = sources.find((d) => d.type === 'prometheus');
    expect(ch).toBeDefined();
    expect(pr).toBeDefined();
    const json = obj(ch?.jsonData, 'clickhouse jsonData');
    const addresses: [string, number][] = [[String(json.host), Number(json.port)]];
    const u = new URL(String(pr?.url));
    addresses.push([u.hostname, Number(u.port)]);
    for (const [host, port] of addresses) {
      expect(composeContainerPorts(host, services()[host] ?? {}).has(port), `compose ${host}:${port}`).toBe(true);
      expect(arr(obj(k8sGet('Service', host).raw.spec, 'spec').ports).map((p) => Number(obj(p, 'port').port)), `k8s ${host}:${port}`).toContain(port);
    }
    expect(json.protocol).toBe('http');
    // Every $VARIABLE the provisioning expands is set in Grafana's environment, in both setups.
    const vars = [...read(f).matchAll(/\$\{?([A-Z_][A-Z0-9_]*)/g)].map((m) => m[1] ?? '');
    const composeVars = composeEnv(services().grafana ?? {});
    const k8sVars = containersOf(k8sGet('Deployment', 'grafana')).flatMap((c) => arr(c.env).map((e) => String(obj(e, 'env').name)));
    for (const v of vars) {
      expect(composeVars[v], `compose grafana ${v}`).toBeDefined();
      expect(k8sVars, `k8s grafana ${v}`).toContain(v);
    }
  });
});

describe('the operations guide', () => {
  it('covers compose, Kubernetes, submitting, data, backups, scaling, upgrading and saturation', () => {
    const text = read('infra/README.md');
    for (const needle of ['docker compose -f infra/compose.yaml up -d', '--scale worker=', 'kubectl apply -k infra/k8s', 'tournament submit', 'tournament status', 'tournament cancel', 'BACKUP DATABASE', 'BGSAVE', 'appendonly', 'KEDA', 'bull:salient-matches:wait', '## Scaling', '## Upgrading', '## What saturates first', 'salient serve']) {
      expect(text, needle).toContain(needle);
    }
  });

  it('parseDocument agrees with parseAllDocuments on single-document files (no stray `---`)', () => {
    for (const f of yamlFiles.filter((x) => !x.startsWith('infra/k8s/') || x.endsWith('kustomization.yaml') || x.endsWith('namespace.yaml'))) {
      expect(docsOf(f).length, f).toBe(1);
      expect(parseDocument(read(f), { merge: true }).errors, f).toEqual([]);
    }
  });
});
