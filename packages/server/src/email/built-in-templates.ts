/**
 * The e-mail templates every project has (issue 19), one per transactional mail, as TSX an admin can read and
 * override (`/internal/email-templates`), plus the sources a new template and a new draft start from. Ids and
 * display names are the protocol's (the same as `protocolTemplateId` in templates.ts); the sources are
 * Latchkey's own, written to the protocol's authoring contract: `EmailTemplate({ user, project, variables })`
 * with `<Subject>` and `<NotificationCategory>` from `@stackframe/emails`, the variables it needs in
 * `variablesSchema`, and `EmailTemplate.PreviewVariables` for previews.
 */

export interface BuiltInEmailTemplate {
  displayName: string;
  tsxSource: string;
}

interface LinkMail {
  /** Variable name → preview value. */
  variables: Record<string, string>;
  /** Variables a sender may leave out (name → preview value); a present one must be a string too. */
  optionalVariables?: Record<string, string>;
  /** JSX expression of the subject (may use `project`, `variables`). */
  subject: string;
  heading: string;
  paragraph: string;
  button: string;
  linkVariable: string;
  /** JSX shown between the paragraph and the button (a code to type). */
  extra?: string;
}

const IGNORE = "If you were not expecting this email, you can safely ignore it.";

function linkMailSource(mail: LinkMail): string {
  const names = Object.keys(mail.variables);
  const optional = Object.keys(mail.optionalVariables ?? {});
  const variablesType = `{ ${[...names.map((name) => `${name}: string`), ...optional.map((name) => `${name}?: string`)].join("; ")} }`;
  const previewValues = { ...mail.variables, ...mail.optionalVariables };
  const preview = Object.keys(previewValues).map((name) => `  ${name}: ${JSON.stringify(previewValues[name])},`).join("\n");
  return `import { Button, Heading, Hr, Section, Text } from "@react-email/components";
import { NotificationCategory, Subject, type Props } from "@stackframe/emails";

type Variables = ${variablesType};

// Checks the variables a sender passes; a missing one is a rendering error rather than a broken mail.
export function variablesSchema(variables: Variables): Variables {
  for (const name of ${JSON.stringify(names)}) {
    if (typeof (variables as Record<string, unknown>)[name] !== "string") throw new Error(\`The variable \${name} must be a string\`);
  }${optional.length > 0 ? `
  for (const name of ${JSON.stringify(optional)}) {
    const value = (variables as Record<string, unknown>)[name];
    if (value !== undefined && typeof value !== "string") throw new Error(\`The variable \${name} must be a string when given\`);
  }` : ""}
  return variables;
}

export function EmailTemplate({ user, project, variables }: Props<Variables>) {
  return (
    <>
      <Subject value={${mail.subject}} />
      <NotificationCategory value="Transactional" />
      <Section className="text-center">
        <Heading as="h2" className="m-0 pb-4 text-[20px] font-bold">
          ${mail.heading}
        </Heading>
        <Text className="m-0 pb-4 text-[14px] text-[#474849]">
          Hi{user.displayName ? \`, \${user.displayName}\` : ""}! ${mail.paragraph}
        </Text>${mail.extra ? `\n        ${mail.extra}` : ""}
        <Button href={variables.${mail.linkVariable}} className="rounded bg-[#f0f0f0] px-5 py-3 text-[14px] font-bold text-black no-underline">
          ${mail.button}
        </Button>
        <Hr className="my-6" />
        <Text className="m-0 text-[12px] text-[#474849]">${IGNORE}</Text>
      </Section>
    </>
  );
}

EmailTemplate.PreviewVariables = {
${preview}
} satisfies Variables;
`;
}

export const EMAIL_VERIFICATION_TEMPLATE_ID = "e7d009ce-8d47-4528-b245-5bf119f2ffa3";
export const PASSWORD_RESET_TEMPLATE_ID = "a70fb3a4-56c1-4e42-af25-49d25603abd0";
export const MAGIC_LINK_TEMPLATE_ID = "822687fe-8d0a-4467-a0d1-416b6e639478";
export const TEAM_INVITATION_TEMPLATE_ID = "e84de395-2076-4831-9c19-8e9a96a868e4";
export const SIGN_IN_INVITATION_TEMPLATE_ID = "066dd73c-36da-4fd0-b6d6-ebf87683f8bc";

export const BUILT_IN_EMAIL_TEMPLATES: Readonly<Record<string, BuiltInEmailTemplate>> = {
  [EMAIL_VERIFICATION_TEMPLATE_ID]: {
    displayName: "Email Verification",
    tsxSource: linkMailSource({
      variables: { emailVerificationLink: "https://example.com/handler/email-verification?code=preview" },
      subject: "`Verify your email at ${project.displayName}`",
      heading: "Verify your email at {project.displayName}",
      paragraph: "Please click on the button below to verify your email.",
      button: "Verify my email",
      linkVariable: "emailVerificationLink",
    }),
  },
  [PASSWORD_RESET_TEMPLATE_ID]: {
    displayName: "Password Reset",
    tsxSource: linkMailSource({
      variables: { passwordResetLink: "https://example.com/handler/password-reset?code=preview" },
      subject: "`Reset your password at ${project.displayName}`",
      heading: "Reset your password at {project.displayName}",
      paragraph: "Please click on the button below to choose a new password.",
      button: "Reset my password",
      linkVariable: "passwordResetLink",
    }),
  },
  [MAGIC_LINK_TEMPLATE_ID]: {
    displayName: "Magic Link/OTP",
    tsxSource: linkMailSource({
      variables: { magicLink: "https://example.com/handler/magic-link-callback?code=preview", otp: "3SLSWZ" },
      subject: "`Sign in to ${project.displayName}: Your code is ${variables.otp}`",
      heading: "Sign in to {project.displayName}",
      paragraph: "This is your one-time code for signing in:",
      extra: `<Text className="m-0 pb-4 font-mono text-[24px] font-bold tracking-[4px]">{variables.otp}</Text>`,
      button: "Sign in",
      linkVariable: "magicLink",
    }),
  },
  [TEAM_INVITATION_TEMPLATE_ID]: {
    displayName: "Team Invitation",
    tsxSource: linkMailSource({
      variables: { teamDisplayName: "My Team", teamInvitationLink: "https://example.com/handler/team-invitation?code=preview" },
      // Who sent it, when a signed-in member did (a server's invitation has nobody to name): people trust an
      // invitation from someone they know, and an unexpected one is easier to recognise as such.
      optionalVariables: { inviterDisplayName: "Alex Example" },
      subject: "`You have been invited to join ${variables.teamDisplayName}`",
      heading: "{variables.inviterDisplayName ? `${variables.inviterDisplayName} invited you to ${variables.teamDisplayName}` : `You are invited to ${variables.teamDisplayName}`}",
      paragraph: "Please click on the button below to join the team {variables.teamDisplayName}.",
      button: "Join team",
      linkVariable: "teamInvitationLink",
    }),
  },
  [SIGN_IN_INVITATION_TEMPLATE_ID]: {
    displayName: "Sign In Invitation",
    tsxSource: linkMailSource({
      variables: { signInInvitationLink: "https://example.com/handler/sign-in?code=preview" },
      subject: "`You have been invited to sign in to ${project.displayName}`",
      heading: "You are invited to sign in to {project.displayName}",
      paragraph: "Please click on the button below to sign in to your account.",
      button: "Sign in",
      linkVariable: "signInInvitationLink",
    }),
  },
};

/** Where a template created with `POST /internal/email-templates` starts. */
export const NEW_EMAIL_TEMPLATE_SOURCE = `import { Heading, Section, Text } from "@react-email/components";
import { NotificationCategory, Subject, type Props } from "@stackframe/emails";

export function variablesSchema(variables: {}): {} {
  return variables;
}

export function EmailTemplate({ user, project }: Props) {
  return (
    <>
      <Subject value={\`A message from \${project.displayName}\`} />
      <NotificationCategory value="Transactional" />
      <Section>
        <Heading as="h2" className="m-0 pb-4 text-[20px] font-bold">Hi{user.displayName ? \`, \${user.displayName}\` : ""}!</Heading>
        <Text className="m-0 text-[14px]">Write your message here.</Text>
      </Section>
    </>
  );
}
`;

/**
 * Where a draft created with `POST /internal/email-drafts` starts when none is given. Drafts are one-off mails to
 * many users, so they are in the category users may unsubscribe from.
 */
export const NEW_EMAIL_DRAFT_SOURCE = `import { Heading, Section, Text } from "@react-email/components";
import { NotificationCategory, Subject, type Props } from "@stackframe/emails";

export function EmailTemplate({ user, project }: Props) {
  return (
    <>
      <Subject value={\`News from \${project.displayName}\`} />
      <NotificationCategory value="Marketing" />
      <Section>
        <Heading as="h2" className="m-0 pb-4 text-[20px] font-bold">Hi{user.displayName ? \`, \${user.displayName}\` : ""}!</Heading>
        <Text className="m-0 text-[14px]">Write your message here.</Text>
      </Section>
    </>
  );
}
`;
