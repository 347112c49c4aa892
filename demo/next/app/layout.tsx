import type { ReactNode } from "react";

// No favicon to fetch (a 404 would be an error in the page's console).
export const metadata = { title: "Latchkey with Next.js", icons: { icon: "data:," } };

export default function RootLayout(props: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{props.children}</body>
    </html>
  );
}
