/**
 * The two e-mail themes every project has (issue 19), as TSX an admin can read and edit: the theme wraps each
 * mail's content (`children`) and shows the unsubscribe link the server passes for mail a user may opt out of.
 * Their ids are the protocol's, so a client that selects "Default Dark" by id selects ours. The sources are
 * Latchkey's own; they follow the protocol's authoring contract (`EmailTheme` from `@react-email/components`
 * parts and `ThemeProps` from `@stackframe/emails`), so a theme written for the reference works here too.
 */

export interface BuiltInEmailTheme {
  displayName: string;
  tsxSource: string;
}

export const DEFAULT_LIGHT_EMAIL_THEME_ID = "1df07ae6-abf3-4a40-83a5-a1a2cbe336ac";
export const DEFAULT_DARK_EMAIL_THEME_ID = "a0172b5d-cff0-463b-83bb-85124697373a";

function themeSource(colors: { page: string; card: string; text: string; muted: string }): string {
  return `import { Body, Container, Head, Html, Link, Tailwind } from "@react-email/components";
import type { ThemeProps } from "@stackframe/emails";

// Wraps every mail of the project: the content on a card, and below it the unsubscribe link when the mail has one
// (transactional mail, such as a sign-in code, has none).
export function EmailTheme({ children, unsubscribeLink }: ThemeProps) {
  return (
    <Html>
      <Head />
      <Tailwind>
        <Body className="m-0 bg-[${colors.page}] py-8 font-sans text-[15px] text-[${colors.text}]">
          <Container className="mx-auto max-w-[560px] rounded-lg bg-[${colors.card}] px-10 py-9">
            {children}
          </Container>
          {unsubscribeLink ? (
            <Container className="mx-auto max-w-[560px] px-10 py-4 text-center text-xs text-[${colors.muted}]">
              Don't want these emails? <Link href={unsubscribeLink} className="text-[${colors.muted}] underline">Unsubscribe</Link>
            </Container>
          ) : null}
        </Body>
      </Tailwind>
    </Html>
  );
}

EmailTheme.PreviewProps = {
  unsubscribeLink: "https://example.com/unsubscribe",
} satisfies Partial<ThemeProps>;
`;
}

/** "Default Light" is also where a new theme starts (`POST /internal/email-themes`). */
export const LIGHT_EMAIL_THEME_SOURCE = themeSource({ page: "#f4f5f6", card: "#ffffff", text: "#1f2328", muted: "#6b7280" });
const DARK_EMAIL_THEME_SOURCE = themeSource({ page: "#1c1c1e", card: "#000000", text: "#f2f2f2", muted: "#a1a1aa" });

export const BUILT_IN_EMAIL_THEMES: Readonly<Record<string, BuiltInEmailTheme>> = {
  [DEFAULT_LIGHT_EMAIL_THEME_ID]: { displayName: "Default Light", tsxSource: LIGHT_EMAIL_THEME_SOURCE },
  [DEFAULT_DARK_EMAIL_THEME_ID]: { displayName: "Default Dark", tsxSource: DARK_EMAIL_THEME_SOURCE },
};
