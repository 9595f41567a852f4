/** Where invitation emails go out (QUIRE_SMTP_URL, QUIRE_SMTP_FROM) and where their links point (the web app). */
export abstract class MailSettings {
  /** null: no SMTP server, so email invitations answer 400 saying so. */
  abstract readonly smtpUrl: string | null;
  abstract readonly from: string;
  /** The web app's root (APP_URL, else PUBLIC_URL/app). */
  abstract readonly appUrl: string;
}
