// The TypeScript compiler's view of a hand-written typings file, to hold the runtime against
// it (typings.test.mjs: the shared API; redis-typings.test.mjs: the Redis store): its
// interfaces' members with their types (inherited and picked ones included), whether a
// runtime value fits a declared type, and the option names a call accepts.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';

const ts = createRequire(import.meta.url)('typescript');

/** The option names `error` (an unknown option's "only the keys ..." error) lists. */
function keysOf(error) {
  const m = /only the keys (.*)$/.exec(error.message);
  assert.ok(m, error.message);
  return m[1].split(', ').sort();
}

/** The helpers for the typings file `DTS` (an absolute path). */
export function typingsOf(DTS) {
  const program = ts.createProgram([DTS], {
    noEmit: true, strict: true, types: [], target: ts.ScriptTarget.ES2022, lib: ['lib.es2022.d.ts', 'lib.esnext.disposable.d.ts'],
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(DTS);

  /** The declared type of `export interface name` (or `export type name`). */
  function declared(name) {
    for (const st of source.statements) {
      if ((ts.isInterfaceDeclaration(st) || ts.isTypeAliasDeclaration(st)) && st.name.text === name) {
        return checker.getTypeAtLocation(st.name);
      }
    }
    assert.fail(`${DTS} declares no ${name}`);
  }

  /** Its members (own and inherited) and their types. */
  function members(type) {
    const out = new Map();
    for (const p of checker.getPropertiesOfType(type)) out.set(p.name, checker.getTypeOfSymbolAtLocation(p, source));
    return out;
  }

  /** Whether a runtime value fits a declared type (the kinds this API uses). */
  function fits(value, type) {
    if (type.isUnion()) return type.types.some((t) => fits(value, t));
    const f = type.flags;
    const F = ts.TypeFlags;
    if (f & F.TypeParameter) return fits(value, checker.getBaseConstraintOfType(type));
    if (type.isLiteral() || f & F.BooleanLiteral) {
      const lit = f & F.BooleanLiteral ? checker.typeToString(type) === 'true' : type.value;
      return typeof lit === 'object' ? typeof value === 'bigint' : value === lit;
    }
    if (f & F.Null) return value === null;
    if (f & F.Undefined) return value === undefined;
    if (f & F.Number) return typeof value === 'number';
    if (f & F.String) return typeof value === 'string';
    if (f & F.Boolean) return typeof value === 'boolean';
    if (f & F.BigInt) return typeof value === 'bigint';
    if (checker.isTupleType(type)) return Array.isArray(value) && value.length === checker.getTypeArguments(type).length;
    if (checker.isArrayType(type)) {
      const item = checker.getTypeArguments(type)[0];
      return Array.isArray(value) && value.every((x) => fits(x, item));
    }
    const name = type.getSymbol()?.getName();
    if (name && /Array$/.test(name) && globalThis[name]) return value instanceof globalThis[name];
    if (f & F.Object) return value !== null && typeof value === 'object' && !Array.isArray(value);
    return false;
  }

  /**
   * A result against its interface (a name, or a type): the same field names, each value of
   * its declared type; nested plain objects (not arrays, not unions) are compared the same way.
   */
  function sameShape(value, iface, what) {
    const type = typeof iface === 'string' ? declared(iface) : iface;
    const shown = typeof iface === 'string' ? iface : checker.typeToString(type);
    const m = members(type);
    assert.deepEqual(Object.keys(value).sort(), [...m.keys()].sort(), `${what}: runtime fields vs ${shown}`);
    for (const [k, t] of m) {
      assert.ok(fits(value[k], t), `${what}.${k} = ${String(value[k])} does not fit ${shown}.${k}: ${checker.typeToString(t)}`);
      const plain = !t.isUnion() && t.flags & ts.TypeFlags.Object && !checker.isArrayType(t) && !checker.isTupleType(t)
        && !/Array$/.test(t.getSymbol()?.getName() ?? '') && !(t.getSymbol()?.flags & ts.SymbolFlags.Class);
      if (plain) sameShape(value[k], t, `${what}.${k}`);
    }
  }

  /** The option names a call accepts, from the error for an unknown one. */
  function accepted(call) {
    try {
      call({ noSuchOption: 1 });
    } catch (e) {
      const m = /only the keys (.*)$/.exec(e.message);
      assert.ok(m, e.message);
      return m[1].split(', ').sort();
    }
    assert.fail('an unknown option was accepted');
  }

  /** What `Class#method` is declared to give, its promise awaited. */
  function returned(className, method) {
    const cls = source.statements.find((st) => ts.isClassDeclaration(st) && st.name?.text === className);
    assert.ok(cls, `${DTS} declares no class ${className}`);
    const prop = checker.getPropertyOfType(checker.getTypeAtLocation(cls.name), method);
    assert.ok(prop, `${className} declares no ${method}`);
    const [signature] = checker.getTypeOfSymbolAtLocation(prop, source).getCallSignatures();
    return checker.getAwaitedType(signature.getReturnType());
  }

  /** The element type of the array field `field` of `type`. */
  function itemOf(type, field) {
    const t = members(type).get(field);
    assert.ok(t && checker.isArrayType(t), `${checker.typeToString(type)}.${field} is not declared as an array`);
    return checker.getTypeArguments(t)[0];
  }

  /** `accepted` for a call that answers with a promise. */
  async function acceptedAsync(call) {
    try {
      await call({ noSuchOption: 1 });
    } catch (e) {
      return keysOf(e);
    }
    assert.fail('an unknown option was accepted');
  }

  return { declared, members, fits, sameShape, accepted, acceptedAsync, returned, itemOf };
}
