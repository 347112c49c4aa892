/**
 * `npm run analyze --workspace @latchkey/elements` writes custom-elements.json (Storybook's controls and
 * editors read it). The public API of each element is what its JSDoc documents (@attr, @fires, @csspart,
 * @cssprop): reactive state (`state: true` in `static properties`, or `@state()`), the generic `emit(type)`
 * helper and the base class's plumbing are internals, so this plugin drops them, and private and protected
 * members too. The analyzer's Lit support turns every entry of `static properties` into a public field and an
 * attribute, state included: without this, Storybook would offer `busy` or `working` as controls.
 */
/** The base class's plumbing (controllers, update cycle). */
const INTERNAL_MEMBERS = new Set(["updateComplete", "addController", "removeController"]);

/** Class name → names of its own reactive state, and → its superclass's name, as found in the source. */
const stateByClass = new Map();
const superclassOf = new Map();

/** The names declared as state in a class: `static properties = { x: { state: true } }` and `@state() x`. */
function stateNames(ts, classNode) {
  const names = [];
  for (const member of classNode.members ?? []) {
    const isStatic = member.modifiers?.some((m) => m.kind === ts.SyntaxKind.StaticKeyword);
    if (isStatic && member.name?.getText() === "properties" && member.initializer && ts.isObjectLiteralExpression(member.initializer)) {
      for (const property of member.initializer.properties) {
        const options = ts.isPropertyAssignment(property) ? property.initializer : undefined;
        const isState = options && ts.isObjectLiteralExpression(options) && options.properties.some((o) => o.name?.getText() === "state" && o.initializer?.kind === ts.SyntaxKind.TrueKeyword);
        if (isState) names.push(property.name.getText());
      }
    }
    const decorated = member.modifiers?.some((m) => ts.isDecorator(m) && ts.isCallExpression(m.expression) && m.expression.expression.getText() === "state");
    if (decorated && member.name) names.push(member.name.getText());
  }
  return names;
}

/** Whether an entry (member or attribute) of an element is state: declared so by its class or a superclass. */
function isState(declaration, entry) {
  for (let name = declaration.name; name; name = superclassOf.get(name)) {
    if (stateByClass.get(name)?.has(entry.fieldName ?? entry.name)) return true;
  }
  return false;
}

export default {
  globs: ["src/**/*.ts"],
  exclude: ["src/sign-in-bundle.ts", "src/sign-in-only-*.ts", "src/drop-in-bundle.ts", "src/account-elements*.ts", "src/page-elements.ts"],
  litelement: true,
  // package.json names custom-elements.json itself; the analyzer must not rewrite it (the test analyzes into a temp dir).
  packagejson: false,
  plugins: [
    {
      name: "latchkey-public-api-only",
      analyzePhase({ ts, node }) {
        if (!ts.isClassDeclaration(node) || !node.name) return;
        stateByClass.set(node.name.getText(), new Set(stateNames(ts, node)));
        const extendsClause = node.heritageClauses?.find((clause) => clause.token === ts.SyntaxKind.ExtendsKeyword);
        // `extends UserListSection<Session>`: the name without its type arguments.
        const superclass = extendsClause?.types[0]?.expression.getText();
        if (superclass) superclassOf.set(node.name.getText(), superclass);
      },
      packageLinkPhase({ customElementsManifest }) {
        // The analyzer lists modules in the order its file search finds them, which varies on a busy machine;
        // by path, the file is the same on every run (manifest.test.ts compares it whole).
        customElementsManifest.modules.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
        for (const mod of customElementsManifest.modules) {
          for (const declaration of mod.declarations ?? []) {
            if (!declaration.tagName) continue;
            declaration.attributes = (declaration.attributes ?? []).filter((a) => a.description && !isState(declaration, a));
            declaration.events = (declaration.events ?? []).filter((e) => e.name !== "type");
            declaration.members = (declaration.members ?? []).filter((m) => !m.privacy || m.privacy === "public").filter((m) => !m.static && !INTERNAL_MEMBERS.has(m.name) && !isState(declaration, m));
          }
        }
      },
    },
  ],
};
