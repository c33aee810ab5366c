/**
 * An object built the first time something reads it (decision 0152): the web build wraps every shared
 * schema's top-level definition in it (apps/web/lazy-schemas.ts), so a form's body schema is built when the
 * form first validates, not while the page's modules load.
 *
 * The proxy answers every reflective question with the built object's answer: properties and methods (a zod
 * schema's methods are closures over the real schema, so no receiver changes), `in`, `instanceof` (zod's own
 * `Symbol.hasInstance` reads `_zod`, and the prototype is the real one), keys and descriptors. A descriptor is
 * reported configurable, because the proxy's own empty target does not have the property (a proxy may not
 * report a non-configurable property its target lacks).
 */
export function lazyValue<T extends object>(make: () => T): T {
  let value: T | undefined;
  const real = (): T => {
    value ??= make();
    return value;
  };
  return new Proxy({} as T, {
    get: (_, key) => Reflect.get(real(), key),
    has: (_, key) => Reflect.has(real(), key),
    set: (_, key, v) => Reflect.set(real(), key, v),
    ownKeys: () => Reflect.ownKeys(real()),
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(real(), key);
      return descriptor && { ...descriptor, configurable: true };
    },
    getPrototypeOf: () => Reflect.getPrototypeOf(real()),
    defineProperty: (_, key, descriptor) => Reflect.defineProperty(real(), key, descriptor),
    deleteProperty: (_, key) => Reflect.deleteProperty(real(), key),
  });
}
