/** The project's Permissions page (placeholder until it is built). */
export function PermissionsPage() {
  return (
    <section className="dashboard-card">
      <h2>Permissions</h2>
      <p>This page is not built yet.</p>
    </section>
  );
}
