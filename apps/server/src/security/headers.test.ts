import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEB_DIST } from '../app.ts';
import { createTestApp, DB_KINDS, type TestApp } from '../test/harness.ts';
import { ensureWebBuilt } from '../test/web-build.ts';

/**
 * Security headers, and that the built web app really runs under its Content-Security-Policy: no inline
 * script, no inline event handler, nothing loaded from another origin. HSTS only over HTTPS, which the
 * server knows from TLS or, with TRUST_PROXY=true, from the proxy's X-Forwarded-Proto (decision 0021).
 */

/** The built web app's index.html (built here when missing so the suite stands alone). */
function builtIndexHtml(): string {
  ensureWebBuilt();
  return readFileSync(path.join(WEB_DIST, 'index.html'), 'utf8');
}

function parseCsp(header: string | undefined): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const part of (header ?? '').split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) map.set(name.toLowerCase(), values);
  }
  return map;
}

interface Tag {
  name: string;
  attrs: Record<string, string>;
  content: string;
}

/** The tags of an HTML document with their attributes (and the content of script and style). */
function tags(html: string): Tag[] {
  const out: Tag[] = [];
  const re = /<([a-zA-Z][\w-]*)((?:\s+[^\s=>/]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?)*)\s*\/?>/g;
  for (let m = re.exec(html); m; m = re.exec(html)) {
    const name = m[1]!.toLowerCase();
    const attrs: Record<string, string> = {};
    const attrRe = /([^\s=>/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g;
    for (let a = attrRe.exec(m[2]!); a; a = attrRe.exec(m[2]!))
      attrs[a[1]!.toLowerCase()] = a[2] ?? a[3] ?? a[4] ?? '';
    let content = '';
    if (name === 'script' || name === 'style') {
      const end = html.indexOf(`</${name}>`, re.lastIndex);
      content = end >= 0 ? html.slice(re.lastIndex, end) : '';
    }
    out.push({ name, attrs, content });
  }
  return out;
}

const sameOrigin = (url: string) => url.startsWith('/') && !url.startsWith('//');

describe.each(DB_KINDS)('security headers (%s)', (kind) => {
  let html: string;
  let direct: TestApp;
  let proxied: TestApp;
  beforeAll(async () => {
    html = builtIndexHtml();
    direct = await createTestApp(kind);
    proxied = await createTestApp(kind, { env: { TRUST_PROXY: '127.0.0.1' } });
  }, 300_000);
  afterAll(async () => {
    await direct?.close();
    await proxied?.close();
  });

  it('the page and the API carry CSP, nosniff, no framing, a referrer policy; nothing says what runs the server', async () => {
    for (const url of ['/', '/login', '/api/sesion', '/healthz', '/api/no-existe']) {
      const res = await direct.app.inject({ method: 'GET', url });
      const csp = parseCsp(res.headers['content-security-policy'] as string);
      expect(csp.get('default-src'), url).toEqual(["'self'"]);
      expect(csp.get('frame-ancestors'), url).toEqual(["'none'"]);
      expect(csp.get('object-src'), url).toEqual(["'none'"]);
      expect(csp.get('base-uri'), url).toEqual(["'self'"]);
      expect(res.headers['x-frame-options'], url).toBe('DENY');
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['referrer-policy'], url).toBeTruthy();
      expect(res.headers['x-powered-by'], url).toBeUndefined();
      expect(res.headers.server, url).toBeUndefined();
    }
    const api = await direct.app.inject({ method: 'GET', url: '/api/sesion' });
    expect(api.headers['cache-control']).toBe('no-store');
  });

  it('the built index.html runs under the CSP: no inline script or handler, nothing from another origin', async () => {
    const res = await direct.app.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toBe(html);
    const csp = parseCsp(res.headers['content-security-policy'] as string);
    const scriptSrc = csp.get('script-src') ?? csp.get('default-src')!;
    const styleSrc = csp.get('style-src') ?? csp.get('default-src')!;
    expect(scriptSrc).not.toContain("'unsafe-inline'");
    expect(scriptSrc).not.toContain("'unsafe-eval'");

    const all = tags(html);
    const scripts = all.filter((t) => t.name === 'script');
    expect(scripts.length).toBeGreaterThan(0);
    for (const s of scripts) {
      expect(s.attrs.src, `script en línea: ${s.content.slice(0, 80)}`).toBeDefined();
      expect(s.content.trim()).toBe('');
      expect(sameOrigin(s.attrs.src!), s.attrs.src).toBe(true);
    }
    for (const t of all) {
      for (const [name, value] of Object.entries(t.attrs)) {
        expect(name.startsWith('on'), `<${t.name} ${name}>`).toBe(false);
        expect(/^\s*javascript:/i.test(value), `<${t.name} ${name}=${value}>`).toBe(false);
      }
      for (const attr of ['src', 'href']) {
        const value = t.attrs[attr];
        if (value !== undefined && t.name !== 'a')
          expect(sameOrigin(value), `<${t.name} ${attr}=${value}>`).toBe(true);
      }
    }
    if (all.some((t) => t.name === 'style' || t.attrs.style !== undefined))
      expect(styleSrc).toContain("'unsafe-inline'");

    // Every script, stylesheet, manifest and icon it loads is served, with its own type and nosniff.
    const typeOf = (url: string) =>
      url.endsWith('.css')
        ? /text\/css/
        : url.endsWith('.webmanifest')
          ? /application\/manifest\+json/
          : url.endsWith('.png')
            ? /image\/png/
            : /javascript/;
    for (const t of all.filter(
      (x) => (x.name === 'script' && x.attrs.src) || (x.name === 'link' && x.attrs.rel !== 'icon'),
    )) {
      const url = t.attrs.src ?? t.attrs.href!;
      const asset = await direct.app.inject({ method: 'GET', url });
      expect(asset.statusCode, url).toBe(200);
      expect(asset.headers['content-type'], url).toMatch(typeOf(url));
      expect(asset.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('plain HTTP: no HSTS and no Secure cookies, even when an untrusted client claims X-Forwarded-Proto https', async () => {
    for (const headers of [{}, { 'x-forwarded-proto': 'https' }]) {
      const res = await direct.app.inject({ method: 'GET', url: '/sanctum/csrf-cookie', headers });
      expect(res.headers['strict-transport-security']).toBeUndefined();
      for (const c of res.cookies as { secure?: boolean }[]) expect(c.secure).toBeFalsy();
    }
  });

  it('behind a trusted HTTPS proxy: HSTS for a year with subdomains, and Secure cookies from the first to the signed-in one', async () => {
    const https = { 'x-forwarded-proto': 'https', 'x-forwarded-for': '198.51.100.7' };
    for (const url of ['/', '/api/sesion', '/sanctum/csrf-cookie']) {
      const res = await proxied.app.inject({ method: 'GET', url, headers: https });
      expect(res.headers['strict-transport-security'], url).toBe('max-age=31536000; includeSubDomains');
    }
    const csrf = await proxied.app.inject({ method: 'GET', url: '/sanctum/csrf-cookie', headers: https });
    const cookies = csrf.cookies as { name: string; secure?: boolean; value: string }[];
    expect(cookies.map((c) => c.name).sort()).toEqual(['XSRF-TOKEN', 'portal_session']);
    for (const c of cookies) expect(c.secure, c.name).toBe(true);
    // The same proxy over plain HTTP (a health check, a redirect to HTTPS): no HSTS.
    const plain = await proxied.app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-forwarded-proto': 'http' },
    });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
  });
});
