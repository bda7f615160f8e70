// Loaded by index.html as a classic script, so it runs before any module of the app: zod 4 reads
// this object when it loads. Without it zod probes `new Function('')` the first time a schema is
// built, to decide whether it may compile parsers; the server's Content-Security-Policy
// (script-src 'self', no 'unsafe-eval') refuses that and the browser reports a violation on every
// page. Jitless parsing is the same validation, interpreted. (An inline script would itself be
// refused by the policy, hence a file.)
globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, { jitless: true });
