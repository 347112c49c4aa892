/** The project's Domains page (placeholder until it is built). */
export function DomainsPage() {
  return (
    <section className="dashboard-card">
      <h2>Domains</h2>
      <p>This page is not built yet.</p>
    </section>
  );
}
