import type { OAuthProviderId } from "@latchkey/protocol/schemas";
import { useApp } from "@latchkey/react";
import { useId, useState } from "react";
import { errorMessage } from "../../../error-message.js";
import { Copyable } from "./copy-button.js";
import {
  PROVIDER_IDS,
  PROVIDER_NAMES,
  callbackUrl,
  hasOwnCredentials,
  providerEntry,
  providerFormSchema,
  providerMode,
  providerOverride,
  type ProviderEntry,
  type ProviderFormValues,
  type ProviderMode,
} from "./oauth-providers.js";
import { useConfigOverrideUpdate } from "./project-config-queries.js";
import { SaveStatus } from "./save-status.js";

const MODE_LABELS: Record<ProviderMode, string> = { off: "Off", shared: "On, with shared keys", standard: "On, with your own keys" };

/**
 * The twelve OAuth providers, each on or off, with the server's shared (development) keys or the project's
 * own OAuth app. Client secrets are write-only: the form never shows one, and leaving it empty keeps the stored one.
 */
export function OAuthProvidersCard({ config }: { config: Record<string, unknown> }) {
  const id = useId();
  return (
    <section className="dashboard-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>OAuth providers</h2>
      <p className="dashboard-muted">
        Shared keys are the server's own OAuth apps, meant for development. For production, create an OAuth app with the provider, register the
        callback URL shown here with it, and enter its client ID and secret.
      </p>
      <ul className="config-list" aria-label="OAuth providers">
        {PROVIDER_IDS.map((provider) => (
          <ProviderItem key={provider} provider={provider} entry={providerEntry(config, provider)} />
        ))}
      </ul>
    </section>
  );
}

function ProviderItem({ provider, entry }: { provider: OAuthProviderId; entry: ProviderEntry | undefined }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const name = PROVIDER_NAMES[provider];
  const mode = providerMode(entry);
  return (
    <li aria-labelledby={`${id}-name`}>
      <div className="config-row">
        <h3 id={`${id}-name`}>{name}</h3>
        <span data-testid={`${provider}-status`}>{MODE_LABELS[mode]}</span>
        <button type="button" className="dashboard-secondary" aria-expanded={open} aria-controls={`${id}-form`} onClick={() => setOpen(!open)}>
          {open ? `Close ${name}` : `Set up ${name}`}
        </button>
      </div>
      {open ? (
        <div id={`${id}-form`}>
          <ProviderForm provider={provider} entry={entry} />
        </div>
      ) : null}
    </li>
  );
}

function ProviderForm({ provider, entry }: { provider: OAuthProviderId; entry: ProviderEntry | undefined }) {
  const id = useId();
  const app = useApp();
  const name = PROVIDER_NAMES[provider];
  const configId = entry?.configId ?? provider;
  const keepsSecret = hasOwnCredentials(entry);
  const [values, setValues] = useState<ProviderFormValues>({
    mode: providerMode(entry),
    clientId: entry?.clientId ?? "",
    clientSecret: "",
    microsoftTenantId: entry?.microsoftTenantId ?? "",
    facebookConfigId: entry?.facebookConfigId ?? "",
  });
  const [errors, setErrors] = useState<Partial<Record<keyof ProviderFormValues, string>>>({});
  const update = useConfigOverrideUpdate();
  const set = (field: keyof ProviderFormValues, value: string) => {
    update.reset();
    setValues({ ...values, [field]: value });
  };

  const submit = () => {
    const parsed = providerFormSchema(!keepsSecret).safeParse(values);
    if (!parsed.success) {
      const next: typeof errors = {};
      for (const issue of parsed.error.issues) next[issue.path[0] as keyof ProviderFormValues] ??= issue.message;
      return setErrors(next);
    }
    setErrors({});
    // The typed secret is cleared once stored: nothing shows it again.
    update.mutate(providerOverride(provider, configId, parsed.data), { onSuccess: () => setValues((current) => ({ ...current, clientSecret: "" })) });
  };

  const field = (key: "clientId" | "clientSecret" | "microsoftTenantId" | "facebookConfigId", label: string, options: { hint?: string; secret?: boolean } = {}) => (
    <div className="dashboard-field">
      <label htmlFor={`${id}-${key}`}>{label}</label>
      <input
        id={`${id}-${key}`}
        type={options.secret ? "password" : "text"}
        autoComplete="off"
        spellCheck={false}
        value={values[key]}
        aria-invalid={errors[key] ? true : undefined}
        aria-describedby={[options.hint ? `${id}-${key}-hint` : "", errors[key] ? `${id}-${key}-error` : ""].join(" ").trim() || undefined}
        onChange={(event) => set(key, event.target.value)}
      />
      {options.hint ? (
        <p id={`${id}-${key}-hint`} className="dashboard-muted">
          {options.hint}
        </p>
      ) : null}
      {errors[key] ? (
        <p id={`${id}-${key}-error`} className="dashboard-error">
          {errors[key]}
        </p>
      ) : null}
    </div>
  );

  return (
    <form
      className="dashboard-form"
      aria-label={`${name} sign-in`}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <fieldset className="config-fieldset">
        <legend>Sign-in with {name}</legend>
        {(["off", "shared", "standard"] as const).map((mode) => (
          <div key={mode} className="config-switch">
            <input id={`${id}-${mode}`} type="radio" name={`${id}-mode`} checked={values.mode === mode} onChange={() => set("mode", mode)} />
            <label htmlFor={`${id}-${mode}`}>{MODE_LABELS[mode]}</label>
          </div>
        ))}
      </fieldset>
      {values.mode === "standard" ? (
        <>
          {field("clientId", "Client ID")}
          {field("clientSecret", "Client secret", {
            secret: true,
            hint: keepsSecret
              ? "The stored secret is never shown. Leave this empty to keep it, or enter a new one to replace it."
              : "Stored write-only: it is never shown again.",
          })}
          {provider === "microsoft" ? field("microsoftTenantId", "Tenant ID (optional)") : null}
          {provider === "facebook" ? field("facebookConfigId", "Configuration ID (optional)") : null}
        </>
      ) : null}
      <div className="dashboard-field">
        <span>Callback URL</span>
        <Copyable value={callbackUrl(app.baseUrl ?? window.location.origin, configId)} label={`Copy the ${name} callback URL`} testId={`${provider}-callback-url`} />
      </div>
      <button type="submit" disabled={update.isPending}>
        {update.isPending ? "Saving…" : `Save ${name}`}
      </button>
      <SaveStatus saved={update.isSuccess} error={update.isError ? errorMessage(update.error) : null} />
    </form>
  );
}
