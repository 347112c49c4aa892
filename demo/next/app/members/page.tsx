import Link from "next/link";

/** A public page linking to the protected one: following the link is a client-side navigation of Next's router. */
export default function Members() {
  return (
    <main>
      <h1>Members</h1>
      <Link href="/protected">Members&apos; area</Link>
    </main>
  );
}
