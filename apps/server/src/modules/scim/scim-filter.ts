import { MSG } from '../../messages.ts';
import { ScimError, URN } from './scim-protocol.ts';

/**
 * The part of RFC 7644 §3.4.2.2's filter language the portal reads: `eq` comparisons joined with `and`,
 * `or` and parentheses, on the attributes the caller allows (`emails[type eq "work"].value` is the e-mail
 * too). Anything else — another operator, `not`, an unknown attribute, a malformed expression — is a 400
 * `invalidFilter`.
 */
export type FilterValue = string | boolean | number | null;
export type Filter =
  | { kind: 'eq'; attr: string; value: FilterValue }
  | { kind: 'and' | 'or'; left: Filter; right: Filter }
  /** Matches nothing (e.g. an e-mail of a type the portal does not store). */
  | { kind: 'none' };

type Token = { t: 'word'; v: string } | { t: 'str'; v: string } | { t: 'sym'; v: '(' | ')' | '[' | ']' };

const OPERATORS = new Set(['eq', 'ne', 'co', 'sw', 'ew', 'gt', 'ge', 'lt', 'le', 'pr']);
const MAX_FILTER = 1000;

const invalid = (detail: string) => new ScimError(400, MSG.scimFiltroInvalido(detail), 'invalidFilter');

function tokenize(text: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      i++;
    } else if (c === '(' || c === ')' || c === '[' || c === ']') {
      out.push({ t: 'sym', v: c });
      i++;
    } else if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      if (j >= text.length) throw invalid('comillas sin cerrar');
      try {
        out.push({ t: 'str', v: JSON.parse(text.slice(i, j + 1)) as string });
      } catch {
        throw invalid('cadena mal formada');
      }
      i = j + 1;
    } else {
      let j = i;
      while (j < text.length && !/[\s()[\]"]/.test(text[j]!)) j++;
      out.push({ t: 'word', v: text.slice(i, j) });
      i = j;
    }
  }
  return out;
}

/** An attribute path without its schema URN, lower-cased (`urn:…:User:userName` → `username`). */
function attrName(raw: string): string {
  let name = raw;
  for (const urn of [URN.user, URN.group]) {
    if (name.toLowerCase().startsWith(`${urn.toLowerCase()}:`)) name = name.slice(urn.length + 1);
  }
  return name.toLowerCase();
}

/** Parses `text`; `allowed` are the lower-cased attribute paths this resource filters on. */
export function parseFilter(text: string, allowed: ReadonlySet<string>): Filter {
  if (text.length > MAX_FILTER) throw invalid('demasiado largo');
  const tokens = tokenize(text);
  let pos = 0;
  const peekWord = () => {
    const tk = tokens[pos];
    return tk?.t === 'word' ? tk.v.toLowerCase() : null;
  };
  const expectSym = (v: string) => {
    const tk = tokens[pos];
    if (tk?.t !== 'sym' || tk.v !== v) throw invalid(`se esperaba «${v}»`);
    pos++;
  };

  const value = (): FilterValue => {
    const tk = tokens[pos++];
    if (!tk) throw invalid('falta el valor');
    if (tk.t === 'str') return tk.v;
    if (tk.t === 'word') {
      const w = tk.v.toLowerCase();
      if (w === 'true') return true;
      if (w === 'false') return false;
      if (w === 'null') return null;
      if (/^-?\d+(\.\d+)?$/.test(tk.v)) return Number(tk.v);
    }
    throw invalid('valor no válido');
  };

  const comparison = (): Filter => {
    const tk = tokens[pos++];
    if (tk?.t !== 'word') throw invalid('se esperaba un atributo');
    if (tk.v.toLowerCase() === 'not') throw invalid('«not» no está admitido');
    let attr = attrName(tk.v);
    let none = false;
    if (tokens[pos]?.t === 'sym' && (tokens[pos] as { v: string }).v === '[') {
      // emails[type eq "work"].value: the portal stores one work e-mail.
      pos++;
      const sub = tokens[pos++];
      const op = tokens[pos++];
      if (
        sub?.t !== 'word' ||
        sub.v.toLowerCase() !== 'type' ||
        op?.t !== 'word' ||
        op.v.toLowerCase() !== 'eq'
      )
        throw invalid('solo se admite [type eq "…"]');
      const type = value();
      expectSym(']');
      const rest = tokens[pos++];
      if (rest?.t !== 'word' || !rest.v.startsWith('.')) throw invalid('se esperaba .value');
      attr = `${attr}${rest.v.toLowerCase()}`;
      none = typeof type !== 'string' || type.toLowerCase() !== 'work';
    }
    if (!allowed.has(attr)) throw invalid(`atributo ${tk.v}`);
    const op = peekWord();
    if (!op || !OPERATORS.has(op)) throw invalid('se esperaba un operador');
    pos++;
    if (op !== 'eq') throw invalid(`operador «${op}»`);
    const v = value();
    return none ? { kind: 'none' } : { kind: 'eq', attr, value: v };
  };

  const atom = (): Filter => {
    const tk = tokens[pos];
    if (tk?.t === 'sym' && tk.v === '(') {
      pos++;
      const inner = orExpr();
      expectSym(')');
      return inner;
    }
    return comparison();
  };
  const andExpr = (): Filter => {
    let left = atom();
    while (peekWord() === 'and') {
      pos++;
      left = { kind: 'and', left, right: atom() };
    }
    return left;
  };
  const orExpr = (): Filter => {
    let left = andExpr();
    while (peekWord() === 'or') {
      pos++;
      left = { kind: 'or', left, right: andExpr() };
    }
    return left;
  };

  if (tokens.length === 0) throw invalid('vacío');
  const result = orExpr();
  if (pos !== tokens.length) throw invalid('texto de más al final');
  return result;
}
