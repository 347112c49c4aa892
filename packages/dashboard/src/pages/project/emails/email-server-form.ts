import type { AdminProject, TestEmailServer } from "@latchkey/core";
import { emailAddress } from "@latchkey/protocol/schemas";
import { z } from "zod";
import { fieldErrors } from "../../../form-errors.js";

/** The email server settings as the form holds them (every field a string, as typed). */
export interface EmailServerInput {
  type: "shared" | "standard";
  host: string;
  port: string;
  username: string;
  /** Empty keeps the saved password: it is never shown. */
  password: string;
  senderName: string;
  senderEmail: string;
}

type StoredConfig = AdminProject["config"]["email_config"];

export function emailServerInput(config: StoredConfig): EmailServerInput {
  return {
    type: config.type,
    host: config.host ?? "",
    port: config.port === undefined ? "587" : String(config.port),
    username: config.username ?? "",
    password: "",
    senderName: config.sender_name ?? "",
    senderEmail: config.sender_email ?? "",
  };
}

const isEmail = (value: string) => emailAddress.safeParse(value).success;

/** The project's own SMTP server, checked field by field in words; the saved password fills an empty one. */
export function smtpServerForm(savedPassword: string | undefined) {
  return z.object({
    host: z.string().trim().min(1, "Give the SMTP server's host name, such as smtp.example.com."),
    port: z
      .string()
      .trim()
      .regex(/^\d+$/, "The port is a number, such as 587 or 465.")
      .transform(Number)
      .pipe(z.number().int().min(1, "The port is a number from 1 to 65535.").max(65535, "The port is a number from 1 to 65535.")),
    username: z.string().trim().min(1, "Give the user name the SMTP server signs in with."),
    password: z
      .string()
      .max(70, "A password has at most 70 characters.")
      .transform((typed) => typed || savedPassword || "")
      .pipe(z.string().min(1, "Give the SMTP server's password.")),
    senderName: z.string().trim().min(1, "Give the name emails are sent from, such as your product's."),
    senderEmail: z.string().trim().refine(isEmail, "Give the address emails are sent from, such as hello@example.com."),
  }) satisfies z.ZodType<TestEmailServer, Omit<EmailServerInput, "type">>;
}

/** The form's problems, by field: the first of each. */
export const formErrors = (error: z.ZodError) => fieldErrors<keyof EmailServerInput>(error);

