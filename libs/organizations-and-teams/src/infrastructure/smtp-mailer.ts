import { Injectable } from '@nestjs/common';
import { createTransport, type Transporter } from 'nodemailer';
import { MailMessage, Mailer } from '../domain/invitation-email';
import { MailSettings } from '../application/mail-settings';

/** Nodemailer over the SMTP server of QUIRE_SMTP_URL (`smtp://user:pass@host:587`, `smtps://…:465`). */
@Injectable()
export class SmtpMailer extends Mailer {
  readonly configured: boolean;
  private readonly transport: Transporter | null;

  constructor(private readonly settings: MailSettings) {
    super();
    this.configured = settings.smtpUrl !== null;
    this.transport = settings.smtpUrl
      ? createTransport(settings.smtpUrl, { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 })
      : null;
  }

  async send(message: MailMessage): Promise<void> {
    if (!this.transport) throw new Error('No SMTP server is configured (QUIRE_SMTP_URL)');
    // The address as one mailbox (an object): never read as a list of addresses, whatever it holds.
    await this.transport.sendMail({
      from: this.settings.from,
      to: { name: '', address: message.to },
      subject: message.subject,
      text: message.text,
    });
  }
}
