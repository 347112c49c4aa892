// Which Latchkey project the demo pages use. By default the server's own `internal` project with the
// well-known development keys, which `npm start` (dev mode) seeds. Tests and curious people can point
// the demo at another project once with query parameters (`?project_id=…&publishable_client_key=…`,
// optionally `&base_url=…`); they are remembered in sessionStorage for the tab, so links in mails
// (which carry only `?code=…`) land on a page that still talks to that project.
(function () {
  var PARAMETERS = ["project_id", "publishable_client_key", "base_url"];
  var DEFAULTS = {
    project_id: "internal",
    publishable_client_key: "this-publishable-client-key-is-for-local-development-only",
    base_url: location.origin,
  };

  function remember() {
    var url = new URL(location.href);
    var changed = false;
    PARAMETERS.forEach(function (name) {
      var value = url.searchParams.get(name);
      if (value) {
        sessionStorage.setItem("latchkey-demo:" + name, value);
        url.searchParams.delete(name);
        changed = true;
      }
    });
    // The address bar keeps only what the page itself needs (e.g. a mail link's `code`).
    if (changed) history.replaceState(history.state, "", url.pathname + url.search + url.hash);
  }

  function read(name) {
    return sessionStorage.getItem("latchkey-demo:" + name) || DEFAULTS[name];
  }

  remember();
  /** The options for `Latchkey.init` / `<AuthProvider>`: `{ projectId, publishableClientKey, baseUrl }`. */
  globalThis.latchkeyDemoProject = function () {
    return { projectId: read("project_id"), publishableClientKey: read("publishable_client_key"), baseUrl: read("base_url") };
  };
})();
