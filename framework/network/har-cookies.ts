/**
 * A HAR entry's `cookies`, read from its headers as Playwright's HAR recorder reads them: the
 * request's from its `Cookie` header (`a=b; c=d`), the response's from each `Set-Cookie` with
 * its attributes. A date that does not parse is left out; `Max-Age` becomes an `expires` from now.
 */

/** One cookie as a HAR keeps it. */
export interface HarCookie {
  name: string;
  value: string;
  domain?: string;
  path?: string;
  expires?: string;
  httpOnly?: boolean;
  secure?: boolean;
  sameSite?: string;
}

/** The cookies of a request's `Cookie` header (null: none sent). */
export function requestCookies(header: string | null): HarCookie[] {
  return header === null ? [] : header.split(';').map((pair) => nameValue(pair));
}

/** The cookies a response sets, one per `Set-Cookie` line (lines as {@link Headers} joins them). */
export function responseCookies(header: string | null): HarCookie[] {
  return header === null ? [] : header.split('\n').map(setCookie);
}

function nameValue(pair: string): { name: string; value: string } {
  const eq = pair.indexOf('=');
  return eq === -1
    ? { name: pair.trim(), value: '' }
    : { name: pair.slice(0, eq).trim(), value: pair.slice(eq + 1).trim() };
}

function setCookie(line: string): HarCookie {
  const [first = '', ...attributes] = line.split(/; */);
  const cookie: HarCookie = nameValue(first);
  for (const attribute of attributes) {
    const { name, value } = nameValue(attribute);
    switch (name.toLowerCase()) {
      case 'domain':
        cookie.domain = value;
        break;
      case 'path':
        cookie.path = value;
        break;
      case 'expires':
        setDate(cookie, Date.parse(value));
        break;
      case 'max-age':
        setDate(cookie, Date.now() + Number(value) * 1000);
        break;
      case 'httponly':
        cookie.httpOnly = true;
        break;
      case 'secure':
        cookie.secure = true;
        break;
      case 'samesite':
        cookie.sameSite = value;
        break;
    }
  }
  return cookie;
}

function setDate(cookie: HarCookie, ms: number): void {
  if (Number.isFinite(ms)) cookie.expires = new Date(ms).toISOString();
  else delete cookie.expires;
}
