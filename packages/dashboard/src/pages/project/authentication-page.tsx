/** The project's Authentication page (placeholder until it is built). */
export function AuthenticationPage() {
  return (
    <section className="dashboard-card">
      <h2>Authentication</h2>
      <p>This page is not built yet.</p>
    </section>
  );
}
