import { z } from "zod";
import { defineRoute } from "../http/route.js";

/** `GET /api/v1`: the protocol's greeting, which also says how the request was authenticated. */
export const welcomeRoutes = [
  defineRoute({
    method: "get",
    path: "/",
    summary: "Greeting, with how the request was authenticated",
    tags: ["General"],
    access: "public",
    response: { description: "A text greeting.", schema: z.string(), contentType: "text/plain" },
    handler: (c, { auth }) => {
      const authentication = auth ? `${auth.type[0]!.toUpperCase()}${auth.type.slice(1)}\n  Project: ${auth.project.id}\n  User: None` : "None";
      return c.text(`Welcome to the Stack API endpoint! Please refer to the documentation at https://docs.stack-auth.com.\n\nAuthentication: ${authentication}`);
    },
  }),
];
