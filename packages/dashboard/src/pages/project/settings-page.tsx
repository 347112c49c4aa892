/** The project's Settings page (placeholder until it is built). */
export function SettingsPage() {
  return (
    <section className="dashboard-card">
      <h2>Settings</h2>
      <p>This page is not built yet.</p>
    </section>
  );
}
