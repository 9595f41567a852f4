export interface User {
  id: string;
  displayName: string;
  email: string;
  photoURL: string | null;
  createdAt: Date;
  /**
   * The organization whose identity provider created this user (SSO), or null. Such an email is vouched
   * for by that IdP only: it does not let the user join other organizations by email domain.
   */
  emailAssertedBy: string | null;
}

export abstract class UserRepository {
  abstract findById(id: string): Promise<User | null>;
  abstract findByEmail(email: string): Promise<User | null>;
  abstract findByIds(ids: string[]): Promise<User[]>;
  abstract findByEmails(emails: string[]): Promise<User[]>;
  abstract insert(user: User): Promise<void>;
  abstract count(): Promise<number>;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function isEmail(value: string): boolean {
  return value.length <= 320 && EMAIL.test(value);
}
