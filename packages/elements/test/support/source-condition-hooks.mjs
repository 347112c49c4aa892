/**
 * Node module hooks that resolve the workspace packages to their TypeScript sources (the `source` export
 * condition), as `node --conditions=source` does, for a process started without that flag: web-test-runner,
 * which loads the server from its sources through tsx. Registered with `module.register()`.
 */
export async function resolve(specifier, context, nextResolve) {
  return nextResolve(specifier, { ...context, conditions: [...context.conditions, "source"] });
}
