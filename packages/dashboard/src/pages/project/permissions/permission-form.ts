import { permissionDefinitionCreateBody } from "@latchkey/protocol/schemas";
import { z } from "zod";

/** The create / edit permission form, checked with the protocol's id rule before anything is sent. */
export const permissionForm = z.object({
  id: z.string().trim().min(1, "Give the permission an id, like read_reports.").pipe(permissionDefinitionCreateBody.shape.id),
  description: z.string().trim(),
  containedPermissionIds: z.array(z.string()),
});
export type PermissionFormInput = z.input<typeof permissionForm>;
export type PermissionFormValues = z.output<typeof permissionForm>;
