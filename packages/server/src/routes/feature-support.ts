import { z } from "zod";
import { KnownErrors } from "@latchkey/protocol/errors";
import { featureSupportBody } from "@latchkey/protocol/schemas";
import { defineRoute } from "../http/route.js";

/**
 * `POST /check-feature-support`: the protocol's SDK calls it when an app uses a feature the SDK does not
 * support yet (and then throws the answer's text at the developer). Any caller, signed in or not, gets the
 * same text, naming `feature_name` (or the SDK's `name`); the report is logged so the gap is visible.
 */
export const featureSupportRoutes = [
  defineRoute({
    method: "post",
    path: "/check-feature-support",
    summary: "Report a feature the SDK does not support yet",
    tags: ["General"],
    access: "public",
    // The SDK always sends a body; the protocol also takes none.
    request: { body: featureSupportBody.optional() },
    response: { description: "A text saying the feature is not supported yet.", schema: z.string(), contentType: "text/plain" },
    errors: [KnownErrors.SchemaError],
    handler: (c, { body }) => {
      const feature = body?.feature_name ?? body?.name ?? "This feature";
      c.get("log").info({ feature, report: body ?? null }, "unsupported feature checked");
      return c.text(`${feature} is not yet supported. Please reach out to Stack support for more information.`, 200);
    },
  }),
];
